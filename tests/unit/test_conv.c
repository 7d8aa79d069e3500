/* Conv's plan and run (ops/nn/conv.h) against its reference loop, bit for
 * bit: float at every instruction-set level of the product kernels this CPU
 * has, float16 and double, called directly on 1-D, 2-D and 3-D shapes with
 * groups, depthwise (with and without a multiplier; rows long and short, the
 * latter dwconv.c's plane path), strides, dilations,
 * asymmetric padding, 1x1 kernels (stride 1: no im2col; stride 2), a bias
 * or none, products crossing the kernels' blocks (k > KC, rows > MC, a plane
 * > NC), tasks inline and run in reverse order as another thread would,
 * float32's weights packed as they run and packed once beforehand (prepare's
 * packing of an initializer); float32 with a Relu or Clip fused into its
 * stores (ops/math/act.h), against its own unfused result run through the
 * separate nodes' element rules (unary_elem.h's Relu, clip.h's one-pass
 * Clip, extremum_pair.h's picks for one bound), bit for bit: bounds from the
 * outputs' own values (ties: their bits OR-ed), +-0, a NaN, lo > hi.
 * Values span many binades, so that another order of the sum, or a product
 * rounded apart from its sum, gives other bits. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "act_nodes.h"
#include "check.h"
#include "graph/dtype.h"
#include "ops/core/half.h"
#include "ops/math/unary_elem.h"
#include "ops/minmax/clip.h"
#include "ops/minmax/extremum_pair.h"
#include "ops/nn/conv.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static double value(mx_dtype t) {
  uint64_t r = next();
  if (t == MINNX_FLOAT16) return (double)((int)(r % 33) - 16) / 8; /* float16: few bits, float32's sum rounds still */
  double f = (double)((int)(r % 2001) - 1000) / 997.0;
  return ldexp(f, (int)(r >> 20) % 24 - 12) * (t == MINNX_DOUBLE ? 1 + 1e-9 * (double)(r >> 40) : 1);
}

static void fill(mx_dtype t, void *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double v = value(t);
    if (t == MINNX_DOUBLE) ((double *)p)[i] = v;
    else if (t == MINNX_FLOAT) ((float *)p)[i] = (float)v;
    else ((uint16_t *)p)[i] = mx_f32_to_f16((float)v);
  }
}

static void reverse(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  (void)pool;
  for (size_t i = n; i-- > 0;) task(ctx, i);
}

static int failed;
static int expect_direct; /* float32 at AVX2+FMA must take the direct path (unless 1x1) */
static int expect_wide; /* float32 at AVX-512F must take the wide direct path */
static int inf_weights; /* every 7th weight +inf: a tap in the padding then gives NaN (inf x 0), as it must */

/* The same bits, or both NaN (a NaN's sign and payload are not the order's). */
static int same_values(mx_dtype t, const unsigned char *a, const unsigned char *b, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double x, y;
    if (t == MINNX_DOUBLE) x = ((const double *)a)[i], y = ((const double *)b)[i];
    else if (t == MINNX_FLOAT) x = ((const float *)a)[i], y = ((const float *)b)[i];
    else x = mx_f16_to_f32(((const uint16_t *)a)[i]), y = mx_f16_to_f32(((const uint16_t *)b)[i]);
    size_t es = mx_dtype_size(t);
    if (memcmp(a + (size_t)i * es, b + (size_t)i * es, es) != 0 && !(isnan(x) && isnan(y))) return 0;
  }
  return 1;
}

/* p's run with each activation fused (inline and tasks reversed) against `plain`, its unfused output, through
 * node_act; the reference loop's fused output against `want` through node_act. */
static void fused(mx_conv_plan *p, const void *x, const void *w, const void *b, const float *plain, const float *want,
                  int64_t ny, void *scratch, int ref) {
  float nan = NAN, v1 = plain[ny / 3], v2 = plain[ny / 2];
  const mx_act acts[] = {
      {MX_ACT_RELU, 0, 0, 0, 0},          {MX_ACT_CLIP, 1, 1, 0.0f, 6.0f},   {MX_ACT_CLIP, 1, 1, v1, v2},
      {MX_ACT_CLIP, 1, 1, v2, v1},        {MX_ACT_CLIP, 1, 0, v1, 0},        {MX_ACT_CLIP, 0, 1, 0, v2},
      {MX_ACT_CLIP, 1, 1, -0.0f, 0.0f},   {MX_ACT_CLIP, 1, 1, nan, 1.0f},    {MX_ACT_CLIP, 0, 1, 0, -nan},
      {MX_ACT_CLIP, 1, 1, -FLT_MAX, FLT_MAX}, {MX_ACT_CLIP, 0, 0, 0, 0},
  };
  float *y = malloc((size_t)ny * 4), *expect = malloc((size_t)ny * 4);
  for (size_t a = 0; a < sizeof acts / sizeof acts[0]; a++) {
    p->act = acts[a];
    for (int64_t i = 0; i < ny; i++) expect[i] = node_act(&acts[a], plain[i]);
    for (int way = 0; way < 2; way++) {
      mx_exec ex = {.parallel = way ? reverse : NULL};
      memset(y, 0xff, (size_t)ny * 4);
      mx_conv_run(p, &ex, x, w, b, y, scratch);
      int same = memcmp(y, expect, (size_t)ny * 4) == 0;
      CHECK(same);
      if (!same && failed++ < 10) fprintf(stderr, "  fused activation %zu (%s): not the separate node's bits\n", a,
                                          way ? "tasks reversed" : "inline");
    }
    if (!ref || a > 2) continue;
    mx_conv_ref_act(MINNX_FLOAT, &p->g, x, w, b, &acts[a], y);
    for (int64_t i = 0; i < ny; i++) expect[i] = node_act(&acts[a], want[i]);
    CHECK(memcmp(y, expect, (size_t)ny * 4) == 0);
  }
  memset(&p->act, 0, sizeof p->act);
  free(y), free(expect);
}

/* sp spatial dims of in, k, stride, dilation, pads (before, after), group, channels per group. */
static int taps_runs; /* cases through the taps kernels */
static int once_runs; /* cases whose product's B is made once, before the tiles (gemm.c, b_once) */

static void conv(mx_dtype t, int isa, int sp, const int64_t *in, const int64_t *k, const int64_t *st, const int64_t *dl,
                 const int64_t *pb, const int64_t *pe, int64_t n, int64_t group, int64_t cg, int64_t mg, int bias) {
  if (!check_sample(3)) return; /* (under valgrind: a third of the cases, check.h) */
  mx_conv_geom g = {.n = n, .c = cg * group, .m = mg * group, .group = group};
  for (int d = 0; d < 3; d++) g.in[d] = g.k[d] = g.out[d] = g.stride[d] = g.dil[d] = 1, g.pad[d] = 0;
  for (int d = 0; d < sp; d++) {
    int a = 3 - sp + d;
    g.in[a] = in[d], g.k[a] = k[d], g.stride[a] = st[d], g.dil[a] = dl[d], g.pad[a] = pb[d];
    g.out[a] = (in[d] + pb[d] + pe[d] - (k[d] - 1) * dl[d] - 1) / st[d] + 1;
  }
  size_t es = mx_dtype_size(t);
  int64_t nx = g.n * g.c * mx_conv_in_plane(&g), nw = g.m * cg * mx_conv_window(&g), ny = g.n * g.m * mx_conv_plane(&g);
  void *x = malloc((size_t)nx * es + 8), *w = malloc((size_t)nw * es + 8), *b = malloc((size_t)g.m * es + 8);
  unsigned char *y = malloc((size_t)ny * es + 8), *want = malloc((size_t)ny * es + 8);
  fill(t, x, nx), fill(t, w, nw), fill(t, b, g.m);
  for (int64_t i = 0; inf_weights && i < nw; i += 7) {
    if (t == MINNX_DOUBLE) ((double *)w)[i] = INFINITY;
    else if (t == MINNX_FLOAT) ((float *)w)[i] = INFINITY;
    else ((uint16_t *)w)[i] = 0x7c00;
  }
  mx_conv_ref(t, &g, x, w, bias ? b : NULL, want);
  mx_conv_plan p;
  CHECK(mx_conv_plan_init(&p, &g, t, bias, isa));
  CHECK(p.direct == (expect_direct && t == MINNX_FLOAT && isa >= MX_GEMM_FMA && mx_conv_window(&g) > 1));
  CHECK(p.wide == (expect_wide && t == MINNX_FLOAT && isa >= MX_GEMM_AVX512));
  /* B read through its taps from the padded image (gemm.h, im2col.c): every float32 product at stride 1 or 2
   * along rows of 16 outputs or more at AVX-512F */
#if MX_X86_AVX2
  CHECK((p.sg.window != 0) == (t != MINNX_DOUBLE && isa >= MX_GEMM_AVX512 && !p.dw && !p.direct && !p.wide && !p.pointwise &&
                   mx_conv_taps_ok(&g)));
  taps_runs += p.sg.window != 0;
#endif
  once_runs += t != MINNX_DOUBLE && p.sg.b_once && !p.sg.window && !p.dw && !p.direct && !p.wide && !p.pointwise;
  void *scratch = p.scratch ? aligned_alloc(64, p.scratch) : NULL;
  /* ways 2 and 3: W packed once, as prepare packs a float32 initializer (when the product packs A; the wide
   * path's blocks) */
  size_t packed_floats = t == MINNX_FLOAT && !p.dw && !p.direct && !p.wide && !p.sg.gemv ? mx_sgemm_packed_a_floats(&p.sg) : 0;
  if (p.wide) packed_floats = (size_t)(g.m * g.c * mx_conv_window(&g));
  float *packed = packed_floats ? aligned_alloc(64, (packed_floats * 4 + 63) / 64 * 64) : NULL;
#if MX_X86_AVX2
  if (packed && p.wide) {
    CHECK(packed_floats * 4 <= mx_conv_packed_size(g.m, g.c * mx_conv_window(&g), 1));
    mx_conv_wide_pack(&g, w, packed);
  } else
#endif
  if (packed) {
    CHECK(packed_floats * 4 <= mx_conv_packed_size(p.sg.d.m, p.sg.d.k, p.sg.d.batch));
    mx_sgemm_pack_a(&p.sg, w, packed);
  }
  for (int way = 0; way < (packed ? 4 : 2); way++) {
    mx_exec ex = {.parallel = way % 2 ? reverse : NULL};
    if (p.wide) p.wide_w = way >= 2 ? packed : NULL;
    else p.sg.packed_a = way >= 2 ? packed : NULL;
    memset(y, 0xff, (size_t)ny * es);
    mx_conv_run(&p, &ex, x, w, bias ? b : NULL, y, scratch);
    int same = inf_weights ? same_values(t, y, want, ny) : memcmp(y, want, (size_t)ny * es) == 0;
    CHECK(same);
    if (!same && failed++ < 10)
      fprintf(stderr, "  %s level %d: %d-D in %lld k %lld stride %lld dil %lld pads %lld,%lld group %lld cg %lld mg %lld (%s)\n",
              mx_dtype_name(t), isa, sp, (long long)in[0], (long long)k[0], (long long)st[0], (long long)dl[0],
              (long long)pb[0], (long long)pe[0], (long long)group, (long long)cg, (long long)mg,
              way % 2 ? "tasks reversed" : "inline");
  }
  if (t == MINNX_FLOAT && ny > 0 && !inf_weights) /* (the reference loop's fused stores at one level: it is slow) */
    fused(&p, x, w, bias ? b : NULL, (const float *)y, (const float *)want, ny, scratch, isa == MX_GEMM_PORTABLE);
  free(packed);
  free(scratch);
  free(x), free(w), free(b), free(y), free(want);
}

#define L(...) ((const int64_t[]){__VA_ARGS__})

static void shapes(mx_dtype t, int isa) {
  conv(t, isa, 2, L(5, 5), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 2, 3, 1);
  conv(t, isa, 2, L(7, 8), L(3, 2), L(2, 3), L(2, 1), L(0, 2), L(1, 0), 2, 2, 3, 2, 0);
  conv(t, isa, 1, L(17), L(3), L(2), L(2), L(2), L(1), 2, 1, 4, 5, 1);
  conv(t, isa, 3, L(4, 5, 6), L(2, 3, 2), L(1, 2, 1), L(1, 1, 2), L(1, 0, 1), L(0, 1, 1), 1, 1, 3, 2, 1);
  conv(t, isa, 2, L(9, 9), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 16, 1, 1, 1); /* depthwise */
  conv(t, isa, 2, L(9, 7), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 2, 4, 1, 3, 0); /* with a multiplier */
  conv(t, isa, 2, L(6, 7), L(1, 1), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 2, 1, 19, 7, 1); /* 1x1: the image is col */
  conv(t, isa, 2, L(6, 7), L(1, 1), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 3, 5, 2, 0); /* 1x1 in groups */
  conv(t, isa, 2, L(7, 7), L(1, 1), L(2, 2), L(1, 1), L(0, 0), L(0, 0), 1, 1, 5, 4, 1); /* 1x1, stride 2 */
  conv(t, isa, 2, L(3, 3), L(3, 3), L(1, 1), L(3, 3), L(3, 3), L(3, 3), 1, 1, 2, 2, 1); /* all but one tap in padding */
  conv(t, isa, 2, L(6, 6), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 32, 100, 1); /* k 288 > KC, m 100 > MC */
  conv(t, isa, 2, L(24, 24), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 2, 3, 1); /* a plane of 576 > NC */
  conv(t, isa, 1, L(4), L(1), L(1), L(1), L(0), L(0), 1, 1, 0, 3, 1); /* no input channels: the bias alone */
  /* the product's B made tile by tile from the image (mx_conv_pack_panel): one output channel (no GEMV), 64
   * and 128 channels (the last sliver 4 and 8 rows), k 297 > KC with those, a 1-D kernel wider than the
   * panel's table of spans, output rows of one element (a sliver of 16 or 32 runs), tiles of equal width
   * over a plane > NC in groups, a 3-D walk across depths */
  conv(t, isa, 2, L(5, 6), L(2, 2), L(1, 1), L(1, 1), L(0, 0), L(1, 1), 1, 1, 3, 1, 1);
  conv(t, isa, 2, L(20, 23), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 33, 64, 1);
  conv(t, isa, 2, L(30, 20), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 1, 3, 128, 0);
  conv(t, isa, 1, L(100), L(40), L(1), L(1), L(5), L(6), 1, 1, 2, 3, 1);
  conv(t, isa, 2, L(200, 1), L(3, 1), L(1, 1), L(1, 1), L(1, 0), L(1, 0), 1, 1, 4, 5, 1);
  conv(t, isa, 2, L(40, 41), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 2, 2, 5, 1);
  conv(t, isa, 3, L(5, 4, 9), L(3, 2, 3), L(1, 2, 1), L(2, 1, 1), L(1, 0, 1), L(1, 1, 1), 1, 1, 2, 13, 1);
  /* the tiles threads share (gemm.c, panel_tiles) and the last columns of a plane one a vector (gemm_x86.c):
   * a 7 x 7 plane (a sliver and 17 columns, a tile each) over 40 channels (12-row slivers and 4) with k 270 > KC,
   * in four tiles of rows that read B made once before them (b_once);
   * 7 x 5 (a sliver and 3) over 20 channels (12 and 8 rows); 14 x 14 (6 slivers and 4: tiles of 3 slivers and
   * one of 4 columns) over 44; 4 x 5 (16 and 4 columns) over 100 channels, its rows in two tiles; 19 x 1 over 4 */
  conv(t, isa, 2, L(7, 7), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 30, 40, 1);
  conv(t, isa, 2, L(7, 5), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 20, 20, 1);
  conv(t, isa, 2, L(14, 14), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 8, 44, 1);
  conv(t, isa, 2, L(8, 10), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 1, 64, 100, 0);
  conv(t, isa, 1, L(19), L(3), L(1), L(1), L(1), L(1), 1, 1, 5, 4, 1);
  /* a packer's stretches of k (gemm.c, KC_PANEL): k 1080 in two of 540 over 20 channels; k 630 over 400
   * channels (at AVX-512F four tiles of 108 rows reading B made once, so stretches of at most 576: two of 315) */
  conv(t, isa, 2, L(6, 7), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 120, 20, 1);
  conv(t, isa, 2, L(5, 7), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 70, 400, 0);
  /* B through its taps (AVX-512F; gemm_x86.c's taps kernels over the padded image), at stride 1 along the
   * rows: output rows of 56
   * (slivers crossing into the next row at lane 24, 16 and 8) over two images with 13 output channels (12
   * rows and 1); k 630 > KC_PANEL in stretches of whole channels over 28-wide rows; rows of exactly 16
   * outputs with stride 2 and dilation 2 down the columns and uneven pads; 1-D with a dilation of 3 in two
   * groups; an 8 x 8 kernel (64 taps, the most) with uneven pads; three groups without a bias; 17-wide rows
   * (both vectors of a sliver crossing) */
  conv(t, isa, 2, L(10, 56), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 1, 5, 13, 1);
  conv(t, isa, 2, L(9, 28), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 70, 20, 1);
  conv(t, isa, 2, L(7, 16), L(3, 3), L(2, 1), L(2, 1), L(2, 1), L(1, 1), 1, 1, 6, 9, 1);
  conv(t, isa, 1, L(90), L(5), L(1), L(3), L(2), L(2), 1, 2, 3, 4, 1);
  conv(t, isa, 2, L(10, 30), L(8, 8), L(1, 1), L(1, 1), L(2, 1), L(1, 2), 1, 1, 3, 5, 1);
  conv(t, isa, 2, L(6, 40), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 3, 4, 8, 0);
  conv(t, isa, 2, L(11, 17), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 7, 20, 1);
  /* at stride 2 along the rows (each vector the even elements of two loads): ResNet-18's 3x3/2 shape at 56 ->
   * 28 over two images (slivers crossing rows), a dilation of 2 along the rows with uneven pads, 1-D in two
   * groups with only an end pad, rows of exactly 16 outputs with no padding */
  conv(t, isa, 2, L(9, 56), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 2, 1, 5, 13, 1);
  conv(t, isa, 2, L(7, 40), L(3, 3), L(1, 2), L(1, 2), L(1, 1), L(1, 2), 1, 1, 6, 9, 0);
  conv(t, isa, 1, L(70), L(4), L(2), L(1), L(0), L(3), 1, 2, 3, 4, 1);
  conv(t, isa, 2, L(11, 33), L(3, 3), L(2, 2), L(1, 1), L(0, 0), L(0, 0), 1, 1, 9, 16, 1);
  /* depthwise without im2col (dwconv.c): rows past a chunk of 64, stride 2, dilation, 1-D and 3-D, taps
   * wholly in the padding, a kernel wider than the row, no bias */
  conv(t, isa, 2, L(12, 150), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 5, 1, 1, 1);
  conv(t, isa, 2, L(15, 131), L(3, 5), L(2, 2), L(1, 2), L(1, 2), L(0, 3), 1, 3, 1, 1, 0);
  conv(t, isa, 1, L(200), L(7), L(3), L(1), L(3), L(3), 1, 4, 1, 1, 1);
  conv(t, isa, 3, L(3, 5, 70), L(2, 3, 3), L(1, 1, 1), L(1, 1, 1), L(1, 1, 1), L(1, 1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(3, 3), L(3, 3), L(1, 1), L(3, 3), L(3, 3), L(3, 3), 1, 6, 1, 1, 1);
  conv(t, isa, 2, L(4, 2), L(3, 5), L(1, 1), L(1, 1), L(1, 3), L(1, 3), 1, 2, 1, 1, 0);
  /* stride 2 at AVX2+FMA (fill_row2: 16 elements a load pair split into 2 phases, masked where they reach the
   * padding): MobileNet v2's 112-wide rows, 14 (every load masked), an odd width with uneven pads, pads wider
   * than a vector (whole loads in the padding), a 5-wide kernel */
  conv(t, isa, 2, L(6, 112), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(7, 14), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 2, 4, 1, 1, 1);
  conv(t, isa, 2, L(5, 37), L(3, 3), L(2, 2), L(1, 1), L(0, 2), L(2, 0), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(4, 9), L(3, 5), L(2, 2), L(1, 1), L(1, 19), L(1, 17), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(6, 41), L(5, 5), L(2, 2), L(1, 1), L(2, 2), L(2, 2), 1, 2, 1, 1, 1);
  /* 3 x 3 at stride 2 on rows of at most 16 outputs, read in place (direct33s2): 8 and 16 outputs (whole
   * vectors), 10 with uneven pads (the row's last block stored whole, the plane's last masked), pads past a
   * vector (rows and blocks wholly in the padding), a one-element row, no bias */
  conv(t, isa, 2, L(9, 16), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(6, 31), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 2, 1, 1, 0);
  conv(t, isa, 2, L(8, 20), L(3, 3), L(2, 2), L(1, 1), L(0, 2), L(1, 0), 2, 3, 1, 1, 1);
  conv(t, isa, 2, L(5, 5), L(3, 3), L(2, 2), L(1, 1), L(4, 9), L(3, 9), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(3, 1), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 4, 1, 1, 0);
  /* the same through its phase planes (s2plane: start pads 0 or 1): 32 inputs (two
   * whole load pairs, 16 outputs) over two images, no start pad (the odd elements at phase 1), a start pad on the
   * rows only, input rows and columns past the last window (never read), 7 outputs (MobileNet v2's 14 x 14) */
  conv(t, isa, 2, L(9, 32), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 2, 3, 1, 1, 1);
  conv(t, isa, 2, L(7, 15), L(3, 3), L(2, 2), L(1, 1), L(0, 0), L(1, 2), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(6, 12), L(3, 3), L(2, 2), L(1, 1), L(1, 0), L(0, 1), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(9, 18), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(0, 0), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(14, 14), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 5, 1, 1, 1);
  /* and up to 64 inputs (32 outputs): MobileNet v2's 56 -> 28, 63 (the fourth load pair partial, 32 outputs) */
  conv(t, isa, 2, L(6, 56), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(5, 63), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 2, 1, 1, 0);
  /* the 3 x 3 stride-1 rows read in place (direct33): MobileNet v2's 56-wide rows, a dilation along the row with
   * uneven pads, 17 and 14 outputs whose taps lie inside (blocks of 8 overlapping), 6 (none as vectors) */
  conv(t, isa, 2, L(10, 56), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 4, 1, 1, 1);
  conv(t, isa, 2, L(6, 40), L(3, 3), L(1, 1), L(1, 2), L(0, 3), L(2, 0), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(5, 19), L(3, 3), L(1, 1), L(1, 1), L(2, 0), L(1, 0), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(5, 20), L(3, 3), L(1, 1), L(1, 3), L(1, 3), L(1, 3), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(5, 16), L(3, 3), L(1, 1), L(1, 5), L(1, 5), L(1, 5), 1, 2, 1, 1, 1);
  /* at AVX-512F, rows of 9 and more that keep their width take direct33x (strips of up to 4 vectors down the
   * plane, each input row's loads serving three output rows): MobileNet v2's 112-wide rows (strips of 4 and 3
   * vectors), 16 (one vector, masked at both ends), 17 and 40 (the last vector overlapping), no padding at
   * the top and two at the bottom and the other way round, one row, no bias */
  conv(t, isa, 2, L(5, 112), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(4, 16), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 2, 1, 1, 1);
  conv(t, isa, 2, L(3, 17), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 2, 1, 1, 0);
  conv(t, isa, 2, L(6, 40), L(3, 3), L(1, 1), L(1, 1), L(0, 1), L(2, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(6, 40), L(3, 3), L(1, 1), L(1, 1), L(2, 1), L(0, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(1, 33), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 2, 1, 1, 1);
  /* rows of 9 to 16 there: one vector a row, two channels at a time (MobileNet v2's 14 x 14 over two images),
   * 3 channels (a pair and one alone) of 12, 9 with no padding at the top (the last row's store masked) */
  conv(t, isa, 2, L(14, 14), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 4, 1, 1, 1);
  conv(t, isa, 2, L(5, 12), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(6, 9), L(3, 3), L(1, 1), L(1, 1), L(0, 1), L(2, 1), 1, 3, 1, 1, 1);
  /* and at stride 2 with a row and a column of padding at the start (direct33x2: evens and odds by permutes):
   * MobileNet v2's 112 -> 56 (strips of 4 vectors), 33 inputs (17 outputs: the last vector overlapping, its
   * second load past the row, the end padding), 7 rows (the last output row's third input row padding), two
   * images, no bias */
  conv(t, isa, 2, L(5, 112), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(7, 33), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 2, 2, 1, 1, 0);
  conv(t, isa, 2, L(4, 160), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(0, 0), 1, 2, 1, 1, 1);
  /* the plane path (rows of fewer than 16 outputs, stride 1): DS-CNN's 25 x 5 planes over 64 channels, two
   * images; dilations and uneven pads; a grid of more than 32 outputs and a masked tail */
  conv(t, isa, 2, L(25, 5), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 64, 1, 1, 1);
  conv(t, isa, 2, L(9, 11), L(3, 2), L(1, 1), L(2, 3), L(2, 0), L(1, 3), 1, 5, 1, 1, 0);
  conv(t, isa, 2, L(7, 15), L(1, 4), L(1, 1), L(1, 1), L(0, 2), L(0, 1), 1, 3, 1, 1, 1);
  /* rows of 25 to 32 inputs and outputs at stride 1 through the padded plane (flat32, 4 vectors a row, 3 rows
   * at a time): MobileNet v2's 28 x 28 over two images (a row left), 8 rows (two left), 32 with a dilation along
   * the row, 25 with end pads only, 30 without pads (28 outputs), no bias */
  conv(t, isa, 2, L(10, 28), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 4, 1, 1, 1);
  conv(t, isa, 2, L(8, 28), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(7, 32), L(3, 5), L(1, 1), L(1, 2), L(1, 4), L(1, 4), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(4, 25), L(3, 3), L(1, 1), L(1, 1), L(0, 0), L(2, 2), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(5, 30), L(3, 3), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 2, 1, 1, 1);
  /* its rows of at most 8 at AVX2+FMA (flat8): rows of 2 and 3 (whole stores past the row, masked ones at
   * the plane's end), 7 and 4 rows (blocks of 5 and what is left), uneven pads, no bias */
  conv(t, isa, 2, L(7, 2), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 6, 1, 1, 1);
  conv(t, isa, 2, L(4, 3), L(2, 3), L(1, 1), L(1, 1), L(1, 0), L(0, 2), 2, 3, 1, 1, 0);
  conv(t, isa, 2, L(11, 8), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 4, 1, 1, 1);
  /* at AVX-512F its rows of at most 8 that keep their width (flatx: one flat row of 16-lane vectors, lanes
   * past a row's end zeroed by masks): a 5 x 5 kernel (masks read from scratch) over 5 channels (two pairs and
   * one alone), rows of 1, 128 rows of 8 (1024 outputs, the most: 64 vectors), a kernel 2 x 5 dilated along
   * both with pads as wide as the row (a kw whose every lane is masked), a 3-wide kernel with end pads only,
   * a 3 x 1 kernel, no bias */
  conv(t, isa, 2, L(7, 7), L(5, 5), L(1, 1), L(1, 1), L(2, 2), L(2, 2), 1, 5, 1, 1, 1);
  conv(t, isa, 2, L(9, 1), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 3, 1, 1, 0);
  conv(t, isa, 2, L(128, 8), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 2, 1, 1, 1);
  conv(t, isa, 2, L(6, 4), L(2, 5), L(1, 1), L(3, 2), L(1, 4), L(2, 4), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(5, 6), L(1, 3), L(1, 1), L(1, 1), L(0, 0), L(0, 2), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(6, 5), L(3, 1), L(1, 1), L(1, 1), L(1, 0), L(1, 0), 1, 4, 1, 1, 0);
  /* its rows of 9 to 15 outputs, 8 to 16 inputs (flat16, two vectors a row): MobileNet v2's 14 x 14 (two
   * images), 10 outputs from 8 inputs (the input's second vector all masked), 15 with a dilation along the row
   * and 11 rows (blocks of 5, 5 and 1), 8 outputs from 9 inputs (the output's second vector all past the
   * row), no bias */
  conv(t, isa, 2, L(14, 14), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 2, 6, 1, 1, 1);
  conv(t, isa, 2, L(6, 8), L(3, 3), L(1, 1), L(1, 1), L(1, 2), L(1, 2), 1, 3, 1, 1, 0);
  conv(t, isa, 2, L(11, 15), L(3, 3), L(1, 1), L(1, 2), L(1, 1), L(1, 3), 1, 3, 1, 1, 1);
  conv(t, isa, 2, L(4, 9), L(2, 3), L(1, 1), L(1, 1), L(0, 1), L(1, 0), 2, 2, 1, 1, 1);
  /* not rows of fewer than 8 outputs from 8 to 16 inputs (9 dilated by 2 to 5): flat16 stores its first vector
   * a row whole, which ran past the plane's end (found by fuzz_diff); the grid walk takes them */
  conv(t, isa, 2, L(7, 9), L(3, 3), L(1, 1), L(1, 2), L(0, 0), L(0, 0), 1, 3, 1, 1, 1);
  /* the direct path (conv_run.c: group 1, small, stride 1 without padding or one input channel; float32 at
   * AVX2+FMA, checked taken):
   * LeNet-5's two layers (two images), a dilation, 9 output channels (a block of 1 left), a grid of fewer
   * than 8 positions (masked only), one of 8 exactly, 1-D, the largest kk (512) */
  expect_direct = 1;
  conv(t, isa, 2, L(32, 32), L(5, 5), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 2, 1, 1, 6, 1);
  conv(t, isa, 2, L(14, 14), L(5, 5), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 6, 16, 0);
  conv(t, isa, 2, L(11, 13), L(3, 2), L(1, 1), L(2, 3), L(0, 0), L(0, 0), 1, 1, 3, 5, 1);
  conv(t, isa, 2, L(9, 10), L(2, 3), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 2, 9, 1);
  conv(t, isa, 2, L(3, 4), L(2, 2), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 2, 3, 0);
  conv(t, isa, 2, L(2, 8), L(1, 1), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 2, 2, 1); /* 1x1: pointwise, not direct */
  conv(t, isa, 2, L(2, 9), L(2, 2), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 3, 2, 1);
  conv(t, isa, 1, L(12), L(3), L(1), L(1), L(0), L(0), 1, 1, 4, 3, 1);
  conv(t, isa, 2, L(8, 8), L(4, 4), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 1, 1, 32, 4, 1);
  /* one input channel strided or padded, through its phase planes copied: DS-CNN's stem (10 x 4 at stride 2,
   * 64 channels, two images), uneven pads, stride 3 by 2 with a dilation, most taps in the padding, pads
   * past the input, 1-D at stride 2, a grid of fewer than 8 positions, stride 4 with the kernel within a
   * phase */
  conv(t, isa, 2, L(49, 10), L(10, 4), L(2, 2), L(1, 1), L(5, 1), L(5, 1), 2, 1, 1, 64, 1);
  conv(t, isa, 2, L(13, 11), L(3, 4), L(1, 2), L(1, 1), L(0, 2), L(2, 1), 1, 1, 1, 7, 0);
  conv(t, isa, 2, L(17, 16), L(3, 3), L(3, 2), L(2, 3), L(1, 2), L(2, 0), 1, 1, 1, 5, 1);
  conv(t, isa, 2, L(3, 3), L(2, 2), L(1, 1), L(3, 3), L(3, 3), L(3, 3), 1, 1, 1, 2, 1);
  conv(t, isa, 2, L(4, 5), L(2, 2), L(2, 2), L(1, 1), L(3, 4), L(3, 4), 1, 1, 1, 3, 1);
  conv(t, isa, 1, L(40), L(5), L(2), L(1), L(2), L(2), 1, 1, 1, 9, 1);
  conv(t, isa, 2, L(5, 6), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(0, 0), 1, 1, 1, 4, 0);
  conv(t, isa, 2, L(21, 22), L(2, 3), L(4, 4), L(1, 1), L(1, 2), L(0, 1), 1, 1, 1, 6, 1);
  expect_direct = 0;
  /* the wide direct path (conv_run.c: group 1, at most 8 input channels, output rows of vectors of 16,
   * output channels in blocks of 8; float32 at AVX-512F, checked taken): ResNet-18's stem on 22 x 32 (two
   * images, 11 vectors: blocks of 3 and one of 2), 3 x 3 at stride 1 padded, no bias (10 vectors: one
   * left), strides 3 by 2 with dilations and uneven pads over 24 channels, stride 4 over 8 input channels,
   * 1-D at stride 2 */
  expect_wide = 1;
  conv(t, isa, 2, L(22, 32), L(7, 7), L(2, 2), L(1, 1), L(3, 3), L(3, 3), 2, 1, 3, 16, 1);
  conv(t, isa, 2, L(5, 32), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 2, 8, 0);
  conv(t, isa, 2, L(17, 36), L(3, 3), L(3, 2), L(2, 3), L(1, 2), L(2, 0), 1, 1, 4, 24, 1);
  conv(t, isa, 2, L(9, 63), L(2, 3), L(4, 4), L(1, 1), L(1, 2), L(0, 1), 1, 1, 8, 8, 1);
  conv(t, isa, 1, L(64), L(5), L(2), L(1), L(2), L(1), 1, 1, 3, 8, 1);
  /* rows whose last vector is partial (stored under a mask, its lanes past the row loaded from the next row
   * or the 16 floats past the planes): SqueezeNet's stem's 3 x 3 at stride 2 unpadded (18 outputs a row: a
   * last vector of 2), 3 x 3 padded at stride 1 (21: 5), dilated (31: 15; its last row's lanes past the
   * planes), 1-D (50: 2) */
  conv(t, isa, 2, L(15, 37), L(3, 3), L(2, 2), L(1, 1), L(0, 0), L(0, 0), 2, 1, 3, 16, 1);
  conv(t, isa, 2, L(6, 21), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 1, 1, 2, 8, 0);
  conv(t, isa, 2, L(9, 34), L(3, 3), L(1, 1), L(2, 2), L(1, 1), L(1, 1), 1, 1, 5, 24, 1);
  conv(t, isa, 1, L(50), L(5), L(1), L(1), L(2), L(2), 1, 1, 3, 8, 1);
  expect_wide = 0;
}

int main(void) {
  int top = mx_gemm_isa_available();
  for (int isa = MX_GEMM_PORTABLE; isa <= top; isa++) shapes(MINNX_FLOAT, isa);
  shapes(MINNX_FLOAT16, top);
  shapes(MINNX_DOUBLE, top);
  inf_weights = 1; /* the taps in the padding are computed, not skipped */
  for (int isa = MX_GEMM_PORTABLE; isa <= top; isa++) shapes(MINNX_FLOAT, isa);
  shapes(MINNX_FLOAT16, top);
  printf("levels run: portable%s%s\n", top >= MX_GEMM_FMA ? ", AVX2+FMA" : "", top >= MX_GEMM_AVX512 ? ", AVX-512F" : "");
  printf("cases through the taps kernels: %d\n", taps_runs);
  printf("cases with B made once before the tiles: %d\n", once_runs);
  /* (every case run: at least 4 a level, as on aarch64's one; under valgrind a third of them) */
  CHECK(once_runs >= (check_cases_run == check_cases ? 4 * (top - MX_GEMM_PORTABLE + 1) : 1));
  if (top >= MX_GEMM_AVX512) CHECK(taps_runs >= 40);
  return check_report("test_conv");
}
