/* Gather: along `axis` (default 0, negative counts from the end), the
 * data's slices that the indices (int32 or int64, any rank q) name; the
 * output's shape is the data's with the axis replaced by the indices'
 * shape (rank q + r - 1). Version 1 takes indices in [0, dim), 11 also
 * [-dim, -1] (counting from the end), 13 adds bfloat16. Indices are data:
 * one out of range refuses the node at load when the indices are constant
 * and the output is folded, else it fails the run naming the node
 * (mx_fault), having read nothing out of bounds. */
#include "ops/tensor/gather.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

/* The copy's params from the node's shapes (concrete ones at prepare). */
static minnx_status gather_resolve(mx_op_ctx *c, mx_gather_params *p) {
  const mx_shape *data = c->in[0], *idx = c->in[1];
  mx_shape *out = &c->out[0];
  int64_t given = mx_attr_int(c->node, "axis", 0);
  *out = (mx_shape){.rank = -1};
  if (data->rank == 0) return mx_op_fail(c, MINNX_E_SHAPE, "the data has rank 0; it must have rank >= 1 (an axis)");
  if (data->rank < 0 || idx->rank < 0) return MINNX_OK; /* known once both ranks are */
  int64_t axis = mx_axis(c, given, data->rank);
  if (axis < 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for data of rank %d", (long long)given, data->rank);
  if (data->rank - 1 + idx->rank > MX_MAX_RANK)
    return mx_op_fail(c, MINNX_E_LIMIT, "the output's rank %d is above minnx's maximum rank %d", data->rank - 1 + idx->rank, MX_MAX_RANK);
  out->rank = data->rank - 1 + idx->rank;
  int r = 0;
  for (int d = 0; d < axis; d++) out->dims[r++] = data->dims[d];
  for (int d = 0; d < idx->rank; d++) out->dims[r++] = idx->dims[d];
  for (int d = (int)axis + 1; d < data->rank; d++) out->dims[r++] = data->dims[d];
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  *p = (mx_gather_params){.outer = 1, .dim = data->dims[axis], .n_idx = mx_shape_count(idx), .inner = 1,
                          .elem = mx_dtype_size(c->in_dtype[0]), .idx32 = c->in_dtype[1] == MINNX_INT32,
                          .negative = c->row->since >= 11};
  for (int d = 0; d < axis; d++) p->outer *= data->dims[d];
  for (int d = (int)axis + 1; d < data->rank; d++) p->inner *= data->dims[d];
  return MINNX_OK;
}

static minnx_status gather_infer(mx_op_ctx *c) {
  mx_gather_params p;
  minnx_status st = gather_resolve(c, &p);
  if (st || !c->pool || !c->in_data[0] || !c->in_data[1] || mx_shape_count(&c->out[0]) < 0 || mx_shape_count(c->in[0]) < 0)
    return st; /* folded at load only */
  for (int64_t j = 0; j < p.n_idx; j++) /* data and indices constant: folded, once the indices are known good */
    if (mx_gather_index(&p, c->in_data[1], j) < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "index %lld (entry %lld) is out of range of an axis of %lld",
                        (long long)(p.idx32 ? ((const int32_t *)c->in_data[1])[j] : ((const int64_t *)c->in_data[1])[j]),
                        (long long)j, (long long)p.dim);
  void *bytes;
  if (p.outer == 1 && p.n_idx == 1 && mx_shape_count(&c->out[0]) > 0) /* one run of data's bytes: points into them */
    return mx_fold_within(c, 0, (const unsigned char *)c->in_data[0] + (size_t)mx_gather_index(&p, c->in_data[1], 0) *
                                                                           (size_t)p.inner * p.elem);
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  mx_gather_run(&p, &(mx_exec){0}, c->in_data[0], c->in_data[1], bytes);
  return MINNX_OK;
}

static size_t gather_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_gather_params);
}

static minnx_status gather_prepare(mx_op_ctx *c, void *params) { return gather_resolve(c, params); }

static void gather_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  mx_gather_run(params, x, in[0], in[1], out[0]);
}

#define TIND (MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .group = 1}, {.name = "indices", .types = TIND, .group = 2}, {0}};
static const mx_io out1[] = {{.name = "output", .types = NO_BF16, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1}, {.name = "indices", .types = TIND, .group = 2}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_attr_spec attrs[] = {{"axis", MX_ATTR_INT}, {NULL, 0}};

#define ROW .attrs = attrs, .rules = MX_RULE_NEGATIVE_AXIS, .infer = gather_infer, .params_size = gather_params_size, \
            .prepare = gather_prepare, .eval = gather_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1},
    {ROW, .since = 11, .in = in1, .out = out1},
    {ROW, .since = 13, .in = in13, .out = out13},
};
MX_OP_TABLE(Gather, "", rows);
