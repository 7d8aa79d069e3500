/* An activation fused into a product's last store (ops/nn/conv_fuse.c: a Conv
 * whose only reader is a Relu or a Clip with constant bounds does that
 * node's work as it stores each block, and the node no longer runs). The
 * bits are the separate node's, element for element:
 *   Relu: x <= 0 ? +0 : x (ops/math/unary_elem.h: -0 gives +0, a NaN stays
 *   the same NaN);
 *   Clip: a max pick with lo, then a min pick with hi (ops/minmax/clip.h's
 *   mx_clip_one_f32, the bits of extremum_pair.h's mx_pick_f32: x where x
 *   lies beyond the bound, the bound where it lies beyond x, their bits OR-ed
 *   when they are equal or one is a NaN), each bound only where the node has
 *   one: an omitted bound is no pick at all (a pick with -inf would OR a
 *   NaN's bits with the infinity's sign).
 * float32 only: float16's Clip picks on the rounded values, which the
 * product's float32 sums are not yet, and double's Conv adds its bias in a
 * pass of its own (both stay separate nodes). */
#ifndef MX_ACT_H
#define MX_ACT_H

#include <stdint.h>
#include <string.h>

enum { MX_ACT_NONE = 0, MX_ACT_RELU = 1, MX_ACT_CLIP = 2 };

typedef struct mx_act {
  int kind;         /* MX_ACT_ */
  int lo_on, hi_on; /* Clip: which bounds it has */
  float lo, hi;
} mx_act;

/* Clip's max pick of x and lo, and min pick of m and hi (clip.h's two halves). */
static inline float mx_act_pick_lo(float x, float lo) {
  uint32_t xb, lb, mb;
  float m;
  memcpy(&xb, &x, sizeof x);
  memcpy(&lb, &lo, sizeof lo);
  mb = (xb & (0u - (uint32_t)!(lo > x))) | (lb & (0u - (uint32_t)!(x > lo)));
  memcpy(&m, &mb, sizeof m);
  return m;
}
static inline float mx_act_pick_hi(float m, float hi) {
  uint32_t mb, hb, rb;
  float r;
  memcpy(&mb, &m, sizeof m);
  memcpy(&hb, &hi, sizeof hi);
  rb = (mb & (0u - (uint32_t)!(hi < m))) | (hb & (0u - (uint32_t)!(m < hi)));
  memcpy(&r, &rb, sizeof r);
  return r;
}

static inline float mx_act_one(const mx_act *a, float x) {
  if (a->kind == MX_ACT_RELU) return x <= 0.0f ? 0.0f : x;
  if (a->kind == MX_ACT_CLIP) {
    if (a->lo_on) x = mx_act_pick_lo(x, a->lo);
    if (a->hi_on) x = mx_act_pick_hi(x, a->hi);
  }
  return x;
}

/* y[i] = act(y[i]) for i < n (a row just stored, still in L1); a NULL act or MX_ACT_NONE: nothing. */
static inline void mx_act_run(const mx_act *a, float *y, int64_t n) {
  if (!a || a->kind == MX_ACT_NONE) return;
  if (a->kind == MX_ACT_RELU) {
    for (int64_t i = 0; i < n; i++) y[i] = y[i] <= 0.0f ? 0.0f : y[i];
    return;
  }
  float lo = a->lo, hi = a->hi;
  if (a->lo_on && a->hi_on)
    for (int64_t i = 0; i < n; i++) y[i] = mx_act_pick_hi(mx_act_pick_lo(y[i], lo), hi);
  else if (a->lo_on)
    for (int64_t i = 0; i < n; i++) y[i] = mx_act_pick_lo(y[i], lo);
  else if (a->hi_on)
    for (int64_t i = 0; i < n; i++) y[i] = mx_act_pick_hi(y[i], hi);
}

/* The activation of a product's store, or NULL for none. */
static inline const mx_act *mx_act_or_null(const mx_act *a) { return a && a->kind != MX_ACT_NONE ? a : NULL; }

#endif
