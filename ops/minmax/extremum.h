/* The one comparison every max/min kernel is written against. A kernel is a
 * template over a direction (MX_MAX or MX_MIN, a compile-time constant in
 * each instance) and never says ">" itself: it asks whether a value lies
 * BEYOND another in its direction. The rules then hold for both directions
 * from one text:
 *   - elementwise and reductions: NaN anywhere gives NaN (numpy's maximum,
 *     minimum, max, min);
 *   - arg-reductions: NaN lies beyond every number in both directions (numpy's
 *     argmax and argmin select it), NaNs tie;
 *   - +0 and -0 are equal (either may be returned). */
#ifndef MX_EXTREMUM_H
#define MX_EXTREMUM_H

#include <stdint.h>

typedef enum mx_dir { MX_MAX = 0, MX_MIN = 1 } mx_dir;

/* a lies strictly beyond b (a > b for max, a < b for min), and a reaches b
 * (>=, <=). False when either is NaN. */
#define MX_BEYOND(dir, a, b) ((dir) == MX_MIN ? (a) < (b) : (a) > (b))
#define MX_REACHES(dir, a, b) ((dir) == MX_MIN ? (a) <= (b) : (a) >= (b))
/* The further of a and b, keeping a unless b lies beyond it (NaN in b is
 * ignored: the arg kernels flag NaN apart). */
#define MX_FURTHER(dir, a, b) (MX_BEYOND(dir, b, a) ? (b) : (a))

/* ---- float16 and bfloat16, as bit patterns compared through integer keys
 * in registers: no per-element calls, and loops over keys vectorize ---- */

#define MX_F16_INF 0x7c00
#define MX_BF16_INF 0x7f80

/* The bits with the magnitude flipped when the sign is set read as a signed
 * integer in the order of the values (-0 just below +0, which either
 * direction may return), and flipping again gives the bits back. A positive
 * NaN orders above +inf, a negative one below -inf. */
static inline uint16_t mx_half_order(uint16_t x) { return (uint16_t)(x ^ ((uint16_t)-(x >> 15) & 0x7fff)); }

/* The arg kernels' key: a signed key with the order of the values, -0 and +0
 * one key (the rules call them equal), and every NaN one key beyond every
 * number in the direction (NaN is selected; NaNs tie). */
static inline int16_t mx_half_key(uint16_t x, uint16_t inf, mx_dir dir) {
  int16_t mag = (int16_t)(x & 0x7fff);
  int16_t neg = (int16_t)-(int16_t)(x >> 15); /* 0 or -1 */
  int16_t key = (int16_t)((mag ^ neg) - neg);
  return mag > (int16_t)inf ? (int16_t)(dir == MX_MIN ? INT16_MIN : INT16_MAX) : key;
}

#endif
