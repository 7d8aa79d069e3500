/* ONNX ConvTranspose (1, 11): 1-D, 2-D and 3-D transposed convolutions with
 * groups, strides, dilations, explicit pads, auto_pad, output_padding,
 * output_shape (which sets the pads), kernel_shape from W when absent, an
 * optional bias; float16, float, double (bfloat16 comes with version 22).
 * Each image is one batch of matrix products, one per group,
 *   col[g] [M/G * window, in plane] = W[g]^T x X[g] [C/G, in plane]
 * in arena scratch, then col2im adds col's rows into Y where they land
 * (convt_run.c); the order is convt.h's, kept by every kernel.
 *
 * The output's size per spatial dim (the spec's formulas), dk = (k - 1) *
 * dilation + 1, full = stride * (in - 1) + output_padding + dk:
 *   pads (NOTSET; VALID: none): out = full - pad_begin - pad_end;
 *   output_shape given: out = it, total = full - out, and, in version 11,
 *     pad_begin = floor(total / 2) with SAME_UPPER, total - floor(total / 2)
 *     otherwise; version 1's formula has them the other way round
 *     (total - floor(total / 2) with SAME_UPPER, floor(total / 2) otherwise);
 *     a negative total (an output larger than full) is kept: the output's
 *     edges are where nothing lands (0, or the bias);
 *   SAME_UPPER or SAME_LOWER without output_shape: out = in * stride
 *     (version 11; version 1 says the output matches the input: out = in),
 *     total = full - out, the odd one at the end (UPPER: pad_begin =
 *     floor(total / 2)) or at the beginning (LOWER).
 * Refused, naming the node: list attributes of the wrong length, strides or
 * dilations < 1, negative pads or output_padding, output_padding not below
 * its stride or its dilation (PyTorch's rule: the extra elements it adds are
 * no more than one stride's gap), pads with an auto_pad other than NOTSET, an
 * output_shape value < 1, an explicit-pads output smaller than 1, a group
 * that does not divide X's channels or that W's first dim does not match,
 * and sizes that overflow. */
#include <string.h>

#include "graph/shape.h"
#include "ops/nn/convt.h"

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };

static const int64_t *ints_of(const mx_node *n, const char *name, int64_t *count) {
  const mx_attr *a = mx_node_attr(n, name);
  *count = a ? (int64_t)a->n : -1;
  return a ? a->ints : NULL;
}

static int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

/* One spatial dim: out and pad_begin from in and the attributes (in -1: not known yet). Returns a refusal's text, or NULL. */
static const char *one_dim(int ver, int mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe, int64_t op,
                           int64_t shape, int64_t *pad, int64_t *out) {
  int64_t dk, full;
  *out = -1, *pad = pb;
  if (in < 0 || k < 0) return NULL;
  if (__builtin_mul_overflow(k - 1, d, &dk) || __builtin_add_overflow(dk, 1, &dk) ||
      __builtin_mul_overflow(in - 1, s, &full) || __builtin_add_overflow(full, op, &full) ||
      __builtin_add_overflow(full, dk, &full))
    return "the output's size overflows";
  if (shape >= 0 || mode == PAD_SAME_UPPER || mode == PAD_SAME_LOWER) {
    int64_t o = shape >= 0 ? shape : in, total;
    if (shape < 0 && ver >= 11 && __builtin_mul_overflow(in, s, &o)) return "the output's size overflows";
    if (__builtin_sub_overflow(full, o, &total)) return "the padding overflows";
    int upper = mode == PAD_SAME_UPPER;
    if (shape >= 0 && ver < 11) upper = !upper; /* version 1's formula */
    *pad = upper ? floor_half(total) : total - floor_half(total);
    *out = o;
    return NULL;
  }
  if (mode == PAD_VALID) pb = pe = 0, *pad = 0;
  if (__builtin_sub_overflow(full, pb, out) || __builtin_sub_overflow(*out, pe, out)) return "the output's size overflows";
  if (*out < 1) {
    *out = -1;
    return "the pads leave no output (stride * (in - 1) + output_padding + dilated kernel - pads < 1)";
  }
  return NULL;
}

/* The node's geometry from its shapes and attributes; the output's shape into out (dims -1 where not known yet). */
static minnx_status convt_geometry(mx_op_ctx *c, mx_conv_geom *g, mx_shape *out) {
  const mx_node *n = c->node;
  const mx_shape *xs = c->in[0], *ws = c->in[1], *bs = c->n_in > 2 ? c->in[2] : NULL;
  char s1[96], s2[96];
  int ver = c->row->since;
  memset(g, 0, sizeof *g);
  int64_t nk, ns, nd, np, nop, nos;
  const int64_t *ka = ints_of(n, "kernel_shape", &nk), *st = ints_of(n, "strides", &ns), *dl = ints_of(n, "dilations", &nd);
  const int64_t *pd = ints_of(n, "pads", &np), *opad = ints_of(n, "output_padding", &nop), *oshape = ints_of(n, "output_shape", &nos);
  g->group = mx_attr_int(n, "group", 1);
  if (g->group < 1) return mx_op_fail(c, MINNX_E_MODEL, "attribute group is %lld; it must be >= 1", (long long)g->group);
  int mode = PAD_NOTSET;
  const mx_attr *ap = mx_node_attr(n, "auto_pad");
  if (ap) {
    static const char *const names[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
    mode = -1;
    for (int k = 0; k < 4; k++)
      if (strcmp(ap->s, names[k]) == 0) mode = k;
    if (mode < 0)
      return mx_op_fail(c, MINNX_E_MODEL, "attribute auto_pad '%s' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID", ap->s);
  }
  if (mode != PAD_NOTSET && np >= 0)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute pads cannot be given with auto_pad other than NOTSET");
  int rank = xs->rank >= 0 ? xs->rank : ws->rank;
  if (rank < 0 && nk >= 0) rank = (int)nk + 2;
  if (rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int sp = rank - 2;
  if (sp < 1 || sp > MX_CONV_MAX_SPATIAL)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "X has rank %d; minnx transposes 1-D to 3-D convolutions (rank 3 to 5)", rank);
  if ((xs->rank >= 0 && xs->rank != rank) || (ws->rank >= 0 && ws->rank != rank))
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes X %s and W %s must have the same rank", mx_shape_str(xs, s1, sizeof s1),
                      mx_shape_str(ws, s2, sizeof s2));
  if ((nk >= 0 && nk != sp) || (ns >= 0 && ns != sp) || (nd >= 0 && nd != sp) || (np >= 0 && np != 2 * sp) ||
      (nop >= 0 && nop != sp) || (nos >= 0 && nos != sp))
    return mx_op_fail(c, MINNX_E_MODEL, "attributes kernel_shape, strides, dilations, output_padding and output_shape need %d "
                      "values and pads %d for a %d-D transposed convolution", sp, 2 * sp, sp);
  int64_t xn = xs->rank >= 0 ? xs->dims[0] : -1, xc = xs->rank >= 0 ? xs->dims[1] : -1;
  int64_t wc = ws->rank >= 0 ? ws->dims[0] : -1, wm = ws->rank >= 0 ? ws->dims[1] : -1, m = -1;
  if (xc >= 0 && xc % g->group != 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s: its %lld channels are not divisible by group %lld", mx_shape_str(xs, s1, sizeof s1),
                      (long long)xc, (long long)g->group);
  if (xc >= 0 && wc >= 0 && xc != wc)
    return mx_op_fail(c, MINNX_E_SHAPE, "the shapes X %s and W %s do not fit: W's first dim must be X's %lld channels",
                      mx_shape_str(xs, s1, sizeof s1), mx_shape_str(ws, s2, sizeof s2), (long long)xc);
  if (wm >= 0 && __builtin_mul_overflow(wm, g->group, &m))
    return mx_op_fail(c, MINNX_E_SHAPE, "W's shape %s times group %lld overflows", mx_shape_str(ws, s2, sizeof s2), (long long)g->group);
  if (bs && bs->rank >= 0 && (bs->rank != 1 || (m >= 0 && bs->dims[0] >= 0 && bs->dims[0] != m)))
    return mx_op_fail(c, MINNX_E_SHAPE, "B's shape %s must be [%lld], W's second dim times group", mx_shape_str(bs, s1, sizeof s1),
                      (long long)m);
  for (int d = 0; d < 3; d++) g->in[d] = g->k[d] = g->out[d] = g->stride[d] = g->dil[d] = 1, g->pad[d] = 0;
  out->rank = rank;
  out->dims[0] = xn;
  out->dims[1] = m;
  for (int d = 0; d < sp; d++) {
    int at = 3 - sp + d;
    int64_t wk = ws->rank >= 0 ? ws->dims[2 + d] : -1, k = nk >= 0 ? ka[d] : wk, in = xs->rank >= 0 ? xs->dims[2 + d] : -1;
    int64_t s = ns >= 0 ? st[d] : 1, dil = nd >= 0 ? dl[d] : 1, pb = np >= 0 ? pd[d] : 0, pe = np >= 0 ? pd[sp + d] : 0;
    int64_t op = nop >= 0 ? opad[d] : 0, shape = nos >= 0 ? oshape[d] : -1;
    if (k < -1 || (nk >= 0 && k < 1) || (nk >= 0 && wk >= 0 && wk != k))
      return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape[%d] is %lld; W %s has %lld", d, (long long)k,
                        mx_shape_str(ws, s2, sizeof s2), (long long)wk);
    if (s < 1 || dil < 1 || pb < 0 || pe < 0 || op < 0)
      return mx_op_fail(c, MINNX_E_MODEL, "spatial dim %d: attributes stride %lld, dilation %lld, pads %lld and %lld, "
                        "output_padding %lld; strides and dilations must be >= 1, pads and output_padding >= 0", d,
                        (long long)s, (long long)dil, (long long)pb, (long long)pe, (long long)op);
    if (op >= s && op >= dil)
      return mx_op_fail(c, MINNX_E_MODEL, "spatial dim %d: attribute output_padding %lld must be less than its stride %lld or "
                        "its dilation %lld", d, (long long)op, (long long)s, (long long)dil);
    if (nos >= 0 && shape < 1)
      return mx_op_fail(c, MINNX_E_MODEL, "attribute output_shape[%d] is %lld; it must be >= 1", d, (long long)shape);
    int64_t pad, o;
    const char *why = one_dim(ver, mode, in, k, s, dil, pb, pe, op, shape, &pad, &o);
    if (why)
      return mx_op_fail(c, MINNX_E_SHAPE, "spatial dim %d of the input's shape (%lld), kernel %lld, stride %lld, dilation %lld, "
                        "pads %lld and %lld, output_padding %lld: %s", d, (long long)in, (long long)k, (long long)s,
                        (long long)dil, (long long)pb, (long long)pe, (long long)op, why);
    g->in[at] = in, g->k[at] = k, g->stride[at] = s, g->dil[at] = dil, g->pad[at] = pad, g->out[at] = o;
    out->dims[2 + d] = o;
  }
  g->n = xn, g->c = xc, g->m = m;
  return MINNX_OK;
}

static minnx_status convt_infer(mx_op_ctx *c) {
  mx_conv_geom g;
  return convt_geometry(c, &g, &c->out[0]);
}

/* ---- prepare and eval (the plan and its run: convt_run.c) ---- */

static size_t convt_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_convt_plan);
}

static minnx_status convt_prepare(mx_op_ctx *c, void *params) {
  mx_convt_plan *p = params;
  mx_conv_geom g;
  mx_shape out;
  minnx_status st = convt_geometry(c, &g, &out);
  if (st != MINNX_OK) return st;
  if (!MX_DTYPE_ON(c->in_dtype[0]))
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[0]));
  if (!mx_convt_plan_init(p, &g, c->in_dtype[0], c->n_in > 2 && c->in[2] != NULL, (int)c->isa))
    return mx_op_fail(c, MINNX_E_SHAPE, "the col scratch of a %s transposed convolution this size (%lld output channels x "
                      "%lld kernel x %lld inputs) overflows", mx_dtype_name(c->in_dtype[0]), (long long)g.m,
                      (long long)mx_conv_window(&g), (long long)mx_conv_in_plane(&g));
  c->scratch = p->scratch;
  return MINNX_OK;
}

static void convt_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const mx_convt_plan *p = params;
  mx_convt_run(p, x, in[0], in[1], p->bias ? in[2] : NULL, out[0], x->scratch);
}

/* ---- the rows ---- */

static const mx_io convt_in[] = {{.name = "X", .types = MX_FLOATS, .group = 1},
                                 {.name = "W", .types = MX_FLOATS, .group = 1},
                                 {.name = "B", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                 {0}};
static const mx_io convt_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_attr_spec convt_attrs[] = {{"auto_pad", MX_ATTR_STRING},      {"dilations", MX_ATTR_INTS},
                                           {"group", MX_ATTR_INT},            {"kernel_shape", MX_ATTR_INTS},
                                           {"output_padding", MX_ATTR_INTS},  {"output_shape", MX_ATTR_INTS},
                                           {"pads", MX_ATTR_INTS},            {"strides", MX_ATTR_INTS},
                                           {NULL, 0}};

#define CONVT_ROW .in = convt_in, .out = convt_out, .attrs = convt_attrs, .inexact = 1, .infer = convt_infer, \
                  .params_size = convt_params_size, .prepare = convt_prepare, .eval = convt_eval
static const mx_op_row convt_rows[] = {
    {CONVT_ROW, .since = 1},
    {CONVT_ROW, .since = 11},
};
MX_OP_TABLE(ConvTranspose, "", convt_rows);
