/* Transpose: output dim i is input dim perm[i]; without perm the dims are
 * reversed. Version 1 takes every dtype but bfloat16, 13 adds it, 21 adds
 * only dtypes minnx lacks. perm must be a permutation of [0, rank) (no
 * negative axes: ONNX has none here). The identity permutation is a view,
 * no copy; a constant input is folded at load by the copy that runs at eval
 * (transpose_copy.c). */
#include "ops/tensor/transpose.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

/* The node's permutation for a rank-`rank` input, or a refusal. */
static minnx_status transpose_perm(const mx_op_ctx *c, int rank, int64_t *perm) {
  const mx_attr *a = mx_node_attr(c->node, "perm");
  uint64_t seen = 0;
  if (!a) {
    for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
    return MINNX_OK;
  }
  if (a->n != (size_t)rank)
    return mx_op_fail(c, MINNX_E_SHAPE, "perm has %zu entries; the input has rank %d", a->n, rank);
  for (int i = 0; i < rank; i++) {
    int64_t v = a->ints[i];
    if (v < 0 || v >= rank) return mx_op_fail(c, MINNX_E_SHAPE, "perm[%d] is %lld, not an axis of rank %d", i, (long long)v, rank);
    if (seen >> v & 1) return mx_op_fail(c, MINNX_E_MODEL, "perm lists axis %lld twice", (long long)v);
    seen |= (uint64_t)1 << v;
    perm[i] = v;
  }
  return MINNX_OK;
}

static minnx_status transpose_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  int64_t perm[MX_MAX_RANK];
  c->out[0] = (mx_shape){.rank = in->rank};
  if (in->rank < 0) return MINNX_OK; /* known once the input's rank is */
  minnx_status st = transpose_perm(c, in->rank, perm);
  if (st) return st;
  for (int i = 0; i < in->rank; i++) c->out[0].dims[i] = in->dims[perm[i]];
  if (!c->in_data[0] || mx_shape_count(in) < 0) return MINNX_OK;
  void *bytes; /* a constant: folded */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  mx_transpose_plan p;
  mx_transpose_plan_init(&p, mx_dtype_size(c->in_dtype[0]), in->rank, in->dims, perm);
  mx_transpose_run(&p, &(mx_exec){0}, c->in_data[0], bytes);
  return MINNX_OK;
}

static size_t transpose_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_transpose_plan);
}

static minnx_status transpose_prepare(mx_op_ctx *c, void *params) {
  int64_t perm[MX_MAX_RANK];
  minnx_status st = transpose_perm(c, c->in[0]->rank, perm);
  if (!st) mx_transpose_plan_init(params, mx_dtype_size(c->in_dtype[0]), c->in[0]->rank, c->in[0]->dims, perm);
  return st;
}

static void transpose_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  mx_transpose_run(params, x, in[0], out[0]);
}

/* A perm that keeps every axis in place: the output is the input. */
static int transpose_is_identity(const mx_graph *g, const mx_node *n) {
  const mx_attr *a = mx_node_attr(n, "perm");
  (void)g;
  if (!a || a->type != MX_ATTR_INTS) return 0; /* a wrong type is refused after this */
  for (size_t i = 0; i < a->n; i++)
    if (a->ints[i] != (int64_t)i) return 0;
  return 1;
}

static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "transposed", .types = NO_BF16, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_io out13[] = {{.name = "transposed", .types = MX_ALL_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_attr_spec attrs[] = {{"perm", MX_ATTR_INTS}, {NULL, 0}};

#define ROW .attrs = attrs, .infer = transpose_infer, .params_size = transpose_params_size, \
            .prepare = transpose_prepare, .eval = transpose_eval, .views_if = transpose_is_identity
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1},
    {ROW, .since = 13, .in = in13, .out = out13},
    {ROW, .since = 21, .in = in13, .out = out13},
};
MX_OP_TABLE(Transpose, "", rows);
