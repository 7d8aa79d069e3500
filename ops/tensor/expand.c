/* Expand: the input broadcast to the constant int64 input `shape` by
 * numpy's rule in both directions: the shorter of the two gets 1s in front,
 * then each pair of dims must be equal or one of them 1, and the output has
 * the other (so a 1 in `shape` keeps the input's dim, and the output's rank
 * is the larger one). Dims of `shape` below 0 are refused. Version 8 allows
 * every dtype but bfloat16, which 13 adds. The shape input fixes the
 * output's shape: a constant at load, a graph input when it is bound. The
 * copy is remap.h's (EDGE: a dim of 1 is read at 0 throughout). */
#include "ops/tensor/remap.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static minnx_status expand_resolve(mx_op_ctx *c, mx_remap_params *p, int *ready) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  const int64_t *want;
  int64_t n;
  *out = (mx_shape){.rank = -1};
  *ready = 0;
  minnx_status st = mx_int_list(c, "shape", 8, 1, &want, &n);
  if (st || n == -2 || in->rank < 0) return st;
  int rank = n > in->rank ? (int)n : in->rank;
  if (n > MX_MAX_RANK) return mx_op_fail(c, MINNX_E_LIMIT, "the shape has %lld dims, above minnx's maximum rank %d", (long long)n, MX_MAX_RANK);
  *p = (mx_remap_params){.rank = rank ? rank : 1, .mode = MX_REMAP_EDGE, .elem = mx_dtype_size(c->in_dtype[0])};
  p->in_dims[0] = p->out_dims[0] = p->n[0] = 1;
  out->rank = rank;
  for (int d = 0; d < rank; d++) {
    int ia = d - (rank - in->rank), ib = d - (rank - (int)n);
    int64_t a = ia >= 0 ? in->dims[ia] : 1, b = ib >= 0 ? want[ib] : 1;
    if (b < 0) return mx_op_fail(c, MINNX_E_SHAPE, "shape dim %d is %lld; dims are >= 0", ib, (long long)b);
    out->dims[d] = -1;
    if (a < 0) {
      if (b != 1) out->dims[d] = b; /* the input's must be b or 1: checked once bound */
      continue;
    }
    if (a != b && a != 1 && b != 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "the input's dim %d (%lld) does not broadcast with the shape's %lld", d,
                        (long long)a, (long long)b);
    out->dims[d] = a == 1 ? b : a;
    p->in_dims[d] = p->n[d] = a, p->out_dims[d] = out->dims[d];
  }
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  *ready = mx_shape_count(out) >= 0 && mx_shape_count(in) >= 0;
  return MINNX_OK;
}

static minnx_status expand_infer(mx_op_ctx *c) {
  mx_remap_params p;
  int ready;
  minnx_status st = expand_resolve(c, &p, &ready);
  if (st || !ready || !c->pool || !c->in_data[0]) return st;
  void *bytes; /* the input constant: folded at load */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  mx_remap_run(&p, &(mx_exec){0}, c->in_data[0], p.value, bytes);
  return MINNX_OK;
}

static size_t expand_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_remap_params);
}

static minnx_status expand_prepare(mx_op_ctx *c, void *params) {
  int ready;
  return expand_resolve(c, params, &ready);
}

static void expand_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const mx_remap_params *p = params;
  mx_remap_run(p, x, in[0], p->value, out[0]);
}

static const mx_io in8[] = {{.name = "input", .types = NO_BF16, .group = 1},
                            {.name = "shape", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out8[] = {{.name = "output", .types = NO_BF16, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "input", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "shape", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};

#define ROW .infer = expand_infer, .params_size = expand_params_size, .prepare = expand_prepare, .eval = expand_eval
static const mx_op_row rows[] = {
    {ROW, .since = 8, .in = in8, .out = out8},
    {ROW, .since = 13, .in = in13, .out = out13},
};
MX_OP_TABLE(Expand, "", rows);
