/* The operation of each one-operand op on one element, per dtype: what the
 * templates ops/math/unary.c.in, unary_math.c.in and unary_int.c.in call as
 * mx_unary_@SFX@(op, x, a) (ops/README.md, "The kernel scheme"); op is a
 * constant in every kernel, so the switch folds away.
 *
 * float16 and bfloat16 are computed in float32 and rounded once; double in
 * double. The exact ops are IEEE operations and selects (numpy's bits),
 * floor, ceil and round by adding and subtracting 2^23 (2^52), which rounds
 * to an integer, ties to even, with no libm call; sqrt is the instruction
 * (the build has -fno-math-errno). The others follow the formulas of
 * README's "Activations and elementwise functions" with ops/core/mathf.h's
 * functions, operation for operation in every path. Integers wrap: Neg and
 * Abs of the most negative value give it back. */
#ifndef MX_UNARY_ELEM_H
#define MX_UNARY_ELEM_H

#include <stdint.h>

#include "ops/core/bits.h"
#include "ops/core/half.h"
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
    case MX_GELU: return (0.5f * x) * (1.0f + mx_erff(x * MX_SQRT1_2));
    default: /* MX_GELU_TANH */ return x * mx_sigmoidf((MX_GELU_2C * x) * (1.0f + MX_GELU_K * (x * x)));
  }
}

/* double: the ops of unary.c.in (no double transcendental functions yet) */
static inline double mx_unary_double(mx_unop op, double x, mx_unary_args a) {
  switch (op) {
    case MX_NEG: return -x;
    case MX_ABS: return mx_f64_of_bits(mx_f64_bits(x) & 0x7fffffffffffffffu);
    case MX_SIGN: return x != x ? x + x : (double)((x > 0.0) - (x < 0.0));
    case MX_RELU: return x <= 0.0 ? 0.0 : x;
    case MX_RECIPROCAL: return 1.0 / x;
    case MX_FLOOR: return mx_floor_f64(x);
    case MX_CEIL: return mx_ceil_f64(x);
    case MX_SQRT: return __builtin_sqrt(x);
    case MX_ROUND: return x != x ? x + x : mx_rint_f64(x);
    case MX_LEAKY_RELU: return x < 0.0 ? x * (double)a.alpha : x;
    case MX_HARD_SIGMOID: return mx_unit_clamp_f64((double)a.alpha * x + (double)a.beta);
    default: /* MX_HARD_SWISH */ return x * mx_unit_clamp_f64((x + 3.0) / 6.0);
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
