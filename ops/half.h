/* float16 and bfloat16 as bit patterns, compared through an integer key in
 * registers: no per-element calls, and loops over keys vectorize. */
#ifndef MX_HALF_H
#define MX_HALF_H

#include <stdint.h>

/* A signed key with the order of the values the bits stand for: the
 * sign-magnitude bits made two's complement, so -0 and +0 are one key (the
 * rules call them equal), and every NaN one key above +inf (NaN is greater
 * than every number; NaNs tie). `inf` is the magnitude bits of infinity. */
static inline int16_t mx_half_key(uint16_t x, uint16_t inf) {
  int16_t mag = (int16_t)(x & 0x7fff);
  int16_t neg = (int16_t)-(int16_t)(x >> 15); /* 0 or -1 */
  int16_t key = (int16_t)((mag ^ neg) - neg);
  return mag > (int16_t)inf ? (int16_t)INT16_MAX : key;
}

/* max(a, b) alone needs less: the bits with the magnitude flipped when the
 * sign is set read as a signed integer in the order of the values (-0 just
 * below +0, which max may return either of), and flipping again gives the
 * bits back. A positive NaN orders above +inf, so the larger key is the max
 * or that NaN; a negative NaN orders below -inf, so the smaller key tells of
 * it, and the result is then all ones, a NaN. */
static inline uint16_t mx_half_order(uint16_t x) { return (uint16_t)(x ^ ((uint16_t)-(x >> 15) & 0x7fff)); }
static inline uint16_t mx_half_max(uint16_t a, uint16_t b, uint16_t inf) {
  int16_t ka = (int16_t)mx_half_order(a), kb = (int16_t)mx_half_order(b);
  int16_t hi = kb > ka ? kb : ka, lo = kb > ka ? ka : kb;
  int16_t minus_inf = (int16_t)mx_half_order((uint16_t)(0x8000 | inf));
  return (uint16_t)(mx_half_order((uint16_t)hi) | (uint16_t)-(lo < minus_inf));
}

#define MX_F16_INF 0x7c00
#define MX_BF16_INF 0x7f80
static inline int16_t mx_f16_key(uint16_t x) { return mx_half_key(x, MX_F16_INF); }
static inline int16_t mx_bf16_key(uint16_t x) { return mx_half_key(x, MX_BF16_INF); }

#endif
