/* Clip's one-pass kernels: y = min(max(x, lo), hi) for both bounds at once,
 * under the min/max family's NaN rule (extremum.h), with the bits of a max
 * pass then a min pass of its pair kernels. The template clip.c.in,
 * instantiated by clip.kernels.cmake for float and double; chosen by clip.c. */
#ifndef MX_CLIP_H
#define MX_CLIP_H

#include <stdint.h>
#include <string.h>

#include "graph/ir.h"
#include "ops/core/cpu.h"

/* y[i] for i < n, with lo and hi one element each; y and x may be one. */
typedef void (*mx_clip_fn)(void *y, const void *x, const void *lo, const void *hi, int64_t n);

/* An instance of clip.c.in. */
struct mx_clip_set {
  mx_clip_fn both;
};

/* The kernel of dtype t at the highest ISA level <= isa that this build has
 * (tests pass each level; prepare passes its context's isa); NULL for a dtype that
 * has none (Clip then makes two passes over a block in L1). */
mx_clip_fn mx_clip_kernel(mx_dtype t, mx_isa isa);

/* min(max(x, lo), hi) with the bits of extremum_pair.h's mx_pick: a pick of
 * x and a bound b is x where x lies beyond b, b where b lies beyond x, and
 * their bits OR-ed otherwise (equal, or a NaN). Written as two masks, as
 * the bound is the same for every x (the pick's two selects and an OR cost
 * SSE2, which has no blend, twice the instructions); the second pick's x is
 * the first's result. test_clip checks the bits against the two passes. */
static inline float mx_clip_one_f32(float x, float lo, float hi) {
  uint32_t xb, lb, hb, mb;
  float m, r;
  memcpy(&xb, &x, sizeof x);
  memcpy(&lb, &lo, sizeof lo);
  memcpy(&hb, &hi, sizeof hi);
  mb = (xb & (0u - (uint32_t)!(lo > x))) | (lb & (0u - (uint32_t)!(x > lo)));
  memcpy(&m, &mb, sizeof m);
  mb = (mb & (0u - (uint32_t)!(hi < m))) | (hb & (0u - (uint32_t)!(m < hi)));
  memcpy(&r, &mb, sizeof r);
  return r;
}
static inline double mx_clip_one_f64(double x, double lo, double hi) {
  uint64_t xb, lb, hb, mb;
  double m, r;
  memcpy(&xb, &x, sizeof x);
  memcpy(&lb, &lo, sizeof lo);
  memcpy(&hb, &hi, sizeof hi);
  mb = (xb & ((uint64_t)0 - (uint64_t)!(lo > x))) | (lb & ((uint64_t)0 - (uint64_t)!(x > lo)));
  memcpy(&m, &mb, sizeof m);
  mb = (mb & ((uint64_t)0 - (uint64_t)!(hi < m))) | (hb & ((uint64_t)0 - (uint64_t)!(m < hi)));
  memcpy(&r, &mb, sizeof r);
  return r;
}

#endif
