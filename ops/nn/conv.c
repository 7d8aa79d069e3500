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
#include "ops/nn/window.h"

/* ---- the geometry (infer and prepare) ---- */

/* The node's geometry from its shapes and attributes (window.h's rules for
 * the spatial ones); the output's shape into out (dims -1 where not known
 * yet). */
static minnx_status conv_geometry(mx_op_ctx *c, mx_conv_geom *g, mx_shape *out) {
  const mx_node *n = c->node;
  const mx_shape *xs = c->in[0], *ws = c->in[1], *bs = c->n_in > 2 ? c->in[2] : NULL;
  const mx_attr *ka = mx_node_attr(n, "kernel_shape");
  char s1[96], s2[96];
  memset(g, 0, sizeof *g);
  int64_t nk = ka ? (int64_t)ka->n : -1;
  g->group = mx_attr_int(n, "group", 1);
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
  if (nk >= 0 && nk != sp)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape needs %d values for a %d-D convolution", sp, sp);
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
  int64_t in[3], k[3];
  for (int d = 0; d < sp; d++) {
    int64_t wk = ws->rank >= 0 ? ws->dims[2 + d] : -1;
    k[d] = nk >= 0 ? ka->ints[d] : wk;
    in[d] = xs->rank >= 0 ? xs->dims[2 + d] : -1;
    if (k[d] < -1 || (nk >= 0 && k[d] < 1) || (nk >= 0 && wk >= 0 && wk != k[d]))
      return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape[%d] is %lld; W %s has %lld", d, (long long)k[d],
                        mx_shape_str(ws, s2, sizeof s2), (long long)wk);
  }
  mx_window w;
  minnx_status st = mx_window_infer(c, sp, in, k, &w);
  if (st != MINNX_OK) return st;
  g->n = xn, g->c = xc, g->m = wm;
  memcpy(g->in, w.in, sizeof w.in);
  memcpy(g->k, w.k, sizeof w.k);
  memcpy(g->out, w.out, sizeof w.out);
  memcpy(g->stride, w.stride, sizeof w.stride);
  memcpy(g->dil, w.dil, sizeof w.dil);
  memcpy(g->pad, w.pad, sizeof w.pad);
  out->rank = rank;
  out->dims[0] = xn;
  out->dims[1] = wm;
  for (int d = 0; d < sp; d++) out->dims[2 + d] = w.out[3 - sp + d];
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
  if (!MX_DTYPE_ON(c->in_dtype[0]))
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(c->in_dtype[0]));
  if (!mx_conv_plan_init(p, &g, c->in_dtype[0], c->n_in > 2 && c->in[2] != NULL, (int)c->isa))
    return mx_op_fail(c, MINNX_E_SHAPE, "the im2col scratch of a %s convolution this size (%lld channels x %lld kernel x %lld "
                      "outputs) overflows", mx_dtype_name(c->in_dtype[0]), (long long)g.c, (long long)mx_conv_window(&g),
                      (long long)mx_conv_plane(&g));
  c->scratch = p->scratch;
  if (p->t == MINNX_FLOAT) mx_conv_fused_act(c->g, c->node, &p->act); /* a Relu or Clip fused at load */
#if MX_OPS_PACKED
  /* W (a float32 initializer) packed once, as the products' tiles read it (conv_packed_size) */
#if MX_X86_AVX2
  if (c->packed && p->wide) { /* the wide path's blocks of 8 output channels (conv_run.c; x86-64 only) */
    if ((size_t)(g.m * g.c * mx_conv_window(&g)) * 4 <= mx_conv_packed_size(g.m, g.c * mx_conv_window(&g), 1)) {
      mx_conv_wide_pack(&g, c->g->values[c->node->inputs[1]].data, c->packed);
      p->wide_w = c->packed;
    }
  } else
#endif
  if (c->packs && p->t == MINNX_FLOAT && !p->dw && !p->direct && !p->sg.gemv) {
    size_t floats = mx_sgemm_packed_a_floats(&p->sg);
    if (floats && floats * 4 <= mx_conv_packed_size(p->sg.d.m, p->sg.d.k, p->sg.d.batch)) {
      if (c->packed) mx_sgemm_pack_a(&p->sg, c->g->values[c->node->inputs[1]].data, c->packed);
      /* the tasks then need no room for A's blocks (float32's scratch is the product's, then the taps' padded
       * image, the last: conv_run.c): at load too, where the plan is sized for the sessions, which pack */
#if MX_X86_AVX2
      size_t pad = p->sg.window ? p->scratch - p->off_pad : 0;
#endif
      mx_sgemm_use_packed_a(&p->sg, c->packed);
      p->scratch = c->scratch = (mx_sgemm_scratch(&p->sg) + 63) & ~(size_t)63;
#if MX_X86_AVX2
      if (p->sg.window) p->off_pad = p->scratch, p->scratch = c->scratch = p->scratch + pad;
#endif
    }
  }
#endif
  return MINNX_OK;
}

#if MX_OPS_PACKED
/* W packed at prepare: a float32 initializer of a convolution through the products (not depthwise). */
static size_t conv_packed_size(const mx_graph *gr, const mx_node *n) {
  if (n->n_inputs < 2 || n->inputs[1] < 0) return 0;
  const mx_value *w = &gr->values[n->inputs[1]];
  if (w->kind != MX_VALUE_INITIALIZER || !w->data || w->dtype != MINNX_FLOAT || w->shape.rank < 3) return 0;
  int64_t group = mx_attr_int(n, "group", 1), m = w->shape.dims[0], k = 1;
  for (int d = 1; d < w->shape.rank; d++) k *= w->shape.dims[d];
  if (group < 1 || m % group || (w->shape.dims[1] == 1 && group == m && k > 1)) return 0; /* bad, or depthwise */
  return mx_conv_packed_size(m / group, k, group);
}
#define CONV_PACKED .packed_size = conv_packed_size,
#else
#define CONV_PACKED
#endif

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
                 .params_size = conv_params_size, CONV_PACKED .prepare = conv_prepare, .eval = conv_eval
static const mx_op_row conv_rows[] = {
    {CONV_ROW, .since = 1},
    {CONV_ROW, .since = 11},
};
MX_OP_TABLE(Conv, "", conv_rows);
