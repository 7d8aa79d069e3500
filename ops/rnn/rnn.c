/* ONNX RNN (1, 7, 14), GRU (1, 3, 7, 14) and LSTM (1, 7, 14): the rows,
 * their shapes and attributes, and the run. The order of the arithmetic is
 * rnn.h's; float32 runs on the matrix products' kernels (rnn_fast.c),
 * float16 and double the loop (rnn_ref.c), which every path is held to.
 * - X [seq_length, batch_size, input_size] (layout 1, from 14: [batch_size,
 *   seq_length, input_size]); W [num_directions, G * hidden_size,
 *   input_size], R [num_directions, G * hidden_size, hidden_size], G = 1
 *   (RNN), 3 (GRU: z, r, h), 4 (LSTM: i, o, f, c); the optional B
 *   [num_directions, 2 * G * hidden_size] (Wb then Rb), sequence_lens
 *   (int32 [batch_size]), initial_h and LSTM's initial_c [num_directions,
 *   batch_size, hidden_size] (layout 1: [batch_size, num_directions,
 *   hidden_size]) and LSTM's peepholes P [num_directions, 3 * hidden_size]
 *   (i, o, f). float16, float, double in every version.
 * - Outputs, each optional (GRU-1's Y_h is required, as its schema says):
 *   Y [seq_length, num_directions, batch_size, hidden_size] (layout 1:
 *   [batch_size, seq_length, num_directions, hidden_size]), Y_h and LSTM's
 *   Y_c shaped as initial_h.
 * - direction: forward (also when absent: GRU-1's schema spells its default
 *   "foward"), reverse or bidirectional. hidden_size: when given it must be
 *   R's last dim, else R's last dim is taken. clip: a positive bound.
 *   activations: per direction 1 (RNN; an RNN of one direction also takes
 *   the default's two), 2 (GRU) or 3 (LSTM) names, matched regardless of
 *   case; activation_alpha and activation_beta are consumed in the list's
 *   order by the functions that take them (rnn.h), a missing one taking the
 *   function's default, one left over refused. output_sequence (1; GRU 3)
 *   changes nothing: the outputs a node names are computed. input_forget
 *   (LSTM), linear_before_reset (GRU from 3), layout (14).
 * - sequence_lens: each in [0, seq_length], read at run time; a row's steps
 *   from its length on give zeros in Y, Y_h and Y_c hold the state after
 *   its last step (the initial state for a length 0); a length out of range
 *   fails the run naming the node (the row's outputs written as zeros). */
#include <string.h>

#include "graph/shape.h"
#include "ops/core/kernel.h"
#include "ops/core/op.h"
#include "ops/rnn/rnn.h"

static int cell_of(const mx_node *n) {
  return n->op_type[0] == 'L' ? MX_RNN_CELL_LSTM : n->op_type[0] == 'G' ? MX_RNN_CELL_GRU : MX_RNN_CELL_RNN;
}

static int present_in(const mx_op_ctx *c, int k) { return k < c->n_in && c->in[k] != NULL; }
static int present_out(const mx_op_ctx *c, int k) { return k < c->node->n_outputs && c->node->outputs[k] >= 0; }

static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a, y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* The functions: name, whether alpha and beta are taken, their defaults. */
static const struct {
  const char *name;
  unsigned char takes_alpha, takes_beta;
  float alpha, beta;
} funcs[MX_RNN_N_ACTS] = {
    [MX_RNN_RELU] = {"Relu", 0, 0, 0, 0},
    [MX_RNN_TANH] = {"Tanh", 0, 0, 0, 0},
    [MX_RNN_SIGMOID] = {"Sigmoid", 0, 0, 0, 0},
    [MX_RNN_AFFINE] = {"Affine", 1, 1, 1.0f, 0.0f},
    [MX_RNN_LEAKY_RELU] = {"LeakyRelu", 1, 0, 0.01f, 0},
    [MX_RNN_THRESHOLDED_RELU] = {"ThresholdedRelu", 1, 0, 1.0f, 0},
    [MX_RNN_SCALED_TANH] = {"ScaledTanh", 1, 1, 1.0f, 1.0f},
    [MX_RNN_HARD_SIGMOID] = {"HardSigmoid", 1, 1, 0.2f, 0.5f},
    [MX_RNN_ELU] = {"Elu", 1, 0, 1.0f, 0},
    [MX_RNN_SOFTSIGN] = {"Softsign", 0, 0, 0, 0},
    [MX_RNN_SOFTPLUS] = {"Softplus", 0, 0, 0, 0},
};

/* activations, activation_alpha and activation_beta into p->act. */
static minnx_status activations(const mx_op_ctx *c, mx_rnn *p) {
  static const int dflt[3][3] = {{MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH, MX_RNN_TANH}};
  const mx_attr *names = mx_node_attr(c->node, "activations");
  const mx_attr *al = mx_node_attr(c->node, "activation_alpha"), *be = mx_node_attr(c->node, "activation_beta");
  int n = p->per * p->dirs;
  if (names && !(names->n == (size_t)n || (p->cell == MX_RNN_CELL_RNN && p->dirs == 1 && names->n == 2)))
    return mx_op_fail(c, MINNX_E_MODEL, "attribute activations has %zu names; %s with %d direction%s takes %d", names->n,
                      c->node->op_type, p->dirs, p->dirs > 1 ? "s" : "", n);
  const char *s = names ? names->s : NULL;
  size_t ai = 0, bi = 0;
  for (int k = 0; k < (names ? (int)names->n : n); k++) { /* an RNN's second default name: checked, not used */
    int kind = dflt[p->cell][k % p->per];
    if (s) {
      for (kind = 0; kind < MX_RNN_N_ACTS && !same_name(s, funcs[kind].name); kind++) {
      }
      if (kind == MX_RNN_N_ACTS)
        return mx_op_fail(c, MINNX_E_MODEL, "attribute activations: unknown activation function '%s' (ONNX's are Relu, "
                          "Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, "
                          "Softplus)", s);
      s += strlen(s) + 1;
    }
    if (k >= n) break;
    mx_rnn_act *a = &p->act[k];
    a->kind = kind;
    a->alpha = funcs[kind].alpha;
    a->beta = funcs[kind].beta;
    if (funcs[kind].takes_alpha && al && ai < al->n) a->alpha = al->floats[ai++];
    if (funcs[kind].takes_beta && be && bi < be->n) a->beta = be->floats[bi++];
  }
  if ((al && ai < al->n) || (be && bi < be->n))
    return mx_op_fail(c, MINNX_E_MODEL, "attribute activation_%s has %zu values; the activations take %zu", al && ai < al->n ? "alpha" : "beta",
                      al && ai < al->n ? al->n : be->n, al && ai < al->n ? ai : bi);
  return MINNX_OK;
}

/* The attributes (checked at load, shapes or not). */
static minnx_status rnn_attrs(const mx_op_ctx *c, mx_rnn *p) {
  memset(p, 0, sizeof *p);
  p->cell = cell_of(c->node);
  p->gates = p->cell == MX_RNN_CELL_LSTM ? 4 : p->cell == MX_RNN_CELL_GRU ? 3 : 1;
  p->per = p->cell == MX_RNN_CELL_LSTM ? 3 : p->cell == MX_RNN_CELL_GRU ? 2 : 1;
  const mx_attr *dir = mx_node_attr(c->node, "direction");
  p->dirs = 1;
  if (dir && !strcmp(dir->s, "bidirectional")) p->dirs = 2;
  else if (dir && !strcmp(dir->s, "reverse")) p->reverse = 1;
  else if (dir && strcmp(dir->s, "forward"))
    return mx_op_fail(c, MINNX_E_MODEL, "attribute direction is '%s'; ONNX's are forward, reverse and bidirectional", dir->s);
  int64_t layout = mx_attr_int(c->node, "layout", 0);
  if (layout != 0 && layout != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute layout is %lld; ONNX's are 0 ([seq_length, batch_size, ...]) and 1 "
                      "([batch_size, seq_length, ...])", (long long)layout);
  p->layout = (int)layout;
  const mx_attr *clip = mx_node_attr(c->node, "clip");
  if (clip) {
    if (!(clip->f > 0.0f))
      return mx_op_fail(c, MINNX_E_MODEL, "attribute clip is %g; the bound must be positive", (double)clip->f);
    p->has_clip = 1;
    p->clip = clip->f;
  }
  p->lbr = mx_attr_int(c->node, "linear_before_reset", 0) != 0;
  p->input_forget = mx_attr_int(c->node, "input_forget", 0) != 0;
  const mx_attr *hs = mx_node_attr(c->node, "hidden_size");
  p->hidden = -1;
  if (hs) {
    if (hs->i <= 0)
      return mx_op_fail(c, MINNX_E_MODEL, "attribute hidden_size is %lld; it must be at least 1", (long long)hs->i);
    p->hidden = hs->i;
  }
  return activations(c, p);
}

/* Dim d of input k is `want` (or either is not known yet). */
static minnx_status dim_is(const mx_op_ctx *c, int k, int d, int64_t want, const char *what) {
  static const char *const names[] = {"X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"};
  const mx_shape *s = c->in[k];
  char b[96];
  if (s->dims[d] < 0 || want < 0 || s->dims[d] == want) return MINNX_OK;
  return mx_op_fail(c, MINNX_E_SHAPE, "%s's shape %s: dim %d must be %lld (%s)", names[k], mx_shape_str(s, b, sizeof b), d,
                    (long long)want, what);
}

static minnx_status rank_is(const mx_op_ctx *c, int k, int rank) {
  static const char *const names[] = {"X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"};
  char b[96];
  if (c->in[k]->rank == rank) return MINNX_OK;
  return mx_op_fail(c, MINNX_E_SHAPE, "%s's shape %s must have rank %d", names[k], mx_shape_str(c->in[k], b, sizeof b), rank);
}

static int64_t mul(int64_t a, int64_t b) { return a < 0 || b < 0 ? -1 : a * b; }

/* The attributes, the inputs' shapes against each other, and the outputs'
 * shapes (-1 where not known yet). */
static minnx_status rnn_geometry(mx_op_ctx *c, mx_rnn *p) {
  minnx_status st = rnn_attrs(c, p);
  if (st) return st;
  for (int k = 0; k < c->n_in && k <= MX_RNN_P; k++) p->has[k] = present_in(c, k);
  for (int k = 0; k < 3; k++) p->out[k] = present_out(c, k);
  for (int k = 0; k < c->n_in && k <= MX_RNN_P; k++)
    if (p->has[k] && c->in[k]->rank < 0) return MINNX_OK; /* not known yet */
  static const int ranks[] = {3, 3, 3, 2, 1, 3, 3, 2};
  for (int k = 0; k < c->n_in && k <= MX_RNN_P; k++)
    if (p->has[k] && (st = rank_is(c, k, ranks[k]))) return st;
  const mx_shape *x = c->in[MX_RNN_X];
  p->seq = x->dims[p->layout ? 1 : 0];
  p->batch = x->dims[p->layout ? 0 : 1];
  p->input = x->dims[2];
  int64_t rh = c->in[MX_RNN_R]->dims[2];
  if (p->hidden < 0) p->hidden = rh;
  if ((st = dim_is(c, MX_RNN_R, 2, p->hidden, "hidden_size"))) return st;
  if (p->hidden == 0) return mx_op_fail(c, MINNX_E_SHAPE, "hidden_size is 0 (R's last dim): there is no state");
  int64_t h = p->hidden, gh = mul(p->gates, h);
  if ((st = dim_is(c, MX_RNN_W, 0, p->dirs, "num_directions")) || (st = dim_is(c, MX_RNN_W, 1, gh, "gates x hidden_size")) ||
      (st = dim_is(c, MX_RNN_W, 2, p->input, "input_size, X's last dim")) ||
      (st = dim_is(c, MX_RNN_R, 0, p->dirs, "num_directions")) || (st = dim_is(c, MX_RNN_R, 1, gh, "gates x hidden_size")))
    return st;
  if (p->has[MX_RNN_B] &&
      ((st = dim_is(c, MX_RNN_B, 0, p->dirs, "num_directions")) || (st = dim_is(c, MX_RNN_B, 1, mul(2, gh), "2 x gates x hidden_size"))))
    return st;
  if (p->has[MX_RNN_SEQ] && (st = dim_is(c, MX_RNN_SEQ, 0, p->batch, "batch_size"))) return st;
  for (int k = MX_RNN_H0; k <= MX_RNN_C0; k++)
    if (p->has[k] && ((st = dim_is(c, k, p->layout, p->dirs, "num_directions")) ||
                      (st = dim_is(c, k, 1 - p->layout, p->batch, "batch_size")) || (st = dim_is(c, k, 2, h, "hidden_size"))))
      return st;
  if (p->has[MX_RNN_P] &&
      ((st = dim_is(c, MX_RNN_P, 0, p->dirs, "num_directions")) || (st = dim_is(c, MX_RNN_P, 1, mul(3, h), "3 x hidden_size"))))
    return st;
  for (int k = 0; k < c->n_out; k++) {
    mx_shape *o = &c->out[k];
    if (k == MX_RNN_Y) {
      o->rank = 4;
      int64_t d[4] = {p->seq, p->dirs, p->batch, h}, dl[4] = {p->batch, p->seq, p->dirs, h};
      memcpy(o->dims, p->layout ? dl : d, sizeof d);
    } else {
      o->rank = 3;
      int64_t d[3] = {p->dirs, p->batch, h}, dl[3] = {p->batch, p->dirs, h};
      memcpy(o->dims, p->layout ? dl : d, sizeof d);
    }
  }
  return MINNX_OK;
}

static minnx_status rnn_infer(mx_op_ctx *c) {
  mx_rnn p;
  for (int k = 0; k < c->n_out; k++) c->out[k].rank = -1;
  return rnn_geometry(c, &p);
}

/* The node: its geometry, and float32's plan on the products' kernels. */
typedef struct {
  mx_rnn p;
  int fast;
  mx_rnn_fast f;
} rnn_params;

static size_t rnn_params_size(const mx_node *n) {
  (void)n;
  return sizeof(rnn_params);
}

static minnx_status rnn_prepare(mx_op_ctx *c, void *params) {
  rnn_params *rp = params;
  mx_rnn *p = &rp->p;
  minnx_status st = rnn_geometry(c, p);
  if (st) return st;
  p->t = c->in_dtype[MX_RNN_X];
  if (!MX_DTYPE_ON(p->t)) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(p->t));
  size_t as = p->t == MINNX_DOUBLE ? 8 : 4;
  double row = (double)(p->gates + 3) * (double)p->hidden * (double)as, all = row * (double)p->batch;
  if (all > (double)(SIZE_MAX / 4))
    return mx_op_fail(c, MINNX_E_SHAPE, "the states of %lld batch rows of hidden_size %lld do not fit in memory",
                      (long long)p->batch, (long long)p->hidden);
  p->row_scratch = (size_t)row;
  c->scratch = (size_t)all;
  double work = (double)p->batch * (double)p->seq * (double)p->dirs * (double)p->gates * (double)p->hidden *
                (double)(p->input + p->hidden) * (double)as;
  p->tasks = mx_task_count(work, 2);
  if (p->tasks > p->batch) p->tasks = p->batch > 0 ? p->batch : 1;
  rp->fast = p->t == MINNX_FLOAT;
  if (rp->fast) {
    mx_rnn_fast_plan(&rp->f, p, (int)c->isa); /* the MX_GEMM_ levels are mx_isa's */
    double xw = (double)p->dirs * (double)p->seq * (double)p->batch * (double)p->gates * (double)p->hidden * 4.0;
    if (xw > (double)(SIZE_MAX / 4))
      return mx_op_fail(c, MINNX_E_SHAPE, "the products with W of %lld steps of %lld batch rows do not fit in memory",
                        (long long)p->seq, (long long)p->batch);
    c->scratch = mx_rnn_fast_scratch(&rp->f, p);
  }
  return MINNX_OK;
}

typedef struct {
  const rnn_params *rp;
  const mx_rnn *p;
  const mx_exec *x;
  const void *const *in;
  void *const *out;
} rnn_task_ctx;

static void rnn_task(void *ctx, size_t i) {
  const rnn_task_ctx *t = ctx;
  int64_t n = t->p->tasks, b = t->p->batch;
  int64_t b0 = (int64_t)i * b / n, b1 = ((int64_t)i + 1) * b / n;
  if (t->rp->fast ? mx_rnn_fast_rows(t->p, &t->rp->f, t->in, t->out, t->x->scratch, b0, b1)
                  : mx_rnn_ref(t->p, t->in, t->out, t->x->scratch, b0, b1))
    mx_fault(t->x, MX_FAULT_INDEX);
}

static void rnn_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const rnn_params *rp = params;
  rnn_task_ctx t = {rp, &rp->p, x, in, out};
  if (rp->fast) mx_rnn_fast_xw(&rp->p, &rp->f, x, in, x->scratch);
  mx_parallel_for(x, rnn_task, &t, (size_t)rp->p.tasks);
}

/* ---- the rows ---- */

static const mx_io rnn_in[] = {{.name = "X", .types = MX_FLOATS, .group = 1},
                               {.name = "W", .types = MX_FLOATS, .group = 1},
                               {.name = "R", .types = MX_FLOATS, .group = 1},
                               {.name = "B", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                               {.name = "sequence_lens", .types = MX_BIT(MINNX_INT32), .flags = MX_IO_OPTIONAL},
                               {.name = "initial_h", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                               {0}};
static const mx_io lstm_in[] = {{.name = "X", .types = MX_FLOATS, .group = 1},
                                {.name = "W", .types = MX_FLOATS, .group = 1},
                                {.name = "R", .types = MX_FLOATS, .group = 1},
                                {.name = "B", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "sequence_lens", .types = MX_BIT(MINNX_INT32), .flags = MX_IO_OPTIONAL},
                                {.name = "initial_h", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "initial_c", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "P", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {0}};
static const mx_io rnn_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "Y_h", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {0}};
static const mx_io gru1_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                 {.name = "Y_h", .types = MX_FLOATS, .group = 1},
                                 {0}};
static const mx_io lstm_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                 {.name = "Y_h", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                 {.name = "Y_c", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                 {0}};

#define COMMON_ATTRS                                                                                                   \
  {"activation_alpha", MX_ATTR_FLOATS}, {"activation_beta", MX_ATTR_FLOATS}, {"activations", MX_ATTR_STRINGS},         \
      {"clip", MX_ATTR_FLOAT}, {"direction", MX_ATTR_STRING}, {"hidden_size", MX_ATTR_INT}
static const mx_attr_spec rnn1_attrs[] = {COMMON_ATTRS, {"output_sequence", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec rnn7_attrs[] = {COMMON_ATTRS, {NULL, 0}};
static const mx_attr_spec rnn14_attrs[] = {COMMON_ATTRS, {"layout", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec gru3_attrs[] = {COMMON_ATTRS, {"linear_before_reset", MX_ATTR_INT}, {"output_sequence", MX_ATTR_INT},
                                          {NULL, 0}};
static const mx_attr_spec gru7_attrs[] = {COMMON_ATTRS, {"linear_before_reset", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec gru14_attrs[] = {COMMON_ATTRS, {"linear_before_reset", MX_ATTR_INT}, {"layout", MX_ATTR_INT},
                                           {NULL, 0}};
static const mx_attr_spec lstm1_attrs[] = {COMMON_ATTRS, {"input_forget", MX_ATTR_INT}, {"output_sequence", MX_ATTR_INT},
                                           {NULL, 0}};
static const mx_attr_spec lstm7_attrs[] = {COMMON_ATTRS, {"input_forget", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec lstm14_attrs[] = {COMMON_ATTRS, {"input_forget", MX_ATTR_INT}, {"layout", MX_ATTR_INT}, {NULL, 0}};
#undef COMMON_ATTRS

#define ROW .inexact = 1, .infer = rnn_infer, .params_size = rnn_params_size, .prepare = rnn_prepare, .eval = rnn_eval
static const mx_op_row rnn_rows[] = {
    {ROW, .since = 1, .in = rnn_in, .out = rnn_out, .attrs = rnn1_attrs},
    {ROW, .since = 7, .in = rnn_in, .out = rnn_out, .attrs = rnn7_attrs},
    {ROW, .since = 14, .in = rnn_in, .out = rnn_out, .attrs = rnn14_attrs},
};
static const mx_op_row gru_rows[] = {
    {ROW, .since = 1, .in = rnn_in, .out = gru1_out, .attrs = rnn1_attrs},
    {ROW, .since = 3, .in = rnn_in, .out = rnn_out, .attrs = gru3_attrs},
    {ROW, .since = 7, .in = rnn_in, .out = rnn_out, .attrs = gru7_attrs},
    {ROW, .since = 14, .in = rnn_in, .out = rnn_out, .attrs = gru14_attrs},
};
static const mx_op_row lstm_rows[] = {
    {ROW, .since = 1, .in = lstm_in, .out = lstm_out, .attrs = lstm1_attrs},
    {ROW, .since = 7, .in = lstm_in, .out = lstm_out, .attrs = lstm7_attrs},
    {ROW, .since = 14, .in = lstm_in, .out = lstm_out, .attrs = lstm14_attrs},
};
#undef ROW
MX_OP_TABLE(RNN, "", rnn_rows);
MX_OP_TABLE(GRU, "", gru_rows);
MX_OP_TABLE(LSTM, "", lstm_rows);
