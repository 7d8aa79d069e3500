/* The comparisons of one element, per dtype: what ops/math/compare.c.in calls
 * as mx_<cmp>_@SFX@. Exact: IEEE comparisons for floats (NaN compares unequal
 * and unordered: every comparison with it is false, numpy's answer); float16
 * and bfloat16 compare as the float32 values they hold (exactly). */
#ifndef MX_COMPARE_H
#define MX_COMPARE_H

#include <stdint.h>

#include "ops/core/half.h"

/* Floats and integers of every width: the comparison of C, which is exact
 * for each (no conversion happens between operands of one type). */
#define MX_COMPARE_OF(sfx, T)                                                \
  static inline uint8_t mx_eq_##sfx(T a, T b) { return (uint8_t)(a == b); } \
  static inline uint8_t mx_gt_##sfx(T a, T b) { return (uint8_t)(a > b); }  \
  static inline uint8_t mx_lt_##sfx(T a, T b) { return (uint8_t)(a < b); }  \
  static inline uint8_t mx_ge_##sfx(T a, T b) { return (uint8_t)(a >= b); } \
  static inline uint8_t mx_le_##sfx(T a, T b) { return (uint8_t)(a <= b); }
MX_COMPARE_OF(f32, float)
MX_COMPARE_OF(f64, double)
MX_COMPARE_OF(i8, int8_t)
MX_COMPARE_OF(i16, int16_t)
MX_COMPARE_OF(i32, int32_t)
MX_COMPARE_OF(i64, int64_t)
MX_COMPARE_OF(u8, uint8_t)
MX_COMPARE_OF(u16, uint16_t)
MX_COMPARE_OF(u32, uint32_t)
MX_COMPARE_OF(u64, uint64_t)
#undef MX_COMPARE_OF

static inline uint8_t mx_eq_f16(uint16_t a, uint16_t b) { return mx_eq_f32(mx_f16_to_f32(a), mx_f16_to_f32(b)); }
static inline uint8_t mx_gt_f16(uint16_t a, uint16_t b) { return mx_gt_f32(mx_f16_to_f32(a), mx_f16_to_f32(b)); }
static inline uint8_t mx_lt_f16(uint16_t a, uint16_t b) { return mx_lt_f32(mx_f16_to_f32(a), mx_f16_to_f32(b)); }
static inline uint8_t mx_ge_f16(uint16_t a, uint16_t b) { return mx_ge_f32(mx_f16_to_f32(a), mx_f16_to_f32(b)); }
static inline uint8_t mx_le_f16(uint16_t a, uint16_t b) { return mx_le_f32(mx_f16_to_f32(a), mx_f16_to_f32(b)); }
static inline uint8_t mx_eq_bf16(uint16_t a, uint16_t b) { return mx_eq_f32(mx_bf16_to_f32(a), mx_bf16_to_f32(b)); }
static inline uint8_t mx_gt_bf16(uint16_t a, uint16_t b) { return mx_gt_f32(mx_bf16_to_f32(a), mx_bf16_to_f32(b)); }
static inline uint8_t mx_lt_bf16(uint16_t a, uint16_t b) { return mx_lt_f32(mx_bf16_to_f32(a), mx_bf16_to_f32(b)); }
static inline uint8_t mx_ge_bf16(uint16_t a, uint16_t b) { return mx_ge_f32(mx_bf16_to_f32(a), mx_bf16_to_f32(b)); }
static inline uint8_t mx_le_bf16(uint16_t a, uint16_t b) { return mx_le_f32(mx_bf16_to_f32(a), mx_bf16_to_f32(b)); }

/* bool (stored as 0 and 1): the logic of And, Or, Xor, and Equal's. */
static inline uint8_t mx_and_bool(uint8_t a, uint8_t b) { return (uint8_t)(a & b); }
static inline uint8_t mx_or_bool(uint8_t a, uint8_t b) { return (uint8_t)(a | b); }
static inline uint8_t mx_xor_bool(uint8_t a, uint8_t b) { return (uint8_t)(a ^ b); }

#endif
