/* float16 and bfloat16 as bit patterns: NaN tests and an order-preserving key,
 * so kernels compare them as integers in registers (no per-element calls). */
#ifndef MX_HALF_H
#define MX_HALF_H

#include <stdint.h>

/* Sign-magnitude to an unsigned key with the same order: negatives flipped
 * below positives. -0 sorts just below +0, which both rules treat as equal. */
static inline uint16_t mx_half_key(uint16_t x) { return (uint16_t)((x & 0x8000u) ? (uint16_t)~x : (uint16_t)(x | 0x8000u)); }

static inline int mx_f16_isnan(uint16_t x) { return (x & 0x7fffu) > 0x7c00u; }
static inline int mx_bf16_isnan(uint16_t x) { return (x & 0x7fffu) > 0x7f80u; }

#endif
