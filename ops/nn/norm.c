/* ONNX BatchNormalization (1, 6, 7, 9, 14, 15), InstanceNormalization (1, 6)
 * and LayerNormalization (17), for inference: the rows, their shapes and
 * the run. The order of the arithmetic is norm.h's; the kernels come from
 * the template norm.c.in (norm.kernels.cmake), chosen here at prepare.
 * - BatchNormalization: X [N, C, D1...] (rank >= 2); scale, B, mean, var
 *   [C], or, for 1, 6 and 7 with spatial=0, of X's shape without N (one
 *   parameter per element of a sample). Inference only: 1 and 6 need
 *   is_test=1 (is_test=0, the default, is training: refused), any of the
 *   training outputs (mean, var, saved_mean, saved_var; running_mean,
 *   running_var from 14) is refused, and so is training_mode=1 (14, 15).
 *   consumed_inputs (1) and momentum change nothing at inference. 14 adds
 *   bfloat16 and lets mean and var have their own float dtype (U), 15
 *   scale and B theirs (T1) and mean and var theirs (T2).
 * - InstanceNormalization: X [N, C, D1...] (rank >= 3, as ONNX Runtime
 *   asks), scale and B [C]; each (n, c) plane normalized by its own mean
 *   and variance.
 * - LayerNormalization: the dims from `axis` (negative counts from the end)
 *   on are one set per row; Scale and the optional B hold one element per
 *   element of a set (their element count is the set's: smaller shapes
 *   that would broadcast are refused); the optional Mean and InvStdDev
 *   outputs are float32, X's shape with the set's dims 1. stash_type 1
 *   (float32) only: 16 (bfloat16 statistics) is refused, other values are
 *   not ONNX's. */
#include <string.h>

#include "graph/shape.h"
#include "ops/core/kernel.h"
#include "ops/core/op.h"
#include "ops/nn/norm.h"
#include "ops/reduction/sum.h"

extern const mx_kernel_row mx_norm_rows[];
extern const size_t mx_norm_n_rows;

const struct mx_norm_set *mx_norm_kernels(mx_dtype t, mx_isa isa) {
  return MX_DTYPE_ON(t) ? mx_kernel_find(mx_norm_rows, mx_norm_n_rows, t, isa) : NULL;
}

enum { BATCH, INSTANCE, LAYER };

typedef struct norm_params {
  int op;
  const struct mx_norm_set *k;
  mx_dtype t, pt[4]; /* X's dtype; BatchNormalization's scale, B, mean, var */
  mx_norm_geom g;    /* LayerNormalization: n rows of inner elements, chan 1 */
  size_t esize;      /* bytes of A: 4 (float) or 8 (double) */
  float eps;
  int vec;           /* BatchNormalization with one parameter per element of a sample */
  int has_bias, has_mean, has_inv;
  int64_t tasks;
} norm_params;

static int op_of(const mx_op_ctx *c) {
  return c->node->op_type[0] == 'B' ? BATCH : c->node->op_type[0] == 'I' ? INSTANCE : LAYER;
}

static float eps_of(const mx_op_ctx *c) {
  const mx_attr *at = mx_node_attr(c->node, "epsilon");
  return at ? at->f : 1e-5f;
}

static int present(const mx_op_ctx *c, int k) { return k < c->node->n_outputs && c->node->outputs[k] >= 0; }

/* BatchNormalization's inference-only rules. */
static minnx_status batch_mode(const mx_op_ctx *c) {
  int since = c->row->since;
  if (since < 7 && mx_attr_int(c->node, "is_test", 0) == 0)
    return mx_op_fail(c, MINNX_E_FEATURE, "is_test is 0 (the default): that is training, with the batch's own statistics; "
                      "minnx runs inference only (is_test=1)");
  if (since >= 14 && mx_attr_int(c->node, "training_mode", 0) != 0)
    return mx_op_fail(c, MINNX_E_FEATURE, "training_mode is %lld: minnx runs inference only (training_mode=0)",
                      (long long)mx_attr_int(c->node, "training_mode", 0));
  for (int k = 1; k < c->node->n_outputs; k++)
    if (present(c, k))
      return mx_op_fail(c, MINNX_E_FEATURE, "output %d (%s) is asked for: it exists in training only; minnx runs inference only",
                        k, since >= 14 ? (k == 1 ? "running_mean" : "running_var")
                                       : (k == 1 ? "mean" : k == 2 ? "var" : k == 3 ? "saved_mean" : "saved_var"));
  return MINNX_OK;
}

/* A parameter input's shape against what it must be: rank 1 of `chan`
 * (want NULL), or exactly `want`. Unknown dims (-1) pass until bound. */
static minnx_status param_shape(const mx_op_ctx *c, int k, const char *name, const mx_shape *want, int64_t chan) {
  const mx_shape *s = c->in[k];
  char s1[96], s2[96];
  if (s->rank < 0) return MINNX_OK;
  if (want) {
    int ok = s->rank == want->rank;
    for (int d = 0; ok && d < s->rank; d++) ok = s->dims[d] < 0 || want->dims[d] < 0 || s->dims[d] == want->dims[d];
    return ok ? MINNX_OK
              : mx_op_fail(c, MINNX_E_SHAPE, "%s's shape %s must be %s (X's shape without N: spatial is 0)", name,
                           mx_shape_str(s, s1, sizeof s1), mx_shape_str(want, s2, sizeof s2));
  }
  if (s->rank != 1 || (s->dims[0] >= 0 && chan >= 0 && s->dims[0] != chan))
    return mx_op_fail(c, MINNX_E_SHAPE, "%s's shape %s must be [%lld], one value per channel of X's shape %s", name,
                      mx_shape_str(s, s1, sizeof s1), (long long)chan, mx_shape_str(c->in[0], s2, sizeof s2));
  return MINNX_OK;
}

static int64_t count_known(const mx_shape *s, int from) {
  int64_t n = 1;
  for (int d = from; d < s->rank; d++) {
    if (s->dims[d] < 0) return -1;
    n *= s->dims[d];
  }
  return n;
}

/* The node's shapes checked and its geometry (-1 where not known yet). */
static minnx_status norm_geometry(mx_op_ctx *c, norm_params *p) {
  const mx_shape *xs = c->in[0];
  char s1[96], s2[96];
  memset(p, 0, sizeof *p);
  p->op = op_of(c);
  p->eps = eps_of(c);
  if (p->op == BATCH) {
    minnx_status st = batch_mode(c);
    if (st) return st;
    p->vec = c->row->since < 9 && mx_attr_int(c->node, "spatial", 1) == 0;
  }
  if (xs->rank < 0) return MINNX_OK;
  if (p->op == LAYER) {
    int64_t stash = mx_attr_int(c->node, "stash_type", 1);
    if (stash != 1)
      return stash == 16 ? mx_op_fail(c, MINNX_E_UNSUPPORTED, "attribute stash_type is 16: minnx computes the "
                                      "statistics in float32 only (stash_type 1)")
                         : mx_op_fail(c, MINNX_E_MODEL, "attribute stash_type is %lld; ONNX allows 1 (float32) and 16 "
                                      "(bfloat16)", (long long)stash);
    int64_t a = mx_attr_int(c->node, "axis", -1), axis = mx_axis(c, a, xs->rank);
    if (axis < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range [%d, %d] for X's shape %s", (long long)a, -xs->rank,
                        xs->rank - 1, mx_shape_str(xs, s1, sizeof s1));
    p->g.n = count_known(xs, 0) < 0 ? -1 : 1;
    for (int d = 0; d < axis && p->g.n >= 0; d++) p->g.n *= xs->dims[d];
    p->g.chan = 1;
    p->g.inner = count_known(xs, (int)axis);
    for (int k = 1; k < c->n_in; k++) {
      if (!c->in[k] || c->in[k]->rank < 0) continue;
      int64_t n = count_known(c->in[k], 0);
      if (n >= 0 && p->g.inner >= 0 && n != p->g.inner)
        return mx_op_fail(c, MINNX_E_SHAPE, "%s's shape %s must hold %lld elements, one per element of a set (X's shape "
                          "%s from axis %lld)", k == 1 ? "Scale" : "B", mx_shape_str(c->in[k], s1, sizeof s1),
                          (long long)p->g.inner, mx_shape_str(xs, s2, sizeof s2), (long long)axis);
    }
    for (int k = 1; k < 3; k++)
      if (k < c->n_out) {
        c->out[k] = *xs;
        for (int d = (int)axis; d < xs->rank; d++) c->out[k].dims[d] = 1;
      }
    return MINNX_OK;
  }
  int min_rank = p->op == INSTANCE ? 3 : 2;
  if (xs->rank < min_rank)
    return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s: %s needs [N, C%s], rank >= %d", mx_shape_str(xs, s1, sizeof s1),
                      c->node->op_type, p->op == INSTANCE ? ", D1, ..." : ", ...", min_rank);
  int64_t chan = xs->dims[1];
  mx_shape want = *xs;
  if (p->vec) {
    want.rank = xs->rank - 1;
    memmove(want.dims, xs->dims + 1, sizeof want.dims[0] * (size_t)want.rank);
  }
  static const char *const names[] = {"X", "scale", "B", "mean", "var"};
  for (int k = 1; k < c->n_in; k++) {
    minnx_status st = param_shape(c, k, names[k], p->vec ? &want : NULL, chan);
    if (st) return st;
  }
  p->g.n = xs->dims[0];
  p->g.chan = p->vec ? count_known(xs, 1) : chan;
  p->g.inner = p->vec ? 1 : count_known(xs, 2);
  return MINNX_OK;
}

static minnx_status norm_infer(mx_op_ctx *c) {
  norm_params p;
  c->out[0] = *c->in[0];
  for (int k = 1; k < c->n_out && op_of(c) == LAYER; k++) {
    c->out[k].rank = -1;
    c->out_dtype[k] = MINNX_FLOAT;
  }
  return norm_geometry(c, &p);
}

static size_t norm_params_size(const mx_node *n) {
  (void)n;
  return sizeof(norm_params);
}

/* The kernels: norm.c.in's (norm.kernels.cmake). */
static minnx_status norm_prepare(mx_op_ctx *c, void *params) {
  norm_params *p = params;
  minnx_status st = norm_geometry(c, p);
  if (st) return st;
  p->t = c->in_dtype[0];
  p->k = mx_norm_kernels(p->t, c->isa);
  if (!p->k) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(p->t));
  p->esize = p->t == MINNX_DOUBLE ? 8 : 4;
  for (int k = 1; k < c->n_in && k < 5; k++) {
    p->pt[k - 1] = c->in_dtype[k];
    if (c->in[k] && !MX_DTYPE_ON(c->in_dtype[k]))
      return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[k]));
  }
  p->has_bias = c->n_in > 2 && c->in[2] != NULL;
  p->has_mean = present(c, 1);
  p->has_inv = present(c, 2);
  if (p->op == BATCH) c->scratch = 3 * (size_t)p->g.chan * p->esize;
  double work = (double)p->g.n * (double)p->g.chan * (double)p->g.inner * (double)mx_dtype_size(p->t) * 2;
  p->tasks = mx_task_count(work, 2);
  return MINNX_OK;
}

/* A few values of A (float or double), side by side. */
typedef union {
  double d[3];
  float f[3];
} acc3;

/* mab = {m, a, b} in A from a set's mean, its variance, scale and bias
 * (doubles holding A's values, or a T1/T2 double): s = sqrt(var + eps),
 * a = scale / s. */
static void coef(int dbl, float eps, double mean, double var, double scale, double bias, acc3 *mab) {
  if (dbl) {
    mab->d[0] = mean, mab->d[1] = scale / mx_sum_sqrt_f64(var + (double)eps), mab->d[2] = bias;
  } else {
    mab->f[0] = (float)mean, mab->f[1] = (float)scale / mx_sum_sqrt_f32((float)var + eps), mab->f[2] = (float)bias;
  }
}

static double acc_get(int dbl, const acc3 *a, int i) { return dbl ? a->d[i] : a->f[i]; }

typedef struct {
  const norm_params *p;
  const void *const *in;
  void *const *out;
  const void *coefs; /* BatchNormalization: m, a, b, chan each */
} norm_task_ctx;

/* Units [u0, u1): BatchNormalization's (n, c) blocks (or samples when vec),
 * InstanceNormalization's (n, c) planes, LayerNormalization's rows. */
static void norm_units(const norm_task_ctx *t, int64_t u0, int64_t u1) {
  const norm_params *p = t->p;
  size_t es = mx_dtype_size(p->t);
  int dbl = p->t == MINNX_DOUBLE;
  const char *x = t->in[0];
  char *y = t->out[0];
  if (p->op == BATCH) {
    const char *cf = t->coefs;
    size_t row = (size_t)p->g.chan * p->esize;
    for (int64_t u = u0; u < u1; u++) {
      if (p->vec) {
        p->k->affine(y + (size_t)(u * p->g.chan) * es, x + (size_t)(u * p->g.chan) * es, p->g.chan, cf, cf + row,
                     cf + 2 * row, 1);
      } else {
        size_t ch = (size_t)(u % p->g.chan) * p->esize, at = (size_t)(u * p->g.inner) * es;
        p->k->affine(y + at, x + at, p->g.inner, cf + ch, cf + row + ch, cf + 2 * row + ch, 0);
      }
    }
    return;
  }
  for (int64_t u = u0; u < u1; u++) {
    size_t at = (size_t)(u * p->g.inner) * es;
    acc3 mv, r;
    p->k->stats(x + at, p->g.inner, &mv);
    double mean = acc_get(dbl, &mv, 0), var = acc_get(dbl, &mv, 1), inv;
    if (p->op == INSTANCE) {
      int64_t ch = u % p->g.chan;
      coef(dbl, p->eps, mean, var, mx_norm_get(p->t, t->in[1], ch), mx_norm_get(p->t, t->in[2], ch), &r);
      const char *rb = (const char *)&r;
      p->k->affine(y + at, x + at, p->g.inner, rb, rb + p->esize, rb + 2 * p->esize, 0);
      continue;
    }
    if (dbl) /* r: {mean, s} */
      r.d[0] = mean, r.d[1] = mx_sum_sqrt_f64(var + (double)p->eps), inv = 1.0 / r.d[1];
    else
      r.f[0] = (float)mean, r.f[1] = mx_sum_sqrt_f32((float)var + p->eps), inv = 1.0f / r.f[1];
    p->k->layer(y + at, x + at, p->g.inner, &r, t->in[1], p->has_bias ? t->in[2] : NULL);
    if (p->has_mean) ((float *)t->out[1])[u] = (float)mean;
    if (p->has_inv) ((float *)t->out[2])[u] = (float)inv;
  }
}

static void norm_task(void *ctx, size_t i) {
  const norm_task_ctx *t = ctx;
  int64_t units = t->p->op == BATCH && t->p->vec ? t->p->g.n : t->p->g.n * t->p->g.chan;
  norm_units(t, (int64_t)i * units / t->p->tasks, ((int64_t)i + 1) * units / t->p->tasks);
}

static void norm_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const norm_params *p = params;
  norm_task_ctx t = {p, in, out, x->scratch};
  if (p->op == BATCH) { /* the parameters in A, per channel (or per element of a sample) */
    char *cf = x->scratch;
    size_t row = (size_t)p->g.chan * p->esize;
    int dbl = p->t == MINNX_DOUBLE;
    for (int64_t ch = 0; ch < p->g.chan; ch++) {
      acc3 mab;
      const char *r = (const char *)&mab;
      coef(dbl, p->eps, mx_norm_get(p->pt[2], in[3], ch), mx_norm_get(p->pt[3], in[4], ch),
           mx_norm_get(p->pt[0], in[1], ch), mx_norm_get(p->pt[1], in[2], ch), &mab);
      memcpy(cf + (size_t)ch * p->esize, r, p->esize);
      memcpy(cf + row + (size_t)ch * p->esize, r + p->esize, p->esize);
      memcpy(cf + 2 * row + (size_t)ch * p->esize, r + 2 * p->esize, p->esize);
    }
  }
  mx_parallel_for(x, norm_task, &t, (size_t)p->tasks);
}

/* ---- the rows ---- */

#define FLOATS_BF (MX_FLOATS | MX_BIT(MINNX_BFLOAT16))
static const mx_io bn_in1[] = {{.name = "X", .types = MX_FLOATS, .group = 1}, {.name = "scale", .types = MX_FLOATS, .group = 1},
                               {.name = "B", .types = MX_FLOATS, .group = 1},  {.name = "mean", .types = MX_FLOATS, .group = 1},
                               {.name = "var", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io bn_out1[] = {{.name = "Y", .types = MX_FLOATS, .group = 1},
                                {.name = "mean", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "var", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "saved_mean", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {.name = "saved_var", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io bn_in14[] = {{.name = "X", .types = FLOATS_BF, .group = 1}, {.name = "scale", .types = FLOATS_BF, .group = 1},
                                {.name = "B", .types = FLOATS_BF, .group = 1}, {.name = "input_mean", .types = FLOATS_BF, .group = 2},
                                {.name = "input_var", .types = FLOATS_BF, .group = 2}, {0}};
static const mx_io bn_in15[] = {{.name = "X", .types = FLOATS_BF, .group = 1}, {.name = "scale", .types = FLOATS_BF, .group = 2},
                                {.name = "B", .types = FLOATS_BF, .group = 2}, {.name = "input_mean", .types = FLOATS_BF, .group = 3},
                                {.name = "input_var", .types = FLOATS_BF, .group = 3}, {0}};
static const mx_io bn_out14[] = {{.name = "Y", .types = FLOATS_BF, .group = 1},
                                 {.name = "running_mean", .types = FLOATS_BF, .group = 2, .flags = MX_IO_OPTIONAL},
                                 {.name = "running_var", .types = FLOATS_BF, .group = 2, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io bn_out15[] = {{.name = "Y", .types = FLOATS_BF, .group = 1},
                                 {.name = "running_mean", .types = FLOATS_BF, .group = 3, .flags = MX_IO_OPTIONAL},
                                 {.name = "running_var", .types = FLOATS_BF, .group = 3, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_attr_spec bn_attrs1[] = {{"consumed_inputs", MX_ATTR_INTS}, {"epsilon", MX_ATTR_FLOAT}, {"is_test", MX_ATTR_INT},
                                         {"momentum", MX_ATTR_FLOAT}, {"spatial", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec bn_attrs6[] = {{"epsilon", MX_ATTR_FLOAT}, {"is_test", MX_ATTR_INT}, {"momentum", MX_ATTR_FLOAT},
                                         {"spatial", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec bn_attrs7[] = {{"epsilon", MX_ATTR_FLOAT}, {"momentum", MX_ATTR_FLOAT}, {"spatial", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec bn_attrs9[] = {{"epsilon", MX_ATTR_FLOAT}, {"momentum", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec bn_attrs14[] = {{"epsilon", MX_ATTR_FLOAT}, {"momentum", MX_ATTR_FLOAT}, {"training_mode", MX_ATTR_INT},
                                          {NULL, 0}};

static const mx_io in_in[] = {{.name = "input", .types = MX_FLOATS, .group = 1}, {.name = "scale", .types = MX_FLOATS, .group = 1},
                              {.name = "B", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io in_out[] = {{.name = "output", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_attr_spec in_attrs1[] = {{"consumed_inputs", MX_ATTR_INTS}, {"epsilon", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec in_attrs6[] = {{"epsilon", MX_ATTR_FLOAT}, {NULL, 0}};

static const mx_io ln_in[] = {{.name = "X", .types = FLOATS_BF, .group = 1}, {.name = "Scale", .types = FLOATS_BF, .group = 1},
                              {.name = "B", .types = FLOATS_BF, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io ln_out[] = {{.name = "Y", .types = FLOATS_BF, .group = 1},
                               {.name = "Mean", .types = MX_BIT(MINNX_FLOAT), .flags = MX_IO_OPTIONAL},
                               {.name = "InvStdDev", .types = MX_BIT(MINNX_FLOAT), .flags = MX_IO_OPTIONAL}, {0}};
static const mx_attr_spec ln_attrs[] = {{"axis", MX_ATTR_INT}, {"epsilon", MX_ATTR_FLOAT}, {"stash_type", MX_ATTR_INT}, {NULL, 0}};

#define NORM .inexact = 1, .infer = norm_infer, .params_size = norm_params_size, .prepare = norm_prepare, .eval = norm_eval
static const mx_op_row bn_rows[] = {
    {NORM, .since = 1, .in = bn_in1, .out = bn_out1, .attrs = bn_attrs1},
    {NORM, .since = 6, .in = bn_in1, .out = bn_out1, .attrs = bn_attrs6},
    {NORM, .since = 7, .in = bn_in1, .out = bn_out1, .attrs = bn_attrs7},
    {NORM, .since = 9, .in = bn_in1, .out = bn_out1, .attrs = bn_attrs9},
    {NORM, .since = 14, .in = bn_in14, .out = bn_out14, .attrs = bn_attrs14},
    {NORM, .since = 15, .in = bn_in15, .out = bn_out15, .attrs = bn_attrs14},
};
static const mx_op_row in_rows[] = {
    {NORM, .since = 1, .in = in_in, .out = in_out, .attrs = in_attrs1},
    {NORM, .since = 6, .in = in_in, .out = in_out, .attrs = in_attrs6},
};
static const mx_op_row ln_rows[] = {
    {NORM, .since = 17, .in = ln_in, .out = ln_out, .attrs = ln_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(BatchNormalization, "", bn_rows);
MX_OP_TABLE(InstanceNormalization, "", in_rows);
MX_OP_TABLE(LayerNormalization, "", ln_rows);
