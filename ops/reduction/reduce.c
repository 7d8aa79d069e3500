/* ReduceSum (1, 11, 13), ReduceMean, ReduceProd, ReduceL1, ReduceL2,
 * ReduceSumSquare, ReduceLogSum and ReduceLogSumExp (1, 11, 13, 18): a sum
 * over a set of axes in sum.h's order (sum_walk.c, the kernels of sum.c.in
 * and expsum.c.in). The axes, keepdims and noop_with_empty_axes are read as
 * ReduceMax reads them (ops/core/reduce_axes.c). An empty set gives 0 (1 for
 * ReduceProd, NaN for ReduceMean of floats, -inf for ReduceLogSum and
 * ReduceLogSumExp); noop_with_empty_axes=1 with no axes gives the input
 * itself, for every op (the spec's words: "equivalent to input tensor"). */
#include <string.h>

#include "ops/core/reduce_axes.h"
#include "ops/reduction/sum.h"
#include "ops/tensor/convert_elem.h"

/* ReduceLogSum and ReduceLogSumExp of integers (int32, int64, uint32,
 * uint64; README, "The sums"): ONNX lists these types but defines no
 * arithmetic for them (from 18 its function body applies Log, which takes
 * floats only). minnx computes in double and converts the result as Cast
 * converts a double to the type (toward zero, saturated, NaN to 0):
 * ReduceLogSum is log of the sum ReduceSum gives (wrapped in the type);
 * ReduceLogSumExp is m + log(sum of exp(x - m)), each element converted to
 * double, m their largest, the sum from 0 over the set in row-major order,
 * one element after another. An empty set is -inf: the type's minimum. */
typedef struct {
  int rank;                                  /* the input's dims, and which are reduced */
  int64_t dims[MX_MAX_RANK];
  uint32_t mask;
  int64_t outputs;                           /* the outputs' count */
} int_log;

typedef struct {
  int copy;     /* noop_with_empty_axes with empty axes fed at run time: the input as it is */
  size_t bytes; /* then its size */
  int int_log;  /* 0; MX_SUM_LOGSUM or MX_SUM_LOGSUMEXP of an integer dtype (above) */
  mx_dtype dtype;
  int_log il;
  mx_sum_walk w;
} sum_params;

static int is_int(mx_dtype t) {
  return t == MINNX_INT32 || t == MINNX_INT64 || t == MINNX_UINT32 || t == MINNX_UINT64;
}

static double int_at(mx_dtype t, const void *x, int64_t i) {
  switch (t) {
  case MINNX_INT32: return (double)((const int32_t *)x)[i];
  case MINNX_INT64: return (double)((const int64_t *)x)[i];
  case MINNX_UINT32: return (double)((const uint32_t *)x)[i];
  default: return (double)((const uint64_t *)x)[i];
  }
}

static void int_put(mx_dtype t, void *y, int64_t i, double v) {
  switch (t) {
  case MINNX_INT32: ((int32_t *)y)[i] = mx_f64_to_i32(v); break;
  case MINNX_INT64: ((int64_t *)y)[i] = mx_f64_to_i64(v); break;
  case MINNX_UINT32: ((uint32_t *)y)[i] = mx_f64_to_u32(v); break;
  default: ((uint64_t *)y)[i] = mx_f64_to_u64(v); break;
  }
}

/* ReduceLogSumExp of integers: the outputs in row-major order of the kept
 * dims; each one's set walked twice (its largest, then the sum), the reduced
 * dims as an odometer in row-major order. */
static void int_logsumexp(const int_log *il, mx_dtype t, const void *x, void *y) {
  int64_t kdims[MX_MAX_RANK], ksteps[MX_MAX_RANK], rdims[MX_MAX_RANK], rsteps[MX_MAX_RANK];
  int nk = 0, nr = 0;
  int64_t step = 1, count = 1;
  for (int d = il->rank - 1; d >= 0; d--) {
    if (il->mask >> d & 1) rdims[nr] = il->dims[d], rsteps[nr++] = step, count *= il->dims[d];
    else kdims[nk] = il->dims[d], ksteps[nk++] = step;
    step *= il->dims[d];
  }
  int64_t kat[MX_MAX_RANK] = {0}, base = 0;
  for (int64_t o = 0; o < il->outputs; o++) {
    double m = 0, sum = 0;
    for (int pass = 0; pass < 2; pass++) {
      int64_t rat[MX_MAX_RANK] = {0}, at = base;
      for (int64_t j = 0; j < count; j++) {
        double v = int_at(t, x, at);
        if (pass == 0) m = j == 0 || v > m ? v : m;
        else sum += mx_exp64(v - m);
        for (int r = 0; r < nr; r++) { /* the next element: the odometer, last dim fastest */
          at += rsteps[r];
          if (++rat[r] < rdims[r]) break;
          at -= rsteps[r] * rdims[r];
          rat[r] = 0;
        }
      }
    }
    int_put(t, y, o, count ? m + mx_log64(sum) : -__builtin_inf());
    for (int k = 0; k < nk; k++) { /* the next output */
      base += ksteps[k];
      if (++kat[k] < kdims[k]) break;
      base -= ksteps[k] * kdims[k];
      kat[k] = 0;
    }
  }
}

/* ReduceLogSum of integers, once the sums are in y: each replaced by its log. */
static void int_logsum(const int_log *il, mx_dtype t, void *y) {
  for (int64_t o = 0; o < il->outputs; o++) {
    double s = int_at(t, y, o);
    int_put(t, y, o, mx_log64(s));
  }
}

static mx_sum_op op_of(const mx_node *n) {
  static const char *const names[] = {"ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceSumSquare",
                                      "ReduceL2", "ReduceLogSum", "ReduceLogSumExp"};
  static const mx_sum_op ops[] = {MX_SUM_SUM, MX_SUM_MEAN, MX_SUM_PROD, MX_SUM_L1, MX_SUM_SUMSQ,
                                  MX_SUM_L2, MX_SUM_LOGSUM, MX_SUM_LOGSUMEXP};
  int k = 0;
  while (strcmp(names[k], n->op_type) != 0) k++;
  return ops[k];
}

static size_t sum_params_size(const mx_node *n) {
  (void)n;
  return sizeof(sum_params);
}

/* The kernels: sum.c.in's and expsum.c.in's (sum.kernels.cmake), chosen in mx_sum_init. */
static minnx_status sum_prepare(mx_op_ctx *c, void *params) {
  sum_params *p = params;
  const mx_shape *in = c->in[0];
  uint32_t mask;
  int noop;
  minnx_status st = mx_reduced_axes(c, in->rank, &mask, &noop);
  if (st) return st;
  p->copy = noop;
  p->bytes = mx_shape_bytes(in, c->in_dtype[0]);
  mx_sum_op op = op_of(c->node);
  p->dtype = c->in_dtype[0];
  p->int_log = op >= MX_SUM_LOGSUM && is_int(p->dtype) ? (int)op : 0;
  if (p->int_log) {
    p->il.rank = in->rank;
    memcpy(p->il.dims, in->dims, sizeof(int64_t) * (size_t)in->rank);
    p->il.mask = mask;
    p->il.outputs = mx_shape_count(&c->out[0]);
    op = MX_SUM_SUM; /* ReduceLogSum's sums, in the type; ReduceLogSumExp does not use the walk */
  }
  mx_sum_init(&p->w, op, p->dtype, in->rank, in->dims, mask, c->isa);
  if (!p->w.k || (op >= MX_SUM_LOGSUM && !p->w.e))
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[0]));
  c->scratch = p->copy || p->int_log == MX_SUM_LOGSUMEXP ? 0 : mx_sum_scratch(&p->w);
  return MINNX_OK;
}

typedef struct {
  const mx_sum_walk *w;
  const void *in;
  void *out, *scratch;
} sum_split;

static void sum_task(void *ctx, size_t i) {
  const sum_split *s = ctx;
  mx_sum_part(s->w, s->in, s->out, (int64_t)i, s->w->tasks, s->scratch);
}

static void sum_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const sum_params *p = params;
  if (p->copy) {
    memcpy(out[0], in[0], p->bytes);
  } else if (p->int_log == MX_SUM_LOGSUMEXP) {
    int_logsumexp(&p->il, p->dtype, in[0], out[0]);
  } else if (!x->parallel || p->w.tasks < 2) {
    mx_sum_run(&p->w, in[0], out[0], x->scratch);
  } else {
    sum_split s = {&p->w, in[0], out[0], x->scratch};
    mx_parallel_for(x, sum_task, &s, (size_t)p->w.tasks);
    mx_sum_done(&p->w, out[0], x->scratch); /* the pieces joined in their order (nothing without pieces) */
  }
  if (p->int_log == MX_SUM_LOGSUM && !p->copy) int_logsum(&p->il, p->dtype, out[0]);
}

/* ---- the rows ---- */

#define INTS (MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64) | MX_BIT(MINNX_UINT32) | MX_BIT(MINNX_UINT64))
#define FLOATS1 (MX_BIT(MINNX_FLOAT) | MX_BIT(MINNX_DOUBLE) | MX_BIT(MINNX_FLOAT16))
#define FLOATS13 (FLOATS1 | MX_BIT(MINNX_BFLOAT16))
static const mx_io in1[] = {{.name = "data", .types = FLOATS1 | INTS, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "data", .types = FLOATS13 | INTS, .group = 1}, {0}};
static const mx_io in13_axes[] = {{.name = "data", .types = FLOATS13 | INTS, .group = 1}, MX_REDUCE_AXES_INPUT, {0}};
static const mx_io out_any[] = {{.name = "reduced", .types = FLOATS13 | INTS, .group = 1}, {0}};
static const mx_io out_view[] = {{.name = "reduced", .types = FLOATS13 | INTS, .group = 1, .view = MX_VIEW_OF(0)}, {0}};

#define NEG MX_RULE_NEGATIVE_AXIS
#define ROW .infer = mx_reduce_infer, .params_size = sum_params_size, .prepare = sum_prepare, .eval = sum_eval, \
            .inexact = 1
#define ATTR_AXES .attrs = mx_reduce_attrs_axes
#define INPUT_AXES .attrs = mx_reduce_attrs_noop, .rules = NEG | MX_RULE_AXES_INPUT, .out = out_view, \
                   .views_if = mx_reduce_is_noop

static const mx_op_row sum_rows[] = {
    {ROW, .since = 1, .in = in1, .out = out_any, ATTR_AXES},
    {ROW, .since = 11, .in = in1, .out = out_any, ATTR_AXES, .rules = NEG},
    {ROW, .since = 13, .in = in13_axes, INPUT_AXES},
};
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out_any, ATTR_AXES},
    {ROW, .since = 11, .in = in1, .out = out_any, ATTR_AXES, .rules = NEG},
    {ROW, .since = 13, .in = in13, .out = out_any, ATTR_AXES, .rules = NEG},
    {ROW, .since = 18, .in = in13_axes, INPUT_AXES},
};
MX_OP_TABLE(ReduceSum, "", sum_rows);
MX_OP_TABLE(ReduceMean, "", rows);
MX_OP_TABLE(ReduceProd, "", rows);
MX_OP_TABLE(ReduceL1, "", rows);
MX_OP_TABLE(ReduceL2, "", rows);
MX_OP_TABLE(ReduceSumSquare, "", rows);
MX_OP_TABLE(ReduceLogSum, "", rows);
MX_OP_TABLE(ReduceLogSumExp, "", rows);
