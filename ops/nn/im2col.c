/* im2col (conv.h): one image's input laid out as the matrix product's B
 * operand, row r = (channel, kernel offset), column = output position. It
 * only copies elements and writes zeros: the arithmetic is all in the
 * product's kernels. */
#include <stdint.h>

#include "ops/core/kernel.h"
#include "ops/nn/conv.h"

/* The outputs o in [*lo, *hi) of a row of `out` whose input index
 * o * stride + off lies in [0, in). */
static void valid_span(int64_t out, int64_t stride, int64_t off, int64_t in, int64_t *lo, int64_t *hi) {
  int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride; /* first o with o*stride + off >= 0 */
  int64_t b = in - off <= 0 ? 0 : (in - off + stride - 1) / stride; /* first o with o*stride + off >= in */
  *lo = a < out ? a : out;
  *hi = b < out ? b : out;
  if (*hi < *lo) *hi = *lo;
}

/* gcc turns the copy and zero loops below back into memcpy and memset calls
 * (loop distribution); for the rows here, often of 7 to 56 elements, a call
 * per row cost more than its bytes (about a fifth of ResNet-18's run went to
 * im2col's calls), so this file keeps them as loops. */
#if defined(__GNUC__) && !defined(__clang__)
#define MX_KEEP_LOOPS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define MX_KEEP_LOOPS
#endif

/* One output row (ow running) of one col row: zeros, the strided copy, zeros;
 * elements moved as their bits (T: an unsigned integer of their size). */
#define FILL_ROW(T)                                                                                               \
  static MX_ALWAYS_INLINE void fill_row_##T(T *dst, const T *src, int64_t out, int64_t lo, int64_t hi,           \
                                            int64_t stride, int64_t off) {                                      \
    for (int64_t o = 0; o < lo; o++) dst[o] = 0;                                                                \
    if (stride == 1)                                                                                            \
      for (int64_t o = lo; o < hi; o++) dst[o] = src[o + off];                                                  \
    else                                                                                                        \
      for (int64_t o = lo; o < hi; o++) dst[o] = src[o * stride + off];                                         \
    for (int64_t o = hi; o < out; o++) dst[o] = 0;                                                              \
  }
FILL_ROW(uint32_t)
FILL_ROW(uint64_t)

#define IM2COL(T)                                                                                                 \
  static MX_KEEP_LOOPS void im2col_##T(const mx_conv_geom *g, const T *x, T *col, int64_t r0, int64_t r1) {      \
    int64_t window = mx_conv_window(g), plane = mx_conv_plane(g), in_plane = mx_conv_in_plane(g);                \
    for (int64_t r = r0; r < r1; r++) {                                                                         \
      int64_t c = r / window, at = r % window;                                                                  \
      int64_t kw = at % g->k[2], kh = at / g->k[2] % g->k[1], kd = at / (g->k[2] * g->k[1]);                     \
      int64_t offw = kw * g->dil[2] - g->pad[2], lo, hi;                                                        \
      valid_span(g->out[2], g->stride[2], offw, g->in[2], &lo, &hi);                                            \
      const T *xc = x + c * in_plane;                                                                           \
      T *dst = col + r * plane;                                                                                 \
      for (int64_t od = 0; od < g->out[0]; od++) {                                                              \
        int64_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];                                            \
        for (int64_t oh = 0; oh < g->out[1]; oh++, dst += g->out[2]) {                                          \
          int64_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];                                          \
          if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {                                           \
            for (int64_t o = 0; o < g->out[2]; o++) dst[o] = 0;                                                 \
            continue;                                                                                           \
          }                                                                                                     \
          /* (an empty span reads nothing: its lo + off may lie before the row) */                              \
          fill_row_##T(dst, xc + (id * g->in[1] + ih) * g->in[2], g->out[2], lo, hi, g->stride[2], offw);       \
        }                                                                                                       \
      }                                                                                                         \
    }                                                                                                           \
  }
IM2COL(uint32_t)
IM2COL(uint64_t)

void mx_conv_im2col(const mx_conv_geom *g, size_t es, const void *x, void *col, int64_t r0, int64_t r1) {
  if (es == 8) im2col_uint64_t(g, x, col, r0, r1);
  else im2col_uint32_t(g, x, col, r0, r1);
}

/* A piece of a sliver's row: lanes [lane, lane + len) copied from the
 * channel's plane at src, src + stride, ... (src < 0: zeros). */
typedef struct {
  int32_t lane, len;
  int64_t src;
} panel_piece_t;

/* The pieces of one kernel offset (kd, kh, kw) over a sliver's positions
 * (runs along output rows from (od, oh, ow), cols of them): zeros, copy,
 * zeros per run; at most 3 * cols pieces. */
static int64_t offset_pieces(const mx_conv_geom *g, int64_t od, int64_t oh, int64_t ow, int64_t cols, int64_t kd,
                             int64_t kh, int64_t kw, panel_piece_t *pc) {
  int64_t offw = kw * g->dil[2] - g->pad[2], lo, hi, n = 0, lane = 0;
  valid_span(g->out[2], g->stride[2], offw, g->in[2], &lo, &hi);
  while (lane < cols) {
    int64_t len = g->out[2] - ow < cols - lane ? g->out[2] - ow : cols - lane;
    int64_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];
    int64_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];
    int64_t a = lo - ow, b = hi - ow; /* the copy: lanes [a, b) of this run */
    if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) a = b = len;
    a = a < 0 ? 0 : a > len ? len : a;
    b = b < a ? a : b > len ? len : b;
    if (a > 0) pc[n++] = (panel_piece_t){(int32_t)lane, (int32_t)a, -1};
    if (b > a) pc[n++] = (panel_piece_t){(int32_t)(lane + a), (int32_t)(b - a),
                                         (id * g->in[1] + ih) * g->in[2] + (ow + a) * g->stride[2] + offw};
    if (len > b) pc[n++] = (panel_piece_t){(int32_t)(lane + b), (int32_t)(len - b), -1};
    lane += len, ow += len;
    if (ow == g->out[2]) {
      ow = 0;
      if (++oh == g->out[1]) oh = 0, od++;
    }
  }
  return n;
}

#if MX_X86_AVX2
#include <immintrin.h>

/* One kernel offset's rows of a sliver of 32 positions, at stride 1 or 2:
 * its copy pieces as masks, each row built in two registers (zeros, then
 * each piece's lanes loaded under its mask: at stride 2 two vectors' even
 * lanes, a two-source permute) and stored whole, one row per channel
 * k = c * window + at in [k, kend). The scalar pieces' loops cost a fifth
 * of a 3x3 convolution's time. */
MX_AVX512_TARGET static void offset_rows_avx512(const float *xg, int64_t in_plane, const panel_piece_t *pcs, int64_t np,
                                                int64_t stride, int64_t c, int64_t k, int64_t kend, int64_t window,
                                                float *dst) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  int64_t off[MX_PANEL_MAX_NR];
  __mmask16 lm[MX_PANEL_MAX_NR][2], em[MX_PANEL_MAX_NR][4];
  int n = 0;
  for (int64_t i = 0; i < np; i++) {
    if (pcs[i].src < 0) continue;
    int64_t lane = pcs[i].lane, len = pcs[i].len;
    uint32_t lanes = (uint32_t)((((uint64_t)1 << len) - 1) << lane);
    lm[n][0] = (__mmask16)(lanes & 0xffffu), lm[n][1] = (__mmask16)(lanes >> 16);
    off[n] = pcs[i].src - stride * lane; /* lane l reads element off + stride l */
    uint64_t el = lanes; /* bit l to bit 2 l: the elements a stride-2 lane reads */
    el = (el | el << 16) & 0x0000ffff0000ffffu;
    el = (el | el << 8) & 0x00ff00ff00ff00ffu;
    el = (el | el << 4) & 0x0f0f0f0f0f0f0f0fu;
    el = (el | el << 2) & 0x3333333333333333u;
    el = (el | el << 1) & 0x5555555555555555u;
    for (int q = 0; q < 4; q++) em[n][q] = (__mmask16)(el >> (16 * q) & 0xffffu);
    n++;
  }
  if (n == 1) { /* one run of copied lanes (a sliver within one output row): its masks held in registers */
    const __mmask16 l0 = lm[0][0], l1 = lm[0][1], e0 = em[0][0], e1 = em[0][1], e2 = em[0][2], e3 = em[0][3];
    for (; k < kend; c++, k += window, dst += window * 32) {
      const float *sp = xg + c * in_plane + off[0];
      __m512 v0, v1;
      if (stride == 1) {
        v0 = _mm512_maskz_loadu_ps(l0, sp);
        v1 = _mm512_maskz_loadu_ps(l1, sp + 16);
      } else {
        v0 = _mm512_maskz_mov_ps(l0, _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(e0, sp), even, _mm512_maskz_loadu_ps(e1, sp + 16)));
        v1 = _mm512_maskz_mov_ps(l1, _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(e2, sp + 32), even,
                                                             _mm512_maskz_loadu_ps(e3, sp + 48)));
      }
      _mm512_storeu_ps(dst, v0);
      _mm512_storeu_ps(dst + 16, v1);
    }
    return;
  }
  for (; k < kend; c++, k += window, dst += window * 32) {
    const float *xc = xg + c * in_plane;
    __m512 v0 = _mm512_setzero_ps(), v1 = _mm512_setzero_ps();
    for (int i = 0; i < n; i++) {
      const float *sp = xc + off[i];
      if (stride == 1) {
        v0 = _mm512_mask_loadu_ps(v0, lm[i][0], sp);
        v1 = _mm512_mask_loadu_ps(v1, lm[i][1], sp + 16);
      } else {
        __m512 e0 = _mm512_maskz_loadu_ps(em[i][0], sp), e1 = _mm512_maskz_loadu_ps(em[i][1], sp + 16);
        __m512 e2 = _mm512_maskz_loadu_ps(em[i][2], sp + 32), e3 = _mm512_maskz_loadu_ps(em[i][3], sp + 48);
        v0 = _mm512_mask_mov_ps(v0, lm[i][0], _mm512_permutex2var_ps(e0, even, e1));
        v1 = _mm512_mask_mov_ps(v1, lm[i][1], _mm512_permutex2var_ps(e2, even, e3));
      }
    }
    _mm512_storeu_ps(dst, v0);
    _mm512_storeu_ps(dst + 16, v1);
  }
}
#endif

#if MX_X86_AVX2
int mx_conv_taps_ok(const mx_conv_geom *g) {
  const int64_t most = INT64_C(1) << 30; /* each side of the padded plane (its floats then fit int64 with room) */
  for (int d = 1; d < 3; d++)
    if (g->stride[d] < 1 || g->dil[d] < 1 || g->out[d] > most / g->stride[d] || g->k[d] > most / g->dil[d]) return 0;
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && (g->stride[2] == 1 || g->stride[2] == 2) &&
         g->out[2] >= 16 && mx_conv_window(g) <= MX_SGEMM_TAPS_MAX_WINDOW;
}
int64_t mx_conv_pad_width(const mx_conv_geom *g) { return (g->out[2] - 1) * g->stride[2] + (g->k[2] - 1) * g->dil[2] + 1; }
int64_t mx_conv_pad_rows(const mx_conv_geom *g) { return (g->out[1] - 1) * g->stride[1] + (g->k[1] - 1) * g->dil[1] + 1; }
int64_t mx_conv_pad_plane(const mx_conv_geom *g) { return mx_conv_pad_rows(g) * mx_conv_pad_width(g); }

MX_KEEP_LOOPS void mx_conv_pad_image(const mx_conv_geom *g, const float *x, float *xp, int64_t r0, int64_t r1) {
  int64_t wp = mx_conv_pad_width(g), hp = mx_conv_pad_rows(g), lo, hi;
  valid_span(wp, 1, -g->pad[2], g->in[2], &lo, &hi); /* the columns that hold the input's */
  for (int64_t c = 0; c < g->c; c++) {
    const float *xc = x + c * g->in[1] * g->in[2];
    float *dst = xp + (c * hp + r0) * wp;
    for (int64_t r = r0; r < r1; r++, dst += wp) {
      int64_t ir = r - g->pad[1];
      if (ir < 0 || ir >= g->in[1]) {
        for (int64_t o = 0; o < wp; o++) dst[o] = 0.0f;
        continue;
      }
      fill_row_uint32_t((uint32_t *)dst, (const uint32_t *)(xc + ir * g->in[2]), wp, lo, hi, 1, -g->pad[2]);
    }
  }
  if (r1 == hp)
    for (int64_t o = 0; o < MX_CONV_PAD_MORE; o++) xp[g->c * hp * wp + o] = 0.0f;
}

void mx_conv_pad_taps(const mx_conv_geom *g, int64_t *tap) {
  int64_t wp = mx_conv_pad_width(g);
  for (int64_t at = 0; at < mx_conv_window(g); at++)
    tap[at] = at / g->k[2] * g->dil[1] * wp + at % g->k[2] * g->dil[2];
}

int mx_conv_taps(const void *ctx, int64_t gi, int64_t j0, int64_t cols, mx_sgemm_taps *t) {
  const mx_conv_panel *pctx = ctx;
  const mx_conv_geom *g = pctx->g;
  int64_t ow_n = g->out[2], wp = mx_conv_pad_width(g), cs = mx_conv_pad_plane(g);
  if (ow_n < 16) return 0; /* (a vector would cross two rows' ends: mx_conv_taps_ok plans none such) */
  t->x = pctx->xp + gi * (g->c / g->group) * cs;
  t->cstride = cs;
  t->tap = pctx->tap;
  t->stride = (int)g->stride[2];
  for (int v = 0; v < 2; v++) {
    int64_t l0 = 16 * v, j = j0 + l0, oh = j / ow_n, ow = j % ow_n, end = cols - l0 < 16 ? cols - l0 : 16;
    t->blend[v] = 0;
    if (end <= 0) { /* no columns: lanes read as the first vector's (in the padded image), not stored */
      t->base[v][0] = t->base[v][1] = t->base[0][0];
      continue;
    }
    int64_t in_row = ow_n - ow; /* the vector's lanes in output row oh (the rest in row oh + 1: ow_n >= 16) */
    t->base[v][0] = oh * g->stride[1] * wp + (ow - l0) * t->stride;
    t->base[v][1] = t->base[v][0];
    if (in_row < end) {
      t->base[v][1] = (oh + 1) * g->stride[1] * wp - (l0 + in_row) * t->stride;
      t->blend[v] = (uint16_t)(((1u << end) - 1) & ~((1u << in_row) - 1));
    }
  }
  return 1;
}
#endif

/* Sliver by sliver; within one, kernel offset by kernel offset: its pieces
 * found once, then each channel's row of that offset made from them (the
 * offsets' rows of one channel interleave in the sliver, which stays in L1;
 * kw fastest, so that consecutive offsets read the same input lines). */
MX_KEEP_LOOPS void mx_conv_pack_panel(const void *ctx, int64_t gi, int64_t k0, int64_t kc, int64_t j0, int64_t nc, int nr,
                                      float *bp) {
  const mx_conv_panel *pctx = ctx;
  const mx_conv_geom *g = pctx->g;
  int64_t in_plane = mx_conv_in_plane(g), ow_n = g->out[2], oh_n = g->out[1], window = mx_conv_window(g);
  int64_t stride = g->stride[2];
  int64_t ow = j0 % ow_n, oh = j0 / ow_n % oh_n, od = j0 / ow_n / oh_n;
  panel_piece_t pcs[3 * MX_PANEL_MAX_NR]; /* 3 per run at most, a run per column at most */
  const float *xg = pctx->x + gi * (g->c / g->group) * in_plane; /* the group's first channel */
  for (int64_t q0 = 0; q0 < nc; q0 += nr, bp += kc * nr) {
    int64_t cols = nc - q0 < nr ? nc - q0 : nr;
    for (int64_t at = 0; at < window; at++) {
      int64_t kw = at % g->k[2], kh = at / g->k[2] % g->k[1], kd = at / (g->k[2] * g->k[1]);
      /* the panel's steps of this offset: k = c * window + at in [k0, k0 + kc) */
      int64_t cfirst = k0 <= at ? 0 : (k0 - at + window - 1) / window;
      if (cfirst * window + at >= k0 + kc) continue;
      int64_t np = offset_pieces(g, od, oh, ow, cols, kd, kh, kw, pcs);
#if MX_X86_AVX2
      if (pctx->avx512 && nr == 32 && (stride == 1 || stride == 2)) {
        offset_rows_avx512(xg, in_plane, pcs, np, stride, cfirst, cfirst * window + at, k0 + kc, window,
                           bp + (cfirst * window + at - k0) * nr);
        continue;
      }
#endif
      for (int64_t c = cfirst, k = cfirst * window + at; k < k0 + kc; c++, k += window) {
        float *dst = bp + (k - k0) * nr;
        const float *xc = xg + c * in_plane;
        for (int64_t i = 0; i < np; i++) {
          float *d = dst + pcs[i].lane;
          int64_t len = pcs[i].len;
          if (pcs[i].src < 0) {
            for (int64_t j = 0; j < len; j++) d[j] = 0.0f;
          } else if (stride == 1) {
            const float *sp = xc + pcs[i].src;
            for (int64_t j = 0; j < len; j++) d[j] = sp[j];
          } else {
            const float *sp = xc + pcs[i].src;
            for (int64_t j = 0; j < len; j++) d[j] = sp[j * stride];
          }
        }
        for (int64_t j = cols; j < nr; j++) dst[j] = 0.0f; /* the positions past nc */
      }
    }
    /* the next sliver's first position */
    ow += cols;
    while (ow >= ow_n) {
      ow -= ow_n;
      if (++oh == oh_n) oh = 0, od++;
    }
  }
}
