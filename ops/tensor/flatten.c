/* Flatten: the input as a matrix [d0 x ... x d(axis-1), d(axis) x ... ],
 * a view of the same bytes. axis in [0, r] (from 11 also [-r, -1]). */
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

/* The product of dims [from, to) of s: -1 when one is unknown, -2 on overflow. */
static int64_t product(const mx_shape *s, int from, int to) {
  mx_shape part = {.rank = to - from};
  for (int d = from; d < to; d++) part.dims[d - from] = s->dims[d];
  return mx_shape_count(&part);
}

static minnx_status flatten_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  int64_t axis = mx_attr_int(c->node, "axis", 1);
  c->out[0] = (mx_shape){.rank = 2, .dims = {-1, -1}};
  if (in->rank < 0) return MINNX_OK;
  /* axis r is allowed: everything goes to the first dim */
  int64_t a = axis == in->rank ? axis : mx_axis(c, axis, in->rank);
  if (a < 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range [%d, %d] for an input of rank %d", (long long)axis,
                      (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -in->rank : 0, in->rank, in->rank);
  int64_t outer = product(in, 0, (int)a), inner = product(in, (int)a, in->rank);
  if (outer == -2 || inner == -2)
    return mx_op_fail(c, MINNX_E_LIMIT, "a dim of the output overflows int64 (axis %lld)", (long long)axis);
  c->out[0].dims[0] = outer;
  c->out[0].dims[1] = inner;
  return MINNX_OK;
}

static const mx_io in1[] = {{.name = "input", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = MX_FLOATS, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in9[] = {{.name = "input", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out9[] = {{.name = "output", .types = NO_BF16, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in13[] = {{.name = "input", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_attr_spec attrs[] = {{"axis", MX_ATTR_INT}, {NULL, 0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = in1, .out = out1, .attrs = attrs, .infer = flatten_infer},
    {.since = 9, .in = in9, .out = out9, .attrs = attrs, .infer = flatten_infer},
    {.since = 11, .in = in9, .out = out9, .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = flatten_infer},
    {.since = 13, .in = in13, .out = out13, .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = flatten_infer},
    {.since = 21, .in = in13, .out = out13, .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = flatten_infer},
};
MX_OP_TABLE(Flatten, "", rows);
