/* ONNX Conv (1, 11): 1-D, 2-D and 3-D convolutions with groups (depthwise
 * included), strides, dilations, explicit pads or auto_pad, kernel_shape
 * from W when absent, an optional bias; float16, float, double.
 * Each image is one batch of matrix products, one per group:
 *   Y[g] [M/G, P] = W[g] [M/G, K] x col[g] [K, P],  K = C/G * window
 * col being the image laid out by im2col (conv.h) in arena scratch, or the
 * image itself for a 1x1 kernel with stride 1 and no padding. float runs the
 * packed microkernels of MatMul and Gemm (ops/math/gemm.h), float16 the same
 * on float32 copies rounded once into the output, double the row kernel;
 * the bias is added last. The order is conv.h's, kept by every kernel. */
#include <string.h>

#include "graph/shape.h"
#include "ops/nn/conv.h"

/* ---- the geometry (infer and prepare) ---- */

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };

/* An ints attribute: its values and count (absent: n = -1). */
static const int64_t *ints_attr(const mx_node *n, const char *name, int64_t *count) {
  const mx_attr *a = mx_node_attr(n, name);
  *count = a ? (int64_t)a->n : -1;
  return a ? a->ints : NULL;
}

static int auto_pad_of(const mx_node *n) {
  const mx_attr *a = mx_node_attr(n, "auto_pad");
  static const char *const names[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  if (!a) return PAD_NOTSET;
  for (int k = 0; k < 4; k++)
    if (strcmp(a->s, names[k]) == 0) return k;
  return -1;
}

/* One spatial dim's output size and padding before it; in or k -1 (not
 * known yet) gives -1. Returns a refusal's text, or NULL. */
static const char *spatial_dim(int mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe,
                               int64_t *out, int64_t *pad) {
  int64_t dk, padded;
  *out = -1;
  *pad = pb;
  if (in < 0 || k < 0) return NULL;
  if (__builtin_mul_overflow(k - 1, d, &dk) || __builtin_add_overflow(dk, 1, &dk)) return "the dilated kernel overflows";
  if (mode == PAD_SAME_UPPER || mode == PAD_SAME_LOWER) {
    int64_t o = in / s + (in % s != 0), total;
    if (__builtin_add_overflow(o > 0 ? (o - 1) * s : 0, dk, &total)) return "the padding SAME needs overflows";
    total = total > in ? total - in : 0;
    *pad = mode == PAD_SAME_UPPER ? total / 2 : total - total / 2;
    *out = o;
    return NULL;
  }
  if (mode == PAD_VALID) pb = pe = 0, *pad = 0;
  if (__builtin_add_overflow(in, pb, &padded) || __builtin_add_overflow(padded, pe, &padded))
    return "the padded input overflows";
  if (padded < dk) return "the (dilated) kernel is larger than the padded input";
  *out = (padded - dk) / s + 1;
  return NULL;
}

/* The node's geometry from its shapes and attributes; the output's shape
 * into out (dims -1 where not known yet). */
static minnx_status conv_geometry(mx_op_ctx *c, mx_conv_geom *g, mx_shape *out) {
  const mx_node *n = c->node;
  const mx_shape *xs = c->in[0], *ws = c->in[1], *bs = c->n_in > 2 ? c->in[2] : NULL;
  char s1[96], s2[96];
  memset(g, 0, sizeof *g);
  int64_t nk, ns, nd, np;
  const int64_t *ks = ints_attr(n, "kernel_shape", &nk), *st = ints_attr(n, "strides", &ns),
                *dl = ints_attr(n, "dilations", &nd), *pd = ints_attr(n, "pads", &np);
  int mode = auto_pad_of(n);
  g->group = mx_attr_int(n, "group", 1);
  if (mode < 0) return mx_op_fail(c, MINNX_E_MODEL, "attribute auto_pad '%s' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", mx_node_attr(n, "auto_pad")->s);
  if (mode != PAD_NOTSET && np >= 0) return mx_op_fail(c, MINNX_E_MODEL, "attribute pads cannot be given with auto_pad other than NOTSET");
  if (g->group < 1) return mx_op_fail(c, MINNX_E_MODEL, "attribute group is %lld; it must be >= 1", (long long)g->group);
  int rank = xs->rank >= 0 ? xs->rank : ws->rank;
  if (rank < 0 && nk >= 0) rank = (int)nk + 2;
  if (rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int sp = rank - 2;
  if (sp < 1 || sp > MX_CONV_MAX_SPATIAL)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "X has rank %d; minnx convolves 1-D to 3-D inputs (rank 3 to 5)", rank);
  if ((xs->rank >= 0 && xs->rank != rank) || (ws->rank >= 0 && ws->rank != rank))
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes X %s and W %s must have the same rank", mx_shape_str(xs, s1, sizeof s1),
                      mx_shape_str(ws, s2, sizeof s2));
  if ((nk >= 0 && nk != sp) || (ns >= 0 && ns != sp) || (nd >= 0 && nd != sp) || (np >= 0 && np != 2 * sp))
    return mx_op_fail(c, MINNX_E_MODEL, "attributes kernel_shape, strides and dilations need %d values and pads %d for a %d-D convolution",
                      sp, 2 * sp, sp);
  int64_t xn = xs->rank >= 0 ? xs->dims[0] : -1, xc = xs->rank >= 0 ? xs->dims[1] : -1;
  int64_t wm = ws->rank >= 0 ? ws->dims[0] : -1, wc = ws->rank >= 0 ? ws->dims[1] : -1;
  if (xc >= 0 && wc >= 0 && (xc % g->group != 0 || xc / g->group != wc))
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes X %s and W %s do not fit: X has %lld channels; W with group %lld needs %lld (group must divide them)",
                      mx_shape_str(xs, s1, sizeof s1), mx_shape_str(ws, s2, sizeof s2), (long long)xc, (long long)g->group,
                      (long long)(wc * g->group));
  if (wm >= 0 && wm % g->group != 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "W's shape %s: its %lld output channels are not divisible by group %lld", mx_shape_str(ws, s2, sizeof s2), (long long)wm,
                      (long long)g->group);
  if (bs && bs->rank >= 0 && (bs->rank != 1 || (wm >= 0 && bs->dims[0] >= 0 && bs->dims[0] != wm)))
    return mx_op_fail(c, MINNX_E_SHAPE, "B's shape %s must be [%lld], W's output channels", mx_shape_str(bs, s1, sizeof s1),
                      (long long)wm);
  g->n = xn, g->c = xc, g->m = wm;
  out->rank = rank;
  out->dims[0] = xn;
  out->dims[1] = wm;
  for (int d = 0; d < 3; d++) g->in[d] = g->k[d] = g->out[d] = g->stride[d] = g->dil[d] = 1;
  for (int d = 0; d < sp; d++) {
    int at = 3 - sp + d;
    int64_t wk = ws->rank >= 0 ? ws->dims[2 + d] : -1, k = nk >= 0 ? ks[d] : wk;
    g->stride[at] = ns >= 0 ? st[d] : 1;
    g->dil[at] = nd >= 0 ? dl[d] : 1;
    int64_t pb = np >= 0 ? pd[d] : 0, pe = np >= 0 ? pd[sp + d] : 0;
    if (k < -1 || (nk >= 0 && k < 1) || (nk >= 0 && wk >= 0 && wk != k))
      return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape[%d] is %lld; W %s has %lld", d, (long long)k,
                        mx_shape_str(ws, s2, sizeof s2), (long long)wk);
    if (g->stride[at] < 1 || g->dil[at] < 1 || pb < 0 || pe < 0)
      return mx_op_fail(c, MINNX_E_MODEL, "spatial dim %d: attributes stride %lld, dilation %lld, pads %lld and %lld; "
                        "strides and dilations must be >= 1, pads >= 0", d, (long long)g->stride[at], (long long)g->dil[at],
                        (long long)pb, (long long)pe);
    g->in[at] = xs->rank >= 0 ? xs->dims[2 + d] : -1;
    g->k[at] = k;
    const char *why = spatial_dim(mode, g->in[at], k, g->stride[at], g->dil[at], pb, pe, &g->out[at], &g->pad[at]);
    if (why)
      return mx_op_fail(c, MINNX_E_SHAPE, "spatial dim %d of X's shape %s, kernel %lld, dilation %lld, pads %lld and %lld: %s", d,
                        mx_shape_str(xs, s1, sizeof s1), (long long)k, (long long)g->dil[at], (long long)pb,
                        (long long)pe, why);
    out->dims[2 + d] = g->out[at];
  }
  return MINNX_OK;
}

static minnx_status conv_infer(mx_op_ctx *c) {
  mx_conv_geom g;
  return conv_geometry(c, &g, &c->out[0]);
}

/* ---- prepare and eval (the plan and its run: conv_run.c) ---- */

static size_t conv_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_conv_plan);
}

static minnx_status conv_prepare(mx_op_ctx *c, void *params) {
  mx_conv_plan *p = params;
  mx_conv_geom g;
  mx_shape out;
  minnx_status st = conv_geometry(c, &g, &out);
  if (st != MINNX_OK) return st;
  if (!mx_conv_plan_init(p, &g, c->in_dtype[0], c->n_in > 2 && c->in[2] != NULL, mx_gemm_isa_available()))
    return mx_op_fail(c, MINNX_E_SHAPE, "the im2col scratch of a %s convolution this size (%lld channels x %lld kernel x %lld "
                      "outputs) overflows", mx_dtype_name(c->in_dtype[0]), (long long)g.c, (long long)mx_conv_window(&g),
                      (long long)mx_conv_plane(&g));
  c->scratch = p->scratch;
  return MINNX_OK;
}

static void conv_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const mx_conv_plan *p = params;
  mx_conv_run(p, x, in[0], in[1], p->bias ? in[2] : NULL, out[0], x->scratch);
}

/* ---- the rows ---- */

static const mx_io conv_in[] = {{.name = "X", .types = MX_FLOATS, .group = 1},
                                {.name = "W", .types = MX_FLOATS, .group = 1},
                                {.name = "B", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                {0}};
static const mx_io conv_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_attr_spec conv_attrs[] = {{"auto_pad", MX_ATTR_STRING}, {"dilations", MX_ATTR_INTS},
                                          {"group", MX_ATTR_INT},       {"kernel_shape", MX_ATTR_INTS},
                                          {"pads", MX_ATTR_INTS},       {"strides", MX_ATTR_INTS},
                                          {NULL, 0}};

#define CONV_ROW .in = conv_in, .out = conv_out, .attrs = conv_attrs, .inexact = 1, .infer = conv_infer, \
                 .params_size = conv_params_size, .prepare = conv_prepare, .eval = conv_eval
static const mx_op_row conv_rows[] = {
    {CONV_ROW, .since = 1},
    {CONV_ROW, .since = 11},
};
MX_OP_TABLE(Conv, "", conv_rows);
