/* The elementwise and reduction kernels (Max, Min, Maximum, Minimum,
 * ReduceMax, ReduceMin): extremum_pair.h instantiated for every dtype and
 * direction, and the table that picks them. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ops/extremum_kernels.h"
#include "ops/kernel.h"

/* Streams are walked a chunk of 256 bytes at a time, each chunk asking for
 * the data MX_AHEAD bytes ahead (kernel.h). A full chunk's loop has a
 * constant trip count, so it vectorizes without a remainder. */
#define CHUNK(T) (256 / (int64_t)sizeof(T))
#define CHUNKED(n, T, PREFETCH, STMT)                      \
  do {                                                     \
    int64_t i0 = 0;                                        \
    for (; i0 + CHUNK(T) <= (n); i0 += CHUNK(T)) {         \
      for (int line = 0; line < 256; line += 64) PREFETCH; \
      for (int64_t i = i0; i < i0 + CHUNK(T); i++) STMT;   \
    }                                                      \
    for (int64_t i = i0; i < (n); i++) STMT;               \
  } while (0)
/* Operands in cache "prefetch" the line they read now: no branch in the loop. */
#define AHEAD(p, s) mx_prefetch((p) + i0, ((s) == MX_STREAM ? MX_AHEAD : 0) + line)
/* Independent running extremes of a row reduction: enough vectors in flight
 * to hide the compare's latency. */
#define RED_LANES 32

#define MX_PAIR_NAME_(s, d, f) f##_##s##_##d
#define MX_PAIR_NAME(s, d, f) MX_PAIR_NAME_(s, d, f)

/* The instances, a dtype at a time (extremum_pair.h). */
#define PICK_DIR(a, b, dir) mx_fpick32(a, b, dir)
#define T float
#define SUFFIX f32
#include "ops/extremum_pair_set.h"
#undef PICK_DIR
#undef T
#undef SUFFIX
#define PICK_DIR(a, b, dir) mx_fpick64(a, b, dir)
#define T double
#define SUFFIX f64
#include "ops/extremum_pair_set.h"
#undef PICK_DIR
#undef T
#undef SUFFIX

#define T uint16_t
#define PICK_DIR(a, b, dir) mx_half_pick(a, b, MX_F16_INF, dir)
#define SUFFIX f16
#include "ops/extremum_pair_set.h"
#undef PICK_DIR
#undef SUFFIX
#define PICK_DIR(a, b, dir) mx_half_pick(a, b, MX_BF16_INF, dir)
#define SUFFIX bf16
#include "ops/extremum_pair_set.h"
#undef PICK_DIR
#undef SUFFIX
#undef T

/* integers: no NaN */
#define PICK_DIR(a, b, dir) MX_FURTHER(dir, a, b)
#define T int8_t
#define SUFFIX i8
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int16_t
#define SUFFIX i16
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int32_t
#define SUFFIX i32
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int64_t
#define SUFFIX i64
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint8_t
#define SUFFIX u8
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint16_t
#define SUFFIX u16
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint32_t
#define SUFFIX u32
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint64_t
#define SUFFIX u64
#include "ops/extremum_pair_set.h"
#undef T
#undef SUFFIX

#define KERNELS(t, s, d)                                                                          \
  {MX_IF_DTYPE(t, MX_PAIR_NAME(s, d, pair)), MX_IF_DTYPE(t, MX_PAIR_NAME(s, d, triple)),          \
   MX_IF_DTYPE(t, MX_PAIR_NAME(s, d, quad)), MX_IF_DTYPE(t, MX_PAIR_NAME(s, d, rows))}
#define ROW(t, s) {t, {KERNELS(t, s, max), KERNELS(t, s, min)}}

const mx_pair_kernels *mx_pair_kernels_for(mx_dtype t, mx_dir dir) {
  static const struct {
    mx_dtype t;
    mx_pair_kernels k[2]; /* [dir] */
  } table[] = {
      ROW(MINNX_FLOAT, f32), ROW(MINNX_DOUBLE, f64), ROW(MINNX_FLOAT16, f16), ROW(MINNX_BFLOAT16, bf16),
      ROW(MINNX_INT8, i8),   ROW(MINNX_INT16, i16),  ROW(MINNX_INT32, i32),   ROW(MINNX_INT64, i64),
      ROW(MINNX_UINT8, u8),  ROW(MINNX_UINT16, u16), ROW(MINNX_UINT32, u32),  ROW(MINNX_UINT64, u64),
      ROW(MINNX_BOOL, u8), /* false < true, stored as 0 and 1 */
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].t == t) return table[i].k[0].pair ? &table[i].k[dir == MX_MIN] : NULL;
  return NULL;
}

void mx_extremum_identity(mx_dtype t, mx_dir dir, void *out) {
  int lo = dir == MX_MAX; /* a maximum starts from the lowest value */
  switch (t) {
    case MINNX_FLOAT: {
      float v = lo ? -INFINITY : INFINITY;
      memcpy(out, &v, sizeof v);
      return;
    }
    case MINNX_DOUBLE: {
      double v = lo ? -INFINITY : INFINITY;
      memcpy(out, &v, sizeof v);
      return;
    }
    case MINNX_FLOAT16:
    case MINNX_BFLOAT16: {
      uint16_t v = (uint16_t)((t == MINNX_FLOAT16 ? MX_F16_INF : MX_BF16_INF) | (lo ? 0x8000 : 0));
      memcpy(out, &v, sizeof v);
      return;
    }
    default: break;
  }
  /* integers, little- or big-endian alike: the lowest signed value is the
   * sign bit alone, the highest all bits but it; unsigned 0 and all ones */
  size_t size = mx_dtype_size(t);
  int is_signed = t == MINNX_INT8 || t == MINNX_INT16 || t == MINNX_INT32 || t == MINNX_INT64;
  uint64_t v = lo ? (is_signed ? (uint64_t)1 << (size * 8 - 1) : 0)
                  : (is_signed ? ((uint64_t)1 << (size * 8 - 1)) - 1 : UINT64_MAX);
  if (t == MINNX_BOOL) v = lo ? 0 : 1;
  if (size == 1) memcpy(out, &(uint8_t){(uint8_t)v}, 1);
  else if (size == 2) memcpy(out, &(uint16_t){(uint16_t)v}, 2);
  else if (size == 4) memcpy(out, &(uint32_t){(uint32_t)v}, 4);
  else memcpy(out, &v, 8);
}
