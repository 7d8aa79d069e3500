/* Conv's plan and run (conv.h): each image is one batch of matrix products,
 * one per group, W[g] x col[g], through MatMul's and Gemm's kernels
 * (ops/math/gemm.h: each output's fma chain over k from zero, threads split
 * outputs), then the bias (float's added by the products as they store
 * each block); a small one of group 1 at stride 1 without
 * padding over the input's own grid instead (the direct path below). */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/nn/conv.h"

static size_t round64_size(size_t n) { return (n + 63) & ~(size_t)63; }
#if MX_X86_AVX2
static int64_t taps_floats(const mx_conv_geom *g);
#endif

/* Tasks of at least MX_TASK_BYTES of work each, at most MX_MAX_TASKS and units. */
static int64_t tasks_for(double work, int64_t units) {
  int64_t n = mx_task_count(work, 2);
  return n > units ? (units > 0 ? units : 1) : n;
}

/* *at = the scratch so far, which grows by count elements of es bytes; 0 on overflow. */
static int take_bytes(size_t *total, size_t *at, int64_t count, size_t es) {
  size_t bytes;
  if (count < 0 || __builtin_mul_overflow((size_t)count, es, &bytes) || bytes > SIZE_MAX - 64) return 0;
  *at = *total;
  return !__builtin_add_overflow(*total, round64_size(bytes), total);
}

/* The direct path: a small float32 convolution of group 1, 2-D (LeNet-5's 1
 * -> 6 and 6 -> 16 channels of 5 x 5, whose products of M = 6 or 16 rows
 * spent their time packing panels and in edge kernels; DS-CNN's 1 -> 64
 * channels of 10 x 4 at stride 2, padded, whose panels cost two thirds of
 * its time: made per kernel offset and sliver, and shared by one channel).
 * The input is read through its phase planes: plane (c, ph, pw) holds the
 * padded input's rows ph, ph + sh, ... and columns pw, pw + sw, ... (sh, sw
 * the strides; a padded element 0), E_h x E_w of them; at stride 1 without
 * padding that is the input itself, read in place, else a copy made once per
 * image in the scratch. Tap (c, kh, kw) of output (oh, ow) reads the padded
 * input's element (oh sh + kh dh, ow sw + kw dw) (dh, dw the dilations):
 * element (oh + kh dh / sh, ow + kw dw / sw) of plane (c, kh dh % sh,
 * kw dw % sw). So output (oh, ow) sits at position p = oh E_w + ow of the
 * planes' own grid, and each tap reads p plus a fixed offset: the outputs
 * are computed over the flat grid of n = (out_h - 1) E_w + out_w positions,
 * 4 output channels x 24 positions' accumulators in registers while the
 * taps pass in Conv's order (c, kh, kw; _mm256_fmadd_ps: fmaf on 8 lanes;
 * a tap in the padding multiplies its 0 like the others), the grid's E_w -
 * out_w extra columns per row computed and dropped; the last positions with
 * masked loads (nothing read past the planes). Then each row's outputs
 * copied out, the bias added last. The same fmas in the same order as the
 * reference loop. */
#define DIRECT_MB 4 /* output channels per block */
#define DIRECT_NV 3 /* vectors of 8 positions per block */
#define DIRECT_MAX_K 512 /* taps of a window at most (kk below) */

/* The phase planes' extent along spatial dim d (1 or 2): the outputs and the
 * furthest tap's step in its plane. */
static int64_t direct_extent(const mx_conv_geom *g, int d) { return g->out[d] + (g->k[d] - 1) * g->dil[d] / g->stride[d]; }
/* Whether the input is read in place (stride 1, no padding: its planes are its own). */
static int direct_in_place(const mx_conv_geom *g) {
  return g->stride[1] == 1 && g->stride[2] == 1 && g->pad[1] == 0 && g->pad[2] == 0;
}
/* Floats of one channel's phase planes. */
static int64_t direct_planes(const mx_conv_geom *g) {
  return g->stride[1] * g->stride[2] * direct_extent(g, 1) * direct_extent(g, 2);
}
/* Positions of the grid, and a task's grid: DIRECT_MB rows of them, rounded up to whole vectors. */
static int64_t direct_n(const mx_conv_geom *g) { return (g->out[1] - 1) * direct_extent(g, 2) + g->out[2]; }
static int64_t direct_row(const mx_conv_geom *g) { return (direct_n(g) + 7) / 8 * 8; }

static int direct_ok(const mx_conv_geom *g, mx_dtype t, int isa) {
  if (!MX_X86_AVX2 || isa < MX_GEMM_FMA || t != MINNX_FLOAT || g->group != 1 || g->c < 1 || g->m < 1) return 0;
  if (g->in[0] != 1 || g->k[0] != 1 || g->out[0] != 1 || g->n < 1) return 0;
  for (int d = 1; d < 3; d++)
    if (g->out[d] < 1 || g->stride[d] < 1 || g->stride[d] > 4 || g->k[d] > DIRECT_MAX_K || g->dil[d] > DIRECT_MAX_K ||
        g->pad[d] < 0 || g->pad[d] > DIRECT_MAX_K || g->in[d] > 8192)
      return 0;
  /* In place: the input's own grid (its last tap reads its last element). Copied: one input channel, where
   * the product's panel, made per kernel offset and sliver, is one row (DS-CNN's stem: 65% of its time in
   * mx_conv_pack_panel, 17.5 us against about 7 here); with more channels the panels share that cost. */
  if (direct_in_place(g)) {
    for (int d = 1; d < 3; d++)
      if (direct_extent(g, d) != g->in[d]) return 0;
  } else if (g->c != 1) {
    return 0;
  }
  /* small, so that the taps' rows stay in the first-level cache (32 KB of planes), the grid no more than
   * twice the outputs, and the window not 1 x 1 (the image is col then) */
  int64_t kk = g->c * g->k[1] * g->k[2];
  return g->k[1] * g->k[2] > 1 && kk <= DIRECT_MAX_K && direct_planes(g) <= 8192 / g->c &&
         2 * g->out[2] >= direct_extent(g, 2);
}

#if MX_X86_AVX2
/* One image's phase planes (the copy: not in place) from x [C, in_h, in_w] into q. */
static void direct_copy(const mx_conv_geom *g, const float *x, float *q) {
  int64_t sh = g->stride[1], sw = g->stride[2], eh = direct_extent(g, 1), ew = direct_extent(g, 2);
  int64_t ih_n = g->in[1], iw_n = g->in[2];
  for (int64_t c = 0; c < g->c; c++) {
    const float *xc = x + c * ih_n * iw_n;
    for (int64_t ph = 0; ph < sh; ph++)
      for (int64_t pw = 0; pw < sw; pw++)
        for (int64_t i = 0; i < eh; i++, q += ew) {
          int64_t ih = i * sh + ph - g->pad[1];
          for (int64_t j = 0; j < ew; j++) {
            int64_t iw = j * sw + pw - g->pad[2];
            q[j] = ih >= 0 && ih < ih_n && iw >= 0 && iw < iw_n ? xc[ih * iw_n + iw] : 0.0f;
          }
        }
  }
}
#endif

#if MX_X86_AVX2
#include <immintrin.h>

#include "ops/math/act_x86.h"

/* The taps' offsets in the planes: of kernel row kh (rows[kh]) and column kw (cols[kw]); a channel's planes
 * are `chan` floats. */
typedef struct {
  int64_t chan;
  int64_t rows[DIRECT_MAX_K], cols[DIRECT_MAX_K];
} direct_taps;

static void direct_taps_init(const mx_conv_geom *g, direct_taps *t) {
  int64_t sh = g->stride[1], sw = g->stride[2], ew = direct_extent(g, 2), pe = direct_extent(g, 1) * ew;
  t->chan = sh * sw * pe;
  for (int64_t kh = 0; kh < g->k[1]; kh++) t->rows[kh] = kh * g->dil[1] % sh * sw * pe + kh * g->dil[1] / sh * ew;
  for (int64_t kw = 0; kw < g->k[2]; kw++) t->cols[kw] = kw * g->dil[2] % sw * pe + kw * g->dil[2] / sw;
}

/* Grid positions [p0, p0 + 8 nv) of output channels [m0, m0 + mb) into Y (rows of stride ys); masked:
 * nv 1 and only the first `left` lanes read (the grid's last positions). x: the image's planes. */
MX_FMA_TARGET static MX_ALWAYS_INLINE void direct_block(const mx_conv_geom *g, const direct_taps *tp, const float *x,
                                                        const float *w, float *Y, int64_t ys, int64_t p0, const int mb,
                                                        const int nv, int64_t left) {
  int64_t k1 = g->k[1], k2 = g->k[2], window = k1 * k2, kk = g->c * window;
  __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)left), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 acc[DIRECT_MB][DIRECT_NV];
  for (int i = 0; i < mb; i++)
    for (int v = 0; v < nv; v++) acc[i][v] = _mm256_setzero_ps();
  for (int64_t c = 0; c < g->c; c++)
    for (int64_t kh = 0; kh < k1; kh++) {
      const float *xr = x + c * tp->chan + tp->rows[kh] + p0;
      const float *wr = w + c * window + kh * k2;
      for (int64_t kw = 0; kw < k2; kw++) {
        const float *xp = xr + tp->cols[kw];
        __m256 xv[DIRECT_NV];
        for (int v = 0; v < nv; v++) xv[v] = left < 8 ? _mm256_maskload_ps(xp, mask) : _mm256_loadu_ps(xp + 8 * v);
        for (int i = 0; i < mb; i++) {
          __m256 wv = _mm256_broadcast_ss(wr + i * kk + kw);
          for (int v = 0; v < nv; v++) acc[i][v] = _mm256_fmadd_ps(wv, xv[v], acc[i][v]);
        }
      }
    }
  for (int i = 0; i < mb; i++)
    for (int v = 0; v < nv; v++) _mm256_storeu_ps(Y + i * ys + p0 + 8 * v, acc[i][v]);
}

/* Output channels [m0, m0 + mb) of one image over the whole grid. */
MX_FMA_TARGET static MX_ALWAYS_INLINE void direct_rows(const mx_conv_geom *g, const direct_taps *tp, const float *x,
                                                       const float *w, float *Y, const int mb) {
  int64_t n = direct_n(g), ys = direct_row(g), p = 0;
  for (; p + 8 * DIRECT_NV <= n; p += 8 * DIRECT_NV) direct_block(g, tp, x, w, Y, ys, p, mb, DIRECT_NV, 8);
  for (; p + 8 <= n; p += 8) direct_block(g, tp, x, w, Y, ys, p, mb, 1, 8);
  if (p < n) direct_block(g, tp, x, w, Y, ys, p, mb, 1, n - p);
}

/* Output channels [m, m + mb) of one image from their grids Y into y, the bias added last (as the scalar add
 * does, on 8 lanes), then the fused activation. Each row's outputs as whole vectors, stored in order: lanes
 * past a row land on the next row's outputs, which are stored after them; the plane's last lanes one by one
 * (scalar stores of DS-CNN's rows of 5 had taken a quarter of its stem's time; AMD's masked stores are slower
 * still, and its masked loads took a quarter as well). */
MX_FMA_TARGET static void direct_out(const mx_conv_geom *g, const float *Y, const float *b, float *y, int64_t m,
                                     int64_t mb, const mx_act *act) {
  int64_t ys = direct_row(g), iw = direct_extent(g, 2), ow = g->out[2], plane = mx_conv_plane(g);
  for (int64_t i = 0; i < mb; i++) {
    float *yc = y + (m + i) * plane;
    const float *Yi = Y + i * ys;
    __m256 bv = _mm256_set1_ps(b ? b[m + i] : 0.0f);
    for (int64_t r = 0; r < g->out[1]; r++)
      for (int64_t o = 0; o < ow; o += 8) {
        int64_t at = r * ow + o, left = ow - o < 8 ? ow - o : 8;
        __m256 v = _mm256_loadu_ps(Yi + r * iw + o); /* (lanes past the row: the grid's next positions, or the 8
                                                     * floats after the grids) */
        if (b) v = _mm256_add_ps(v, bv);
        if (at + 8 <= plane) {
          _mm256_storeu_ps(yc + at, v);
        } else {
          float lane[8];
          _mm256_storeu_ps(lane, v);
          for (int64_t l = 0; l < left; l++) yc[at + l] = lane[l];
        }
      }
    mx_act_run8(act, yc, plane); /* (the channel's plane just stored: in L1) */
  }
}

/* Output channels [m0, m1) of one image (x: its planes): blocks of DIRECT_MB, each over the grid into one
 * half of Y, copied out while the next block runs into the other half (read at once, the grid's loads waited
 * for the stores just made: each spans two of them). */
MX_FMA_TARGET static void direct_run(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                     int64_t m0, int64_t m1, float *Y, const mx_act *act) {
  int64_t kk = g->c * g->k[1] * g->k[2], half = DIRECT_MB * direct_row(g), prev = -1, prev_mb = 0;
  direct_taps tp;
  direct_taps_init(g, &tp);
  for (int64_t m = m0; m < m1; m += DIRECT_MB) {
    int64_t mb = m1 - m < DIRECT_MB ? m1 - m : DIRECT_MB;
    const float *wm = w + m * kk;
    float *Yb = Y + (m - m0) / DIRECT_MB % 2 * half;
    switch (mb) {
      case 4: direct_rows(g, &tp, x, wm, Yb, 4); break;
      case 3: direct_rows(g, &tp, x, wm, Yb, 3); break;
      case 2: direct_rows(g, &tp, x, wm, Yb, 2); break;
      default: direct_rows(g, &tp, x, wm, Yb, 1); break;
    }
    if (prev >= 0) direct_out(g, Y + (prev - m0) / DIRECT_MB % 2 * half, b, y, prev, prev_mb, act);
    prev = m, prev_mb = mb;
  }
  if (prev >= 0) direct_out(g, Y + (prev - m0) / DIRECT_MB % 2 * half, b, y, prev, prev_mb, act);
}
#endif

/* The wide direct path (AVX-512F): a float32 convolution of group 1, 2-D,
 * with few input channels (ResNet-18's stem, 3 -> 64 channels of 7 x 7 at
 * stride 2, padded: K = 147 steps, whose panels, made per kernel offset and
 * sliver for 3 channels, and the product's edges had taken 30% of its time).
 * The image is copied once into its phase planes (the direct path's above,
 * the stride-2 columns split 16 at a time by a two-source permute), the
 * weights into blocks of 8 output channels (step t's 8 weights together);
 * then each block of 8 output channels x 3 vectors of 16 outputs (each
 * vector 16 consecutive outputs of one output row, the rows' widths a
 * multiple of 16) keeps its 24 accumulators in registers while the taps
 * pass in Conv's order (c, kh, kw; each tap a fixed offset from the
 * vectors' positions in the planes, a padded one reading a 0:
 * _mm512_fmadd_ps, fmaf on 16 lanes), adds the bias last, runs the fused
 * activation and stores straight into y. The same fmas in the same order as
 * the reference loop. Tasks take runs of whole blocks of vectors, every
 * output channel for each. */
#define WIDE_MB 8    /* output channels per block */
#define WIDE_NV 3    /* vectors of 16 outputs per block */
#define WIDE_MAX_C 8 /* input channels at most (more: the panels share their cost) */
#define WIDE_MAX_K 1024

#if MX_X86_AVX2
void mx_conv_wide_pack(const mx_conv_geom *g, const float *w, float *packed) {
  int64_t kk = g->c * g->k[1] * g->k[2];
  for (int64_t m = 0; m + WIDE_MB <= g->m; m += WIDE_MB)
    for (int64_t t = 0; t < kk; t++)
      for (int64_t i = 0; i < WIDE_MB; i++) packed[m * kk + t * WIDE_MB + i] = w[(m + i) * kk + t];
}
#endif

static int wide_ok(const mx_conv_geom *g, mx_dtype t, int isa) {
  if (!MX_X86_AVX2 || isa < MX_GEMM_AVX512 || t != MINNX_FLOAT || g->group != 1 || g->c < 1 || g->c > WIDE_MAX_C ||
      g->m < WIDE_MB || g->m % WIDE_MB)
    return 0;
  if (g->in[0] != 1 || g->k[0] != 1 || g->out[0] != 1 || g->n < 1 || g->out[2] < 16) return 0;
  for (int d = 1; d < 3; d++)
    if (g->out[d] < 1 || g->stride[d] < 1 || g->stride[d] > 4 || g->k[d] > 64 || g->dil[d] > 64 || g->pad[d] < 0 ||
        g->pad[d] > 64 || g->in[d] > 8192 || g->out[d] > 8192)
      return 0;
  int64_t kk = g->c * g->k[1] * g->k[2];
  /* (at most 16 MB of planes: the tap offsets fit 32 bits) */
  return g->k[1] * g->k[2] > 1 && kk <= WIDE_MAX_K && g->c * direct_planes(g) <= ((int64_t)1 << 22);
}

/* Vectors of 16 outputs in one image (each within one output row, a row's last one partial where its width is
 * not a multiple of 16: SqueezeNet's stem, 111 outputs a row, stored under a mask). */
static int64_t wide_vectors(const mx_conv_geom *g) { return g->out[1] * ((g->out[2] + 15) / 16); }

#if MX_X86_AVX2
/* Output channels [m, m + 8) (their weights wp: step t's 8 at wp + 8 t; bias b or NULL) of nv vectors, vector
 * j at xo[j] in the planes x and yo[j] in each output plane of y (plane floats apart), its lanes ym[j]. */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void wide_block(const float *x, const int32_t *toff, int64_t kk,
                                                         const float *wp, const int64_t *xo, float *y, int64_t plane,
                                                         const int64_t *yo, const __mmask16 *ym, const float *b,
                                                         const mx_act16 *act, const int nv) {
  __m512 acc[WIDE_MB][WIDE_NV];
  for (int i = 0; i < WIDE_MB; i++)
    for (int v = 0; v < nv; v++) {
      acc[i][v] = _mm512_setzero_ps();
      /* the block's output lines asked for now, to be written: within a model the output (ResNet-18's stem: 3.2
       * MB) has left the cache by the next run, and each store had waited for its line while the taps' work
       * could have hidden it (a hint: the same stores) */
      mx_prefetch_w(y + i * plane + yo[v], 0);
    }
  const float *x0 = x + xo[0], *x1 = x + xo[nv > 1 ? 1 : 0], *x2 = x + xo[nv > 2 ? 2 : 0];
  for (int64_t t = 0; t < kk; t++, wp += WIDE_MB) {
    int64_t o = toff[t];
    __m512 xv[WIDE_NV];
    xv[0] = _mm512_loadu_ps(x0 + o);
    if (nv > 1) xv[1] = _mm512_loadu_ps(x1 + o);
    if (nv > 2) xv[2] = _mm512_loadu_ps(x2 + o);
    for (int i = 0; i < WIDE_MB; i++) {
      __m512 a = _mm512_set1_ps(wp[i]);
      for (int v = 0; v < nv; v++) acc[i][v] = _mm512_fmadd_ps(a, xv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < WIDE_MB; i++) {
    __m512 bv = _mm512_set1_ps(b ? b[i] : 0.0f);
    for (int v = 0; v < nv; v++) {
      __m512 r = b ? _mm512_add_ps(acc[i][v], bv) : acc[i][v];
      if (act) r = mx_act16_run(act, r);
      if (ym[v] == 0xffff) _mm512_storeu_ps(y + i * plane + yo[v], r);
      else _mm512_mask_storeu_ps(y + i * plane + yo[v], ym[v], r); /* (a row's last, partial vector) */
    }
  }
}

/* Vectors [v0, v1) of one image, every output channel. */
MX_AVX512_TARGET static void wide_run(const mx_conv_geom *g, const float *x, const float *wp, const int32_t *toff,
                                      const float *b, float *y, int64_t v0, int64_t v1, const mx_act *act) {
  int64_t kk = g->c * g->k[1] * g->k[2], plane = mx_conv_plane(g), ow = g->out[2], vr = (ow + 15) / 16;
  int64_t ew = direct_extent(g, 2);
  mx_act16 a16 = mx_act16_of(act ? act : &(const mx_act){MX_ACT_NONE, 0, 0, 0.0f, 0.0f});
  const mx_act16 *av = act ? &a16 : NULL; /* (the bounds' vectors made once) */
  for (int64_t v = v0; v < v1; v += WIDE_NV) {
    int nv = v1 - v < WIDE_NV ? (int)(v1 - v) : WIDE_NV;
    int64_t xo[WIDE_NV], yo[WIDE_NV];
    __mmask16 ym[WIDE_NV];
    for (int j = 0; j < WIDE_NV; j++) {
      int64_t u = v + (j < nv ? j : 0), oh = u / vr, o = u % vr * 16;
      xo[j] = oh * ew + o, yo[j] = oh * ow + o;
      ym[j] = (__mmask16)(ow - o >= 16 ? 0xffffu : (1u << (ow - o)) - 1);
    }
    for (int64_t m = 0; m < g->m; m += WIDE_MB) {
      const float *bm = b ? b + m : NULL;
      if (nv == 3) wide_block(x, toff, kk, wp + m * kk, xo, y + m * plane, plane, yo, ym, bm, av, 3);
      else if (nv == 2) wide_block(x, toff, kk, wp + m * kk, xo, y + m * plane, plane, yo, ym, bm, av, 2);
      else wide_block(x, toff, kk, wp + m * kk, xo, y + m * plane, plane, yo, ym, bm, av, 1);
    }
  }
}

/* Channel c's planes of row phase ph from x [C, in_h, in_w] into q (the layout of direct_copy). */
MX_AVX512_TARGET static void wide_copy(const mx_conv_geom *g, const float *x, float *q, int64_t c, int64_t ph) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  int64_t sh = g->stride[1], sw = g->stride[2], eh = direct_extent(g, 1), ew = direct_extent(g, 2);
  int64_t ih_n = g->in[1], iw_n = g->in[2];
  const float *xc = x + c * ih_n * iw_n;
  q += c * direct_planes(g) + ph * sw * eh * ew;
  for (int64_t pw = 0; pw < sw; pw++) {
    int64_t off = pw - g->pad[2], lo, hi; /* plane column j reads input column j sw + off: valid for j in [lo, hi) */
    lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
    hi = iw_n - off <= 0 ? 0 : (iw_n - off + sw - 1) / sw;
    if (hi > ew) hi = ew;
    if (lo > hi) lo = hi;
    for (int64_t i = 0; i < eh; i++, q += ew) {
      int64_t ih = i * sh + ph - g->pad[1];
      if (ih < 0 || ih >= ih_n) {
        for (int64_t j = 0; j < ew; j++) q[j] = 0.0f;
        continue;
      }
      const float *xr = xc + ih * iw_n;
      int64_t j = 0;
      for (; j < lo; j++) q[j] = 0.0f;
      if (sw == 2) /* 16 columns from two vectors' even lanes, both within the row */
        for (; j + 16 <= hi && 2 * j + off + 32 <= iw_n; j += 16)
          _mm512_storeu_ps(q + j, _mm512_permutex2var_ps(_mm512_loadu_ps(xr + 2 * j + off), even,
                                                         _mm512_loadu_ps(xr + 2 * j + off + 16)));
      for (; j < hi; j++) q[j] = xr[j * sw + off];
      for (; j < ew; j++) q[j] = 0.0f;
    }
  }
}

/* The taps' offsets in the planes, in Conv's order. */
static void wide_taps(const mx_conv_geom *g, int32_t *toff) {
  int64_t kk = g->c * g->k[1] * g->k[2], window = g->k[1] * g->k[2];
  direct_taps tp;
  direct_taps_init(g, &tp);
  for (int64_t t = 0; t < kk; t++)
    toff[t] = (int32_t)(t / window * tp.chan + tp.rows[t % window / g->k[2]] + tp.cols[t % g->k[2]]);
}
#endif

size_t mx_conv_packed_size(int64_t m, int64_t k, int64_t group) {
  mx_gemm_dims d = {.m = m, .n = 1, .k = k, .rsa = k, .csa = 1, .rsb = 1, .csb = 1, .batch = group, .brank = 1};
  d.bdims[0] = group;
  d.bsa[0] = m * k;
  size_t most = 0;
  for (int isa = MX_GEMM_PORTABLE; isa <= mx_gemm_isa_available(); isa++) {
    for (int panel = 0; panel < 2; panel++) { /* (the two plans pack the same rows; the larger, to be sure) */
      mx_sgemm_plan sg;
      if (panel) mx_sgemm_plan_init_packed_b(&sg, &d, isa);
      else mx_sgemm_plan_init(&sg, &d, isa);
      size_t floats = mx_sgemm_packed_a_floats(&sg);
      if (floats > most) most = floats;
    }
  }
  return most > SIZE_MAX / 4 ? 0 : most * 4;
}

int mx_conv_plan_init(mx_conv_plan *p, const mx_conv_geom *g, mx_dtype t, int bias, int isa) {
  memset(p, 0, sizeof *p);
  p->g = *g;
  p->t = t;
  p->bias = bias;
  if (!MX_DTYPE_ON(t) || (t != MINNX_FLOAT && t != MINNX_FLOAT16 && t != MINNX_DOUBLE)) return 0;
  int64_t window = mx_conv_window(g), plane = mx_conv_plane(g), k = g->c / g->group * window, rows, col, in_plane;
  /* X may hold no element (no channels) over a plane too large to count */
  if (__builtin_mul_overflow(g->in[0], g->in[1], &in_plane) || __builtin_mul_overflow(in_plane, g->in[2], &in_plane))
    return 0;
  p->pointwise = window == 1 && plane == in_plane;
  for (int d = 0; d < 3; d++) p->pointwise = p->pointwise && g->stride[d] == 1 && g->pad[d] == 0;
  if (__builtin_mul_overflow(g->c, window, &rows) || __builtin_mul_overflow(rows, plane, &col)) return 0;
  /* y[g] [m/G, plane] = W[g] [m/G, k] x col[g] [k, plane], g over the groups */
  mx_gemm_dims d = {.m = g->m / g->group, .n = plane, .k = k, .rsa = k, .csa = 1, .rsb = plane, .csb = 1,
                    .batch = g->group, .brank = 1};
  d.bdims[0] = g->group;
  d.bsa[0] = d.m * k;
  d.bsb[0] = k * plane;
  size_t total = 0, es = t == MINNX_DOUBLE ? 8 : 4;
  if (direct_ok(g, t, isa)) {
    /* the direct path: tasks of whole blocks of output channels, two or more each (a task copies a block's
     * grid out while its next block runs: a task of one block read it at once), each with its grids */
    int64_t blocks = (g->m + DIRECT_MB - 1) / DIRECT_MB, all;
    p->direct = 1;
    p->direct_tasks = tasks_for((double)g->m * (double)plane * (double)k * 4, blocks / 2 > 1 ? blocks / 2 : 1);
    p->direct_bytes = round64_size((size_t)(2 * DIRECT_MB * direct_row(g) + 8) * 4); /* two blocks' grids, 8 more */
    if (__builtin_mul_overflow((int64_t)(p->direct_bytes / 4), p->direct_tasks, &all) ||
        !take_bytes(&total, &p->off_col, all, 4))
      return 0;
    /* an image's phase planes, when not read in place (off_x: float16's copy of X otherwise) */
    if (!direct_in_place(g) && !take_bytes(&total, &p->off_x, g->c * direct_planes(g), 4)) return 0;
  } else if (wide_ok(g, t, isa)) {
    /* the wide direct path: the planes (off_x), the packed weights and the taps' offsets (off_col) */
    int64_t kk = g->c * g->k[1] * g->k[2], vecs = wide_vectors(g);
    p->wide = 1;
    p->wide_prep = g->c * g->stride[1] + 1;
    p->wide_tasks = tasks_for((double)g->m * (double)plane * (double)kk * 4, (vecs + WIDE_NV - 1) / WIDE_NV);
    /* (16 floats past the planes: a row's partial last vector loads its lanes whole) */
    if (!take_bytes(&total, &p->off_x, g->c * direct_planes(g) + 16, 4) || !take_bytes(&total, &p->off_col, g->m * kk + kk, 4))
      return 0;
  } else if (t != MINNX_DOUBLE && g->group == g->c && g->group == g->m && !p->pointwise && (p->dw = mx_dwconv_kernel(g, isa))) {
    /* depthwise: each channel's planes directly (dwconv.c), each task with its padded rows; float16 still
     * through float32 copies */
    int64_t floats, all;
    p->dw_tasks = mx_dwconv_tasks(g);
    if ((floats = mx_dwconv_scratch(g)) < 0 || floats > INT64_MAX / 8) return 0;
    p->dw_bytes = round64_size((size_t)floats * 4);
    if (__builtin_mul_overflow((int64_t)(p->dw_bytes / 4), p->dw_tasks, &all) || !take_bytes(&total, &p->off_col, all, 4))
      return 0;
  } else if (t == MINNX_DOUBLE) {
    p->rows = mx_gemm_rows_kernel_isa(MINNX_DOUBLE, isa >= MX_GEMM_FMA);
    p->sg.d = d;
    p->row_tasks = tasks_for((double)g->m * (double)plane * (double)(k ? k : 1), g->m);
    if (!p->rows) return 0;
  } else {
    if (p->pointwise) mx_sgemm_plan_init(&p->sg, &d, isa);
#if MX_X86_AVX2 /* (no other build has a taps kernel: the Cortex-M4's firmware links none of this) */
    else if (mx_conv_taps_ok(g)) mx_sgemm_plan_init_taps(&p->sg, &d, isa, (int)window);
#endif
    else mx_sgemm_plan_init_packed_b(&p->sg, &d, isa);
    if (!p->pointwise && p->sg.nr > MX_PANEL_MAX_NR) return 0; /* (no kernel has wider slivers) */
    total = round64_size(mx_sgemm_scratch(&p->sg));
#if MX_X86_AVX2
    if (p->sg.window) { /* the taps' offsets and padded image */
      int64_t floats;
      p->pad_tasks = tasks_for((double)g->c * (double)mx_conv_pad_plane(g) * 8, mx_conv_pad_rows(g));
      if (__builtin_mul_overflow(g->c, mx_conv_pad_plane(g), &floats) || floats > INT64_MAX / 2 ||
          !take_bytes(&total, &p->off_pad, taps_floats(g) + floats + MX_CONV_PAD_MORE, 4))
        return 0;
    }
#endif
  }
  /* col for double only: float's tiles lay their panels out from the image itself (mx_conv_pack_panel) */
  if (t == MINNX_DOUBLE && !p->pointwise && !take_bytes(&total, &p->off_col, col, es)) return 0;
  if (t == MINNX_FLOAT16) {
    int64_t xs, ws, ys;
    /* (window is 0 for an empty kernel) */
    if (__builtin_mul_overflow(g->n, (window ? rows / window : 0) * mx_conv_in_plane(g), &xs) ||
        __builtin_mul_overflow(g->m, k, &ws) || __builtin_mul_overflow(g->n * g->m, plane, &ys))
      return 0;
    if (!mx_convert_choose_isa(&p->to_f32, MINNX_FLOAT16, MINNX_FLOAT, (mx_isa)isa) ||
        !mx_convert_choose_isa(&p->from_f32, MINNX_FLOAT, MINNX_FLOAT16, (mx_isa)isa) || !take_bytes(&total, &p->off_x, xs, 4) ||
        !take_bytes(&total, &p->off_w, ws, 4) || !take_bytes(&total, &p->off_b, g->m, 4) ||
        !take_bytes(&total, &p->off_y, ys, 4))
      return 0;
  }
  p->col_tasks = tasks_for((double)col * (double)es, rows);
  p->bias_tasks = tasks_for((double)g->m * (double)plane * (double)es, g->m);
  p->scratch = total;
  return 1;
}

typedef struct {
  const mx_conv_plan *p;
  const unsigned char *x, *w, *b; /* one image's input; the weights; the bias */
  unsigned char *col, *y;         /* one image's col and output */
  unsigned char *y_planes;        /* the wide path's phase planes; the taps' padded image */
} conv_image;

static void col_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  int64_t rows = r->p->g.c * mx_conv_window(&r->p->g), n = r->p->col_tasks;
  mx_conv_im2col(&r->p->g, r->p->t == MINNX_DOUBLE ? 8 : 4, r->x, r->col, rows * (int64_t)t / n,
                 rows * ((int64_t)t + 1) / n);
}

static void rows_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  int64_t rows = r->p->g.m, n = r->p->row_tasks;
  r->p->rows(&r->p->sg.d, r->w, r->col, NULL, r->y, rows * (int64_t)t / n, rows * ((int64_t)t + 1) / n);
}

/* y[m, :] = y[m, :] + b[m]: the order's last rounding (double; float's
 * products add it to each block as they store it). */
static void bias_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  int64_t m = r->p->g.m, n = r->p->bias_tasks, plane = mx_conv_plane(&r->p->g);
  for (int64_t o = m * (int64_t)t / n; o < m * ((int64_t)t + 1) / n; o++) {
    double *y = (double *)r->y + o * plane, b = ((const double *)r->b)[o];
    for (int64_t i = 0; i < plane; i++) y[i] = y[i] + b;
  }
}

#if MX_X86_AVX2
/* The direct path: blocks of output channels [B t / n, B (t + 1) / n), bias included. */
static void direct_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  int64_t blocks = (r->p->g.m + DIRECT_MB - 1) / DIRECT_MB, n = r->p->direct_tasks;
  int64_t m0 = blocks * (int64_t)t / n * DIRECT_MB, m1 = blocks * ((int64_t)t + 1) / n * DIRECT_MB;
  if (m1 > r->p->g.m) m1 = r->p->g.m;
  direct_run(&r->p->g, (const float *)r->x, (const float *)r->w, (const float *)r->b, (float *)r->y, m0, m1,
             (float *)(r->col + t * r->p->direct_bytes), mx_act_or_null(&r->p->act));
}
#endif

#if MX_X86_AVX2
/* The wide path's preparation: unit u < C sh the planes of channel u / sh, row phase u % sh; the last the weights. */
static void wide_prep_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  const mx_conv_geom *g = &r->p->g;
  float *wp = (float *)r->col;
  if ((int64_t)t == g->c * g->stride[1]) { /* (the weights when not packed at prepare; the planes' 16 more floats) */
    if (!r->p->wide_w) mx_conv_wide_pack(g, (const float *)r->w, wp);
    memset((float *)r->y_planes + g->c * direct_planes(g), 0, 16 * sizeof(float));
    wide_taps(g, (int32_t *)(wp + g->m * g->c * g->k[1] * g->k[2]));
  } else wide_copy(g, (const float *)r->x, (float *)r->y_planes, (int64_t)t / g->stride[1], (int64_t)t % g->stride[1]);
}

/* The wide path: runs of whole blocks of vectors [B t / n, B (t + 1) / n), every channel, bias included. */
static void wide_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  const mx_conv_geom *g = &r->p->g;
  int64_t vecs = wide_vectors(g), blocks = (vecs + WIDE_NV - 1) / WIDE_NV, n = r->p->wide_tasks;
  int64_t v0 = blocks * (int64_t)t / n * WIDE_NV, v1 = blocks * ((int64_t)t + 1) / n * WIDE_NV;
  if (v1 > vecs) v1 = vecs;
  const float *wp = (const float *)r->col;
  wide_run(g, (const float *)r->y_planes, r->p->wide_w ? r->p->wide_w : wp, (const int32_t *)(wp + g->m * g->c * g->k[1] * g->k[2]),
           (const float *)r->b, (float *)r->y, v0, v1, mx_act_or_null(&r->p->act));
}
#endif

#if MX_X86_AVX2
/* The taps' offsets' floats in the scratch before the padded image (window int64, in whole lines). */
static int64_t taps_floats(const mx_conv_geom *g) { return (mx_conv_window(g) * 2 + 15) / 16 * 16; }

/* The taps' padded image: rows [H t / n, H (t + 1) / n) of every channel's
 * plane (H its padded rows). Cut by rows, as the product's tiles cut the
 * outputs (whole output rows, in order, the first tasks to the caller), so
 * that a thread pads about the rows its own tiles read, from the input rows
 * its own tiles wrote in a convolution before: cut by channels, each read
 * half its rows from the other's cache: where the two cores took 450 ns to
 * pass a cache line back and forth (rather than 110 ns), a chain of four
 * 64-channel 3 x 3 layers at 56 x 56 took a median 0.91x the time it had at
 * 2 threads and ResNet-18 0.96x; the same time where they were close
 * (README, "The fourth run of 2026-12-07"). */
static void pad_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  const mx_conv_geom *g = &r->p->g;
  int64_t h = mx_conv_pad_rows(g), n = r->p->pad_tasks;
  mx_conv_pad_image(g, (const float *)r->x, (float *)r->y_planes, h * (int64_t)t / n, h * ((int64_t)t + 1) / n);
}
#endif

/* Depthwise: channels [m t / n, m (t + 1) / n), bias included. */
static void dw_task(void *ctx, size_t t) {
  const conv_image *r = ctx;
  int64_t m = r->p->g.m, n = r->p->dw_tasks;
  r->p->dw(&r->p->g, (const float *)r->x, (const float *)r->w, (const float *)r->b, (float *)r->y, m * (int64_t)t / n,
           m * ((int64_t)t + 1) / n, (float *)(r->col + t * r->p->dw_bytes), mx_act_or_null(&r->p->act));
}

static void run_tasks(const mx_exec *x, minnx_task_fn task, void *ctx, int64_t n) {
  if (x) mx_parallel_for(x, task, ctx, (size_t)n);
  else
    for (int64_t t = 0; t < n; t++) task(ctx, (size_t)t);
}

void mx_conv_run(const mx_conv_plan *p, const mx_exec *x, const void *xs, const void *w, const void *b, void *y,
                 void *scratch) {
  const mx_conv_geom *g = &p->g;
  unsigned char *s = scratch, *yy = y;
  const unsigned char *xx = xs, *ww = w, *bb = b;
  size_t es = p->t == MINNX_DOUBLE ? 8 : 4;
  int64_t in_image = g->c * mx_conv_in_plane(g), out_image = g->m * mx_conv_plane(g);
  const mx_act *act = p->t == MINNX_FLOAT ? mx_act_or_null(&p->act) : NULL;
  if (p->t == MINNX_FLOAT16) { /* float32 copies, the result rounded once at the end */
    mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_x), xx, g->n * in_image);
    mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_w), ww, g->m * (g->c / g->group) * mx_conv_window(g));
    if (bb) mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_b), bb, g->m);
    xx = mx_conv_at(s, p->off_x), ww = mx_conv_at(s, p->off_w), yy = mx_conv_at(s, p->off_y);
    bb = bb ? mx_conv_at(s, p->off_b) : NULL;
  }
  for (int64_t n = 0; n < g->n; n++) {
    conv_image r = {p, mx_conv_at(xx, (size_t)(n * in_image) * es), ww, bb, NULL,
                    mx_conv_at(yy, (size_t)(n * out_image) * es), NULL};
#if MX_X86_AVX2
    if (p->direct) {
      r.col = mx_conv_at(s, p->off_col); /* the tasks' grids, direct_bytes each */
      if (!direct_in_place(g)) { /* the image's phase planes, made once for all the tasks */
        direct_copy(g, (const float *)r.x, (float *)mx_conv_at(s, p->off_x));
        r.x = mx_conv_at(s, p->off_x);
      }
      run_tasks(x, direct_task, &r, p->direct_tasks);
      continue;
    }
    if (p->wide) { /* the planes and the packed weights, then the blocks */
      r.col = mx_conv_at(s, p->off_col);
      r.y_planes = mx_conv_at(s, p->off_x);
      run_tasks(x, wide_prep_task, &r, p->wide_prep);
      run_tasks(x, wide_task, &r, p->wide_tasks);
      continue;
    }
#endif
    if (p->dw) {
      r.col = mx_conv_at(s, p->off_col); /* the tasks' padded rows, dw_bytes each */
      run_tasks(x, dw_task, &r, p->dw_tasks);
      continue;
    }
    if (p->pointwise) {
      r.col = (unsigned char *)(uintptr_t)r.x; /* only read: the product's B */
    } else if (p->t == MINNX_DOUBLE) {
      r.col = mx_conv_at(s, p->off_col);
      run_tasks(x, col_task, &r, p->col_tasks);
    }
    if (p->t == MINNX_DOUBLE) {
      run_tasks(x, rows_task, &r, p->row_tasks);
    } else if (p->pointwise) {
      mx_sgemm_run_bias(&p->sg, x, (const float *)r.w, (const float *)r.col, (const float *)bb, act, (float *)r.y, s);
      if (p->sg.gemv && act) mx_act_run(act, (float *)r.y, out_image); /* (the GEMV path leaves it: one output channel a group) */
    } else { /* each tile's panel of B straight from the image */
#if MX_X86_AVX2
      mx_conv_panel pc = {g, (const float *)r.x, p->sg.isa == MX_GEMM_AVX512, NULL, NULL};
      if (p->sg.window) { /* the taps' offsets and the padded image, then the products reading it */
        int64_t *tap = (int64_t *)mx_conv_at(s, p->off_pad);
        mx_conv_pad_taps(g, tap);
        r.y_planes = (unsigned char *)((float *)tap + taps_floats(g));
        run_tasks(x, pad_task, &r, p->pad_tasks);
        pc.xp = (const float *)r.y_planes;
        pc.tap = tap;
        mx_sgemm_run_taps(&p->sg, x, (const float *)r.w, mx_conv_taps, mx_conv_pack_panel, &pc, (const float *)bb, act,
                          (float *)r.y, s);
      } else
#else
      mx_conv_panel pc = {g, (const float *)r.x, 0};
#endif
        mx_sgemm_run_packed_b(&p->sg, x, (const float *)r.w, mx_conv_pack_panel, &pc, (const float *)bb, act, (float *)r.y,
                              s);
    }
    /* (float's bias is added by the product, to each block as it is stored) */
    if (bb && p->t == MINNX_DOUBLE) run_tasks(x, bias_task, &r, p->bias_tasks);
  }
  if (p->t == MINNX_FLOAT16) mx_convert_run(&p->from_f32, y, yy, g->n * out_image);
}
