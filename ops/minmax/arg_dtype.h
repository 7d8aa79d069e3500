/* What the arg kernel templates (arg_along_*.c.in, arg_across_*.c.in) share:
 * the loops' sizes, and for each dtype (by suffix, as the templates name it)
 * its key type, its lane integer, its key and NaN tests and the rules that
 * compare keys. Only the templates include it. */
#ifndef MX_ARG_DTYPE_H
#define MX_ARG_DTYPE_H

#include <math.h>
#include <stdint.h>

#include "mx_op_have.h"
#include "ops/core/kernel.h"
#include "ops/minmax/arg.h"
#include "ops/minmax/extremum.h"

/* The directions a build links (MINNX_OPS): a set's kernels of the other
 * direction are NULL, and their code is not built. */
#ifdef MX_HAVE_ArgMax
#define MX_ARG_MAX_ON 1
#else
#define MX_ARG_MAX_ON 0
#endif
#ifdef MX_HAVE_ArgMin
#define MX_ARG_MIN_ON 1
#else
#define MX_ARG_MIN_ON 0
#endif

/* A loop written once and taking the direction and the tie rule as
 * arguments: each kernel calls it with constants, which must fold (else the
 * loops would test them and not vectorize), so it is inlined always. */
#if defined(__GNUC__) || defined(__clang__)
#define MX_ARG_LOOP static inline __attribute__((always_inline))
#else
#define MX_ARG_LOOP static inline
#endif

/* Along the last axis (inner == 1) a row is cut into blocks (the portable
 * kernels) or stretches (AVX2) of lanes: MX_ARG_LANES independent running
 * extremes, so that it vectorizes. (With fewer than 32 lanes gcc unrolls the
 * lane loops before it vectorizes them, and then does not vectorize them.) A
 * row shorter than the lanes goes one element at a time. */
#define MX_ARG_LANES 32
/* Columns of a strip: 128 bytes of each row, and at least MX_ARG_LANES. */
#define MX_ARG_STRIP(elem_size) \
  (128 / (int)(elem_size) > MX_ARG_LANES ? 128 / (int)(elem_size) : MX_ARG_LANES)
/* The AVX2 kernels count rows (and along a row, elements) within stretches
 * of MX_ARG_PASS_LEN, a multiple of the lanes, so that a lane integer holds
 * them; a stretch's result then merges in at 64-bit. Short enough that tests
 * reach the merge, long enough that it costs nothing. */
#ifndef MX_ARG_PASS_LEN /* the fuzz build's is 64 (CMakeLists.txt): its short rows cross stretches too */
#define MX_ARG_PASS_LEN 8192
#endif

/* Asks for a strip's row at p + ahead (bytes of it from p): every line it
 * touches, the last one too when the data is not aligned to 64 bytes (a
 * caller's malloc'd input is at 16 past a line: without it one line in
 * three of a strip is a miss). */
MX_ARG_LOOP void mx_arg_prefetch_strip(const void *p, int64_t ahead, int bytes) {
  for (int b = 0; b < bytes; b += 64) mx_prefetch(p, ahead + b);
  mx_prefetch(p, ahead + bytes - 1);
}

/* ---- the dtypes ----
 * mx_arg_key_<sfx>: the key an element is compared through: the value itself,
 *   or for float16/bfloat16 a signed integer of the same order (extremum.h:
 *   -0 = +0, NaN beyond every number as one key);
 * mx_arg_lane_<sfx>: a signed integer at least as wide as the key and 32
 *   bits, for masks and indices that vectorize beside the keys;
 * mx_arg_keyof_<sfx>(x, dir): the key of element x;
 * mx_arg_isnan_<sfx>(k), mx_arg_either_nan_<sfx>(k, l): the NaN tests of keys
 *   (constant 0 where keys cannot be NaN: they fold away). */

typedef float mx_arg_key_f32;
typedef int32_t mx_arg_lane_f32;
static inline float mx_arg_keyof_f32(float x, mx_dir dir) { return (void)dir, x; }
static inline int mx_arg_isnan_f32(float k) { return k != k; }
static inline int mx_arg_either_nan_f32(float k, float l) { return isunordered(k, l); }

typedef double mx_arg_key_f64;
typedef int64_t mx_arg_lane_f64;
static inline double mx_arg_keyof_f64(double x, mx_dir dir) { return (void)dir, x; }
static inline int mx_arg_isnan_f64(double k) { return k != k; }
static inline int mx_arg_either_nan_f64(double k, double l) { return isunordered(k, l); }

/* float16 and bfloat16: keys where NaN is a number beyond the others */
typedef int16_t mx_arg_key_f16;
typedef int32_t mx_arg_lane_f16;
static inline int16_t mx_arg_keyof_f16(uint16_t x, mx_dir dir) { return mx_half_key(x, MX_F16_INF, dir); }
static inline int mx_arg_isnan_f16(int16_t k) { return (void)k, 0; }
static inline int mx_arg_either_nan_f16(int16_t k, int16_t l) { return (void)k, (void)l, 0; }

typedef int16_t mx_arg_key_bf16;
typedef int32_t mx_arg_lane_bf16;
static inline int16_t mx_arg_keyof_bf16(uint16_t x, mx_dir dir) { return mx_half_key(x, MX_BF16_INF, dir); }
static inline int mx_arg_isnan_bf16(int16_t k) { return (void)k, 0; }
static inline int mx_arg_either_nan_bf16(int16_t k, int16_t l) { return (void)k, (void)l, 0; }

/* integers: the values are the keys */
#define MX_ARG_INTEGER(sfx, type, lane)                                                 \
  typedef type mx_arg_key_##sfx;                                                        \
  typedef lane mx_arg_lane_##sfx;                                                       \
  static inline type mx_arg_keyof_##sfx(type x, mx_dir dir) { return (void)dir, x; }    \
  static inline int mx_arg_isnan_##sfx(type k) { return (void)k, 0; }                   \
  static inline int mx_arg_either_nan_##sfx(type k, type l) { return (void)k, (void)l, 0; }
MX_ARG_INTEGER(i8, int8_t, int32_t)
MX_ARG_INTEGER(i16, int16_t, int32_t)
MX_ARG_INTEGER(i32, int32_t, int32_t)
MX_ARG_INTEGER(i64, int64_t, int64_t)
MX_ARG_INTEGER(u8, uint8_t, int32_t)
MX_ARG_INTEGER(u16, uint16_t, int32_t)
MX_ARG_INTEGER(u32, uint32_t, int32_t)
MX_ARG_INTEGER(u64, uint64_t, int64_t)
#undef MX_ARG_INTEGER

/* ---- the rules, the same text for every dtype's keys ----
 * mx_arg_better_<sfx>(x, best, dir, last): whether key x replaces the best
 *   so far: strictly beyond keeps the first index, reaching it the last. NaN
 *   lies beyond all numbers, so with the first index x wins unless best
 *   reaches x or best is NaN, and with the last x wins if it reaches best or
 *   is NaN. (Bitwise | and & rather than || and &&: no branch in a loop that
 *   should vectorize.)
 * mx_arg_further_<sfx>(a, b, dir): the further of a and b, a unless b lies
 *   beyond it (a NaN in b is ignored: the kernels flag NaN apart).
 * mx_arg_ahead_<sfx>(u, a, v, b, dir, last): whether the candidate of key v
 *   at index b comes before the one of key u at a, the indices in any order
 *   (merging lanes): NaN beyond all numbers, then the direction, then the
 *   first (last) index. Bitwise: no branch.
 * mx_arg_hit_<sfx>(v, m, nan): what a search for the extreme looks for: a
 *   NaN if nan, else the key m. */
#define MX_ARG_RULES(sfx)                                                                                   \
  static inline int mx_arg_better_##sfx(mx_arg_key_##sfx x, mx_arg_key_##sfx best, mx_dir dir, int last) { \
    return last ? (MX_REACHES(dir, x, best) | mx_arg_isnan_##sfx(x))                                        \
                : (!MX_REACHES(dir, best, x) & !mx_arg_isnan_##sfx(best));                                  \
  }                                                                                                         \
  static inline mx_arg_key_##sfx mx_arg_further_##sfx(mx_arg_key_##sfx a, mx_arg_key_##sfx b, mx_dir dir) { \
    return MX_FURTHER(dir, a, b);                                                                           \
  }                                                                                                         \
  static inline int mx_arg_ahead_##sfx(mx_arg_key_##sfx u, mx_arg_lane_##sfx a, mx_arg_key_##sfx v,         \
                                       mx_arg_lane_##sfx b, mx_dir dir, int last) {                         \
    int first = last ? b > a : b < a, u_nan = mx_arg_isnan_##sfx(u), v_nan = mx_arg_isnan_##sfx(v);         \
    return (u_nan & v_nan & first) | ((!u_nan) & (v_nan | MX_BEYOND(dir, v, u) | ((v == u) & first)));     \
  }                                                                                                         \
  static inline int mx_arg_hit_##sfx(mx_arg_key_##sfx v, mx_arg_key_##sfx m, int nan) {                     \
    return nan ? mx_arg_isnan_##sfx(v) : v == m;                                                            \
  }
MX_ARG_RULES(f32)
MX_ARG_RULES(f64)
MX_ARG_RULES(f16)
MX_ARG_RULES(bf16)
MX_ARG_RULES(i8)
MX_ARG_RULES(i16)
MX_ARG_RULES(i32)
MX_ARG_RULES(i64)
MX_ARG_RULES(u8)
MX_ARG_RULES(u16)
MX_ARG_RULES(u32)
MX_ARG_RULES(u64)
#undef MX_ARG_RULES

#endif
