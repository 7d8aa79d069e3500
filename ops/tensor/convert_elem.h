/* Cast's element conversions (convert.h states the rules), and the traits
 * its templates call by dtype suffix (convert_wide_float.c.in,
 * convert_wide_int.c.in, convert_to_float.c.in, convert_from_float.c.in). The conversions are branch-free selects over plain
 * arithmetic, so loops of them vectorize; rounding to odd branches, per
 * element (the two-stage path only). No conversion takes a float to an integer
 * outside that integer's range (C leaves it undefined): the value is clamped
 * first. */
#ifndef MX_CONVERT_ELEM_H
#define MX_CONVERT_ELEM_H

#include <stdint.h>
#include <string.h>

#include "ops/core/half.h"
#include "ops/tensor/convert_kernels.h"

/* ---- bits (ops/core/bits.h for floats') ---- */

/* The int64 whose two's complement bits w is (the inverse of the modulo
 * conversion to uint64; a cast would be implementation-defined above
 * INT64_MAX). */
static inline int64_t mx_as_signed(uint64_t w) {
  int64_t i;
  memcpy(&i, &w, sizeof i);
  return i;
}

/* ---- to floats, rounded once ---- */

/* Rounding twice (double to float to float16) can go wrong at a tie the first
 * rounding made. Rounding to odd first cannot: truncate, then set the last
 * bit if anything was cut. With at least two more bits than the final target
 * it leaves the final rounding to nearest even the same answer as from the
 * exact value (float's 24 bits against float16's 11 and bfloat16's 8;
 * double's 53 against float's 24). */
static inline float mx_f64_to_f32_odd(double d) {
  float f = (float)d;
  if (d != d || (double)f == d) return f;
  uint32_t b = mx_f32_bits(f);
  if ((double)mx_f32_of_bits(b & 0x7fffffffu) > (d < 0 ? -d : d)) b -= 1; /* rounded away from zero: step back */
  return mx_f32_of_bits(b | 1u);
}

static inline double mx_u64_to_f64_odd(uint64_t u) {
  double d = (double)u;
  if (d >= 0x1p64) return 0x1.fffffffffffffp63; /* truncated, and odd already */
  uint64_t back = (uint64_t)d;
  if (back == u) return d;
  uint64_t b = mx_f64_bits(d);
  if (back > u) b -= 1;
  return mx_f64_of_bits(b | 1u);
}

static inline double mx_i64_to_f64_odd(int64_t i) {
  double m = mx_u64_to_f64_odd(i < 0 ? 0u - (uint64_t)i : (uint64_t)i);
  return i < 0 ? -m : m;
}

/* 64-bit integer to float, rounded once. The CPU's instruction does that,
 * but a tool that emulates it through double (valgrind) rounds twice. So a
 * value of 2^53 or more in magnitude has its low 12 bits replaced by one
 * sticky bit, bit 11 (the value moves within its 4096-wide step, which no
 * float rounding boundary crosses there, and stays as cut or uncut as it
 * was): it is then exact in double, and any route rounds it once. */
static inline uint64_t mx_fold_low_bits(uint64_t w, uint64_t big) {
  uint64_t folded = (w & ~(uint64_t)0xfff) | ((uint64_t)((w & 0xfff) != 0) << 11);
  return big ? folded : w;
}
/* nonzero from 2^53 in magnitude */
static inline uint64_t mx_i64_big(int64_t i) { return ((uint64_t)i + ((uint64_t)1 << 53)) >> 54; }
static inline float mx_i64_to_f32(int64_t i) {
  return (float)mx_as_signed(mx_fold_low_bits((uint64_t)i, mx_i64_big(i)));
}
static inline float mx_u64_to_f32(uint64_t u) { return (float)mx_fold_low_bits(u, u >> 53); }

static inline uint16_t mx_f64_to_f16(double d) { return mx_f32_to_f16(mx_f64_to_f32_odd(d)); }
static inline uint16_t mx_f64_to_bf16(double d) { return mx_f32_to_bf16(mx_f64_to_f32_odd(d)); }

/* ---- float to integer ---- */

/* Each is clamped to [lo, hi] first (hi: the largest value of the float type
 * not above the target's maximum; NaN fails the first compare and becomes
 * lo), so the conversion is always defined; then NaN gives 0, and a value at
 * or above the maximum + 1 (a power of two) the maximum. The clamps are a max
 * and a min instruction each, the fixes selects. */
static inline double mx_clamp_f64(double x, double lo, double hi) {
  double c = x > lo ? x : lo;
  return c < hi ? c : hi;
}
static inline int8_t mx_f64_to_i8(double x) {
  int8_t r = (int8_t)mx_clamp_f64(x, -128.0, 127.0);
  r = x == x ? r : 0;
  return x >= 128.0 ? INT8_MAX : r;
}
static inline int16_t mx_f64_to_i16(double x) {
  int16_t r = (int16_t)mx_clamp_f64(x, -32768.0, 32767.0);
  r = x == x ? r : 0;
  return x >= 32768.0 ? INT16_MAX : r;
}
static inline int32_t mx_f64_to_i32(double x) {
  int32_t r = (int32_t)mx_clamp_f64(x, -0x1p31, 2147483647.0);
  r = x == x ? r : 0;
  return x >= 0x1p31 ? INT32_MAX : r;
}
static inline int64_t mx_f64_to_i64(double x) {
  int64_t r = (int64_t)mx_clamp_f64(x, -0x1p63, 0x1.fffffffffffffp62);
  r = x == x ? r : 0;
  return x >= 0x1p63 ? INT64_MAX : r;
}
static inline uint8_t mx_f64_to_u8(double x) {
  uint8_t r = (uint8_t)mx_clamp_f64(x, 0.0, 255.0);
  r = x == x ? r : 0;
  return x >= 256.0 ? UINT8_MAX : r;
}
static inline uint16_t mx_f64_to_u16(double x) {
  uint16_t r = (uint16_t)mx_clamp_f64(x, 0.0, 65535.0);
  r = x == x ? r : 0;
  return x >= 65536.0 ? UINT16_MAX : r;
}
static inline uint32_t mx_f64_to_u32(double x) {
  uint32_t r = (uint32_t)mx_clamp_f64(x, 0.0, 4294967295.0);
  r = x == x ? r : 0;
  return x >= 0x1p32 ? UINT32_MAX : r;
}
static inline uint64_t mx_f64_to_u64(double x) {
  uint64_t r = (uint64_t)mx_clamp_f64(x, 0.0, 0x1.fffffffffffffp63);
  r = x == x ? r : 0;
  return x >= 0x1p64 ? UINT64_MAX : r;
}
static inline int32_t mx_f32_to_i32(float x) {
  float c = x > -0x1p31f ? x : -0x1p31f;
  c = c < 0x1.fffffep30f ? c : 0x1.fffffep30f;
  int32_t r = (int32_t)c;
  r = x == x ? r : 0;
  return x >= 0x1p31f ? INT32_MAX : r;
}

/* float to int64 from the bits alone: the 24-bit significand, placed at
 * the top of 63 bits, shifted right into place (62 - e places for |f| in
 * [2^e, 2^(e+1)); clamped to [0, 63], and at 63 nothing is left of |f| < 1).
 * x86 has no vector conversion to int64 below AVX-512, but AVX2 has per-lane
 * 64-bit shifts, so this vectorizes where the FPU's conversion would not.
 * From 2^63 up (and inf) the result saturates; NaN gives 0. Comparisons are
 * of signed 32-bit lanes, which x86 vectors have. */
static inline int64_t mx_f32_to_i64(float f) {
  uint32_t x = mx_f32_bits(f), a = x & 0x7fffffffu;
  int32_t shift = 189 - (int32_t)(a >> 23); /* 62 - e, with e = exponent bits - 127 */
  shift = shift < 63 ? shift : 63;
  shift = shift > 0 ? shift : 0;
  uint64_t m = (a & 0x007fffffu) | 0x00800000u;
  uint64_t neg = (uint64_t)(int64_t)-(int32_t)(x >> 31); /* all ones when negative */
  uint64_t r = (((m << 39) >> shift) ^ neg) - neg; /* two's complement of the magnitude, below 2^63 */
  r = (int32_t)a >= 0x5f000000 ? (uint64_t)INT64_MAX + (neg & 1u) : r; /* the maximum, or INT64_MIN */
  return mx_as_signed((int32_t)a > 0x7f800000 ? 0u : r);
}
/* Nonzero from 2^31 in magnitude: an add and a shift, which OR together in
 * vectors (a chunk of float without it goes to int64 through int32). */
static inline uint32_t mx_f32_big(float f) { return ((mx_f32_bits(f) & 0x7fffffffu) + 0x31000000u) >> 31; }

/* ---- the traits, by suffix ---- */

/* The two-stage path (convert_wide_float.c.in, convert_wide_int.c.in): a
 * dtype's wide value (convert_kernels.h: the double of a float, the integer
 * modulo 2^64 otherwise), and its stores from each kind of wide value. To an
 * integer a store keeps the low bits, of either kind of integer (a conversion
 * to a narrower signed type keeps them in GCC and Clang, which define it so);
 * to a float it rounds once from the signed or unsigned value, through
 * rounding to odd where double cannot hold it exactly. */
static inline double mx_widen_f16(uint16_t x) { return (double)mx_f16_to_f32(x); }
static inline double mx_widen_bf16(uint16_t x) { return (double)mx_bf16_to_f32(x); }
static inline double mx_widen_f32(float x) { return (double)x; }
static inline double mx_widen_f64(double x) { return x; }
static inline uint64_t mx_widen_i8(int8_t x) { return (uint64_t)x; } /* modulo 2^64 */
static inline uint64_t mx_widen_i16(int16_t x) { return (uint64_t)x; }
static inline uint64_t mx_widen_i32(int32_t x) { return (uint64_t)x; }
static inline uint64_t mx_widen_i64(int64_t x) { return (uint64_t)x; }
static inline uint64_t mx_widen_u8(uint8_t x) { return x; }
static inline uint64_t mx_widen_u16(uint16_t x) { return x; }
static inline uint64_t mx_widen_u32(uint32_t x) { return x; }
static inline uint64_t mx_widen_u64(uint64_t x) { return x; }
static inline uint64_t mx_widen_bool(uint8_t x) { return x != 0; }

static inline uint16_t mx_from_double_f16(double d) { return mx_f64_to_f16(d); }
static inline uint16_t mx_from_int_f16(uint64_t w) { return mx_f64_to_f16(mx_i64_to_f64_odd(mx_as_signed(w))); }
static inline uint16_t mx_from_uint_f16(uint64_t w) { return mx_f64_to_f16(mx_u64_to_f64_odd(w)); }
static inline uint16_t mx_from_double_bf16(double d) { return mx_f64_to_bf16(d); }
static inline uint16_t mx_from_int_bf16(uint64_t w) { return mx_f64_to_bf16(mx_i64_to_f64_odd(mx_as_signed(w))); }
static inline uint16_t mx_from_uint_bf16(uint64_t w) { return mx_f64_to_bf16(mx_u64_to_f64_odd(w)); }
static inline float mx_from_double_f32(double d) { return (float)d; }
static inline float mx_from_int_f32(uint64_t w) { return mx_i64_to_f32(mx_as_signed(w)); }
static inline float mx_from_uint_f32(uint64_t w) { return mx_u64_to_f32(w); }
static inline double mx_from_double_f64(double d) { return d; }
static inline double mx_from_int_f64(uint64_t w) { return (double)mx_as_signed(w); }
static inline double mx_from_uint_f64(uint64_t w) { return (double)w; }

static inline int8_t mx_from_double_i8(double d) { return mx_f64_to_i8(d); }
static inline int8_t mx_from_int_i8(uint64_t w) { return (int8_t)w; }
static inline int16_t mx_from_double_i16(double d) { return mx_f64_to_i16(d); }
static inline int16_t mx_from_int_i16(uint64_t w) { return (int16_t)w; }
static inline int32_t mx_from_double_i32(double d) { return mx_f64_to_i32(d); }
static inline int32_t mx_from_int_i32(uint64_t w) { return (int32_t)w; }
static inline int64_t mx_from_double_i64(double d) { return mx_f64_to_i64(d); }
static inline int64_t mx_from_int_i64(uint64_t w) { return mx_as_signed(w); }
static inline uint8_t mx_from_double_u8(double d) { return mx_f64_to_u8(d); }
static inline uint8_t mx_from_int_u8(uint64_t w) { return (uint8_t)w; }
static inline uint16_t mx_from_double_u16(double d) { return mx_f64_to_u16(d); }
static inline uint16_t mx_from_int_u16(uint64_t w) { return (uint16_t)w; }
static inline uint32_t mx_from_double_u32(double d) { return mx_f64_to_u32(d); }
static inline uint32_t mx_from_int_u32(uint64_t w) { return (uint32_t)w; }
static inline uint64_t mx_from_double_u64(double d) { return mx_f64_to_u64(d); }
static inline uint64_t mx_from_int_u64(uint64_t w) { return w; }
static inline uint8_t mx_from_double_bool(double d) { return d != 0; } /* NaN is true */
static inline uint8_t mx_from_int_bool(uint64_t w) { return w != 0; }

/* The direct loops' element conversions (their remainders; the portable
 * chunks, convert_chunk.h): the pairs with float. */
static inline float mx_to_float_f16(uint16_t x) { return mx_f16_to_f32(x); }
static inline uint16_t mx_from_float_f16(float f) { return mx_f32_to_f16(f); }
static inline float mx_to_float_bf16(uint16_t x) { return mx_bf16_to_f32(x); }
static inline uint16_t mx_from_float_bf16(float f) { return mx_f32_to_bf16(f); }
static inline float mx_to_float_i32(int32_t x) { return (float)x; }
static inline int32_t mx_from_float_i32(float f) { return mx_f32_to_i32(f); }
static inline float mx_to_float_i64(int64_t x) { return mx_i64_to_f32(x); }
static inline int64_t mx_from_float_i64(float f) { return mx_f32_to_i64(f); }

#endif
