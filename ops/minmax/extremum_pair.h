/* The min/max family's elementwise and reduction kernels (Max, Min, Maximum,
 * Minimum, Clip's two passes; ReduceMax, ReduceMin): their shapes, their sets
 * (one per dtype and ISA level, instantiated from the templates pair.c.in and
 * reduce_rows.c.in by extremum_pair.kernels.cmake), the choosers, and each
 * dtype's pick, which the templates call as mx_pick_<suffix>. */
#ifndef MX_EXTREMUM_PAIR_H
#define MX_EXTREMUM_PAIR_H

#include <stdint.h>
#include <string.h>

#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/minmax/extremum.h"

/* How an operand steps through a row: not at all (one value for the row),
 * or one element at a time through data read once (read it ahead) or through
 * data in cache (a row that the tile reads again, the block being folded:
 * reading ahead of it would fetch bytes past its end for nothing). */
enum { MX_SCALAR = 0, MX_STREAM = 1, MX_CACHED = 2 };

/* ---- elementwise (pair.c.in) ---- */

/* For each of `rows` rows of n elements: out[i] = pick(a[i or 0], b[i or 0])
 * as sa, sb say, then out steps by n, a by da and b by db elements. out may
 * be a. Looping over rows in here keeps a short row's cost to its loop. */
typedef void (*mx_pair_fn)(void *out, const void *a, int sa, const void *b, int sb, int64_t n, int64_t rows,
                           int64_t da, int64_t db);
/* Three or four operands in one pass (every one steps, MX_STREAM or MX_CACHED):
 *   triple: out[i] = pick(out[i], b[i], c[i]);
 *   quad:   out[i] = pick(a[i], b[i], c[i], d[i]), a being out or another input. */
typedef void (*mx_triple_fn)(void *out, const void *b, int sb, const void *c, int sc, int64_t n);
typedef void (*mx_quad_fn)(void *out, const void *a, int sa, const void *b, int sb, const void *c, int sc,
                           const void *d, int sd, int64_t n);

typedef struct mx_pair_kernels {
  mx_pair_fn pair;
  mx_triple_fn triple;
  mx_quad_fn quad;
} mx_pair_kernels;

/* An instance of pair.c.in: both directions' kernels (NULL for a direction
 * no linked op needs). */
struct mx_pair_set {
  mx_pair_kernels max, min;
};

/* The kernels of dtype t (bool is uint8's: false < true) in direction dir at
 * the highest ISA level <= isa that this build has (tests pass each level;
 * prepare passes its context's isa), or NULL for a dtype this build leaves out.
 * extremum_pair.c. */
const mx_pair_kernels *mx_pair_kernels_isa(mx_dtype t, mx_dir dir, mx_isa isa);

/* ---- reductions (reduce_rows.c.in) ---- */

/* out[r] = pick(out[r], the extreme of row r), for `rows` rows of n elements
 * of x one after the other. */
typedef void (*mx_rows_fn)(void *out, const void *x, int64_t n, int64_t rows);
/* out[j] = pick(out[j], x[r * stride + j]) for j < n, r = 0, 1, ... rows - 1
 * in turn: rows of x folded into a row of results that stays in cache. */
typedef void (*mx_fold_fn)(void *out, const void *x, int64_t n, int64_t rows, int64_t stride);

typedef struct mx_reduce_kernels {
  mx_rows_fn rows;
  mx_fold_fn fold;
} mx_reduce_kernels;

/* An instance of reduce_rows.c.in (NULL for a direction no linked op needs). */
struct mx_reduce_rows_set {
  mx_reduce_kernels max, min;
};

/* As mx_pair_kernels_isa, for the reductions (extremum_reduce.c). */
const mx_reduce_kernels *mx_reduce_kernels_isa(mx_dtype t, mx_dir dir, mx_isa isa);

/* ---- each dtype's pick: the extreme of a and b in direction dir under the
 * NaN rule (extremum.h). The integers' are inlined always (they were
 * macros: a debug build's loops then make no call per element, and the
 * optimized code is the same); the floats' not (at -Os, forced, they cost a
 * Cortex-M4 a quarter more code in each pair kernel) ---- */

/* Floats: BEYOND(a, b) ? a : b and BEYOND(b, a) ? b : a are both the extreme
 * without NaN (or the two zeros, whose OR is -0, equal to both), and hold
 * the NaN when b or a is one; OR-ing their bits gives the extreme, or a NaN
 * if either is NaN. Two compare-selects that vectorize to one instruction
 * each, and an OR. */
static inline float mx_pick_f32(float a, float b, mx_dir dir) {
  float hi = MX_BEYOND(dir, a, b) ? a : b, lo = MX_BEYOND(dir, b, a) ? b : a;
  uint32_t x, y;
  memcpy(&x, &hi, sizeof x);
  memcpy(&y, &lo, sizeof y);
  x |= y;
  memcpy(&hi, &x, sizeof x);
  return hi;
}
static inline double mx_pick_f64(double a, double b, mx_dir dir) {
  double hi = MX_BEYOND(dir, a, b) ? a : b, lo = MX_BEYOND(dir, b, a) ? b : a;
  uint64_t x, y;
  memcpy(&x, &hi, sizeof x);
  memcpy(&y, &lo, sizeof y);
  x |= y;
  memcpy(&hi, &x, sizeof x);
  return hi;
}

/* float16 and bfloat16 (bit patterns), through the order of their keys
 * (extremum.h's mx_half_order) in registers: no per-element calls, and loops
 * over keys vectorize. The key lying beyond is the result, or a NaN on its
 * side of the order; the other key tells of a NaN on the far side (beyond
 * the infinity opposite the direction), and the result is then all ones, a
 * NaN. */
static inline uint16_t mx_pick_f16(uint16_t a, uint16_t b, mx_dir dir) {
  int16_t ka = (int16_t)mx_half_order(a), kb = (int16_t)mx_half_order(b);
  int16_t win = MX_BEYOND(dir, kb, ka) ? kb : ka, other = MX_BEYOND(dir, kb, ka) ? ka : kb;
  int16_t far = (int16_t)mx_half_order((uint16_t)(dir == MX_MIN ? MX_F16_INF : 0x8000 | MX_F16_INF));
  return (uint16_t)(mx_half_order((uint16_t)win) | (uint16_t)-MX_BEYOND(dir, far, other));
}
/* (The same with bfloat16's infinity: written out, as a shared function of
 * the infinity, one inline call deeper, costs gcc its cmov selects in the
 * scalar loops.) */
static inline uint16_t mx_pick_bf16(uint16_t a, uint16_t b, mx_dir dir) {
  int16_t ka = (int16_t)mx_half_order(a), kb = (int16_t)mx_half_order(b);
  int16_t win = MX_BEYOND(dir, kb, ka) ? kb : ka, other = MX_BEYOND(dir, kb, ka) ? ka : kb;
  int16_t far = (int16_t)mx_half_order((uint16_t)(dir == MX_MIN ? MX_BF16_INF : 0x8000 | MX_BF16_INF));
  return (uint16_t)(mx_half_order((uint16_t)win) | (uint16_t)-MX_BEYOND(dir, far, other));
}

/* Integers: no NaN. */
static MX_ALWAYS_INLINE int8_t mx_pick_i8(int8_t a, int8_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE int16_t mx_pick_i16(int16_t a, int16_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE int32_t mx_pick_i32(int32_t a, int32_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE int64_t mx_pick_i64(int64_t a, int64_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE uint8_t mx_pick_u8(uint8_t a, uint8_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE uint16_t mx_pick_u16(uint16_t a, uint16_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE uint32_t mx_pick_u32(uint32_t a, uint32_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }
static MX_ALWAYS_INLINE uint64_t mx_pick_u64(uint64_t a, uint64_t b, mx_dir dir) { return MX_FURTHER(dir, a, b); }

#endif
