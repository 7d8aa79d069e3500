/* The axes, keepdims and noop_with_empty_axes of the reductions
 * (reduce_axes.h): ReduceMax/ReduceMin (ops/minmax/reduce.c) and the sums
 * (ops/reduction/reduce.c) read them here. */
#include <string.h>

#include "ops/core/reduce_axes.h"

const mx_attr_spec mx_reduce_attrs_axes[] = {{"axes", MX_ATTR_INTS}, {"keepdims", MX_ATTR_INT}, {NULL, 0}};
const mx_attr_spec mx_reduce_attrs_noop[] = {{"keepdims", MX_ATTR_INT}, {"noop_with_empty_axes", MX_ATTR_INT}, {NULL, 0}};

/* The node's axes: from the attribute, or from the constant input (18+). */
static void axes_given(const mx_op_ctx *c, const int64_t **axes, const unsigned char **bytes, int64_t *n) {
  *axes = NULL, *bytes = NULL, *n = 0;
  if (c->row->rules & MX_RULE_AXES_INPUT) {
    if (c->n_in > 1 && c->in[1] && c->in_data[1]) {
      *bytes = c->in_data[1];
      *n = mx_shape_count(c->in[1]);
    }
    return;
  }
  const mx_attr *a = mx_node_attr(c->node, "axes");
  if (a) *axes = a->ints, *n = (int64_t)a->n;
}

/* The reduced axes of an input of rank r as a mask (bit d: axis d), after
 * the checks: each in range (negative ones from 11), none twice. *noop: no
 * axes and noop_with_empty_axes=1. No axes otherwise reduces them all. */
minnx_status mx_reduced_axes(const mx_op_ctx *c, int r, uint32_t *mask, int *noop) {
  const int64_t *list;
  const unsigned char *bytes;
  int64_t n;
  axes_given(c, &list, &bytes, &n);
  if ((c->row->rules & MX_RULE_AXES_INPUT) && c->n_in > 1 && c->in[1] && c->in[1]->rank > 1)
    return mx_op_fail(c, MINNX_E_SHAPE, "the axes input has rank %d; its shape must be 1-D", c->in[1]->rank);
  *mask = 0;
  *noop = n == 0 && mx_attr_int(c->node, "noop_with_empty_axes", 0) == 1;
  if (n == 0) {
    if (!*noop) *mask = r > 0 ? (uint32_t)((1ull << r) - 1) : 0;
    return MINNX_OK;
  }
  int64_t lo = (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -(int64_t)r : 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t a;
    if (list) a = list[i];
    else memcpy(&a, bytes + (size_t)i * sizeof a, sizeof a); /* little-endian, maybe unaligned */
    if (a < lo || a > r - 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld (axes[%lld]) is out of range [%lld, %lld] for an input of rank %d",
                        (long long)a, (long long)i, (long long)lo, (long long)(r - 1), r);
    if (a < 0) a += r;
    if (*mask >> a & 1) return mx_op_fail(c, MINNX_E_MODEL, "axis %lld is given twice in axes", (long long)a);
    *mask |= 1u << a;
  }
  return MINNX_OK;
}

minnx_status mx_reduce_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  int64_t keepdims = mx_attr_int(c->node, "keepdims", 1);
  int64_t noop_attr = mx_attr_int(c->node, "noop_with_empty_axes", 0);
  if (keepdims != 0 && keepdims != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute keepdims is %lld; it must be 0 or 1", (long long)keepdims);
  if (noop_attr != 0 && noop_attr != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute noop_with_empty_axes is %lld; it must be 0 or 1",
                      (long long)noop_attr);
  /* checked again once the input's rank, or a graph input's axes, are known */
  int axes_unknown = (c->row->rules & MX_RULE_AXES_INPUT) && c->n_in > 1 && c->in[1] && !c->in_data[1];
  if (in->rank < 0 || axes_unknown) {
    out->rank = -1;
    return MINNX_OK;
  }
  uint32_t mask;
  int noop;
  minnx_status st = mx_reduced_axes(c, in->rank, &mask, &noop);
  if (st) return st;
  if (noop) {
    *out = *in;
    return MINNX_OK;
  }
  out->rank = 0;
  for (int d = 0; d < in->rank; d++) {
    if (!(mask >> d & 1)) out->dims[out->rank++] = in->dims[d];
    else if (keepdims) out->dims[out->rank++] = 1;
  }
  return MINNX_OK;
}

/* From 18 the node is an identity, a view of its input without a copy, when
 * noop_with_empty_axes=1 and axes is absent or an empty constant (known at
 * load). Empty axes fed at run time still give the input, as a copy. */
int mx_reduce_is_noop(const mx_graph *g, const mx_node *n) {
  if (mx_attr_int(n, "noop_with_empty_axes", 0) != 1) return 0;
  if (n->n_inputs < 2 || n->inputs[1] < 0) return 1;
  const mx_value *axes = &g->values[mx_bytes_of(g, n->inputs[1])];
  return axes->kind == MX_VALUE_INITIALIZER && mx_shape_count(&axes->shape) == 0;
}

