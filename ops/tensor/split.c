/* Split: the input cut along `axis` (default 0) into the node's outputs,
 * in order. The lengths: the attribute `split` (1, 2, 11), or the optional
 * constant input `split` (1: of the data's dtype, whole numbers; 13: int64);
 * each >= 0, one per output, summing to the axis's dim. Without them: equal
 * parts (the dim must divide by the number of outputs), or from 18 with the
 * attribute `num_outputs` (which must then be the number of outputs; one
 * of it and `split` is required): parts of ceil(dim / n), the last what is
 * left, which may be 0 (6 in 4 parts: 2, 2, 2, 0, as ONNX's reference
 * computes), refused when less is left (5 in 4 parts). Negative axes count
 * from the end in every version (the spec says so from 11; exporters wrote
 * axis=-1 at opset 6, as ONNX's pytorch-converted test_GLU does). Version 1 takes float types, 2 every dtype but bfloat16, 13 adds it.
 * The copy is one block per output per row of the dims before the axis; a
 * constant input is folded at load, each output pointing into its bytes when
 * one row lies before the axis, else by the same copy. */
#include <string.h>

#include "ops/core/half.h"
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

typedef struct split_params {
  int64_t rows, in_block; /* rows before the axis; bytes of one input row */
  int32_t n;
  int64_t block[]; /* per output: bytes of one of its rows */
} split_params;

/* Split-1's input lengths, whole numbers of the data's float type. */
static minnx_status split_float_lengths(const mx_op_ctx *c, int64_t n, int64_t *len) {
  for (int64_t k = 0; k < n; k++) {
    double v = c->in_dtype[1] == MINNX_DOUBLE ? ((const double *)c->in_data[1])[k]
               : c->in_dtype[1] == MINNX_FLOAT ? ((const float *)c->in_data[1])[k]
                                               : mx_f16_to_f32(((const uint16_t *)c->in_data[1])[k]);
    if (!(v >= 0 && v < 9.0e18) || v != (double)(int64_t)v)
      return mx_op_fail(c, MINNX_E_SHAPE, "split entry %lld is %g; lengths are whole numbers >= 0", (long long)k, v);
    len[k] = (int64_t)v;
  }
  return MINNX_OK;
}

/* The axis and each output's length along it (*known = 0: once bound). */
static minnx_status split_lengths(mx_op_ctx *c, int64_t *axis, int64_t *len, int *known) {
  const mx_shape *in = c->in[0];
  int32_t outs = c->n_out;
  int64_t given = mx_attr_int(c->node, "axis", 0), n = -1;
  const int64_t *v = NULL;
  *known = 0;
  if (in->rank < 0) return MINNX_OK;
  *axis = mx_axis(c, given, in->rank);
  if (*axis < 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for an input of rank %d", (long long)given, in->rank);
  int from_input = c->n_in > 1 && c->in[1];
  if (from_input) {
    if (c->in[1]->rank != 1) return mx_op_fail(c, MINNX_E_SHAPE, "input 'split' has rank %d; it must be 1-D", c->in[1]->rank);
    if (!c->in_data[1]) return MINNX_OK; /* a graph input: known once bound */
    n = c->in[1]->dims[0];
    if (c->row->since == 1 && mx_node_attr(c->node, "split"))
      return mx_op_fail(c, MINNX_E_MODEL, "split is given both as an input and as an attribute");
  } else if (mx_node_attr(c->node, "split")) {
    const mx_attr *a = mx_node_attr(c->node, "split");
    v = a->ints, n = (int64_t)a->n;
  }
  const mx_attr *num = mx_node_attr(c->node, "num_outputs");
  if (num && n >= 0) return mx_op_fail(c, MINNX_E_MODEL, "split and num_outputs are both given; one of them at most");
  if (c->row->since >= 18 && !num && n < 0) return mx_op_fail(c, MINNX_E_MODEL, "one of split and num_outputs is required");
  if (num && num->i != outs)
    return mx_op_fail(c, MINNX_E_SHAPE, "num_outputs is %lld but the node has %d outputs", (long long)num->i, (int)outs);
  if (n >= 0 && n != outs)
    return mx_op_fail(c, MINNX_E_SHAPE, "split has %lld entries but the node has %d outputs", (long long)n, (int)outs);
  int64_t dim = in->dims[*axis];
  if (n >= 0) {
    if (from_input && c->row->since == 1) {
      minnx_status st = split_float_lengths(c, n, len);
      if (st) return st;
    } else {
      if (from_input) v = c->in_data[1];
      for (int64_t k = 0; k < n; k++) len[k] = v[k];
    }
    int64_t sum = 0;
    for (int64_t k = 0; k < n; k++) {
      if (len[k] < 0) return mx_op_fail(c, MINNX_E_SHAPE, "split entry %lld is %lld; lengths are >= 0", (long long)k, (long long)len[k]);
      if (len[k] > INT64_MAX - sum) return mx_op_fail(c, MINNX_E_SHAPE, "the split lengths' sum overflows int64");
      sum += len[k];
    }
    if (dim >= 0 && sum != dim)
      return mx_op_fail(c, MINNX_E_SHAPE, "the split lengths sum to %lld but axis %lld has %lld", (long long)sum,
                        (long long)*axis, (long long)dim);
    *known = 1;
    return MINNX_OK;
  }
  if (dim < 0) return MINNX_OK;
  if (!num) {
    if (dim % outs)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld's %lld elements do not divide into %d equal outputs", (long long)*axis,
                        (long long)dim, (int)outs);
    for (int32_t k = 0; k < outs; k++) len[k] = dim / outs;
  } else {
    int64_t part = dim / outs + (dim % outs != 0), last = dim - part * (outs - 1);
    if (last < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "num_outputs %d: parts of %lld of axis %lld's %lld elements leave %lld for the last",
                        (int)outs, (long long)part, (long long)*axis, (long long)dim, (long long)last);
    for (int32_t k = 0; k < outs; k++) len[k] = k + 1 < outs ? part : last;
  }
  *known = 1;
  return MINNX_OK;
}

static void split_run(const split_params *p, const void *in, void *const *out) {
  int64_t at = 0;
  for (int32_t k = 0; k < p->n; k++) {
    for (int64_t r = 0; r < p->rows && p->block[k]; r++)
      memcpy((unsigned char *)out[k] + r * p->block[k], (const unsigned char *)in + r * p->in_block + at, (size_t)p->block[k]);
    at += p->block[k];
  }
}

static size_t split_params_size(const mx_node *n) {
  return sizeof(split_params) + (size_t)n->n_outputs * sizeof(int64_t);
}

/* Each output's shape, and the copy's params when p is given. */
static minnx_status split_resolve(mx_op_ctx *c, split_params *p, int *ready) {
  int64_t axis = 0, len[128];
  int known;
  *ready = 0;
  for (int32_t k = 0; k < c->n_out; k++) c->out[k] = (mx_shape){.rank = -1};
  if (c->n_out > 128) return mx_op_fail(c, MINNX_E_LIMIT, "the node has %d outputs, above minnx's 128", (int)c->n_out);
  minnx_status st = split_lengths(c, &axis, len, &known);
  if (st || c->in[0]->rank < 0) return st;
  for (int32_t k = 0; k < c->n_out; k++) {
    c->out[k] = *c->in[0];
    c->out[k].dims[axis] = known ? len[k] : -1;
  }
  if (!known || mx_shape_count(c->in[0]) < 0) return MINNX_OK;
  *ready = 1;
  if (!p) return MINNX_OK;
  size_t elem = mx_dtype_size(c->in_dtype[0]);
  int64_t inner = (int64_t)elem;
  p->rows = 1, p->n = c->n_out;
  for (int d = 0; d < axis; d++) p->rows *= c->in[0]->dims[d];
  for (int d = (int)axis + 1; d < c->in[0]->rank; d++) inner *= c->in[0]->dims[d];
  p->in_block = inner * c->in[0]->dims[axis];
  for (int32_t k = 0; k < c->n_out; k++) p->block[k] = inner * len[k];
  return MINNX_OK;
}

static minnx_status split_infer(mx_op_ctx *c) {
  int ready;
  minnx_status st = split_resolve(c, NULL, &ready);
  if (st || !ready || !c->pool || !c->in_data[0]) return st;
  void *outs[128];
  union {
    split_params p;
    unsigned char room[sizeof(split_params) + 128 * sizeof(int64_t)];
  } u;
  split_resolve(c, &u.p, &ready);
  /* a constant input: every output folded; with one row before the axis (a
   * gate's rows cut from an LSTM's weights) each output is a run of the
   * input's bytes and points into them, no copy */
  int64_t at = 0;
  for (int32_t k = 0; k < c->n_out; at += u.p.block[k], k++)
    if (u.p.rows == 1 && u.p.block[k] ? (st = mx_fold_within(c, k, (const unsigned char *)c->in_data[0] + at))
                                      : (st = mx_fold_output(c, k, &outs[k])) || !outs[k])
      return st;
  if (u.p.rows != 1) split_run(&u.p, c->in_data[0], outs);
  return MINNX_OK;
}

static minnx_status split_prepare(mx_op_ctx *c, void *params) {
  int ready;
  return split_resolve(c, params, &ready);
}

static void split_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  (void)x;
  split_run(params, in[0], out);
}

static const mx_io in1[] = {{.name = "input", .types = MX_FLOATS, .group = 1},
                            {.name = "split", .types = MX_FLOATS, .group = 1, .flags = MX_IO_CONST | MX_IO_OPTIONAL}, {0}};
static const mx_io out1[] = {{.name = "outputs", .types = MX_FLOATS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io in2[] = {{.name = "input", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out2[] = {{.name = "outputs", .types = NO_BF16, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io in13[] = {{.name = "input", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "split", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST | MX_IO_OPTIONAL}, {0}};
static const mx_io out13[] = {{.name = "outputs", .types = MX_ALL_TYPES, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_attr_spec attrs1[] = {{"axis", MX_ATTR_INT}, {"split", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec attrs13[] = {{"axis", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec attrs18[] = {{"axis", MX_ATTR_INT}, {"num_outputs", MX_ATTR_INT}, {NULL, 0}};

#define ROW .infer = split_infer, .params_size = split_params_size, .prepare = split_prepare, .eval = split_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1, .attrs = attrs1, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 2, .in = in2, .out = out2, .attrs = attrs1, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 11, .in = in2, .out = out2, .attrs = attrs1, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 13, .in = in13, .out = out13, .attrs = attrs13, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 18, .in = in13, .out = out13, .attrs = attrs18, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(Split, "", rows);
