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

typedef struct {
  int copy;     /* noop_with_empty_axes with empty axes fed at run time: the input as it is */
  size_t bytes; /* then its size */
  mx_sum_walk w;
} sum_params;

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
  mx_sum_init(&p->w, op, c->in_dtype[0], in->rank, in->dims, mask, c->isa);
  if (!p->w.k || (op >= MX_SUM_LOGSUM && !p->w.e))
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[0]));
  c->scratch = p->copy ? 0 : mx_sum_scratch(&p->w);
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
  } else if (!x->parallel || p->w.tasks < 2) {
    mx_sum_run(&p->w, in[0], out[0], x->scratch);
  } else {
    sum_split s = {&p->w, in[0], out[0], x->scratch};
    mx_parallel_for(x, sum_task, &s, (size_t)p->w.tasks);
    mx_sum_done(&p->w, out[0], x->scratch); /* the pieces joined in their order (nothing without pieces) */
  }
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
/* ReduceLogSum and ReduceLogSumExp: floats only (README: the integers are not done) */
static const mx_io log_in1[] = {{.name = "data", .types = FLOATS1, .group = 1}, {0}};
static const mx_io log_in13[] = {{.name = "data", .types = FLOATS13, .group = 1}, {0}};
static const mx_io log_in18[] = {{.name = "data", .types = FLOATS13, .group = 1}, MX_REDUCE_AXES_INPUT, {0}};

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
static const mx_op_row log_rows[] = {
    {ROW, .since = 1, .in = log_in1, .out = out_any, ATTR_AXES},
    {ROW, .since = 11, .in = log_in1, .out = out_any, ATTR_AXES, .rules = NEG},
    {ROW, .since = 13, .in = log_in13, .out = out_any, ATTR_AXES, .rules = NEG},
    {ROW, .since = 18, .in = log_in18, INPUT_AXES},
};
MX_OP_TABLE(ReduceSum, "", sum_rows);
MX_OP_TABLE(ReduceMean, "", rows);
MX_OP_TABLE(ReduceProd, "", rows);
MX_OP_TABLE(ReduceL1, "", rows);
MX_OP_TABLE(ReduceL2, "", rows);
MX_OP_TABLE(ReduceSumSquare, "", rows);
MX_OP_TABLE(ReduceLogSum, "", log_rows);
MX_OP_TABLE(ReduceLogSumExp, "", log_rows);
