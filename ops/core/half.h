/* float16 and bfloat16, held as their bits (uint16_t), to and from float:
 * what every family computing on them shares (Cast's conversions, ops that
 * compute a 16-bit float in float and round once).
 *
 * To float is exact; a NaN stays a NaN, made quiet (the top mantissa bit set,
 * as F16C's instruction does), with its sign and payload. From float rounds to
 * nearest, ties to even; a value beyond the target's range becomes +-inf; -0
 * stays -0; a NaN stays a quiet NaN with its sign (never an infinity). Each
 * is branch-free integer arithmetic and selects (float16's subnormals use one
 * float operation), so loops of them vectorize. They assume the default
 * floating-point rounding mode. */
#ifndef MX_HALF_H
#define MX_HALF_H

#include <stdint.h>
#include <string.h>

#include "ops/core/bits.h"


/* a where pick is nonzero, else b. Written with a mask rather than `?:` where
 * float arithmetic feeds the choice: GCC would move that arithmetic into a
 * branch of its own and then, as it might raise a floating-point flag there,
 * not vectorize the loop. */
static inline uint32_t mx_half_select(uint32_t pick, uint32_t a, uint32_t b) {
  uint32_t mask = 0u - (pick != 0);
  return (a & mask) | (b & ~mask);
}

/* A normal or infinite/NaN value only moves its exponent; a subnormal one is
 * its 10-bit mantissa times 2^-24, which float arithmetic gives exactly. */
static inline float mx_f16_to_f32(uint16_t h) {
  uint32_t a = h & 0x7fffu, sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t norm = (a << 13) + 0x38000000u;          /* exponent bias 15 -> 127 */
  norm = a >= 0x7c00u ? norm + 0x38000000u : norm;  /* inf, NaN: exponent all ones */
  norm = a > 0x7c00u ? norm | 0x00400000u : norm;   /* NaN: quiet */
  uint32_t sub = mx_f32_bits((float)(int32_t)a * 0x1p-24f);
  return mx_f32_of_bits(mx_half_select(a < 0x0400u, sub, norm) | sign);
}

/* A normal result rounds at bit 13 by integer addition (a carry into the
 * exponent is the right answer, up to infinity); a subnormal one is rounded
 * by the FPU: |x| + 0.5 has a unit in the last place of 2^-24, float16's
 * subnormal step, so the sum's low bits are the float16 mantissa. From 65520
 * (halfway past the largest float16) up the result is infinity; a NaN keeps
 * its top mantissa bits, made quiet. */
static inline uint16_t mx_f32_to_f16(float f) {
  uint32_t x = mx_f32_bits(f), a = x & 0x7fffffffu;
  uint32_t norm = (a - 0x38000000u + 0x0fffu + ((a >> 13) & 1u)) >> 13;
  uint32_t sub = mx_f32_bits(mx_f32_of_bits(a) + 0.5f) - 0x3f000000u;
  uint32_t h = mx_half_select(a < 0x38800000u, sub, norm); /* below 2^-14, float16's smallest normal */
  h = mx_half_select(a >= 0x477ff000u, 0x7c00u, h);
  h = mx_half_select(a > 0x7f800000u, 0x7e00u | ((a >> 13) & 0x01ffu), h);
  return (uint16_t)(((x >> 16) & 0x8000u) | h);
}

/* bfloat16 is float's upper half. */
static inline float mx_bf16_to_f32(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  return mx_f32_of_bits((x & 0x7fffffffu) > 0x7f800000u ? x | 0x00400000u : x);
}

/* The carry of the rounding reaches infinity past the largest bfloat16; a NaN
 * keeps its top mantissa bits, made quiet, so none truncates to inf. */
static inline uint16_t mx_f32_to_bf16(float f) {
  uint32_t x = mx_f32_bits(f);
  uint32_t r = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
  return (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? (x >> 16) | 0x0040u : r);
}

#endif
