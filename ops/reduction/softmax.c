/* Softmax, LogSoftmax and Hardmax (1, 11, 13) along `axis`: before 13 the
 * input is coerced to a matrix at `axis` (default 1) and each row of the
 * flattened trailing block is one set; from 13 each line along `axis`
 * (default -1) is. Softmax: exp(x - m) / s, m the set's largest (NaN
 * ignored), s the sum of exp(x - m) in sum.h's order (mathf.h's exp), one
 * division per element; LogSoftmax: (x - m) - log(s). Hardmax (exact): 1
 * at the set's first largest element (the first NaN, as numpy's argmax),
 * 0 elsewhere. */
#include <string.h>

#include "ops/core/half.h"
#include "ops/core/op.h"
#include "ops/reduction/sum.h"

typedef struct {
  mx_sum_walk w;
  /* Hardmax: the sets as [outer, len, inner], and the element's value */
  int64_t outer, len, inner;
  double (*load)(const void *x, int64_t i);
  void (*store)(void *y, int64_t i, int one);
} softmax_params;

static int axis_of(const mx_op_ctx *c, int rank, int64_t *axis) {
  int64_t a = mx_attr_int(c->node, "axis", c->row->since >= 13 ? -1 : 1);
  *axis = mx_axis(c, a, rank);
  return *axis < 0 ? mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range [%d, %d] for an input of rank %d",
                                (long long)a, c->row->rules & MX_RULE_NEGATIVE_AXIS ? -rank : 0, rank - 1, rank)
                   : MINNX_OK;
}

static minnx_status softmax_infer(mx_op_ctx *c) {
  c->out[0] = *c->in[0];
  int64_t axis;
  return c->in[0]->rank < 0 ? MINNX_OK : axis_of(c, c->in[0]->rank, &axis);
}

static size_t softmax_params_size(const mx_node *n) {
  (void)n;
  return sizeof(softmax_params);
}

/* The kernels: expsum.c.in's (sum.kernels.cmake), chosen in mx_softmax_init. */
static minnx_status softmax_prepare(mx_op_ctx *c, void *params) {
  softmax_params *p = params;
  const mx_shape *in = c->in[0];
  int64_t axis;
  minnx_status st = axis_of(c, in->rank, &axis);
  if (st) return st;
  mx_sum_op op = strcmp(c->node->op_type, "Softmax") == 0 ? MX_SUM_SOFTMAX : MX_SUM_LOGSOFTMAX;
  mx_softmax_init(&p->w, op, c->in_dtype[0], in->rank, in->dims, (int)axis, c->row->since < 13, c->isa);
  if (!p->w.k || !p->w.e)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[0]));
  c->scratch = mx_sum_scratch(&p->w); /* a wide fold's partials, largest and sums, per task */
  return MINNX_OK;
}

typedef struct {
  const mx_sum_walk *w;
  const void *in;
  void *out, *scratch;
} softmax_split;

static void softmax_task(void *ctx, size_t i) {
  const softmax_split *s = ctx;
  mx_sum_part(s->w, s->in, s->out, (int64_t)i, s->w->tasks, s->scratch);
}

static void softmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const softmax_params *p = params;
  if (!x->parallel || p->w.tasks < 2) {
    mx_sum_run(&p->w, in[0], out[0], x->scratch); /* (Softmax's sets have no pieces) */
    return;
  }
  softmax_split s = {&p->w, in[0], out[0], x->scratch};
  mx_parallel_for(x, softmax_task, &s, (size_t)p->w.tasks);
}

/* ---- Hardmax: a selection, one plain loop ---- */

static double load_f32(const void *x, int64_t i) { return ((const float *)x)[i]; }
static double load_f64(const void *x, int64_t i) { return ((const double *)x)[i]; }
static double load_f16(const void *x, int64_t i) { return mx_f16_to_f32(((const uint16_t *)x)[i]); }
static double load_bf16(const void *x, int64_t i) { return mx_bf16_to_f32(((const uint16_t *)x)[i]); }
static void store_f32(void *y, int64_t i, int one) { ((float *)y)[i] = (float)one; }
static void store_f64(void *y, int64_t i, int one) { ((double *)y)[i] = one; }
static void store_f16(void *y, int64_t i, int one) { ((uint16_t *)y)[i] = one ? 0x3c00 : 0; }
static void store_bf16(void *y, int64_t i, int one) { ((uint16_t *)y)[i] = one ? 0x3f80 : 0; }

static minnx_status hardmax_prepare(mx_op_ctx *c, void *params) {
  softmax_params *p = params;
  const mx_shape *in = c->in[0];
  int64_t axis;
  minnx_status st = axis_of(c, in->rank, &axis);
  if (st) return st;
  p->outer = p->len = p->inner = 1;
  for (int d = 0; d < in->rank; d++)
    *(d < axis ? &p->outer : d == axis || c->row->since < 13 ? &p->len : &p->inner) *= in->dims[d];
  switch (c->in_dtype[0]) {
    case MINNX_DOUBLE: p->load = load_f64, p->store = store_f64; break;
    case MINNX_FLOAT16: p->load = load_f16, p->store = store_f16; break;
    case MINNX_BFLOAT16: p->load = load_bf16, p->store = store_bf16; break;
    default: p->load = load_f32, p->store = store_f32; break;
  }
  return MINNX_OK;
}

static void hardmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const softmax_params *p = params;
  (void)x;
  for (int64_t o = 0; o < p->outer; o++)
    for (int64_t u = 0; u < p->inner; u++) {
      int64_t base = o * p->len * p->inner + u, best = 0;
      double m = 0;
      for (int64_t i = 0; i < p->len; i++) {
        double v = p->load(in[0], base + i * p->inner);
        if (i == 0 || (m == m && (v > m || v != v))) best = i, m = v;
      }
      for (int64_t i = 0; i < p->len; i++) p->store(out[0], base + i * p->inner, i == best);
    }
}

/* ---- the rows ---- */

#define FLOATS1 (MX_BIT(MINNX_FLOAT) | MX_BIT(MINNX_DOUBLE) | MX_BIT(MINNX_FLOAT16))
#define FLOATS13 (FLOATS1 | MX_BIT(MINNX_BFLOAT16))
static const mx_io in1[] = {{.name = "input", .types = FLOATS1, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "input", .types = FLOATS13, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = FLOATS13, .group = 1}, {0}};
static const mx_attr_spec attrs[] = {{"axis", MX_ATTR_INT}, {NULL, 0}};

/* negative axes in every version: exporters write axis=-1 at opset 9 too
 * (ONNX's pytorch-converted test_log_softmax_lastdim), as runtimes accept */
#define NEG MX_RULE_NEGATIVE_AXIS
#define SOFT .infer = softmax_infer, .params_size = softmax_params_size, .prepare = softmax_prepare, \
             .eval = softmax_eval, .inexact = 1, .out = out1, .attrs = attrs
#define HARD .infer = softmax_infer, .params_size = softmax_params_size, .prepare = hardmax_prepare, \
             .eval = hardmax_eval, .out = out1, .attrs = attrs
static const mx_op_row soft_rows[] = {
    {SOFT, .since = 1, .in = in1, .rules = NEG},
    {SOFT, .since = 11, .in = in1, .rules = NEG},
    {SOFT, .since = 13, .in = in13, .rules = NEG},
};
static const mx_op_row hard_rows[] = {
    {HARD, .since = 1, .in = in1, .rules = NEG},
    {HARD, .since = 11, .in = in1, .rules = NEG},
    {HARD, .since = 13, .in = in13, .rules = NEG},
};
MX_OP_TABLE(Softmax, "", soft_rows);
MX_OP_TABLE(LogSoftmax, "", soft_rows);
MX_OP_TABLE(Hardmax, "", hard_rows);
