/* The unfused nodes' element for a fused activation (ops/math/act.h): what
 * Relu (unary_elem.h), Clip with both bounds (clip.h) or with one (a pick)
 * give, for test_conv and fuzz_diff to hold the fused stores to. */
#ifndef MINNX_TESTS_ACT_NODES_H
#define MINNX_TESTS_ACT_NODES_H

#include "ops/math/act.h"
#include "ops/math/unary_elem.h"
#include "ops/minmax/clip.h"
#include "ops/minmax/extremum_pair.h"

static inline float node_act(const mx_act *a, float v) {
  if (a->kind == MX_ACT_RELU) return mx_unary_float(MX_RELU, v, (mx_unary_args){0});
  if (a->lo_on && a->hi_on) return mx_clip_one_f32(v, a->lo, a->hi);
  if (a->lo_on) return mx_pick_f32(v, a->lo, MX_MAX);
  if (a->hi_on) return mx_pick_f32(v, a->hi, MX_MIN);
  return v;
}

#endif
