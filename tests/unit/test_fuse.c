/* Conv + Relu / Clip fusion (ops/nn/conv_fuse.c) on whole models: each model
 * Conv -> Relu or Clip (Relu-13; Clip-1 and -6 with attribute bounds, absent
 * ones their defaults; Clip-11 and -13 with initializer bounds, both, the low
 * one only, the high one only as "", none) over the Conv's paths (the
 * product with the image as B, 1x1 at stride 1, 1x1 of one output channel:
 * the GEMV path, depthwise, the small direct path), at every ISA level this
 * CPU has, against the same model with the Conv's output also a graph output
 * (two readers: the nodes stay apart), bit for bit; inputs hold -0, tiny
 * values whose products round to -0, +-inf, NaN, and values equal to the
 * bounds; and again with every output a zero of either sign (tiny inputs).
 * minnx_model_node_fused must report the pair in the first model and nothing
 * in the second. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

typedef struct {
  const char *name;
  int64_t c, m, group, k, hw; /* channels in and out, group, a k x k kernel over hw x hw */
  const char *act;            /* "Relu" or "Clip" */
  int opset;
  int bounds; /* Clip: bit 0 lo, bit 1 hi (inputs from 11; attributes before) */
  float lo, hi;
} fuse_case;

typedef struct {
  const fuse_case *fc;
  int apart; /* the Conv's output a graph output too */
  float *w, *b;
  int64_t w_dims[4], b_dims[1];
} build_ctx;

static void edit(Onnx__ModelProto *model, void *p) {
  build_ctx *x = p;
  const fuse_case *fc = x->fc;
  static Onnx__TensorProto w, b, lo, hi, *inits[4];
  static Onnx__AttributeProto attrs[3], *attrp[3], cattrs[2], *cattrp[2];
  static Onnx__ValueInfoProto extra, *outs[2];
  static float lo_v, hi_v;
  static int64_t none[1];
  onnx__tensor_proto__init(&w), onnx__tensor_proto__init(&b), onnx__tensor_proto__init(&lo), onnx__tensor_proto__init(&hi);
  build_float_init(&w, "W", x->w_dims, 4, x->w);
  build_float_init(&b, "B", x->b_dims, 1, x->b);
  lo_v = fc->lo, hi_v = fc->hi;
  build_float_init(&lo, "lo", none, 0, &lo_v);
  build_float_init(&hi, "hi", none, 0, &hi_v);
  inits[0] = &w, inits[1] = &b, inits[2] = &lo, inits[3] = &hi;
  Onnx__GraphProto *g = model->graph;
  g->n_initializer = 4;
  g->initializer = inits;
  /* Conv: group (the builder's one int attribute) and a kernel_shape of k x k */
  Onnx__NodeProto *conv = g->node[0], *act = g->node[1];
  static int64_t ks[2];
  ks[0] = ks[1] = fc->k;
  onnx__attribute_proto__init(&attrs[0]);
  attrs[0].name = "group", attrs[0].has_type = 1, attrs[0].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  attrs[0].has_i = 1, attrs[0].i = fc->group;
  onnx__attribute_proto__init(&attrs[1]);
  attrs[1].name = "kernel_shape", attrs[1].has_type = 1, attrs[1].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
  attrs[1].n_ints = 2, attrs[1].ints = ks;
  attrp[0] = &attrs[0], attrp[1] = &attrs[1];
  conv->n_attribute = 2, conv->attribute = attrp;
  if (strcmp(fc->act, "Clip") == 0 && fc->opset < 11) { /* attribute bounds */
    size_t n = 0;
    static const char *const names[2] = {"min", "max"};
    for (int k = 0; k < 2; k++) {
      if (!(fc->bounds >> k & 1)) continue;
      onnx__attribute_proto__init(&cattrs[n]);
      cattrs[n].name = (char *)names[k], cattrs[n].has_type = 1, cattrs[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
      cattrs[n].has_f = 1, cattrs[n].f = k ? fc->hi : fc->lo;
      cattrp[n] = &cattrs[n];
      n++;
    }
    act->n_attribute = n, act->attribute = cattrp;
  }
  if (x->apart) {
    onnx__value_info_proto__init(&extra);
    extra.name = "c";
    outs[0] = g->output[0], outs[1] = &extra;
    g->n_output = 2, g->output = outs;
  }
}

static uint32_t rng = 0x2545f491u;
static float rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return (float)(int32_t)(rng & 0xffffff) / (float)(1 << 23) - 1.0f;
}

/* Runs the model at level isa; y gets output 0 (n floats). Returns the model's fusion of node 0. */
static int64_t run(const uint8_t *bytes, size_t size, int isa, const float *x, const int64_t *xdims, float *y, size_t n) {
  minnx_load_options o = {.max_isa = isa};
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  int64_t fused = -99;
  minnx_tensor in = {.dtype = MINNX_FLOAT, .rank = 4, .data = (void *)x};
  memcpy(in.dims, xdims, 4 * sizeof *xdims);
  in.nbytes = (size_t)(xdims[0] * xdims[1] * xdims[2] * xdims[3]) * sizeof(float);
  minnx_tensor out;
  if (minnx_model_load_buffer(bytes, size, &o, &m, &err) || minnx_session_create(m, &s, &err) ||
      minnx_session_bind_input(s, 0, &in, &err) || minnx_session_run(s, &err)) {
    fprintf(stderr, "  %s\n", err.message);
    CHECK(0);
  } else if (minnx_session_output(s, 0, &out) == MINNX_OK && out.nbytes == n * sizeof(float)) {
    memcpy(y, out.data, n * sizeof(float));
    fused = minnx_model_node_fused(m, 0);
    CHECK_EQ_INT(minnx_model_node_fused(m, 1), fused ? -1 : 0);
  } else {
    CHECK(0);
  }
  minnx_session_free(s);
  minnx_model_free(m);
  return fused;
}

/* tiny: every input +-1.4e-45 (the least subnormal) and weights below 0.5, so that every product rounds to a
 * zero of its sign and each output is the zero of its last tap's sign (the bias -0): Relu's -0 -> +0 on every
 * path, Clip's ties with a zero bound */
static void one(const fuse_case *fc, int tiny) {
  int64_t oh = fc->hw - fc->k + 1, cg = fc->c / fc->group;
  int64_t xdims[4] = {1, fc->c, fc->hw, fc->hw};
  size_t nx = (size_t)(fc->c * fc->hw * fc->hw), ny = (size_t)(fc->m * oh * oh), nw = (size_t)(fc->m * cg * fc->k * fc->k);
  float *x = malloc(nx * 4), *w = malloc(nw * 4), *b = malloc((size_t)fc->m * 4);
  float *y1 = malloc(ny * 4), *y2 = malloc(ny * 4);
  for (size_t i = 0; i < nx; i++) x[i] = rnd() * 8;
  for (size_t i = 0; i < nw; i++) w[i] = rnd();
  for (int64_t i = 0; i < fc->m; i++) b[i] = i % 3 == 0 ? -0.0f : rnd();
  /* specials: -0, tiny values (products that round to -0), infinities, NaN, the bounds themselves */
  const float special[] = {-0.0f, 0.0f, 1e-30f, -1e-30f, INFINITY, -INFINITY, NAN, -NAN, 6.0f, -6.0f, fc->lo, fc->hi};
  for (size_t i = 0; i < nx; i += 7) x[i] = special[(i / 7) % (sizeof special / sizeof special[0])];
  if (nx > 40) memset(x + nx / 2, 0, 16 * sizeof(float)); /* a run of +0: outputs of the bias alone */
  if (tiny) {
    for (size_t i = 0; i < nx; i++) x[i] = rnd() < 0 ? -0x1p-149f : 0x1p-149f;
    for (size_t i = 0; i < nw; i++) w[i] = rnd() * 0.25f;
    for (int64_t i = 0; i < fc->m; i++) b[i] = -0.0f;
  }
  build_ctx ctx = {fc, 0, w, b, {fc->m, cg, fc->k, fc->k}, {fc->m}};
  test_node conv = {"Conv", NULL, 3, {"X", "W", "B"}, "c", NULL, 0};
  test_node act = {fc->act, NULL, 1, {"c"}, "y", NULL, 0};
  if (strcmp(fc->act, "Clip") == 0 && fc->opset >= 11) {
    act.n_inputs = (fc->bounds & 2) ? 3 : (fc->bounds & 1) ? 2 : 1;
    act.inputs[1] = (fc->bounds & 1) ? "lo" : "";
    act.inputs[2] = "hi";
  }
  test_model tm = {1, {""}, {fc->opset}, 1, {"X"}, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, {1, fc->c, fc->hw, fc->hw},
                   2, {conv, act}, "y"};
  uint8_t *fused_bytes = NULL, *apart_bytes = NULL;
  size_t fused_size = build_model_edit(&tm, edit, &ctx, &fused_bytes);
  ctx.apart = 1;
  size_t apart_size = build_model_edit(&tm, edit, &ctx, &apart_bytes);
  minnx_isa top = minnx_isa_available();
  for (int isa = MINNX_ISA_PORTABLE; isa <= (int)top; isa++) {
    memset(y1, 0xa5, ny * 4), memset(y2, 0x5a, ny * 4);
    int64_t f1 = run(fused_bytes, fused_size, isa, x, xdims, y1, ny);
    int64_t f2 = run(apart_bytes, apart_size, isa, x, xdims, y2, ny);
    CHECK_EQ_INT(f1, 2); /* node 1 fused into node 0 */
    CHECK_EQ_INT(f2, 0);
    int same = memcmp(y1, y2, ny * 4) == 0;
    CHECK(same);
    if (!same)
      for (size_t i = 0; i < ny; i++)
        if (memcmp(&y1[i], &y2[i], 4) != 0) {
          uint32_t a, c;
          memcpy(&a, &y1[i], 4), memcpy(&c, &y2[i], 4);
          fprintf(stderr, "  %s%s at level %d: element %zu fused 0x%08x, apart 0x%08x\n", fc->name, tiny ? " (tiny)" : "",
                  isa, i, a, c);
          break;
        }
  }
  free(fused_bytes), free(apart_bytes);
  free(x), free(w), free(b), free(y1), free(y2);
}

int main(void) {
  const fuse_case cases[] = {
      {"3x3 product, Relu-13", 3, 20, 1, 3, 12, "Relu", 13, 0, 0, 0},
      {"3x3 product, Clip-13 0..6", 5, 44, 1, 3, 9, "Clip", 13, 3, 0.0f, 6.0f},
      {"3x3 product, Clip-11 low only", 5, 13, 1, 3, 9, "Clip", 11, 1, -0.5f, 0},
      {"3x3 product, Clip-12 high only", 5, 13, 1, 3, 9, "Clip", 12, 2, 0, 0.25f},
      {"3x3 product, Clip-13 no bound", 2, 8, 1, 3, 6, "Clip", 13, 0, 0, 0},
      {"3x3 product, Clip-13 -0..+0", 3, 12, 1, 3, 8, "Clip", 13, 3, -0.0f, 0.0f},
      {"3x3 product, Clip-13 lo > hi", 3, 12, 1, 3, 8, "Clip", 13, 3, 1.0f, -1.0f},
      {"3x3 product, Clip-13 NaN bound", 3, 12, 1, 3, 8, "Clip", 13, 3, NAN, 1.0f},
      {"3x3 product, Clip-6 0..6", 4, 24, 1, 3, 10, "Clip", 6, 3, 0.0f, 6.0f},
      {"3x3 product, Clip-6 defaults", 4, 24, 1, 3, 10, "Clip", 6, 0, 0, 0},
      {"3x3 product, Clip-1 low only", 4, 24, 1, 3, 10, "Clip", 1, 1, 0.125f, 0},
      {"1x1, image as B, Relu", 16, 36, 1, 1, 14, "Relu", 13, 0, 0, 0},
      {"1x1 of one output channel (GEMV), Clip", 16, 1, 1, 1, 30, "Clip", 13, 3, -0.25f, 0.5f},
      {"depthwise 3x3, Clip 0..6", 24, 24, 24, 3, 16, "Clip", 13, 3, 0.0f, 6.0f},
      {"depthwise 3x3 short rows, Relu", 16, 16, 16, 3, 7, "Relu", 13, 0, 0, 0},
      {"depthwise 5x5, Relu", 8, 8, 8, 5, 40, "Relu", 13, 0, 0, 0},
      {"small direct (LeNet-like), Relu", 1, 6, 1, 5, 16, "Relu", 13, 0, 0, 0},
      {"grouped 3x3, Clip", 8, 16, 2, 3, 11, "Clip", 13, 3, -1.0f, 1.0f},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) one(&cases[i], 0), one(&cases[i], 1);
  return check_report("test_fuse");
}
