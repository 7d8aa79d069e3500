/* The operation of each one-operand op on one element, per dtype: what the
 * templates ops/math/unary.c.in, unary_math.c.in and unary_int.c.in call as
 * mx_unary_@SFX@(op, x, a) (ops/README.md, "The kernel scheme"); op is a
 * constant in every kernel, so the switch folds away.
 *
 * float16 and bfloat16 are computed in float32 and rounded once; double in
 * double. The exact ops are IEEE operations and selects (numpy's bits),
 * floor, ceil and round by adding and subtracting 2^23 (2^52), which rounds
 * to an integer, ties to even, with no libm call; sqrt is the instruction
 * (the build has -fno-math-errno), or for double on a target without one
 * (the Cortex-M4) the digit-by-digit root, correctly rounded too. The others follow the formulas of
 * README's "Activations and elementwise functions" with ops/core/mathf.h's
 * functions, operation for operation in every path. Integers wrap: Neg and
 * Abs of the most negative value give it back. */
#ifndef MX_UNARY_ELEM_H
#define MX_UNARY_ELEM_H

#include <stdint.h>

#include "ops/core/bits.h"
#include "ops/core/half.h"
#include "ops/core/mathd.h"
#include "ops/core/mathf.h"
#include "ops/math/unary.h"

/* x rounded to an integer, ties to even: below 2^23 in magnitude, |x| + 2^23
 * has no fraction bits left; from 2^23 on (and inf, NaN) x is one already.
 * The sign is x's (round(-0.3) = -0). */
static inline float mx_rint_f32(float x) {
  float a = mx_f32_of_bits(mx_f32_bits(x) & 0x7fffffffu);
  float r = (a + 0x1p23f) - 0x1p23f;
  r = a < 0x1p23f ? r : a;
  return mx_copysignf(r, x);
}
static inline double mx_rint_f64(double x) {
  double a = mx_f64_of_bits(mx_f64_bits(x) & 0x7fffffffffffffffu);
  double r = (a + 0x1p52) - 0x1p52;
  r = a < 0x1p52 ? r : a;
  return mx_f64_of_bits(mx_f64_bits(r) | (mx_f64_bits(x) & 0x8000000000000000u));
}

/* floor and ceil from the nearest integer, one step down or up when it lies
 * on the wrong side; the sign of x kept (ceil(-0.5) = -0). */
static inline float mx_floor_f32(float x) {
  float r = mx_rint_f32(x);
  return mx_copysignf(r > x ? r - 1.0f : r, x);
}
static inline float mx_ceil_f32(float x) {
  float r = mx_rint_f32(x);
  return mx_copysignf(r < x ? r + 1.0f : r, x);
}
static inline double mx_copysign_f64(double mag, double sign) {
  return mx_f64_of_bits(mx_f64_bits(mag) | (mx_f64_bits(sign) & 0x8000000000000000u));
}
static inline double mx_floor_f64(double x) {
  double r = mx_rint_f64(x);
  return mx_copysign_f64(r > x ? r - 1.0 : r, x);
}
static inline double mx_ceil_f64(double x) {
  double r = mx_rint_f64(x);
  return mx_copysign_f64(r < x ? r + 1.0 : r, x);
}

/* sqrt of a double, correctly rounded, from integer arithmetic (the square
 * root digit by digit, two bits of the radicand a step): for targets without
 * a double square root instruction (the Cortex-M4's FPU is single precision),
 * where __builtin_sqrt would call the C library. */
static inline double mx_sqrt_f64_soft(double x) {
  uint64_t u = mx_f64_bits(x);
  if (x != x || x <= 0.0 || u == 0x7ff0000000000000u) /* NaN, +-0 (kept), -x, +inf */
    return x < 0.0 ? mx_f64_of_bits(0x7ff8000000000000u) : x + x;
  int e = (int)(u >> 52) - 1023;
  uint64_t m = u & 0x000fffffffffffffu;
  if (u >> 52 == 0) { /* subnormal: the leading bit to bit 52 */
    int s = __builtin_clzll(m) - 11;
    m <<= s;
    e = -1022 - s;
  } else {
    m |= 0x0010000000000000u;
  }
  if (e & 1) m <<= 1, e -= 1; /* x = m 2^(e-52), e even, m < 2^54 */
  /* q = floor(sqrt(m 2^54)), 54 bits: 53 and the rounding bit; r the remainder */
  uint64_t q = 0, r = 0;
  for (int i = 0; i < 54; i++) {
    r = (r << 2) | (i <= 26 ? (m >> (52 - 2 * i)) & 3u : 0u);
    uint64_t t = (q << 2) | 1u;
    q <<= 1;
    if (r >= t) r -= t, q |= 1u;
  }
  uint64_t mant = (q >> 1) + ((q & 1u) & ((r != 0) | ((q >> 1) & 1u)));
  /* a carry to 2^53 moves into the exponent by the addition below */
  return mx_f64_of_bits(((uint64_t)(e / 2 + 1022) << 52) + mant);
}

static inline double mx_sqrt_f64(double x) {
#if defined(__arm__) && !(defined(__ARM_FP) && (__ARM_FP & 8))
  return mx_sqrt_f64_soft(x);
#else
  return __builtin_sqrt(x);
#endif
}

/* max(0, min(1, t)), a NaN passing through */
static inline float mx_unit_clamp_f32(float t) {
  t = t < 0.0f ? 0.0f : t;
  return t > 1.0f ? 1.0f : t;
}
static inline double mx_unit_clamp_f64(double t) {
  t = t < 0.0 ? 0.0 : t;
  return t > 1.0 ? 1.0 : t;
}

/* Gelu "tanh": 0.5 (1 + tanh(z)) = sigmoid(2z), z = sqrt(2/pi) (x + 0.044715 x^3) */
#define MX_GELU_2C 0x1.988454p+0f /* 2 sqrt(2/pi) */
#define MX_GELU_K 0x1.6e4e26p-5f  /* 0.044715 */
#define MX_SQRT1_2 0x1.6a09e6p-1f /* 1/sqrt(2) */

static inline float mx_unary_float(mx_unop op, float x, mx_unary_args a) {
  switch (op) {
    case MX_NEG: return -x;
    case MX_ABS: return mx_f32_of_bits(mx_f32_bits(x) & 0x7fffffffu);
    case MX_SIGN: return x != x ? x + x : (float)((x > 0.0f) - (x < 0.0f));
    case MX_RELU: return x <= 0.0f ? 0.0f : x;
    case MX_RECIPROCAL: return 1.0f / x;
    case MX_FLOOR: return mx_floor_f32(x);
    case MX_CEIL: return mx_ceil_f32(x);
    case MX_SQRT: return __builtin_sqrtf(x);
    case MX_ROUND: return x != x ? x + x : mx_rint_f32(x);
    case MX_LEAKY_RELU: return x < 0.0f ? x * a.alpha : x;
    case MX_HARD_SIGMOID: return mx_unit_clamp_f32(a.alpha * x + a.beta);
    case MX_HARD_SWISH: return x * mx_unit_clamp_f32((x + 3.0f) / 6.0f);
    case MX_EXP: return mx_expf(x);
    case MX_LOG: return mx_logf(x);
    case MX_ERF: return mx_erff(x);
    case MX_SIGMOID: return mx_sigmoidf(x);
    case MX_TANH: return mx_tanhf(x);
    case MX_ELU: return x < 0.0f ? a.alpha * mx_expm1f(x) : x;
    case MX_SELU: return x <= 0.0f ? a.gamma * (a.alpha * mx_expm1f(x)) : a.gamma * x;
    case MX_SOFTPLUS: {
      float ax = mx_f32_of_bits(mx_f32_bits(x) & 0x7fffffffu);
      return (x > 0.0f ? x : 0.0f) + mx_log1pf(mx_expf(-ax));
    }
    case MX_GELU: /* a NaN x: x/2 is x + x, and the product keeps it (erf's NaN select not needed) */
      return (0.5f * x) * (1.0f + mx_erff_num(x * MX_SQRT1_2));
    default: /* MX_GELU_TANH */ return x * mx_sigmoidf((MX_GELU_2C * x) * (1.0f + MX_GELU_K * (x * x)));
  }
}

/* Gelu "tanh" and "none" in double (the float32 constants' exact values are
 * not wanted here: these are 2 sqrt(2/pi), 0.044715 and 1/sqrt(2) rounded to double) */
#define MX_GELU_2C_64 0x1.9884533d43651p+0
#define MX_GELU_K_64 0x1.6e4e26d4801f7p-5
#define MX_SQRT1_2_D 0x1.6a09e667f3bcdp-1

/* double: the ops of unary.c.in, and those of unary_math.c.in through
 * ops/core/mathd.h's double functions, operation for operation as float's */
static inline double mx_unary_double(mx_unop op, double x, mx_unary_args a) {
  switch (op) {
    case MX_NEG: return -x;
    case MX_ABS: return mx_f64_of_bits(mx_f64_bits(x) & 0x7fffffffffffffffu);
    case MX_SIGN: return x != x ? x + x : (double)((x > 0.0) - (x < 0.0));
    case MX_RELU: return x <= 0.0 ? 0.0 : x;
    case MX_RECIPROCAL: return 1.0 / x;
    case MX_FLOOR: return mx_floor_f64(x);
    case MX_CEIL: return mx_ceil_f64(x);
    case MX_SQRT: return mx_sqrt_f64(x);
    case MX_ROUND: return x != x ? x + x : mx_rint_f64(x);
    case MX_LEAKY_RELU: return x < 0.0 ? x * (double)a.alpha : x;
    case MX_HARD_SIGMOID: return mx_unit_clamp_f64((double)a.alpha * x + (double)a.beta);
    case MX_HARD_SWISH: return x * mx_unit_clamp_f64((x + 3.0) / 6.0);
    case MX_EXP: return mx_exp64(x);
    case MX_LOG: return mx_log64(x);
    case MX_ERF: return mx_erf64(x);
    case MX_SIGMOID: return mx_sigmoid64(x);
    case MX_TANH: return mx_tanh64(x);
    case MX_ELU: return x < 0.0 ? (double)a.alpha * mx_expm1_64(x) : x;
    case MX_SELU: return x <= 0.0 ? (double)a.gamma * ((double)a.alpha * mx_expm1_64(x)) : (double)a.gamma * x;
    case MX_SOFTPLUS: return (x > 0.0 ? x : 0.0) + mx_log1p64(mx_exp64(-mx_abs64(x)));
    case MX_GELU: return (0.5 * x) * (1.0 + mx_erf64(x * MX_SQRT1_2_D));
    default: /* MX_GELU_TANH */ return x * mx_sigmoid64((MX_GELU_2C_64 * x) * (1.0 + MX_GELU_K_64 * (x * x)));
  }
}

static inline float mx_unary_f32(mx_unop op, float x, mx_unary_args a) { return mx_unary_float(op, x, a); }
static inline double mx_unary_f64(mx_unop op, double x, mx_unary_args a) { return mx_unary_double(op, x, a); }
static inline uint16_t mx_unary_f16(mx_unop op, uint16_t x, mx_unary_args a) {
  return mx_f32_to_f16(mx_unary_float(op, mx_f16_to_f32(x), a));
}
static inline uint16_t mx_unary_bf16(mx_unop op, uint16_t x, mx_unary_args a) {
  return mx_f32_to_bf16(mx_unary_float(op, mx_bf16_to_f32(x), a));
}

/* Integers: Neg in the unsigned type of the width (wrapping, no undefined
 * case), Abs as Neg of a negative value; an unsigned value is its own Abs
 * and Relu (its Neg, which no row allows, wraps). */
#define MX_UNARY_SIGNED(sfx, T, U)                                     \
  static inline T mx_unary_##sfx(mx_unop op, T x, mx_unary_args a) {   \
    (void)a;                                                          \
    T neg = (T)(U)(0u - (U)x);                                         \
    switch (op) {                                                      \
      case MX_NEG: return neg;                                         \
      case MX_ABS: return x < 0 ? neg : x;                             \
      case MX_SIGN: return (T)((x > 0) - (x < 0));                     \
      default: /* MX_RELU */ return x < 0 ? 0 : x;                     \
    }                                                                  \
  }
#define MX_UNARY_UNSIGNED(sfx, T, U)                                   \
  static inline T mx_unary_##sfx(mx_unop op, T x, mx_unary_args a) {   \
    (void)a;                                                          \
    switch (op) {                                                      \
      case MX_NEG: return (T)(U)(0u - (U)x);                           \
      case MX_SIGN: return (T)(x != 0);                                \
      default: /* MX_ABS, MX_RELU */ return x;                         \
    }                                                                  \
  }
MX_UNARY_SIGNED(i8, int8_t, uint32_t)
MX_UNARY_SIGNED(i16, int16_t, uint32_t)
MX_UNARY_SIGNED(i32, int32_t, uint32_t)
MX_UNARY_SIGNED(i64, int64_t, uint64_t)
MX_UNARY_UNSIGNED(u8, uint8_t, uint32_t)
MX_UNARY_UNSIGNED(u16, uint16_t, uint32_t)
MX_UNARY_UNSIGNED(u32, uint32_t, uint32_t)
MX_UNARY_UNSIGNED(u64, uint64_t, uint64_t)
#undef MX_UNARY_SIGNED
#undef MX_UNARY_UNSIGNED

#endif
