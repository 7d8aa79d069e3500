/* Reshape: the input's bytes under another shape, a view (no copy). The
 * shape comes from the `shape` attribute (version 1) or the constant `shape`
 * input (from 5): a dim of 0 copies the input's dim at that index (or, with
 * allowzero=1 from 14, is 0), one dim of -1 takes what the element count
 * leaves. The element count must not change. */
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static minnx_status reshape_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  const int64_t *want;
  int64_t n, allowzero = mx_attr_int(c->node, "allowzero", 0);
  minnx_status st = mx_int_list(c, "shape", 5, 1, &want, &n);
  out->rank = -1;
  if (st || n == -2) return st; /* -2: known once the shape input is bound */
  if (n > MX_MAX_RANK) return mx_op_fail(c, MINNX_E_LIMIT, "the shape has %lld dims, above minnx's maximum %d", (long long)n, MX_MAX_RANK);
  if (allowzero != 0 && allowzero != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute allowzero is %lld; it must be 0 or 1", (long long)allowzero);
  int free_dim = -1, zero = 0;
  out->rank = (int)n;
  for (int i = 0; i < out->rank; i++) {
    int64_t d = want[i];
    if (d < -1) return mx_op_fail(c, MINNX_E_SHAPE, "shape dim %d is %lld; dims are >= -1", i, (long long)d);
    if (d == -1 && free_dim >= 0) return mx_op_fail(c, MINNX_E_SHAPE, "the shape has -1 at %d and at %d; one at most", free_dim, i);
    if (d == -1) free_dim = i;
    if (d == 0 && !allowzero) {
      if (in->rank >= 0 && i >= in->rank)
        return mx_op_fail(c, MINNX_E_SHAPE, "shape dim %d is 0 (copy the input's) but the input has rank %d", i, in->rank);
      d = in->rank >= 0 ? in->dims[i] : -1;
    }
    zero |= d == 0;
    out->dims[i] = d; /* -1: the free dim, or unknown until the input's is */
  }
  if (allowzero && zero && free_dim >= 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "with allowzero=1 the shape cannot hold both 0 and -1");
  int64_t count = mx_shape_count(in);
  if (free_dim >= 0) {
    /* the other dims' product; the free dim is what it leaves of the count */
    out->dims[free_dim] = 1;
    int64_t rest = mx_shape_count(out);
    out->dims[free_dim] = -1;
    if (rest == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the shape's element count overflows int64");
    if (rest == 0 && count >= 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "the shape has -1 beside a dim of 0: the input's %lld elements do not fix it",
                        (long long)count);
    if (count < 0 || rest < 0) return MINNX_OK; /* known once the input's shape is */
    if (count % rest)
      return mx_op_fail(c, MINNX_E_SHAPE, "the input's %lld elements do not divide into the shape's other dims (%lld)",
                        (long long)count, (long long)rest);
    out->dims[free_dim] = count / rest;
  }
  int64_t got = mx_shape_count(out);
  if (got == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the shape's element count overflows int64");
  if (got >= 0 && count >= 0 && got != count)
    return mx_op_fail(c, MINNX_E_SHAPE, "the input has %lld elements but the shape %lld", (long long)count, (long long)got);
  return MINNX_OK;
}

static const mx_io in1[] = {{.name = "data", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "reshaped", .types = MX_FLOATS, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in5[] = {{.name = "data", .types = NO_BF16, .group = 1},
                            {.name = "shape", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out5[] = {{.name = "reshaped", .types = NO_BF16, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "shape", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out13[] = {{.name = "reshaped", .types = MX_ALL_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_attr_spec attrs1[] = {{"shape", MX_ATTR_INTS}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec attrs14[] = {{"allowzero", MX_ATTR_INT}, {NULL, 0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = in1, .out = out1, .attrs = attrs1, .infer = reshape_infer},
    {.since = 5, .in = in5, .out = out5, .infer = reshape_infer},
    {.since = 13, .in = in13, .out = out13, .infer = reshape_infer},
    {.since = 14, .in = in13, .out = out13, .attrs = attrs14, .infer = reshape_infer},
    {.since = 19, .in = in13, .out = out13, .attrs = attrs14, .infer = reshape_infer},
    {.since = 21, .in = in13, .out = out13, .attrs = attrs14, .infer = reshape_infer},
};
MX_OP_TABLE(Reshape, "", rows);
