/* Tile: the input repeated along its axes. Version 1 repeats along one
 * axis: the constant int64 scalar inputs `tiles` (how many copies, >= 0)
 * and `axis` (in [0, rank)); version 6 takes the constant int64 input
 * `repeats`, one count >= 0 per axis; 6 allows every dtype but bfloat16,
 * which 13 adds. Output dim = input dim x count. The counts fix the output's
 * shape: constant ones at load, a graph input's when it is bound; a bad one
 * is refused then, naming the node. The copy is remap.h's (WRAP: output
 * coordinate o reads o mod dim). */
#include "ops/tensor/remap.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static int64_t scalar_i64(const mx_op_ctx *c, int k, int64_t *v) {
  if (c->in[k]->rank >= 0 && mx_shape_count(c->in[k]) != 1) return -1;
  if (!c->in_data[k]) return 0;
  *v = ((const int64_t *)c->in_data[k])[0];
  return 1;
}

static minnx_status tile_resolve(mx_op_ctx *c, mx_remap_params *p, int *ready) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  int64_t reps[MX_MAX_RANK];
  *out = (mx_shape){.rank = -1};
  *ready = 0;
  if (c->row->since < 6) {
    int64_t tiles = 0, axis = 0;
    int ht = scalar_i64(c, 1, &tiles), ha = scalar_i64(c, 2, &axis);
    if (ht < 0 || ha < 0) return mx_op_fail(c, MINNX_E_SHAPE, "tiles and axis must each be one element");
    if (!ht || !ha || in->rank < 0) return MINNX_OK; /* known once bound */
    if (axis < 0 || axis >= in->rank)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for an input of rank %d", (long long)axis, in->rank);
    for (int d = 0; d < in->rank; d++) reps[d] = d == axis ? tiles : 1;
  } else {
    const int64_t *r;
    int64_t n;
    minnx_status st = mx_int_list(c, "repeats", 6, 1, &r, &n);
    if (st || n == -2 || in->rank < 0) return st;
    if (n != in->rank)
      return mx_op_fail(c, MINNX_E_SHAPE, "repeats has %lld entries; the input has rank %d (one per axis)", (long long)n, in->rank);
    for (int d = 0; d < in->rank; d++) reps[d] = r[d];
  }
  *p = (mx_remap_params){.rank = in->rank ? in->rank : 1, .mode = MX_REMAP_WRAP, .elem = mx_dtype_size(c->in_dtype[0])};
  p->in_dims[0] = p->out_dims[0] = p->n[0] = 1;
  out->rank = in->rank;
  for (int d = 0; d < in->rank; d++) {
    if (reps[d] < 0) return mx_op_fail(c, MINNX_E_SHAPE, "the count for axis %d is %lld; counts are >= 0", d, (long long)reps[d]);
    int64_t dim = in->dims[d];
    out->dims[d] = -1;
    if (dim < 0) continue;
    if (dim && reps[d] > INT64_MAX / dim)
      return mx_op_fail(c, MINNX_E_LIMIT, "axis %d: %lld x %lld overflows int64", d, (long long)dim, (long long)reps[d]);
    out->dims[d] = dim * reps[d];
    p->in_dims[d] = p->n[d] = dim, p->out_dims[d] = out->dims[d];
  }
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  *ready = mx_shape_count(out) >= 0;
  return MINNX_OK;
}

static minnx_status tile_infer(mx_op_ctx *c) {
  mx_remap_params p;
  int ready;
  minnx_status st = tile_resolve(c, &p, &ready);
  if (st || !ready || !c->pool || !c->in_data[0]) return st;
  void *bytes; /* the input constant: folded at load */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  mx_remap_run(&p, &(mx_exec){0}, c->in_data[0], p.value, bytes);
  return MINNX_OK;
}

static size_t tile_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_remap_params);
}

static minnx_status tile_prepare(mx_op_ctx *c, void *params) {
  int ready;
  return tile_resolve(c, params, &ready);
}

static void tile_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const mx_remap_params *p = params;
  mx_remap_run(p, x, in[0], p->value, out[0]);
}

#define I64 MX_BIT(MINNX_INT64)
static const mx_io in1[] = {{.name = "input", .types = MX_FLOATS, .group = 1},
                            {.name = "tiles", .types = I64, .flags = MX_IO_CONST},
                            {.name = "axis", .types = I64, .flags = MX_IO_CONST}, {0}};
static const mx_io out1[] = {{.name = "output", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io in6[] = {{.name = "input", .types = NO_BF16, .group = 1},
                            {.name = "repeats", .types = I64, .flags = MX_IO_CONST}, {0}};
static const mx_io out6[] = {{.name = "output", .types = NO_BF16, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "input", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "repeats", .types = I64, .flags = MX_IO_CONST}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};

#define ROW .infer = tile_infer, .params_size = tile_params_size, .prepare = tile_prepare, .eval = tile_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1},
    {ROW, .since = 6, .in = in6, .out = out6},
    {ROW, .since = 13, .in = in13, .out = out13},
};
MX_OP_TABLE(Tile, "", rows);
