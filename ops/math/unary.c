/* The elementwise ops of one operand, every version to opset 21: Neg, Abs
 * (1, 6, 13), Reciprocal, Floor, Ceil, Sqrt (1, 6, 13), Round (11), Sign
 * (9, 13), Relu (1, 6, 13, 14), LeakyRelu (1, 6, 16), Exp, Log (1, 6, 13),
 * Erf (9, 13), Sigmoid, Tanh (1, 6, 13), HardSigmoid (1, 6), HardSwish
 * (14), Elu, Selu (1, 6), Softplus (1), Gelu (20). Versions 1 carry
 * `consumed_inputs`, which is accepted and ignored (it described in-place
 * updates, a matter of the runtime). The operation on one element is
 * ops/math/unary_elem.h's; the loops are ops/math/unary.c.in's,
 * unary_math.c.in's and unary_int.c.in's, chosen at prepare
 * (mx_unary_kernel). */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/core/broadcast.h"
#include "ops/core/kernel.h"
#include "ops/math/unary.h"

/* The ops by name, their kernels' index, and their attributes' defaults
 * (Selu's differ between versions 1 and 6). */
static const struct {
  const char *name;
  mx_unop op;
  float alpha, beta, gamma;
} ops[] = {
    {"Neg", MX_NEG, 0, 0, 0},
    {"Abs", MX_ABS, 0, 0, 0},
    {"Sign", MX_SIGN, 0, 0, 0},
    {"Relu", MX_RELU, 0, 0, 0},
    {"Reciprocal", MX_RECIPROCAL, 0, 0, 0},
    {"Floor", MX_FLOOR, 0, 0, 0},
    {"Ceil", MX_CEIL, 0, 0, 0},
    {"Sqrt", MX_SQRT, 0, 0, 0},
    {"Round", MX_ROUND, 0, 0, 0},
    {"LeakyRelu", MX_LEAKY_RELU, 0.01f, 0, 0},
    {"HardSigmoid", MX_HARD_SIGMOID, 0.2f, 0.5f, 0},
    {"HardSwish", MX_HARD_SWISH, 0, 0, 0},
    {"Exp", MX_EXP, 0, 0, 0},
    {"Log", MX_LOG, 0, 0, 0},
    {"Erf", MX_ERF, 0, 0, 0},
    {"Sigmoid", MX_SIGMOID, 0, 0, 0},
    {"Tanh", MX_TANH, 0, 0, 0},
    {"Elu", MX_ELU, 1.0f, 0, 0},
    {"Selu", MX_SELU, 1.67326319217681884765625f, 0, 1.05070102214813232421875f},
    {"Softplus", MX_SOFTPLUS, 0, 0, 0},
    {"Gelu", MX_GELU, 0, 0, 0},
};

static size_t op_index(const mx_node *n) {
  size_t i = 0;
  while (i + 1 < sizeof ops / sizeof ops[0] && strcmp(ops[i].name, n->op_type) != 0) i++;
  return i; /* found: the registry resolved the node to one of these tables */
}

static float attr_float(const mx_node *n, const char *name, float dflt) {
  const mx_attr *at = mx_node_attr(n, name);
  return at ? at->f : dflt;
}

/* ---- infer ---- */

static minnx_status unary_infer(mx_op_ctx *c) {
  const mx_attr *at = mx_node_attr(c->node, "approximate");
  if (at && strcmp(at->s, "none") != 0 && strcmp(at->s, "tanh") != 0)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute approximate is \"%s\"; it must be \"none\" or \"tanh\"", at->s);
  c->out[0] = *c->in[0];
  return MINNX_OK;
}

/* ---- prepare and eval ---- */

typedef struct {
  mx_unary_fn k;
  mx_unary_args args;
  size_t esize;
  mx_bplan bp; /* last: its strides follow */
} unary_params;

static size_t unary_params_size(const mx_node *n) {
  (void)n;
  return offsetof(unary_params, bp) + mx_bplan_size(1);
}

static minnx_status unary_prepare(mx_op_ctx *c, void *params) {
  unary_params *p = params;
  const mx_node *n = c->node;
  size_t i = op_index(n);
  mx_unop op = ops[i].op;
  const mx_attr *approx = mx_node_attr(n, "approximate");
  if (op == MX_GELU && approx && strcmp(approx->s, "tanh") == 0) op = MX_GELU_TANH;
  mx_dtype t = c->in_dtype[0];
  p->k = mx_unary_kernel(t, op, c->isa);
  if (!p->k) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "%s is not implemented for %s", n->op_type, mx_dtype_name(t));
  int selu1 = op == MX_SELU && c->row->since < 6;
  p->args.alpha = attr_float(n, "alpha", selu1 ? 1.6732f : ops[i].alpha);
  p->args.beta = attr_float(n, "beta", ops[i].beta);
  p->args.gamma = attr_float(n, "gamma", selu1 ? 1.0507f : ops[i].gamma);
  p->esize = mx_dtype_size(t);
  p->args.stream = mx_streams_out((double)mx_shape_count(c->out) * (double)p->esize) ? MX_OUT_STREAM : 0;
  const mx_shape *in[1] = {c->in[0]};
  mx_bplan_init(&p->bp, in, 1, c->out);
  return MINNX_OK;
}

typedef struct {
  const unary_params *p;
  const unsigned char *in;
  unsigned char *out;
} unary_run;

/* One input of the output's shape: its offsets are the output's, and a tile's rows follow each other. */
static void unary_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const unary_run *r = ctx;
  (void)in_off;
  size_t at = (size_t)out_off * r->p->esize;
  r->p->k(r->out + at, r->in + at, rows * len, &r->p->args);
}

static void unary_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const unary_params *p = params;
  unary_run r = {p, in[0], out[0]};
  mx_bplan_walk_x(&p->bp, x, p->esize, unary_tile, &r);
}

/* ---- the kernels' tables ---- */

extern const mx_kernel_row mx_unary_rows[], mx_unary_math_rows[], mx_unary_int_rows[];
extern const size_t mx_unary_n_rows, mx_unary_math_n_rows, mx_unary_int_n_rows;

/* (The three sets have one layout: struct mx_unary_set's.) */
static const struct mx_unary_set *set_of(mx_dtype t, mx_unop op, mx_isa isa) {
  if (MX_BIT(t) & MX_INTS) return mx_kernel_find(mx_unary_int_rows, mx_unary_int_n_rows, t, isa);
  if (op >= MX_EXP) return mx_kernel_find(mx_unary_math_rows, mx_unary_math_n_rows, t, isa);
  return mx_kernel_find(mx_unary_rows, mx_unary_n_rows, t, isa);
}

mx_unary_fn mx_unary_kernel(mx_dtype t, mx_unop op, mx_isa isa) {
  const struct mx_unary_set *s = set_of(t, op, isa);
  return s ? s->op[op] : NULL;
}

mx_unary_ref_fn mx_unary_ref(mx_dtype t, mx_unop op) {
  const struct mx_unary_set *s = set_of(t, op, MX_ISA_PORTABLE);
  return s && s->op[op] ? s->reference : NULL;
}

/* ---- the rows ---- */

#define F3 MX_FLOATS
#define F4 (MX_FLOATS | MX_BIT(MINNX_BFLOAT16))
#define SINTS (MX_BIT(MINNX_INT8) | MX_BIT(MINNX_INT16) | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
#define IO(var, ts)                                                                 \
  static const mx_io var##_in[] = {{.name = "X", .types = (ts), .group = 1}, {0}}; \
  static const mx_io var##_out[] = {{.name = "Y", .types = (ts), .group = 1}, {0}}
IO(f3, F3);
IO(f4, F4);
IO(f3_sints, F3 | SINTS);
IO(f4_sints, F4 | SINTS);
IO(f3_ints, F3 | MX_INTS);
IO(f4_ints, F4 | MX_INTS);
#undef IO

static const mx_attr_spec consumed[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec alpha1[] = {{"alpha", MX_ATTR_FLOAT}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec alpha6[] = {{"alpha", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec alpha_beta1[] = {
    {"alpha", MX_ATTR_FLOAT}, {"beta", MX_ATTR_FLOAT}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec alpha_beta6[] = {{"alpha", MX_ATTR_FLOAT}, {"beta", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec selu1[] = {
    {"alpha", MX_ATTR_FLOAT}, {"gamma", MX_ATTR_FLOAT}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec selu6[] = {{"alpha", MX_ATTR_FLOAT}, {"gamma", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec gelu20[] = {{"approximate", MX_ATTR_STRING}, {NULL, 0}};

#define ROW(v, io, ...)                                                                              \
  {.since = (v), .in = io##_in, .out = io##_out, .infer = unary_infer, .params_size = unary_params_size, \
   .prepare = unary_prepare, .eval = unary_eval, __VA_ARGS__}
/* the rows of an exact op (one IEEE operation or a select per element), and of an inexact one */
#define EXACT(v, io, at) ROW(v, io, .attrs = at)
#define INEXACT(v, io, at) ROW(v, io, .attrs = at, .inexact = 1)

static const mx_op_row neg_rows[] = {EXACT(1, f3, consumed), EXACT(6, f3_sints, NULL), EXACT(13, f4_sints, NULL)};
static const mx_op_row abs_rows[] = {EXACT(1, f3, consumed), EXACT(6, f3_ints, NULL), EXACT(13, f4_ints, NULL)};
static const mx_op_row float_rows[] = { /* Reciprocal, Floor, Ceil, Sqrt */
    EXACT(1, f3, consumed), EXACT(6, f3, NULL), EXACT(13, f4, NULL)};
static const mx_op_row round_rows[] = {EXACT(11, f3, NULL)};
static const mx_op_row sign_rows[] = {EXACT(9, f3_ints, NULL), EXACT(13, f4_ints, NULL)};
static const mx_op_row relu_rows[] = {EXACT(1, f3, consumed), EXACT(6, f3, NULL), EXACT(13, f4, NULL),
                                      EXACT(14, f4_sints, NULL)};
static const mx_op_row leaky_relu_rows[] = {EXACT(1, f3, alpha1), EXACT(6, f3, alpha6), EXACT(16, f4, alpha6)};
static const mx_op_row math_rows[] = { /* Exp, Log, Sigmoid, Tanh */
    INEXACT(1, f3, consumed), INEXACT(6, f3, NULL), INEXACT(13, f4, NULL)};
static const mx_op_row erf_rows[] = {INEXACT(9, f3_ints, NULL), INEXACT(13, f4, NULL)};
static const mx_op_row hard_sigmoid_rows[] = {INEXACT(1, f3, alpha_beta1), INEXACT(6, f3, alpha_beta6)};
static const mx_op_row hard_swish_rows[] = {INEXACT(14, f3, NULL)};
static const mx_op_row elu_rows[] = {INEXACT(1, f3, alpha1), INEXACT(6, f3, alpha6)};
static const mx_op_row selu_rows[] = {INEXACT(1, f3, selu1), INEXACT(6, f3, selu6)};
static const mx_op_row softplus_rows[] = {INEXACT(1, f3, NULL)};
static const mx_op_row gelu_rows[] = {INEXACT(20, f4, gelu20)};

MX_OP_TABLE(Neg, "", neg_rows);
MX_OP_TABLE(Abs, "", abs_rows);
MX_OP_TABLE(Reciprocal, "", float_rows);
MX_OP_TABLE(Floor, "", float_rows);
MX_OP_TABLE(Ceil, "", float_rows);
MX_OP_TABLE(Sqrt, "", float_rows);
MX_OP_TABLE(Round, "", round_rows);
MX_OP_TABLE(Sign, "", sign_rows);
MX_OP_TABLE(Relu, "", relu_rows);
MX_OP_TABLE(LeakyRelu, "", leaky_relu_rows);
MX_OP_TABLE(Exp, "", math_rows);
MX_OP_TABLE(Log, "", math_rows);
MX_OP_TABLE(Sigmoid, "", math_rows);
MX_OP_TABLE(Tanh, "", math_rows);
MX_OP_TABLE(Erf, "", erf_rows);
MX_OP_TABLE(HardSigmoid, "", hard_sigmoid_rows);
MX_OP_TABLE(HardSwish, "", hard_swish_rows);
MX_OP_TABLE(Elu, "", elu_rows);
MX_OP_TABLE(Selu, "", selu_rows);
MX_OP_TABLE(Softplus, "", softplus_rows);
MX_OP_TABLE(Gelu, "", gelu_rows);
