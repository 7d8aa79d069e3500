/* The arithmetic of one element, per dtype: what every elementwise math
 * kernel template calls as mx_<op>_@SFX@ (ops/README.md, "The kernel
 * scheme"). Each is one IEEE operation for floats (correctly rounded:
 * numpy's bits); integers wrap in two's complement, computed in the unsigned
 * type of their width, so no case is undefined behaviour in C. Integer
 * division truncates toward zero (C, ONNX's reference, ONNX Runtime), and
 * the cases C leaves undefined have a documented value: x / 0 = 0, and
 * INT_MIN / -1 = INT_MIN (the quotient wraps). float16 and bfloat16 are
 * computed in float32 and rounded once (ops/core/half.h); for these four
 * operations that equals the correctly rounded result in the 16-bit format
 * (float32 has more than twice their precision plus two bits). */
#ifndef MX_ARITH_H
#define MX_ARITH_H

#include <stdint.h>

#include "ops/core/half.h"

static inline float mx_add_f32(float a, float b) { return a + b; }
static inline float mx_sub_f32(float a, float b) { return a - b; }
static inline float mx_mul_f32(float a, float b) { return a * b; }
static inline float mx_div_f32(float a, float b) { return a / b; }
static inline double mx_add_f64(double a, double b) { return a + b; }
static inline double mx_sub_f64(double a, double b) { return a - b; }
static inline double mx_mul_f64(double a, double b) { return a * b; }
static inline double mx_div_f64(double a, double b) { return a / b; }

static inline uint16_t mx_add_f16(uint16_t a, uint16_t b) { return mx_f32_to_f16(mx_f16_to_f32(a) + mx_f16_to_f32(b)); }
static inline uint16_t mx_sub_f16(uint16_t a, uint16_t b) { return mx_f32_to_f16(mx_f16_to_f32(a) - mx_f16_to_f32(b)); }
static inline uint16_t mx_mul_f16(uint16_t a, uint16_t b) { return mx_f32_to_f16(mx_f16_to_f32(a) * mx_f16_to_f32(b)); }
static inline uint16_t mx_div_f16(uint16_t a, uint16_t b) { return mx_f32_to_f16(mx_f16_to_f32(a) / mx_f16_to_f32(b)); }
static inline uint16_t mx_add_bf16(uint16_t a, uint16_t b) {
  return mx_f32_to_bf16(mx_bf16_to_f32(a) + mx_bf16_to_f32(b));
}
static inline uint16_t mx_sub_bf16(uint16_t a, uint16_t b) {
  return mx_f32_to_bf16(mx_bf16_to_f32(a) - mx_bf16_to_f32(b));
}
static inline uint16_t mx_mul_bf16(uint16_t a, uint16_t b) {
  return mx_f32_to_bf16(mx_bf16_to_f32(a) * mx_bf16_to_f32(b));
}
static inline uint16_t mx_div_bf16(uint16_t a, uint16_t b) {
  return mx_f32_to_bf16(mx_bf16_to_f32(a) / mx_bf16_to_f32(b));
}

/* Integers: +, -, * in the unsigned type of the width (wrapping), back to
 * the type by conversion (modulo 2^N in gcc and clang, which the build
 * requires). */
#define MX_ARITH_WRAP(sfx, T, U)                                                          \
  static inline T mx_add_##sfx(T a, T b) { return (T)(U)((U)a + (U)b); }                  \
  static inline T mx_sub_##sfx(T a, T b) { return (T)(U)((U)a - (U)b); }                  \
  static inline T mx_mul_##sfx(T a, T b) { return (T)(U)((U)a * (U)b); }
MX_ARITH_WRAP(i8, int8_t, uint32_t)
MX_ARITH_WRAP(i16, int16_t, uint32_t)
MX_ARITH_WRAP(i32, int32_t, uint32_t)
MX_ARITH_WRAP(i64, int64_t, uint64_t)
MX_ARITH_WRAP(u8, uint8_t, uint32_t)
MX_ARITH_WRAP(u16, uint16_t, uint32_t)
MX_ARITH_WRAP(u32, uint32_t, uint32_t)
MX_ARITH_WRAP(u64, uint64_t, uint64_t)
#undef MX_ARITH_WRAP

static inline int8_t mx_div_i8(int8_t a, int8_t b) { return b == 0 ? 0 : b == -1 ? mx_sub_i8(0, a) : (int8_t)(a / b); }
static inline int16_t mx_div_i16(int16_t a, int16_t b) {
  return b == 0 ? 0 : b == -1 ? mx_sub_i16(0, a) : (int16_t)(a / b);
}
static inline int32_t mx_div_i32(int32_t a, int32_t b) { return b == 0 ? 0 : b == -1 ? mx_sub_i32(0, a) : a / b; }
static inline int64_t mx_div_i64(int64_t a, int64_t b) { return b == 0 ? 0 : b == -1 ? mx_sub_i64(0, a) : a / b; }
static inline uint8_t mx_div_u8(uint8_t a, uint8_t b) { return b == 0 ? 0 : (uint8_t)(a / b); }
static inline uint16_t mx_div_u16(uint16_t a, uint16_t b) { return b == 0 ? 0 : (uint16_t)(a / b); }
static inline uint32_t mx_div_u32(uint32_t a, uint32_t b) { return b == 0 ? 0 : a / b; }
static inline uint64_t mx_div_u64(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }

/* PRelu: x < 0 ? slope * x : x, one multiplication where x < 0 (by the
 * rules above: float16/bfloat16 in float32 rounded once, integers wrap);
 * otherwise x itself, bits unchanged (NaN, -0). Unsigned x is never < 0. */
static inline float mx_prelu_f32(float x, float s) { return x < 0 ? x * s : x; }
static inline double mx_prelu_f64(double x, double s) { return x < 0 ? x * s : x; }
static inline uint16_t mx_prelu_f16(uint16_t x, uint16_t s) { return mx_f16_to_f32(x) < 0 ? mx_mul_f16(x, s) : x; }
static inline uint16_t mx_prelu_bf16(uint16_t x, uint16_t s) { return mx_bf16_to_f32(x) < 0 ? mx_mul_bf16(x, s) : x; }
static inline int8_t mx_prelu_i8(int8_t x, int8_t s) { return x < 0 ? mx_mul_i8(x, s) : x; }
static inline int16_t mx_prelu_i16(int16_t x, int16_t s) { return x < 0 ? mx_mul_i16(x, s) : x; }
static inline int32_t mx_prelu_i32(int32_t x, int32_t s) { return x < 0 ? mx_mul_i32(x, s) : x; }
static inline int64_t mx_prelu_i64(int64_t x, int64_t s) { return x < 0 ? mx_mul_i64(x, s) : x; }
#define MX_PRELU_UNSIGNED(sfx, T) \
  static inline T mx_prelu_##sfx(T x, T s) { return (void)s, x; }
MX_PRELU_UNSIGNED(u8, uint8_t)
MX_PRELU_UNSIGNED(u16, uint16_t)
MX_PRELU_UNSIGNED(u32, uint32_t)
MX_PRELU_UNSIGNED(u64, uint64_t)
#undef MX_PRELU_UNSIGNED

#endif
