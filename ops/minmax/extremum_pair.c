/* The elementwise and reduction kernels (Max, Min, Maximum, Minimum,
 * ReduceMax, ReduceMin): extremum_pair.h instantiated for every dtype and
 * direction, and the table that picks them. */
#include <stddef.h>
#include <string.h>

#include "mx_op_have.h"
#include "ops/core/cpu.h"
#include "ops/minmax/extremum_kernels.h"
#include "ops/core/kernel.h"

/* A build links the directions its ops use (MINNX_OPS); Clip uses both. */
#if defined(MX_HAVE_Max) || defined(MX_HAVE_Maximum) || defined(MX_HAVE_ReduceMax) || defined(MX_HAVE_Clip)
#define MAX_ON 1
#else
#define MAX_ON 0
#endif
#if defined(MX_HAVE_Min) || defined(MX_HAVE_Minimum) || defined(MX_HAVE_ReduceMin) || defined(MX_HAVE_Clip)
#define MIN_ON 1
#else
#define MIN_ON 0
#endif
/* and the row reductions only for the reductions */
#ifdef MX_HAVE_ReduceMax
#define REDUCE_MAX_ON 1
#else
#define REDUCE_MAX_ON 0
#endif
#ifdef MX_HAVE_ReduceMin
#define REDUCE_MIN_ON 1
#else
#define REDUCE_MIN_ON 0
#endif

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
/* Rows a fold reads at once (the kernel's loop names four). */
#define FOLD_ROWS 4

#define MX_PAIR_NAME_(s, v, d, f) f##_##s##_##v##_##d
#define MX_PAIR_NAME(s, v, d, f) MX_PAIR_NAME_(s, v, d, f)

/* On x86-64 the dtypes SSE2 serves poorly are built a second time, from the
 * same text, for AVX2 (ops/core/cpu.h), and a node takes those when the CPU has
 * AVX2 (as the arg kernels do): 64-bit integers (SSE2 has no 64-bit compare:
 * its loops are scalar cmov ones) and float16/bfloat16 (their keys'
 * shuffles). -DMINNX_X86_AVX2=OFF (MX_NO_AVX2) leaves them out. */
#define ATTR
#define VARIANT port
/* The AVX2 instances of the dtype being defined (T, PICK_DIR, SUFFIX). */
#define AVX2_SET "ops/minmax/extremum_pair_avx2.h"

/* The instances, a dtype at a time (extremum_pair.h). */
#define PICK_DIR(a, b, dir) mx_fpick32(a, b, dir)
#define T float
#define SUFFIX f32
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef PICK_DIR
#undef T
#undef SUFFIX
#define PICK_DIR(a, b, dir) mx_fpick64(a, b, dir)
#define T double
#define SUFFIX f64
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef PICK_DIR
#undef T
#undef SUFFIX

#define T uint16_t
#define PICK_DIR(a, b, dir) mx_half_pick(a, b, MX_F16_INF, dir)
#define SUFFIX f16
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef PICK_DIR
#undef SUFFIX
#define PICK_DIR(a, b, dir) mx_half_pick(a, b, MX_BF16_INF, dir)
#define SUFFIX bf16
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef PICK_DIR
#undef SUFFIX
#undef T

/* integers: no NaN */
#define PICK_DIR(a, b, dir) MX_FURTHER(dir, a, b)
#define T int8_t
#define SUFFIX i8
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int16_t
#define SUFFIX i16
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int32_t
#define SUFFIX i32
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T int64_t
#define SUFFIX i64
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef T
#undef SUFFIX
#define T uint8_t
#define SUFFIX u8
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint16_t
#define SUFFIX u16
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint32_t
#define SUFFIX u32
#include "ops/minmax/extremum_pair_set.h"
#undef T
#undef SUFFIX
#define T uint64_t
#define SUFFIX u64
#include "ops/minmax/extremum_pair_set.h"
#include AVX2_SET
#undef T
#undef SUFFIX

/* A case per dtype, a row per direction. A dtype a build leaves out
 * (MX_DTYPE_ON is a constant) or a direction no linked op needs is dead code,
 * so neither its row nor its kernels are linked. */
#define KERNELS(s, v, d, red)                                                                        \
  {MX_PAIR_NAME(s, v, d, pair), MX_PAIR_NAME(s, v, d, triple), MX_PAIR_NAME(s, v, d, quad),          \
   (red) ? MX_PAIR_NAME(s, v, d, rows) : NULL, (red) ? MX_PAIR_NAME(s, v, d, fold) : NULL}
#define CASE(t, s, v)                                                                                \
  case t: {                                                                                          \
    static const mx_pair_kernels max = KERNELS(s, v, max, REDUCE_MAX_ON);                            \
    static const mx_pair_kernels min = KERNELS(s, v, min, REDUCE_MIN_ON);                            \
    return !MX_DTYPE_ON(t) ? NULL : dir == MX_MIN ? (MIN_ON ? &min : NULL) : (MAX_ON ? &max : NULL); \
  }

const mx_pair_kernels *mx_pair_kernels_port(mx_dtype t, mx_dir dir) {
  switch (t) {
    CASE(MINNX_FLOAT, f32, port) CASE(MINNX_DOUBLE, f64, port) CASE(MINNX_FLOAT16, f16, port)
    CASE(MINNX_BFLOAT16, bf16, port) CASE(MINNX_INT8, i8, port) CASE(MINNX_INT16, i16, port)
    CASE(MINNX_INT32, i32, port) CASE(MINNX_INT64, i64, port) CASE(MINNX_UINT8, u8, port)
    CASE(MINNX_UINT16, u16, port) CASE(MINNX_UINT32, u32, port) CASE(MINNX_UINT64, u64, port)
    CASE(MINNX_BOOL, u8, port) /* false < true, stored as 0 and 1 */
    default: return NULL;
  }
}

#if MX_X86_AVX2
static const mx_pair_kernels *avx2_kernels(mx_dtype t, mx_dir dir) {
  switch (t) {
    CASE(MINNX_FLOAT, f32, avx2) CASE(MINNX_DOUBLE, f64, avx2)
    CASE(MINNX_FLOAT16, f16, avx2) CASE(MINNX_BFLOAT16, bf16, avx2)
    CASE(MINNX_INT64, i64, avx2) CASE(MINNX_UINT64, u64, avx2)
    default: return NULL;
  }
}
#endif

const mx_pair_kernels *mx_pair_kernels_isa(mx_dtype t, mx_dir dir, int avx2) {
#if MX_X86_AVX2
  const mx_pair_kernels *k = avx2 ? avx2_kernels(t, dir) : NULL;
  if (k) return k;
#else
  (void)avx2;
#endif
  return mx_pair_kernels_port(t, dir);
}

const mx_pair_kernels *mx_pair_kernels_for(mx_dtype t, mx_dir dir) {
  return mx_pair_kernels_isa(t, dir, mx_cpu_avx2());
}
