/* Squeeze and Unsqueeze: the input's bytes with dims of size 1 taken out or
 * put in, a view (no copy). The axes come as an attribute (versions 1, 11)
 * or as a constant input (from 13); negative axes count from the end from
 * 11. An axis out of range or given twice is refused, and so is squeezing a
 * dim that is not 1. Squeeze without axes takes out every dim of size 1. */
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

/* Marks the axes (of a rank-r shape) in `marked`; a refusal names the axis. */
static minnx_status mark_axes(const mx_op_ctx *c, const int64_t *axes, int64_t n, int r, unsigned char *marked) {
  for (int d = 0; d < MX_MAX_RANK; d++) marked[d] = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t a = mx_axis(c, axes[i], r);
    if (a < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range [%d, %d] for rank %d", (long long)axes[i],
                        (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -r : 0, r - 1, r);
    if (marked[a]) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is given twice", (long long)axes[i]);
    marked[a] = 1;
  }
  return MINNX_OK;
}

static minnx_status squeeze_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  const int64_t *axes;
  int64_t n;
  unsigned char marked[MX_MAX_RANK];
  minnx_status st = mx_int_list(c, "axes", 13, 0, &axes, &n);
  out->rank = -1;
  if (st || in->rank < 0 || n == -2) return st; /* -2: known once the axes input is bound */
  if (n >= 0 && (st = mark_axes(c, axes, n, in->rank, marked))) return st;
  out->rank = 0;
  for (int d = 0; d < in->rank; d++) {
    int64_t v = in->dims[d];
    if (n < 0 && v < 0) { /* every dim of size 1 goes: which ones is known with the dims */
      out->rank = -1;
      return MINNX_OK;
    }
    if (n >= 0 && marked[d] && v >= 0 && v != 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %d has size %lld; only a dim of size 1 can be squeezed", d, (long long)v);
    if (n >= 0 ? !marked[d] : v != 1) out->dims[out->rank++] = v;
  }
  return MINNX_OK;
}

static minnx_status unsqueeze_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  const int64_t *axes;
  int64_t n;
  unsigned char marked[MX_MAX_RANK];
  minnx_status st = mx_int_list(c, "axes", 13, 1, &axes, &n);
  out->rank = -1;
  if (st || in->rank < 0 || n == -2) return st; /* -2: known once the axes input is bound */
  if (in->rank + n > MX_MAX_RANK)
    return mx_op_fail(c, MINNX_E_LIMIT, "the output would have rank %lld, above minnx's maximum %d", (long long)(in->rank + n),
                      MX_MAX_RANK);
  out->rank = in->rank + (int)n;
  if ((st = mark_axes(c, axes, n, out->rank, marked))) return st;
  for (int d = 0, k = 0; d < out->rank; d++) out->dims[d] = marked[d] ? 1 : in->dims[k++];
  return MINNX_OK;
}

static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = NO_BF16, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io squeeze_in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                                     {.name = "axes", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST | MX_IO_OPTIONAL},
                                     {0}};
static const mx_io unsqueeze_in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                                       {.name = "axes", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_attr_spec attrs[] = {{"axes", MX_ATTR_INTS}, {NULL, 0}};

static const mx_op_row squeeze_rows[] = {
    {.since = 1, .in = in1, .out = out1, .attrs = attrs, .infer = squeeze_infer},
    {.since = 11, .in = in1, .out = out1, .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = squeeze_infer},
    {.since = 13, .in = squeeze_in13, .out = out13, .rules = MX_RULE_NEGATIVE_AXIS, .infer = squeeze_infer},
    {.since = 21, .in = squeeze_in13, .out = out13, .rules = MX_RULE_NEGATIVE_AXIS, .infer = squeeze_infer},
};
MX_OP_TABLE(Squeeze, "", squeeze_rows);

static const mx_op_row unsqueeze_rows[] = {
    {.since = 1, .in = in1, .out = out1, .attrs = attrs, .infer = unsqueeze_infer},
    {.since = 11, .in = in1, .out = out1, .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = unsqueeze_infer},
    {.since = 13, .in = unsqueeze_in13, .out = out13, .rules = MX_RULE_NEGATIVE_AXIS, .infer = unsqueeze_infer},
    {.since = 21, .in = unsqueeze_in13, .out = out13, .rules = MX_RULE_NEGATIVE_AXIS, .infer = unsqueeze_infer},
};
MX_OP_TABLE(Unsqueeze, "", unsqueeze_rows);
