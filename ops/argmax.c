/* ArgMax: the index of the largest element along one axis, as int64. NaN is
 * greater than every number; ties give the first index, or the last one with
 * select_last_index=1 (since version 12). */
#include <stddef.h>

#include "ops/extremum_kernels.h"
#include "ops/ops.h"

/* A small input gains nothing from wide vectors: its run is mostly setup. */
#define AVX2_FROM 4096 /* elements */

/* ---- infer ---- */

static int64_t attr_int(const mx_node *n, const char *name, int64_t dflt) {
  const mx_attr *a = mx_node_attr(n, name);
  return a ? a->i : dflt;
}

minnx_status mx_argmax_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype) {
  const mx_node *n = c->node;
  const mx_shape *in = c->in[0];
  const char *label = mx_node_label(c->g, n);
  int since = c->schema->since;
  int64_t axis = attr_int(n, "axis", 0);
  int64_t keepdims = attr_int(n, "keepdims", 1);
  int64_t last = attr_int(n, "select_last_index", 0);
  *out_dtype = MINNX_INT64;
  if (keepdims != 0 && keepdims != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute keepdims is %lld; it must be 0 or 1", label, since, (long long)keepdims);
  if (last != 0 && last != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute select_last_index is %lld; it must be 0 or 1", label, since, (long long)last);
  if (in->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int64_t r = in->rank;
  int64_t lo = (c->schema->rules & MX_RULE_NEGATIVE_AXIS) ? -r : 0;
  if (axis < lo || axis > r - 1 || r == 0)
    return mx_fail(c->err, MINNX_E_SHAPE, "node '%s' (ArgMax-%d): axis %lld is out of range [%lld, %lld] for an input of rank %lld",
                   label, since, (long long)axis, (long long)lo, (long long)(r - 1), (long long)r);
  if (axis < 0) axis += r;
  if (in->dims[axis] == 0)
    return mx_fail(c->err, MINNX_E_SHAPE, "node '%s' (ArgMax-%d): axis %lld has size 0, so there is no maximum", label, since, (long long)axis);
  out->rank = 0;
  for (int64_t d = 0; d < r; d++) {
    if (d == axis && !keepdims) continue;
    out->dims[out->rank++] = d == axis ? 1 : in->dims[d];
  }
  return MINNX_OK;
}

typedef struct {
  mx_arg_fn fn;
  int64_t outer, n, inner;
  /* the kernel's scratch: part of the session, sized here once */
  _Alignas(16) unsigned char scratch[MX_ARG_SCRATCH];
} argmax_plan;

size_t mx_argmax_plan_size(int32_t n_inputs) {
  (void)n_inputs;
  return sizeof(argmax_plan);
}

void mx_argmax_prepare(const mx_prepare_ctx *c, void *plan) {
  int64_t count = mx_shape_count(c->in[0]); /* overflow-checked (sessions refuse those anyway) */
  mx_argmax_prepare_isa(c, plan, count >= AVX2_FROM && mx_arg_avx2_available());
}

void mx_argmax_prepare_isa(const mx_prepare_ctx *c, void *plan, int avx2) {
  argmax_plan *p = plan;
  const mx_shape *in = c->in[0];
  int64_t axis = attr_int(c->node, "axis", 0);
  if (axis < 0) axis += in->rank;
  p->outer = 1;
  p->inner = 1;
  for (int64_t d = 0; d < axis; d++) p->outer *= in->dims[d];
  for (int64_t d = axis + 1; d < in->rank; d++) p->inner *= in->dims[d];
  p->n = in->dims[axis];
  p->fn = mx_arg_kernel(c->dtype, MX_MAX, attr_int(c->node, "select_last_index", 0) != 0, avx2);
}

void mx_argmax_eval(void *plan, const void *const *in, void *out) {
  argmax_plan *p = plan;
  p->fn(in[0], out, p->outer, p->n, p->inner, p->scratch);
}
