/* Pad: each axis extended (or cropped) at its beginning and end. The pads
 * are [x1_begin, x2_begin, ..., x1_end, x2_end, ...]: the attribute
 * `paddings` (version 1) or `pads` (2), then the constant int64 input `pads`
 * (11), for every axis, or (18) for the axes the optional constant input
 * `axes` lists (int32 or int64, negative ones from the end, none twice; the
 * others get 0). A negative pad removes that many elements from its end of
 * the axis first; the positive pads then extend what is kept, by `mode`:
 * constant (the attribute `value`, float, before 11; the optional input
 * `constant_value` from 11, one element of the data's dtype; else 0),
 * reflect (mirrored about the ends without repeating them: a pad above the
 * kept length - 1 is refused, as PyTorch does, since numpy's repeated
 * reflection then depends on the order it pads the two sides in), edge (the
 * end element repeated) or, from 19, wrap (the axis as a ring, any length).
 * A mode other than constant cannot extend an axis with nothing kept
 * (numpy's rule). Version 1 and 2 take float types; 11 the numeric ones
 * but bfloat16; 13 adds bfloat16 and bool; 18 the axes; 19 wrap; 21 only
 * dtypes minnx lacks. The pads (and axes) fix the output's shape: constant
 * ones at load, a graph input's when it is bound; a bad one is refused
 * then, naming the node. The copy is remap.h's. */
#include <string.h>

#include "ops/core/half.h"
#include "ops/tensor/remap.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))
#define NUMERIC_NO_BF16 (MX_NUMERIC & ~MX_BIT(MINNX_BFLOAT16))

static const char *const mode_names[] = {"constant", "edge", "reflect", "wrap"};

/* The remap's params from the node (ready = 0: the shape waits for a bound input). */
static minnx_status pad_resolve(mx_op_ctx *c, mx_remap_params *p, int *ready) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  *out = (mx_shape){.rank = -1};
  *ready = 0;
  const mx_attr *m = mx_node_attr(c->node, "mode");
  int mode = -1;
  for (int k = 0; k < 4 && m; k++)
    if (strcmp(m->s, mode_names[k]) == 0) mode = k;
  if (!m) mode = MX_REMAP_CONSTANT;
  if (mode < 0 || (mode == MX_REMAP_WRAP && c->row->since < 19))
    return mx_op_fail(c, MINNX_E_MODEL, "mode '%s' is not one of constant, reflect, edge%s", m->s,
                      c->row->since >= 19 ? ", wrap" : " (wrap comes with Pad-19)");
  if (c->n_in > 2 && c->in[2] && c->in[2]->rank >= 0 && (c->in[2]->rank > 1 || mx_shape_count(c->in[2]) == 0 ||
                                                          mx_shape_count(c->in[2]) > 1))
    return mx_op_fail(c, MINNX_E_SHAPE, "constant_value must be one element (a scalar); it has rank %d and %lld elements",
                      c->in[2]->rank, (long long)mx_shape_count(c->in[2]));
  const int64_t *pads;
  int64_t n_pads;
  minnx_status st = mx_int_list(c, c->row->since == 1 ? "paddings" : "pads", 11, 1, &pads, &n_pads);
  if (st || n_pads == -2 || in->rank < 0) return st; /* known once the pads (or the input's rank) are */
  int rank = in->rank;
  int64_t begin[MX_MAX_RANK] = {0}, end[MX_MAX_RANK] = {0};
  int64_t n_axes = rank;
  if (c->n_in > 3 && c->in[3]) { /* Pad-18's axes */
    const mx_shape *a = c->in[3];
    if (a->rank != 1) return mx_op_fail(c, MINNX_E_SHAPE, "input 'axes' has rank %d; it must be 1-D", a->rank);
    if (!c->in_data[3]) return MINNX_OK; /* a graph input: known once bound */
    n_axes = a->dims[0];
    if (n_pads != 2 * n_axes)
      return mx_op_fail(c, MINNX_E_SHAPE, "pads has %lld entries; it must have 2 per axis listed (%lld)", (long long)n_pads,
                        (long long)(2 * n_axes));
    unsigned seen = 0;
    for (int64_t k = 0; k < n_axes; k++) {
      int64_t given = c->in_dtype[3] == MINNX_INT32 ? ((const int32_t *)c->in_data[3])[k] : ((const int64_t *)c->in_data[3])[k];
      int64_t d = mx_axis(c, given, rank);
      if (d < 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for data of rank %d", (long long)given, rank);
      if (seen >> d & 1) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is listed twice", (long long)d);
      seen |= 1u << d;
      begin[d] = pads[k], end[d] = pads[k + n_axes];
    }
  } else {
    if (n_pads != 2 * (int64_t)rank)
      return mx_op_fail(c, MINNX_E_SHAPE, "pads has %lld entries; data of rank %d needs %d (a begin and an end per axis)",
                        (long long)n_pads, rank, 2 * rank);
    for (int d = 0; d < rank; d++) begin[d] = pads[d], end[d] = pads[d + rank];
  }
  *p = (mx_remap_params){.rank = rank ? rank : 1, .mode = mode, .elem = mx_dtype_size(c->in_dtype[0])};
  p->in_dims[0] = p->out_dims[0] = p->n[0] = 1; /* a scalar: one row of one */
  out->rank = rank;
  for (int d = 0; d < rank; d++) {
    int64_t dim = in->dims[d], b = begin[d], e = end[d];
    out->dims[d] = -1;
    if (dim < 0) continue;
    /* what is kept: [lo, hi) of the axis; each bound checked before it is formed */
    if ((b < 0 && b < -dim) || (e < 0 && e < -dim) || (b < 0 ? -b : 0) > dim - (e < 0 ? -e : 0))
      return mx_op_fail(c, MINNX_E_SHAPE, "pads %lld and %lld on axis %d remove more than its %lld elements", (long long)b,
                        (long long)e, d, (long long)dim);
    int64_t lo = b < 0 ? -b : 0, kept = dim - lo - (e < 0 ? -e : 0), pb = b > 0 ? b : 0, pe = e > 0 ? e : 0;
    if (pb > INT64_MAX - kept || pe > INT64_MAX - kept - pb)
      return mx_op_fail(c, MINNX_E_LIMIT, "pads %lld and %lld on axis %d make a dim above int64's range", (long long)b,
                        (long long)e, d);
    if (mode != MX_REMAP_CONSTANT && kept == 0 && pb + pe > 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "mode %s cannot extend axis %d: nothing of it is kept", mode_names[mode], d);
    if (mode == MX_REMAP_REFLECT && ((pb > 0 && pb > kept - 1) || (pe > 0 && pe > kept - 1)))
      return mx_op_fail(c, MINNX_E_SHAPE, "reflect pads %lld and %lld on axis %d exceed its kept length %lld - 1",
                        (long long)pb, (long long)pe, d, (long long)kept);
    out->dims[d] = kept + pb + pe;
    p->in_dims[d] = dim, p->out_dims[d] = out->dims[d], p->lo[d] = lo, p->n[d] = kept, p->begin[d] = pb;
  }
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  *ready = mx_shape_count(out) >= 0 && mx_shape_count(in) >= 0;
  if (c->row->since < 11) { /* the attribute value, in the data's float type */
    float v = mx_node_attr(c->node, "value") ? mx_node_attr(c->node, "value")->f : 0.0f;
    double dv = v;
    uint16_t h = mx_f32_to_f16(v);
    if (c->in_dtype[0] == MINNX_FLOAT16) memcpy(p->value, &h, 2);
    else if (c->in_dtype[0] == MINNX_DOUBLE) memcpy(p->value, &dv, 8);
    else memcpy(p->value, &v, 4);
  }
  return MINNX_OK;
}

static const void *pad_value(const mx_remap_params *p, const void *const *in, int32_t n_in) {
  return n_in > 2 && in[2] ? in[2] : p->value;
}

static minnx_status pad_infer(mx_op_ctx *c) {
  mx_remap_params p;
  int ready;
  minnx_status st = pad_resolve(c, &p, &ready);
  if (st || !ready || !c->pool || !c->in_data[0] || (c->n_in > 2 && c->in[2] && !c->in_data[2])) return st;
  void *bytes; /* the data (and the value) constant: folded at load */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  const void *value = c->n_in > 2 && c->in[2] ? c->in_data[2] : p.value;
  mx_remap_run(&p, &(mx_exec){0}, c->in_data[0], value, bytes);
  return MINNX_OK;
}

typedef struct pad_params {
  mx_remap_params r;
  int32_t n_in;
} pad_params;

static size_t pad_params_size(const mx_node *n) {
  (void)n;
  return sizeof(pad_params);
}

static minnx_status pad_prepare(mx_op_ctx *c, void *params) {
  pad_params *p = params;
  int ready;
  p->n_in = c->n_in;
  return pad_resolve(c, &p->r, &ready);
}

static void pad_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const pad_params *p = params;
  mx_remap_run(&p->r, x, in[0], pad_value(&p->r, in, p->n_in), out[0]);
}

#define I64 MX_BIT(MINNX_INT64)
#define TIND (MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
static const mx_io in1[] = {{.name = "data", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io in11[] = {{.name = "data", .types = NUMERIC_NO_BF16, .group = 1},
                             {.name = "pads", .types = I64, .flags = MX_IO_CONST},
                             {.name = "constant_value", .types = NUMERIC_NO_BF16, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io out11[] = {{.name = "output", .types = NUMERIC_NO_BF16, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "pads", .types = I64, .flags = MX_IO_CONST},
                             {.name = "constant_value", .types = MX_ALL_TYPES, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io in18[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "pads", .types = I64, .flags = MX_IO_CONST},
                             {.name = "constant_value", .types = MX_ALL_TYPES, .group = 1, .flags = MX_IO_OPTIONAL},
                             {.name = "axes", .types = TIND, .flags = MX_IO_CONST | MX_IO_OPTIONAL}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_attr_spec attrs1[] = {{"paddings", MX_ATTR_INTS}, {"mode", MX_ATTR_STRING}, {"value", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec attrs2[] = {{"pads", MX_ATTR_INTS}, {"mode", MX_ATTR_STRING}, {"value", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec attrs11[] = {{"mode", MX_ATTR_STRING}, {NULL, 0}};

#define ROW .infer = pad_infer, .params_size = pad_params_size, .prepare = pad_prepare, .eval = pad_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1, .attrs = attrs1},
    {ROW, .since = 2, .in = in1, .out = out1, .attrs = attrs2},
    {ROW, .since = 11, .in = in11, .out = out11, .attrs = attrs11},
    {ROW, .since = 13, .in = in13, .out = out13, .attrs = attrs11},
    {ROW, .since = 18, .in = in18, .out = out13, .attrs = attrs11, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 19, .in = in18, .out = out13, .attrs = attrs11, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 21, .in = in18, .out = out13, .attrs = attrs11, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(Pad, "", rows);
