/* ONNX MatMul (1, 9, 13) and Gemm (1, 6, 7, 9, 11, 13): the rows, their
 * shape rules, and the choice of kernel (gemm.h, whose order every kernel
 * keeps).
 * - MatMul is numpy's matmul: the last two dims multiply, the others
 *   broadcast (numpy's rule); a 1-D A is a row [1, K], a 1-D B a column
 *   [K, 1], and the dim so added is removed from the result.
 * - Gemm: Y = alpha * A' * B' + beta * C, A' and B' transposed when transA
 *   and transB say so, A and B 2-D. C: versions 1 and 6 have the
 *   `broadcast` attribute (0: C is [M, N]; 1: C is one element, or its dims
 *   are a suffix of [M, N]); from 7 C broadcasts to [M, N] one way (numpy's
 *   rule: rank <= 2, each dim equal or 1); from 11 C may be omitted. For the
 *   integer types alpha and beta must be whole numbers.
 * float runs the packed microkernels; float16 and bfloat16 are converted to
 * float32 in the scratch, run there and rounded once into the output;
 * double and the integers run the row kernels.
 * Packed weights: a float32 Gemm whose B is a constant used transposed
 * (transB=1, nn.Linear's weight [N, K]) has B' packed once, at prepare, into
 * [K, N] rows in the session's memory kept with the params (packed_size); the
 * kernels then stream B' row by row as for transB=0 (the batch-1 GEMV reads
 * each row of B' once, contiguously, instead of transposing blocks of B in
 * registers). The products and their order are the same: the bits do not
 * change. With weights_in_place (or at load) B is read as it lies. */
#include <string.h>

#include "graph/shape.h"
#include "ops/core/kernel.h"
#include "ops/math/gemm.h"
#include "ops/tensor/convert.h"

static size_t round64_size(size_t n) { return (n + 63) & ~(size_t)63; }

/* ---- infer ---- */

static int is_int_dtype(mx_dtype t) {
  return t == MINNX_INT32 || t == MINNX_INT64 || t == MINNX_UINT32 || t == MINNX_UINT64;
}

/* Dims a and b can be equal (-1 is not known yet). */
static int dims_match(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }

static minnx_status matmul_infer(mx_op_ctx *c) {
  const mx_shape *a = c->in[0], *b = c->in[1];
  mx_shape *out = &c->out[0];
  char sa[96], sb[96];
  if (a->rank < 0 || b->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  if (a->rank == 0 || b->rank == 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "a matrix product needs inputs of rank >= 1; the shapes are %s and %s",
                      mx_shape_str(a, sa, sizeof sa), mx_shape_str(b, sb, sizeof sb));
  int64_t ka = a->dims[a->rank - 1], kb = b->dims[b->rank == 1 ? 0 : b->rank - 2];
  if (!dims_match(ka, kb))
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes %s and %s do not multiply: A's last dim %lld is not B's %s %lld",
                      mx_shape_str(a, sa, sizeof sa), mx_shape_str(b, sb, sizeof sb), (long long)ka,
                      b->rank == 1 ? "dim" : "second to last dim", (long long)kb);
  /* the batch dims broadcast */
  mx_shape ba = {.rank = a->rank > 2 ? a->rank - 2 : 0}, bb = {.rank = b->rank > 2 ? b->rank - 2 : 0}, batch;
  memcpy(ba.dims, a->dims, (size_t)ba.rank * sizeof(int64_t));
  memcpy(bb.dims, b->dims, (size_t)bb.rank * sizeof(int64_t));
  const mx_shape *both[2] = {&ba, &bb};
  if (!mx_broadcast_shapes(both, 2, &batch))
    return mx_op_fail(c, MINNX_E_SHAPE, "the batch dims of the shapes %s and %s do not broadcast", mx_shape_str(a, sa, sizeof sa),
                      mx_shape_str(b, sb, sizeof sb));
  *out = batch;
  if (a->rank >= 2) out->dims[out->rank++] = a->dims[a->rank - 2];
  if (b->rank >= 2) out->dims[out->rank++] = b->dims[b->rank - 1];
  return MINNX_OK;
}

/* Gemm's A' is [M, K], B' [K, N]. */
static minnx_status gemm_infer(mx_op_ctx *c) {
  const mx_node *n = c->node;
  const mx_shape *a = c->in[0], *b = c->in[1], *cs = c->n_in > 2 ? c->in[2] : NULL;
  mx_shape *out = &c->out[0];
  char sa[96], sb[96];
  int64_t ta = mx_attr_int(n, "transA", 0), tb = mx_attr_int(n, "transB", 0);
  if (is_int_dtype(c->in_dtype[0])) {
    static const char *const names[] = {"alpha", "beta"};
    for (int k = 0; k < 2; k++) {
      const mx_attr *at = mx_node_attr(n, names[k]);
      if (at && !(at->f > -0x1p62f && at->f < 0x1p62f && (float)(int64_t)at->f == at->f)) /* NaN fails too */
        return mx_op_fail(c, MINNX_E_MODEL, "attribute %s is %g; for %s it must be a whole number", names[k],
                          (double)at->f, mx_dtype_name(c->in_dtype[0]));
    }
  }
  if (a->rank < 0 || b->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  if (a->rank != 2 || b->rank != 2)
    return mx_op_fail(c, MINNX_E_SHAPE, "A and B must be 2-D; their shapes are %s and %s", mx_shape_str(a, sa, sizeof sa),
                      mx_shape_str(b, sb, sizeof sb));
  int64_t m = a->dims[ta ? 1 : 0], ka = a->dims[ta ? 0 : 1], kb = b->dims[tb ? 1 : 0], nn = b->dims[tb ? 0 : 1];
  if (!dims_match(ka, kb))
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes %s and %s (transA %lld, transB %lld) do not multiply: K is %lld and %lld",
                      mx_shape_str(a, sa, sizeof sa), mx_shape_str(b, sb, sizeof sb), (long long)ta, (long long)tb,
                      (long long)ka, (long long)kb);
  out->rank = 2;
  out->dims[0] = m;
  out->dims[1] = nn;
  if (!cs || cs->rank < 0) return MINNX_OK;
  int ok = cs->rank <= 2;
  if (ok && c->row->since < 7 && !mx_attr_int(n, "broadcast", 0)) {
    ok = cs->rank == 2 && dims_match(cs->dims[0], m) && dims_match(cs->dims[1], nn);
  } else if (ok && c->row->since < 7) { /* one element, or a suffix of [M, N] */
    int64_t count = mx_shape_count(cs);
    int suffix = 1;
    for (int d = 0; d < cs->rank; d++) suffix = suffix && dims_match(cs->dims[d], out->dims[2 - cs->rank + d]);
    ok = count == 1 || suffix;
  } else {
    for (int d = 0; ok && d < cs->rank; d++) {
      int64_t cd = cs->dims[d], od = out->dims[2 - cs->rank + d];
      ok = cd == 1 || dims_match(cd, od);
    }
  }
  if (!ok) {
    char sc[96];
    return mx_op_fail(c, MINNX_E_SHAPE, "C's shape %s does not broadcast to the product's %s%s",
                      mx_shape_str(cs, sc, sizeof sc), mx_shape_str(out, sa, sizeof sa),
                      c->row->since < 7 ? (mx_attr_int(n, "broadcast", 0) ? " (broadcast=1: one element or a suffix)"
                                                                            : " (broadcast=0: C must be [M, N])")
                                        : "");
  }
  return MINNX_OK;
}

/* ---- prepare ---- */

enum { RUN_SGEMM, RUN_HALF, RUN_ROWS };

typedef struct {
  int how;
  mx_sgemm_plan sg;          /* RUN_SGEMM, RUN_HALF */
  mx_gemm_rows_fn rows;      /* RUN_ROWS */
  int64_t row_tasks;
  mx_convert_params to_f32, from_f32; /* RUN_HALF */
  int64_t na, nb, nc, ny;   /* elements of A, B, C and Y (RUN_HALF's copies) */
  size_t sg_scratch;
  const float *packed_b; /* B' packed at prepare ([K, N] rows), or NULL: B as it lies */
} matmul_plan;

static size_t matmul_params_size(const mx_node *n) {
  (void)n;
  return sizeof(matmul_plan);
}

/* Gemm's B packed at prepare: a float32 initializer [N, K] with transB=1. */
static const mx_value *packable_b(const mx_graph *g, const mx_node *n) {
  if (n->n_inputs < 2 || n->inputs[1] < 0) return NULL;
  const mx_value *b = &g->values[n->inputs[1]];
  if (b->kind != MX_VALUE_INITIALIZER || !b->data || b->dtype != MINNX_FLOAT || b->shape.rank != 2 ||
      !mx_attr_int(n, "transB", 0))
    return NULL;
  return b;
}

static size_t gemm_packed_size(const mx_graph *g, const mx_node *n) {
  const mx_value *b = packable_b(g, n);
  return b ? (size_t)mx_shape_count(&b->shape) * sizeof(float) : 0;
}

/* y [K, N] = b [N, K] transposed, in blocks of 32 x 32 (both sides' lines in cache). */
static void transpose_b(const float *b, float *y, int64_t nn, int64_t k) {
  for (int64_t j0 = 0; j0 < nn; j0 += 32)
    for (int64_t k0 = 0; k0 < k; k0 += 32) {
      int64_t j1 = nn - j0 < 32 ? nn : j0 + 32, k1 = k - k0 < 32 ? k : k0 + 32;
      for (int64_t s = k0; s < k1; s++)
        for (int64_t j = j0; j < j1; j++) y[s * nn + j] = b[j * k + s];
    }
}

/* The batch walk of A (ra dims) and B (rb dims) over out's batch dims. */
static void batch_walk(mx_gemm_dims *d, const mx_shape *a, const mx_shape *b, const mx_shape *out, int a_vec, int b_vec) {
  int obr = out->rank - (a_vec ? 0 : 1) - (b_vec ? 0 : 1); /* out's batch rank */
  int abr = a->rank > 2 ? a->rank - 2 : 0, bbr = b->rank > 2 ? b->rank - 2 : 0;
  int64_t sa = d->m * d->k, sb = d->k * d->n;
  d->brank = obr;
  d->batch = 1;
  for (int r = obr; r-- > 0;) {
    int ia = r - (obr - abr), ib = r - (obr - bbr);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    d->bdims[r] = out->dims[r];
    d->bsa[r] = da == 1 ? 0 : sa;
    d->bsb[r] = db == 1 ? 0 : sb;
    sa *= da;
    sb *= db;
    d->batch *= out->dims[r];
  }
}

static void matmul_dims(const mx_op_ctx *c, mx_gemm_dims *d) {
  const mx_shape *a = c->in[0], *b = c->in[1];
  memset(d, 0, sizeof *d);
  int a_vec = a->rank == 1, b_vec = b->rank == 1;
  d->m = a_vec ? 1 : a->dims[a->rank - 2];
  d->k = a->dims[a->rank - 1];
  d->n = b_vec ? 1 : b->dims[b->rank - 1];
  d->rsa = d->k, d->csa = 1;
  d->rsb = d->n, d->csb = 1;
  batch_walk(d, a, b, &c->out[0], a_vec, b_vec);
}

static void gemm_dims(const mx_op_ctx *c, mx_gemm_dims *d) {
  const mx_node *n = c->node;
  const mx_shape *a = c->in[0], *cs = c->n_in > 2 && c->in[2] ? c->in[2] : NULL;
  int ta = mx_attr_int(n, "transA", 0) != 0, tb = mx_attr_int(n, "transB", 0) != 0;
  memset(d, 0, sizeof *d);
  d->m = c->out[0].dims[0];
  d->n = c->out[0].dims[1];
  d->k = a->dims[ta ? 0 : 1];
  d->rsa = ta ? 1 : d->k, d->csa = ta ? d->m : 1;
  d->rsb = tb ? 1 : d->n, d->csb = tb ? d->k : 1;
  d->batch = 1;
  d->gemm = 1;
  const mx_attr *al = mx_node_attr(n, "alpha"), *be = mx_node_attr(n, "beta");
  d->alpha = al ? al->f : 1.0;
  d->beta = be ? be->f : 1.0;
  if (is_int_dtype(c->in_dtype[0])) { /* infer checked that they are whole and in range */
    d->ialpha = (int64_t)d->alpha;
    d->ibeta = (int64_t)d->beta;
  }
  if (cs) {
    d->has_c = 1;
    int64_t rows = cs->rank == 2 ? cs->dims[0] : 1, cols = cs->rank >= 1 ? cs->dims[cs->rank - 1] : 1;
    if (mx_shape_count(cs) == 1) rows = cols = 1; /* Gemm-1 and -6: one element of any rank */
    d->csc = cols == 1 ? 0 : 1;
    d->rsc = rows == 1 ? 0 : cols;
  }
}

/* Tasks of the row kernels: whole rows, at least TASK_ROW_FMAS multiply-adds each. */
#define TASK_ROW_FMAS ((double)MX_TASK_BYTES)
#define MAX_ROW_TASKS 64

static minnx_status product_prepare(mx_op_ctx *c, matmul_plan *p, const mx_gemm_dims *d) {
  mx_dtype t = c->in_dtype[0];
  memset(p, 0, sizeof *p);
  if (t == MINNX_FLOAT || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16) {
    if (!MX_DTYPE_ON(t)) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(t));
    mx_sgemm_plan_init(&p->sg, d, (int)c->isa); /* the MX_GEMM_ levels are mx_isa's */
    p->sg_scratch = round64_size(mx_sgemm_scratch(&p->sg));
    p->how = RUN_SGEMM;
    c->scratch = p->sg_scratch;
    if (t == MINNX_FLOAT) return MINNX_OK;
    if (!mx_convert_choose_isa(&p->to_f32, (int)t, MINNX_FLOAT, c->isa) ||
        !mx_convert_choose_isa(&p->from_f32, MINNX_FLOAT, (int)t, c->isa))
      return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(t));
    p->how = RUN_HALF;
    p->na = mx_shape_count(c->in[0]);
    p->nb = mx_shape_count(c->in[1]);
    p->nc = c->n_in > 2 && c->in[2] ? mx_shape_count(c->in[2]) : 0;
    p->ny = mx_shape_count(&c->out[0]);
    c->scratch += round64_size((size_t)p->na * 4) + round64_size((size_t)p->nb * 4) + round64_size((size_t)p->nc * 4) +
                  round64_size((size_t)p->ny * 4);
    return MINNX_OK;
  }
  p->rows = mx_gemm_rows_kernel_isa(t, c->isa >= MX_ISA_AVX2);
  if (!p->rows) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(t));
  p->how = RUN_ROWS;
  p->sg.d = *d;
  int64_t rows = d->batch * d->m;
  double fmas = (double)rows * (double)d->n * (double)(d->k ? d->k : 1);
  double tasks = fmas / TASK_ROW_FMAS;
  p->row_tasks = tasks < 2 ? 1 : tasks > MAX_ROW_TASKS ? MAX_ROW_TASKS : (int64_t)tasks;
  if (p->row_tasks > rows) p->row_tasks = rows > 0 ? rows : 1;
  return MINNX_OK;
}

static minnx_status matmul_prepare(mx_op_ctx *c, void *params) {
  mx_gemm_dims d;
  matmul_dims(c, &d);
  return product_prepare(c, params, &d);
}

static minnx_status gemm_prepare(mx_op_ctx *c, void *params) {
  mx_gemm_dims d;
  gemm_dims(c, &d);
  float *packed = c->packed; /* (only for a float32 B: packable_b) */
  if (packed) { /* B' [K, N] in rows: the strides of transB=0 */
    transpose_b(c->g->values[c->node->inputs[1]].data, packed, d.n, d.k);
    d.rsb = d.n, d.csb = 1;
  }
  minnx_status st = product_prepare(c, params, &d);
  ((matmul_plan *)params)->packed_b = packed;
  return st;
}

/* ---- eval ---- */

typedef struct {
  const matmul_plan *p;
  const void *a, *b, *c;
  void *y;
} rows_run;

static void rows_task(void *ctx, size_t t) {
  const rows_run *r = ctx;
  const mx_gemm_dims *d = &r->p->sg.d;
  int64_t rows = d->batch * d->m, n = r->p->row_tasks;
  r->p->rows(d, r->a, r->b, r->c, r->y, rows * t / n, rows * (t + 1) / n);
}

static void matmul_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const matmul_plan *p = params;
  const void *cin = p->sg.d.has_c ? in[2] : NULL;
  if (p->how == RUN_ROWS) {
    rows_run r = {p, in[0], in[1], cin, out[0]};
    mx_parallel_for(x, rows_task, &r, p->row_tasks);
    return;
  }
  if (p->how == RUN_SGEMM) {
    mx_sgemm_run(&p->sg, x, in[0], p->packed_b ? p->packed_b : in[1], cin, out[0], x->scratch);
    return;
  }
  /* float16, bfloat16: float32 copies after the product's scratch */
  unsigned char *s = (unsigned char *)x->scratch + p->sg_scratch;
  float *a = (float *)s, *b = (float *)(s += round64_size((size_t)p->na * 4));
  float *cf = (float *)(s += round64_size((size_t)p->nb * 4));
  float *y = (float *)(s + round64_size((size_t)p->nc * 4));
  mx_convert_run(&p->to_f32, a, in[0], p->na);
  mx_convert_run(&p->to_f32, b, in[1], p->nb);
  if (cin) mx_convert_run(&p->to_f32, cf, cin, p->nc);
  mx_sgemm_run(&p->sg, x, a, b, cin ? cf : NULL, y, x->scratch);
  mx_convert_run(&p->from_f32, out[0], y, p->ny);
}

/* ---- the rows ---- */

#define MM9_TYPES (MX_FLOATS | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64) | MX_BIT(MINNX_UINT32) | MX_BIT(MINNX_UINT64))
#define MM13_TYPES (MM9_TYPES | MX_BIT(MINNX_BFLOAT16))
static const mx_io matmul1_in[] = {{.name = "A", .types = MX_FLOATS, .group = 1}, {.name = "B", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io matmul9_in[] = {{.name = "A", .types = MM9_TYPES, .group = 1}, {.name = "B", .types = MM9_TYPES, .group = 1}, {0}};
static const mx_io matmul13_in[] = {{.name = "A", .types = MM13_TYPES, .group = 1}, {.name = "B", .types = MM13_TYPES, .group = 1}, {0}};
static const mx_io product_out[] = {{.name = "Y", .types = MM13_TYPES, .group = 1}, {0}};

#define MATMUL_ROW .out = product_out, .inexact = 1, .infer = matmul_infer, .params_size = matmul_params_size, \
                   .prepare = matmul_prepare, .eval = matmul_eval
static const mx_op_row matmul_rows[] = {
    {MATMUL_ROW, .since = 1, .in = matmul1_in},
    {MATMUL_ROW, .since = 9, .in = matmul9_in},
    {MATMUL_ROW, .since = 13, .in = matmul13_in},
};
MX_OP_TABLE(MatMul, "", matmul_rows);

static const mx_io gemm1_in[] = {{.name = "A", .types = MX_FLOATS, .group = 1}, {.name = "B", .types = MX_FLOATS, .group = 1},
                                 {.name = "C", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io gemm9_in[] = {{.name = "A", .types = MM9_TYPES, .group = 1}, {.name = "B", .types = MM9_TYPES, .group = 1},
                                 {.name = "C", .types = MM9_TYPES, .group = 1}, {0}};
static const mx_io gemm11_in[] = {{.name = "A", .types = MM9_TYPES, .group = 1}, {.name = "B", .types = MM9_TYPES, .group = 1},
                                  {.name = "C", .types = MM9_TYPES, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io gemm13_in[] = {{.name = "A", .types = MM13_TYPES, .group = 1}, {.name = "B", .types = MM13_TYPES, .group = 1},
                                  {.name = "C", .types = MM13_TYPES, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_attr_spec gemm1_attrs[] = {{"alpha", MX_ATTR_FLOAT}, {"beta", MX_ATTR_FLOAT}, {"broadcast", MX_ATTR_INT},
                                           {"transA", MX_ATTR_INT},  {"transB", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec gemm7_attrs[] = {
    {"alpha", MX_ATTR_FLOAT}, {"beta", MX_ATTR_FLOAT}, {"transA", MX_ATTR_INT}, {"transB", MX_ATTR_INT}, {NULL, 0}};

#define GEMM_ROW .out = product_out, .inexact = 1, .infer = gemm_infer, .params_size = matmul_params_size, \
                 .packed_size = gemm_packed_size, .prepare = gemm_prepare, .eval = matmul_eval
static const mx_op_row gemm_rows[] = {
    {GEMM_ROW, .since = 1, .in = gemm1_in, .attrs = gemm1_attrs},
    {GEMM_ROW, .since = 6, .in = gemm1_in, .attrs = gemm1_attrs},
    {GEMM_ROW, .since = 7, .in = gemm1_in, .attrs = gemm7_attrs},
    {GEMM_ROW, .since = 9, .in = gemm9_in, .attrs = gemm7_attrs},
    {GEMM_ROW, .since = 11, .in = gemm11_in, .attrs = gemm7_attrs},
    {GEMM_ROW, .since = 13, .in = gemm13_in, .attrs = gemm7_attrs},
};
MX_OP_TABLE(Gemm, "", gemm_rows);
