/* Pow of one element, per (base dtype, exponent dtype): what the template
 * ops/math/pow.c.in calls as mx_pow_@SFX@_<exponent suffix>(x, y). The
 * result has the base's dtype (ONNX: Z is of X's type T).
 *
 * - Float base, float exponent: in double (ops/core/mathd.h's mx_pow64)
 *   when either is double, else in float32 (ops/core/mathf.h's mx_powf);
 *   rounded once to the base's dtype (float16 and bfloat16 from float32;
 *   from double through rounding to odd, so once).
 * - Float base, integer exponent n: the same with n converted to the
 *   computing type (rounded to nearest beyond 2^24 or 2^53), and the sign
 *   taken from n's parity for a negative base (or -0), so that (-x)^n is
 *   right even where the conversion made n even.
 * - Integer base, integer exponent: exact, by repeated squaring over every
 *   bit of n, wrapping in two's complement (modulo 2^64, then the base's
 *   width); x^0 = 1 (0^0 too); for n < 0 the integer part of 1 / x^|n|: 1
 *   for x = 1, +-1 (by n's parity) for x = -1, 0 otherwise (0^-n too).
 * - Integer base, float exponent: in double (mx_pow64 of the base
 *   converted to double, rounded beyond 2^53), truncated toward zero as
 *   Cast does (ops/tensor/convert_elem.h): beyond the type's range it
 *   saturates, NaN gives 0.
 * No case is undefined behaviour in C. */
#ifndef MX_POW_ELEM_H
#define MX_POW_ELEM_H

#include <stdint.h>

#include "ops/core/half.h"
#include "ops/core/mathd.h"
#include "ops/core/mathf.h"
#include "ops/tensor/convert_elem.h"

/* r with the sign of (-1)^odd where x is negative or -0 (x not NaN) */
static inline float mx_pow_sign_f32(float r, float x, uint64_t odd) {
  int neg = (int)(mx_f32_bits(x) >> 31) & (x == x) & (r == r);
  float a = mx_f32_of_bits(mx_f32_bits(r) & 0x7fffffffu);
  return neg ? ((odd & 1u) ? -a : a) : r;
}
static inline double mx_pow_sign_f64(double r, double x, uint64_t odd) {
  int neg = (int)(mx_f64_bits(x) >> 63) & (x == x) & (r == r);
  double a = mx_abs64(r);
  return neg ? ((odd & 1u) ? -a : a) : r;
}

/* x^n modulo 2^64, n >= 0 as an unsigned value: every bit of n, low first */
static inline uint64_t mx_ipow_u64(uint64_t x, uint64_t n) {
  uint64_t r = 1;
  for (int i = 0; i < 64; i++) {
    r = (n & 1u) ? r * x : r;
    x *= x;
    n >>= 1;
  }
  return r;
}
/* x^n for a signed n: a negative n as the header says */
static inline uint64_t mx_ipow_s64(uint64_t x, int64_t n) {
  uint64_t pos = mx_ipow_u64(x, (uint64_t)n);
  uint64_t neg = x == 1u ? 1u : x == UINT64_MAX ? ((n & 1) ? UINT64_MAX : 1u) : 0u;
  return n < 0 ? neg : pos;
}

/* ---- the exponent read as a float32 (float16, bfloat16, float), a double,
 * or an integer (signed: int64; unsigned: uint64) ---- */
static inline float mx_powy_f32(float y) { return y; }
static inline float mx_powy_f16(uint16_t y) { return mx_f16_to_f32(y); }
static inline float mx_powy_bf16(uint16_t y) { return mx_bf16_to_f32(y); }

/* ---- float bases, computed in float32 ---- */
#define MX_POW_FBASE(sfx, T, LOAD, STORE)                                                                        \
  static inline T mx_pow_##sfx##_f32(T x, float y) { return STORE(mx_powf(LOAD(x), y)); }                       \
  static inline T mx_pow_##sfx##_f16(T x, uint16_t y) { return STORE(mx_powf(LOAD(x), mx_powy_f16(y))); }        \
  static inline T mx_pow_##sfx##_bf16(T x, uint16_t y) { return STORE(mx_powf(LOAD(x), mx_powy_bf16(y))); }      \
  static inline T mx_pow_##sfx##_f64(T x, double y) { return STORE##_D(mx_pow64((double)LOAD(x), y)); }        \
  static inline T mx_pow_##sfx##_si(T x, int64_t n) {                                                             \
    float xf = LOAD(x);                                                                                          \
    return STORE(mx_pow_sign_f32(mx_powf(xf, (float)n), xf, (uint64_t)n));                                      \
  }                                                                                                              \
  static inline T mx_pow_##sfx##_ui(T x, uint64_t n) {                                                            \
    float xf = LOAD(x);                                                                                          \
    return STORE(mx_pow_sign_f32(mx_powf(xf, mx_u64_to_f32(n)), xf, n));                                         \
  }
static inline float mx_pow_load_f32(float x) { return x; }
static inline float mx_pow_store_f32(float x) { return x; }
static inline float mx_pow_store_f32_D(double x) { return (float)x; }
static inline uint16_t mx_pow_store_f16_D(double x) { return mx_f64_to_f16(x); }
static inline uint16_t mx_pow_store_bf16_D(double x) { return mx_f64_to_bf16(x); }
#define mx_pow_store_f16 mx_f32_to_f16
#define mx_pow_store_bf16 mx_f32_to_bf16
MX_POW_FBASE(f32, float, mx_pow_load_f32, mx_pow_store_f32)
MX_POW_FBASE(f16, uint16_t, mx_f16_to_f32, mx_pow_store_f16)
MX_POW_FBASE(bf16, uint16_t, mx_bf16_to_f32, mx_pow_store_bf16)
#undef MX_POW_FBASE
#undef mx_pow_store_f16
#undef mx_pow_store_bf16

/* ---- double base ---- */
static inline double mx_pow_f64_f32(double x, float y) { return mx_pow64(x, (double)y); }
static inline double mx_pow_f64_f16(double x, uint16_t y) { return mx_pow64(x, (double)mx_f16_to_f32(y)); }
static inline double mx_pow_f64_bf16(double x, uint16_t y) { return mx_pow64(x, (double)mx_bf16_to_f32(y)); }
static inline double mx_pow_f64_f64(double x, double y) { return mx_pow64(x, y); }
static inline double mx_pow_f64_si(double x, int64_t n) { return mx_pow_sign_f64(mx_pow64(x, (double)n), x, (uint64_t)n); }
static inline double mx_pow_f64_ui(double x, uint64_t n) {
  return mx_pow_sign_f64(mx_pow64(x, (double)n), x, n);
}

/* ---- integer bases ---- */
#define MX_POW_IBASE(sfx, T, TO_INT)                                                                            \
  static inline T mx_pow_##sfx##_f64(T x, double y) { return TO_INT(mx_pow64((double)x, y)); }                 \
  static inline T mx_pow_##sfx##_f32(T x, float y) { return mx_pow_##sfx##_f64(x, (double)y); }                \
  static inline T mx_pow_##sfx##_f16(T x, uint16_t y) { return mx_pow_##sfx##_f64(x, (double)mx_f16_to_f32(y)); } \
  static inline T mx_pow_##sfx##_bf16(T x, uint16_t y) {                                                         \
    return mx_pow_##sfx##_f64(x, (double)mx_bf16_to_f32(y));                                                     \
  }                                                                                                             \
  static inline T mx_pow_##sfx##_si(T x, int64_t n) { return (T)mx_as_signed(mx_ipow_s64((uint64_t)(int64_t)x, n)); } \
  static inline T mx_pow_##sfx##_ui(T x, uint64_t n) { return (T)mx_as_signed(mx_ipow_u64((uint64_t)(int64_t)x, n)); }
MX_POW_IBASE(i32, int32_t, mx_f64_to_i32)
MX_POW_IBASE(i64, int64_t, mx_f64_to_i64)
#undef MX_POW_IBASE

#endif
