/* The sliding windows of Conv and the pools: their spatial attributes
 * (strides, dilations, pads, auto_pad, ceil_mode) and the output's size, by
 * one rule for every op that has them. */
#ifndef MX_WINDOW_H
#define MX_WINDOW_H

#include <stdint.h>

#include "ops/core/op.h"

/* Spatial ranks 1 to 3; fewer dims are padded at the front with a dim of 1
 * (input, kernel and output 1, stride and dilation 1, no padding), so that
 * every loop is the 3-D one. */
#define MX_WINDOW_MAX_SPATIAL 3
typedef struct mx_window {
  int64_t in[3], k[3], out[3], stride[3], dil[3], pad[3], pad_end[3]; /* pad, pad_end: before and after each dim */
} mx_window;

/* The window of a node over sp spatial dims: input in[] and kernel k[] (sp
 * values each, -1 where not known yet), the node's strides, dilations, pads
 * or auto_pad and ceil_mode (absent: their defaults). Outputs are -1 where
 * not known yet. Refuses, naming the node, lists of the wrong length,
 * strides or dilations < 1, negative pads, pads with an auto_pad other than
 * NOTSET, an unknown auto_pad, a (dilated) kernel larger than the padded
 * input, and extents that overflow.
 * Output sizes: NOTSET: floor((in + pads - dk) / stride) + 1, dk = (k - 1) *
 * dilation + 1; with ceil_mode the ceiling, less a last window that would
 * start in the end padding; VALID: no pads; SAME_UPPER and SAME_LOWER:
 * ceil(in / stride), the total padding max(0, (out - 1) * stride + dk - in)
 * split in two, the odd one at the end (UPPER) or at the beginning (LOWER). */
minnx_status mx_window_infer(mx_op_ctx *c, int sp, const int64_t *in, const int64_t *k, mx_window *w);

/* The taps t in [*lo, *hi) of a dim whose input index o * stride + t * dil -
 * pad lies in [from, to) (the input: 0, in; the padded input: -pad, in +
 * pad_end). */
static inline void mx_window_taps(const mx_window *w, int d, int64_t o, int64_t from, int64_t to, int64_t *lo,
                                  int64_t *hi) {
  /* (inline: the pools' row paths ask for every output row's, 9% of a MaxPool's time as a call) */
  int64_t base = o * w->stride[d] - w->pad[d]; /* the input index of tap 0 */
  int64_t a = base - from, b = base - to, dil = w->dil[d];
  /* the first t >= 0 with a + t dil >= 0, likewise for b: ceil(-a / dil) for a < 0 */
  a = a >= 0 ? 0 : dil == 1 ? -a : (-a + dil - 1) / dil;
  b = b >= 0 ? 0 : dil == 1 ? -b : (-b + dil - 1) / dil;
  *lo = a < w->k[d] ? a : w->k[d];
  *hi = b < w->k[d] ? b : w->k[d];
  if (*hi < *lo) *hi = *lo;
}

#endif
