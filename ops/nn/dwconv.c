/* Depthwise convolutions (conv.h: one input channel and one output channel
 * per group) in float32, without im2col. The order is Conv's (conv.h),
 * operation for operation: every output's accumulator starts at 0 and takes
 * fma(w, x', acc) for each tap (kd, kh, kw, the last fastest), x' the input
 * element under the tap or 0 where it falls in the padding (fma(w, 0, acc)
 * is computed, not skipped: an infinite or NaN weight there gives NaN, as
 * the im2col product does); then the bias is added, one more rounding, and
 * a fused Relu or Clip (ops/math/act.h) is applied to each output row (a
 * plane on the plane path) just stored, while it is in L1.
 *
 * The walk: for each output row, the input rows under its taps (kd, kh) are
 * copied into the task's scratch with their padding as zeros, split by
 * phase when the stride s is more than 1 (phase p holds the padded row's
 * elements p, p + s, p + 2s, ...), so that for every tap the row's outputs
 * read consecutive elements. The AVX2+FMA and AVX-512F levels then keep
 * 8 x NB outputs' accumulators in registers while the taps pass
 * (_mm256_fmadd_ps: fmaf on 8 lanes, one rounding each; the row's last
 * outputs with masked loads and stores); the portable level (fmaf: one instruction on aarch64 and the
 * Cortex-M4, a libm call on an x86-64 without FMA) runs one output at a time.
 * conv_run.c chooses the level at prepare.
 *
 * Short rows (fewer than 16 outputs: a keyword spotter's 25 x 5 planes) make
 * that walk all overhead, a few outputs per row for a row's copies. A 2-D
 * plane of stride 1 with such rows takes the plane path instead: the whole
 * padded plane (height out + (kh - 1) dil, width Wp = out + (kw - 1) dil)
 * into scratch, then the outputs over a grid of width Wp as one flat row,
 * every tap (kh, kw) a fixed offset kh dil Wp + kw dil in it (the grid's
 * Wp - out extra columns per row computed and dropped), then the row's
 * outputs copied out. Each output takes the same fmas in the same order.
 * At AVX-512F, rows of at most 8 that keep their width take one flat row
 * of 16-lane vectors, each tap's lanes past a row's end zeroed (flatx).
 * At AVX2+FMA, rows of at most 8 (flat8) or 16 (flat16: MobileNet v2's
 * 14 x 14) skip the grid: one or two vectors per output row, stored
 * straight into the output; so do rows of 25 to 32 (flat32: MobileNet v2's
 * 28 x 28, four vectors a row, three rows at a time), whose rows direct33
 * read in place with the row's ends one output at a time (1.5x the time). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/nn/conv.h"

/* Floats of one padded tap row: s phases of mx_dwconv_phase elements. */
int64_t mx_dwconv_phase(const mx_conv_geom *g) {
  return g->out[2] + (g->k[2] - 1) * g->dil[2] / g->stride[2];
}

/* The phases' pitch in a tap row's scratch: the phase's elements rounded up to whole vectors of 8, so
 * that fill_row2 stores whole vectors (a masked store is microcoded on AMD's cores: it had cost more
 * than the row's loads and shuffles). */
static int64_t pitch_of(const mx_conv_geom *g) { return (mx_dwconv_phase(g) + 7) / 8 * 8; }

/* The padded row of input row src (NULL: all padding) into dst, by phase:
 * dst[p * pitch + t] = padded[t * s + p] for t < len, padded[q] = src[q - pad]
 * inside the row, else 0. */
static void fill_row(const mx_conv_geom *g, float *dst, int64_t len, int64_t pitch, const float *src) {
  int64_t s = g->stride[2], pad = g->pad[2], in = g->in[2];
  if (s == 1 && src) {
    int64_t a = pad < len ? pad : len, b = pad + in < len ? pad + in : len; /* [a, b): the row's elements */
    if (b < a) b = a;
    memset(dst, 0, (size_t)a * sizeof(float));
    if (b > a) memcpy(dst + a, src, (size_t)(b - a) * sizeof(float)); /* (then a is pad) */
    memset(dst + b, 0, (size_t)(len - b) * sizeof(float));
    return;
  }
  for (int64_t p = 0; p < s; p++, dst += pitch) {
    /* [a, b): the t whose element t * s + p - pad lies in the row */
    int64_t a = pad - p <= 0 ? 0 : (pad - p + s - 1) / s, b = in + pad - p <= 0 ? 0 : (in + pad - p + s - 1) / s;
    if (!src) a = b = 0;
    if (a > len) a = len;
    if (b > len) b = len;
    if (b < a) b = a;
    for (int64_t t = 0; t < a; t++) dst[t] = 0.0f;
    for (int64_t t = a; t < b; t++) dst[t] = src[t * s + p - pad];
    for (int64_t t = b; t < len; t++) dst[t] = 0.0f;
  }
}

#if MX_X86_AVX2
#include <immintrin.h>

#include "ops/math/act_x86.h"

/* fill_row at stride 2 (MobileNet v2's downsampling 3 x 3 layers): 8 elements of each phase at a time from
 * two loads of 16 consecutive elements of the padded row, split into their even and odd elements (phases
 * 0 and 1) by shuffles; the loads masked where those 16 reach the padding (masked lanes read as +0.0f,
 * the padding's value, and touch no memory), the stores whole (pitch_of). The same values in the same
 * places: the scalar gather had taken 3-4x ORT's time on those layers. */
MX_FMA_TARGET static void fill_row2(const mx_conv_geom *g, float *dst, int64_t len, int64_t pitch, const float *src) {
  if (!src || len > INT32_MAX / 4 || g->in[2] > INT32_MAX / 4) {
    fill_row(g, dst, len, pitch, src);
    return;
  }
  int64_t pad = g->pad[2], in = g->in[2];
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), none = _mm256_set1_epi32(-1);
  const __m256i end = _mm256_set1_epi32((int)in);
  for (int64_t t = 0; t < len; t += 8) {
    int64_t q = 2 * t - pad; /* the row's element under phase 0's element t */
    __m256 a, b;
    if (q >= 0 && q + 16 <= in) {
      a = _mm256_loadu_ps(src + q);
      b = _mm256_loadu_ps(src + q + 8);
    } else {
      __m256i ia = _mm256_add_epi32(_mm256_set1_epi32((int)q), lanes), ib = _mm256_add_epi32(ia, _mm256_set1_epi32(8));
      __m256i ma = _mm256_and_si256(_mm256_cmpgt_epi32(ia, none), _mm256_cmpgt_epi32(end, ia));
      __m256i mb = _mm256_and_si256(_mm256_cmpgt_epi32(ib, none), _mm256_cmpgt_epi32(end, ib));
      /* (the addresses of masked lanes may lie outside the row: a masked load reads none of them) */
      a = _mm256_maskload_ps((const float *)((uintptr_t)src + (uintptr_t)(q * (int64_t)sizeof(float))), ma);
      b = _mm256_maskload_ps((const float *)((uintptr_t)src + (uintptr_t)((q + 8) * (int64_t)sizeof(float))), mb);
    }
    /* shuffle_ps picks within 128-bit lanes: [a0 a2 b0 b2 | a4 a6 b4 b6], then the 64-bit quarters in order */
    __m256 even = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0x88)), 0xd8));
    __m256 odd = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(a, b, 0xdd)), 0xd8));
    _mm256_storeu_ps(dst + t, even); /* (t + 8 <= pitch: the lanes past len are scratch nothing reads) */
    _mm256_storeu_ps(dst + pitch + t, odd);
  }
}
#endif

/* Outputs [o0, o1) of one row, one at a time: rows[r] the padded rows of
 * the taps (kd, kh) in order, at[kw] where tap kw of output 0 reads. */
static MX_ALWAYS_INLINE void outputs(float *y, const float *const *rows, int64_t nrows, const float *w, int64_t kwn,
                                     const int64_t *at, int64_t o0, int64_t o1, const float *b) {
  for (int64_t o = o0; o < o1; o++) {
    float acc = 0.0f;
    const float *wr = w;
    for (int64_t r = 0; r < nrows; r++, wr += kwn)
      for (int64_t kw = 0; kw < kwn; kw++) acc = fmaf(wr[kw], rows[r][at[kw] + o], acc);
    y[o] = b ? acc + *b : acc;
  }
}

#if MX_X86_AVX2
/* Outputs [o0, o0 + 8 nb) of one row, their accumulators in registers. */
MX_FMA_TARGET static inline void block(float *y, const float *const *rows, int64_t nrows, const float *w, int64_t kwn,
                                       const int64_t *at, int64_t o0, const float *b, const int nb) {
  __m256 acc[4];
  for (int v = 0; v < nb; v++) acc[v] = _mm256_setzero_ps();
  for (int64_t r = 0; r < nrows; r++, w += kwn)
    for (int64_t kw = 0; kw < kwn; kw++) {
      const float *x = rows[r] + at[kw] + o0;
      __m256 wv = _mm256_set1_ps(w[kw]);
      for (int v = 0; v < nb; v++) acc[v] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(x + 8 * v), acc[v]);
    }
  for (int v = 0; v < nb; v++)
    _mm256_storeu_ps(y + o0 + 8 * v, b ? _mm256_add_ps(acc[v], _mm256_set1_ps(*b)) : acc[v]);
}

/* block() for a 3 x 3 window (nrows 3, kwn 3), its weights in registers:
 * outputs [o0, o0 + 8 nb), nb up to 6. */
MX_FMA_TARGET static MX_ALWAYS_INLINE void block33(float *y, const float *const *rows, const __m256 *wv,
                                                   const int64_t *at, int64_t o0, const float *b, const int nb) {
  __m256 acc[6];
  for (int v = 0; v < nb; v++) acc[v] = _mm256_setzero_ps();
  for (int r = 0; r < 3; r++)
    for (int kw = 0; kw < 3; kw++) {
      const float *x = rows[r] + at[kw] + o0;
      for (int v = 0; v < nb; v++) acc[v] = _mm256_fmadd_ps(wv[r * 3 + kw], _mm256_loadu_ps(x + 8 * v), acc[v]);
    }
  for (int v = 0; v < nb; v++)
    _mm256_storeu_ps(y + o0 + 8 * v, b ? _mm256_add_ps(acc[v], _mm256_set1_ps(*b)) : acc[v]);
}

/* Outputs [o, end) of a row under a 3 x 3 window as far as whole vectors go:
 * blocks of 48, then one of the whole vectors left; returns where they end. */
MX_FMA_TARGET static MX_ALWAYS_INLINE int64_t blocks33(float *y, const float *const *rows, const __m256 *wv,
                                                       const int64_t *at, int64_t o, int64_t end, const float *b) {
  for (; o + 48 <= end; o += 48) block33(y, rows, wv, at, o, b, 6);
  switch ((end - o) / 8) {
    case 5: block33(y, rows, wv, at, o, b, 5); break;
    case 4: block33(y, rows, wv, at, o, b, 4); break;
    case 3: block33(y, rows, wv, at, o, b, 3); break;
    case 2: block33(y, rows, wv, at, o, b, 2); break;
    case 1: block33(y, rows, wv, at, o, b, 1); break;
    default: break;
  }
  return o + (end - o) / 8 * 8;
}

/* Outputs [0, ow) of a row under a 3 x 3 window: blocks33, then the masked tail (its store whole when `room`,
 * the floats from y to the end of the channel's plane, holds 8 more). */
static void tail(float *y, const float *const *rows, int64_t nrows, const float *w, int64_t kwn, const int64_t *at,
                 int64_t o0, int64_t n, const float *b, int whole);
MX_FMA_TARGET static inline void row33(float *y, const float *const *rows, const float *w, const int64_t *at, int64_t ow,
                                       const float *b, int64_t room) {
  __m256 wv[9];
  for (int i = 0; i < 9; i++) wv[i] = _mm256_set1_ps(w[i]);
  int64_t o = blocks33(y, rows, wv, at, 0, ow, b);
  if (o < ow) tail(y, rows, 3, w, 3, at, o, ow - o, b, o + 8 <= room);
}

/* Channels [c0, c1) of a 2-D 3 x 3 window at stride 1 (any padding and
 * dilation along the row, none down): the outputs whose taps along the row
 * lie inside the input read the input rows in place (no copies: a row just
 * copied and read at once stalls the loads on the copy's stores), 8 to 48
 * at a time (a last block of 8 overlapping the one before, computed twice);
 * rows above or below the input read zeros (buf, out + 2 dil floats); the
 * row's ends one output at a time, fma(w, 0, acc) for the padding's taps. */
MX_FMA_TARGET static void direct33(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                   int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  int64_t iw = g->in[2], ow = g->out[2], pw = g->pad[2], dw = g->dil[2], len = mx_dwconv_phase(g);
  int64_t at[3] = {0, dw, 2 * dw}, oa = pw < ow ? pw : ow, ob = iw + pw - 2 * dw;
  if (ob > ow) ob = ow;
  if (ob < oa) ob = oa;
  memset(buf, 0, (size_t)len * sizeof(float));
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * g->in[1] * iw, *wc = w + c * 9, *bc = b ? b + c : NULL;
    __m256 wv[9];
    for (int i = 0; i < 9; i++) wv[i] = _mm256_set1_ps(wc[i]);
    for (int64_t oh = 0; oh < g->out[1]; oh++) {
      const float *rows[3];
      int inside[3];
      for (int r = 0; r < 3; r++) {
        int64_t ih = oh + r - g->pad[1];
        inside[r] = ih >= 0 && ih < g->in[1];
        rows[r] = inside[r] ? xc + ih * iw - pw : buf; /* (element o + at[kw] of either: tap kw of output o) */
      }
      float *yr = y + c * g->out[1] * ow + oh * ow;
      for (int64_t l = 0; l < iw * 4; l += 64) /* (a hint, which may point past the plane) */
        mx_prefetch(xc + (oh + 4 - g->pad[1]) * iw, l);
      for (int64_t o = 0; o < ow; o = o + 1 == oa && ob - oa >= 8 ? ob : o + 1) {
        float acc = 0.0f;
        for (int r = 0; r < 3; r++)
          for (int kw = 0; kw < 3; kw++) {
            int64_t i = o + at[kw] - pw;
            acc = fmaf(wc[r * 3 + kw], inside[r] && i >= 0 && i < iw ? rows[r][o + at[kw]] : 0.0f, acc);
          }
        yr[o] = bc ? acc + *bc : acc;
      }
      if (ob - oa >= 8) {
        int64_t o = blocks33(yr, rows, wv, at, oa, ob, bc);
        if (o < ob) block33(yr, rows, wv, at, ob - 8, bc, 1);
      }
      /* the fused activation on the row before (a row just stored and loaded again had waited for its
       * stores: MobileNet v2's 144-channel layer at 56 x 56 took 293 us with its Clip, 225 without; in
       * registers before the stores the 9 weights, 6 accumulators and the bounds spilled) */
      if (oh > 0) mx_act_run8(act, yr - ow, ow);
    }
    if (g->out[1] > 0) mx_act_run8(act, y + c * g->out[1] * ow + (g->out[1] - 1) * ow, ow);
  }
}

/* AVX-512F, a 3 x 3 window at stride 1 whose rows keep their width (one column of padding at each end) and
 * are at least 9 wide (MobileNet v2's 112 x 112, 56 x 56, 28 x 28 and 14 x 14 layers): each output row is
 * whole vectors of 16 outputs (the last overlapping the one before where the width is not a multiple of 16,
 * its outputs computed twice, the same values; a row narrower than 16 one vector, two channels at a time),
 * a tap's 16 inputs one load, masked where it reaches the row's padding (lanes past an end read +0, the
 * padding's value). A strip of up to 4 vectors walks down the plane
 * one input row at a time, and each row's loads serve the three output rows that take it: tap (2, kw) of
 * the row above's outputs, (1, kw) of the row's own and (0, kw) of the row below's, so that every output
 * still takes its taps in (kh, kw) order, from 0; rows above and below the input are zeros, fma(w, 0, acc)
 * computed. A finished row takes the bias and the fused activation in registers and is stored. Three loads
 * a vector and row where direct33 (AVX2+FMA) makes nine, of half the width. */
#define DWX_NV 4    /* vectors of a strip */
#define DWX_MIN_W 9 /* the narrowest row: one vector of 16 holds it, at least half of it used */
/* The lanes l of a load from element q whose element q + l lies in [0, w). */
static inline __mmask16 dwx_lanes(int64_t q, int64_t w) {
  int64_t lo = q < 0 ? -q : 0, hi = w - q < 16 ? w - q : 16;
  if (lo >= hi) return 0;
  return (__mmask16)(((1u << hi) - 1) & ~((1u << lo) - 1));
}
/* Vector v reads at xo[v] from a row, with the weights wv + ws v (ws 0: one channel's strip of a row; 9:
 * a vector a channel, the channels' planes xo apart). */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void dwx_step(const float *row, const int64_t *xo, const __mmask16 *vm,
                                                       const __m512 *wv, __m512 *fin, __m512 *mid, __m512 *nu,
                                                       const int ws, const int nv) {
  for (int v = 0; v < nv; v++) nu[v] = _mm512_setzero_ps();
  for (int kw = 0; kw < 3; kw++)
    for (int v = 0; v < nv; v++) {
      __m512 xv = row ? _mm512_maskz_loadu_ps(vm[v * 3 + kw], row + xo[v] + kw - 1) : _mm512_setzero_ps();
      nu[v] = _mm512_fmadd_ps(wv[ws * v + kw], xv, nu[v]);
      mid[v] = _mm512_fmadd_ps(wv[ws * v + 3 + kw], xv, mid[v]);
      fin[v] = _mm512_fmadd_ps(wv[ws * v + 6 + kw], xv, fin[v]);
    }
}

/* A finished row: the bias, the activation, the stores (whole, or under `last` for a row narrower than a
 * vector: whole where the lanes past the row land on the next row's outputs, stored after; masked for the
 * plane's last row) */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void dwx_store(float *yr, const int64_t *vo, __m512 *acc, const float *b,
                                                        const mx_act16 *act, __mmask16 last, const int ws,
                                                        const int nv) {
  for (int v = 0; v < nv; v++) {
    __m512 r = b ? _mm512_add_ps(acc[v], _mm512_set1_ps(b[ws ? v : 0])) : acc[v];
    r = act ? mx_act16_run(act, r) : r;
    if (last == 0xffff) _mm512_storeu_ps(yr + vo[v], r);
    else _mm512_mask_storeu_ps(yr + vo[v], last, r);
  }
}

/* One strip of channel plane xc into yc: vector v of each row at xo[v] of the input's row, yo[v] of the
 * output's (dwx_step's ws). Input row ih (from -pad on) is the fin row's third, mid's second and nu's first:
 * output row ih + pad - 2 is finished by it. */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void dwx_strip(const mx_conv_geom *g, const float *xc, const __m512 *wv,
                                                        const float *b, float *yc, const int64_t *xo,
                                                        const int64_t *yo, const __mmask16 *vm, const mx_act16 *act,
                                                        const int ws, const int nv) {
  int64_t ih0 = -g->pad[1], ih1 = g->out[1] - g->pad[1] + 2, iw = g->in[2], ow = g->out[2];
  __m512 a0[DWX_NV], a1[DWX_NV], a2[DWX_NV];
  for (int v = 0; v < nv; v++) a0[v] = a1[v] = a2[v] = _mm512_setzero_ps();
#define DWX_ROW(F, M, N)                                                                                           \
  {                                                                                                                \
    const float *row = ih >= 0 && ih < g->in[1] ? xc + ih * iw : NULL;                                            \
    mx_prefetch(xc, (ih + 3) * iw * (int64_t)sizeof(float)); /* (a hint, which may point past the plane) */        \
    dwx_step(row, xo, vm, wv, F, M, N, ws, nv);                                                                    \
    int64_t oh = ih + g->pad[1] - 2;                                                                               \
    if (oh >= 0)                                                                                                   \
      dwx_store(yc + oh * ow, yo, F, b, act, ow < 16 && oh == g->out[1] - 1 ? (__mmask16)((1u << ow) - 1) : 0xffff, \
                ws, nv);                                                                                           \
    if (++ih >= ih1) break;                                                                                        \
  }
  for (int64_t ih = ih0;;) {
    DWX_ROW(a0, a1, a2)
    DWX_ROW(a1, a2, a0)
    DWX_ROW(a2, a0, a1)
  }
#undef DWX_ROW
}

MX_AVX512_TARGET static void direct33x(const mx_conv_geom *g, const float *x, const float *w, const float *b,
                                       float *y, int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  (void)buf;
  int64_t W = g->out[2], nvec = (W + 15) / 16, in_plane = mx_conv_in_plane(g), plane = mx_conv_plane(g);
  mx_act16 a16 = mx_act16_of(act ? act : &(const mx_act){MX_ACT_NONE, 0, 0, 0.0f, 0.0f});
  const mx_act16 *av = act && act->kind != MX_ACT_NONE ? &a16 : NULL;
  __mmask16 vm[DWX_NV * 3];
  int64_t c = c0;
  if (nvec == 1) { /* rows of one vector (9 to 16 wide: MobileNet v2's 14 x 14): two channels at a time, a vector
                    * each, so that six chains of accumulators run where a channel has three */
    for (int kw = 0; kw < 3; kw++) vm[kw] = vm[3 + kw] = dwx_lanes(kw - 1, W);
    for (; c + 2 <= c1; c += 2) {
      const float *wc = w + c * 9, *bc = b ? b + c : NULL;
      __m512 wv[18];
      for (int i = 0; i < 18; i++) wv[i] = _mm512_set1_ps(wc[i]);
      const int64_t xo[2] = {0, in_plane}, yo[2] = {0, plane};
      dwx_strip(g, x + c * in_plane, wv, bc, y + c * plane, xo, yo, vm, av, 9, 2);
    }
  }
  for (; c < c1; c++) {
    const float *xc = x + c * in_plane, *wc = w + c * 9, *bc = b ? b + c : NULL;
    float *yc = y + c * plane;
    __m512 wv[9];
    for (int i = 0; i < 9; i++) wv[i] = _mm512_set1_ps(wc[i]);
    for (int64_t s = 0; s < nvec; s += DWX_NV) {
      int nv = nvec - s < DWX_NV ? (int)(nvec - s) : DWX_NV;
      int64_t vo[DWX_NV];
      for (int v = 0; v < nv; v++) {
        vo[v] = (s + v) * 16 < W - 16 || W < 16 ? (s + v) * 16 : W - 16; /* (the last vector ends at the row's end) */
        for (int kw = 0; kw < 3; kw++) vm[v * 3 + kw] = dwx_lanes(vo[v] + kw - 1, W);
      }
      if (nv == 4) dwx_strip(g, xc, wv, bc, yc, vo, vo, vm, av, 0, 4);
      else if (nv == 3) dwx_strip(g, xc, wv, bc, yc, vo, vo, vm, av, 0, 3);
      else if (nv == 2) dwx_strip(g, xc, wv, bc, yc, vo, vo, vm, av, 0, 2);
      else dwx_strip(g, xc, wv, bc, yc, vo, vo, vm, av, 0, 1);
    }
  }
}

/* AVX-512F, a 3 x 3 window at stride 2 with one row and one column of padding at the start, output rows of at
 * least 16 (MobileNet v2's 112 -> 56 and 56 -> 28 layers): vectors of 16 outputs as direct33x's. Output o's
 * taps along an input row are its elements 2o - 1, 2o and 2o + 1: the 32 elements from 2 o0 (two loads,
 * masked past the row's end) give the evens (tap 1) and odds (tap 2) by one two-source permute each, and the
 * odds moved up a lane with element 2 o0 - 1 below them (one masked load of that element, +0 at the row's
 * start) tap 0. Output row oh takes input rows 2 oh - 1, 2 oh and 2 oh + 1, so walking down the plane two
 * input rows an output row, row 2 oh + 1's taps serve row oh (kh 2) and row oh + 1 (kh 0): every output
 * still takes its taps in (kh, kw) order from 0 (rows outside the input zeros, fma(w, 0, acc) computed). */
/* m[0], m[1]: the lanes of the loads from element 2 vo and 2 vo + 16 inside the row, m[2]: lane 15 of the
 * load from 2 vo - 16 (element 2 vo - 1) where that element is in the row (made once per strip) */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void dwx2_taps(const float *row, int64_t vo, const __mmask16 *m, __m512i ie,
                                                        __m512i io, __m512 *t) {
  if (!row) {
    t[0] = t[1] = t[2] = _mm512_setzero_ps();
    return;
  }
  int64_t q = 2 * vo;
  __m512 a = _mm512_maskz_loadu_ps(m[0], row + q), b = _mm512_maskz_loadu_ps(m[1], row + q + 16);
  __m512 p = _mm512_maskz_loadu_ps(m[2], row + q - 16);
  t[1] = _mm512_permutex2var_ps(a, ie, b);
  t[2] = _mm512_permutex2var_ps(a, io, b);
  t[0] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(t[2]), _mm512_castps_si512(p), 15));
}

MX_AVX512_TARGET static MX_ALWAYS_INLINE void dwx2_strip(const mx_conv_geom *g, const float *xc, const __m512 *wv,
                                                         const float *b, float *yc, const int64_t *vo,
                                                         const __mmask16 *vm, const mx_act16 *act, const int nv) {
  int64_t iw = g->in[2], ih_n = g->in[1], ow = g->out[2], oh_n = g->out[1];
  const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  __m512 a0[DWX_NV], a1[DWX_NV], t[3];
  for (int v = 0; v < nv; v++) { /* input row -1, the padding: tap (0, kw) of output row 0 */
    a0[v] = _mm512_setzero_ps();
    for (int kw = 0; kw < 3; kw++) a0[v] = _mm512_fmadd_ps(wv[kw], _mm512_setzero_ps(), a0[v]);
  }
#define DWX2_ROW(CUR, NXT)                                                                                         \
  {                                                                                                                \
    int64_t i1 = 2 * oh, i2 = 2 * oh + 1;                                                                          \
    const float *r1 = i1 < ih_n ? xc + i1 * iw : NULL, *r2 = i2 < ih_n ? xc + i2 * iw : NULL;                      \
    mx_prefetch(xc, (i1 + 6) * iw * (int64_t)sizeof(float)); /* (hints, which may point past the plane) */         \
    mx_prefetch(xc, (i2 + 6) * iw * (int64_t)sizeof(float));                                                       \
    for (int v = 0; v < nv; v++) {                                                                                 \
      dwx2_taps(r1, vo[v], vm + 3 * v, ie, io, t);                                                                         \
      for (int kw = 0; kw < 3; kw++) CUR[v] = _mm512_fmadd_ps(wv[3 + kw], t[kw], CUR[v]);                         \
    }                                                                                                              \
    for (int v = 0; v < nv; v++) {                                                                                 \
      dwx2_taps(r2, vo[v], vm + 3 * v, ie, io, t);                                                                         \
      NXT[v] = _mm512_setzero_ps();                                                                                \
      for (int kw = 0; kw < 3; kw++) {                                                                             \
        CUR[v] = _mm512_fmadd_ps(wv[6 + kw], t[kw], CUR[v]);                                                       \
        NXT[v] = _mm512_fmadd_ps(wv[kw], t[kw], NXT[v]);                                                           \
      }                                                                                                            \
    }                                                                                                              \
    dwx_store(yc + oh * ow, vo, CUR, b, act, 0xffff, 0, nv);                                                       \
    if (++oh >= oh_n) break;                                                                                       \
  }
  for (int64_t oh = 0; oh < oh_n;) {
    DWX2_ROW(a0, a1)
    DWX2_ROW(a1, a0)
  }
#undef DWX2_ROW
}

MX_AVX512_TARGET static void direct33x2(const mx_conv_geom *g, const float *x, const float *w, const float *b,
                                        float *y, int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  (void)buf;
  int64_t W = g->out[2], nvec = (W + 15) / 16;
  mx_act16 a16 = mx_act16_of(act ? act : &(const mx_act){MX_ACT_NONE, 0, 0, 0.0f, 0.0f});
  const mx_act16 *av = act && act->kind != MX_ACT_NONE ? &a16 : NULL;
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * mx_conv_in_plane(g), *wc = w + c * 9, *bc = b ? b + c : NULL;
    float *yc = y + c * mx_conv_plane(g);
    __m512 wv[9];
    for (int i = 0; i < 9; i++) wv[i] = _mm512_set1_ps(wc[i]);
    for (int64_t s = 0; s < nvec; s += DWX_NV) {
      int nv = nvec - s < DWX_NV ? (int)(nvec - s) : DWX_NV;
      int64_t vo[DWX_NV], iw = g->in[2];
      __mmask16 vm[DWX_NV * 3];
      for (int v = 0; v < nv; v++) {
        vo[v] = (s + v) * 16 < W - 16 ? (s + v) * 16 : W - 16;
        vm[3 * v] = dwx_lanes(2 * vo[v], iw), vm[3 * v + 1] = dwx_lanes(2 * vo[v] + 16, iw);
        vm[3 * v + 2] = (__mmask16)(dwx_lanes(2 * vo[v] - 16, iw) & 0x8000u);
      }
      if (nv == 4) dwx2_strip(g, xc, wv, bc, yc, vo, vm, av, 4);
      else if (nv == 3) dwx2_strip(g, xc, wv, bc, yc, vo, vm, av, 3);
      else if (nv == 2) dwx2_strip(g, xc, wv, bc, yc, vo, vm, av, 2);
      else dwx2_strip(g, xc, wv, bc, yc, vo, vm, av, 1);
    }
  }
}

/* AVX-512F, 2-D at stride 1 with rows that keep their width W <= 8 (ow == iw: DS-CNN's 25 x 5, MobileNet
 * v2's 7 x 7), any kernel: the plane's outputs taken as one flat row of oh W, 16 to a vector whatever rows
 * they span. Output o = r W + c's tap (kh, kw) is input element o + (kh dil - pad) W + (kw dil - pad'), a
 * fixed offset per tap, where its column c + kw dil - pad' lies in [0, W); where it does not, the lane is
 * zeroed in the register (the load itself whole), so fma(w, 0, acc) is computed as the padding asks. Rows
 * above and below the input are zeros in the task's scratch: the channel's plane is copied between them
 * (flatx_front(g) zeros before it, the floats past it zeros up to the last vector's reach). Every output
 * takes its taps in (kh, kw) order from 0, then the bias and the activation. Every lane does work: flat8's
 * 5-wide rows used 5 of 8 lanes, and nine loads an output row. Two channels at a time, for 3-wide kernels
 * their masks in registers: DS-CNN's [1,64,25,5] 3 x 3 layer 4.7 -> 3.2 us, MobileNet v2's [1,960,7,7]
 * 33.9 -> 26.8 us (1 thread). (Rows of 9 to 15 keep flat16: [1,240,14,14] 5 x 5 took 1.16x its time.) */
#define FLATX_NV 4        /* vectors of accumulators at a time, per channel */
#define FLATX_MAX_N 1024  /* outputs of a plane at most (its masks: 64 vectors x kw x 64 bytes of scratch) */
#define FLATX_MAX_KW 8
static int64_t flatx_front(const mx_conv_geom *g) { return g->pad[1] * g->in[2] + g->pad[2]; }
static int flatx_ok(const mx_conv_geom *g) {
  int64_t W = g->in[2], n = g->out[1] * g->out[2];
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->stride[1] == 1 && g->stride[2] == 1 &&
         g->out[2] == W && W <= 8 && g->pad[1] >= 0 && g->pad[2] >= 0 && g->pad[1] <= 64 && g->pad[2] <= 64 &&
         n > 0 && n <= FLATX_MAX_N && g->in[1] <= FLATX_MAX_N && g->k[2] <= FLATX_MAX_KW &&
         g->k[1] * g->k[2] <= MX_DWCONV_MAX_TAPS && g->dil[1] <= 64 && g->dil[2] <= 64;
}
/* its scratch: the zeros before the plane, then the plane or the last vector's reach, whichever is further,
 * and 16 floats more (the copy's last vector is stored whole), rounded up to a whole vector; for two channels;
 * then each vector's lanes for each kw */
static int64_t flatx_planes(const mx_conv_geom *g) {
  int64_t W = g->in[2], nvec = (g->out[1] * W + 15) / 16;
  int64_t reach = 16 * nvec + ((g->k[1] - 1) * g->dil[1] - g->pad[1]) * W + (g->k[2] - 1) * g->dil[2] - g->pad[2];
  int64_t plane = g->in[1] * W;
  return 2 * ((flatx_front(g) + (reach > plane ? reach : plane) + 31) / 16 * 16);
}
static int64_t flatx_floats(const mx_conv_geom *g) {
  return flatx_planes(g) + (g->out[1] * g->in[2] + 15) / 16 * g->k[2] * 16;
}

/* Vectors [v0, v0 + nv) of nch channels' planes copied at P[i] (their element 0), taps at off[t], the
 * lanes of tap t kept by the bits of mv[mo[t] + v] (all ones or zeros: an and keeps x's bits or gives +0).
 * kw3: a kernel 3 wide, whose 3 nv masks stay in registers, shared by the channels (two channels: eight
 * chains of fmas, one load and one and each). */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void flatx_block(float *const *yc, const float *const *P, int64_t n,
                                                          const float *const *wc, const float *const *bc,
                                                          int64_t taps, const int64_t *off, const int64_t *mo,
                                                          const __m512i *mv, int64_t v0, const mx_act16 *act,
                                                          const int nv, const int nch, const int kw3) {
  __m512 acc[2][FLATX_NV];
  for (int i = 0; i < nch; i++)
    for (int v = 0; v < nv; v++) acc[i][v] = _mm512_setzero_ps();
  if (kw3) {
    __m512i m[3][FLATX_NV];
    for (int kw = 0; kw < 3; kw++)
      for (int v = 0; v < nv; v++) m[kw][v] = _mm512_loadu_si512(mv + mo[kw] + v0 + v);
    for (int64_t t = 0; t < taps; t += 3)
      for (int kw = 0; kw < 3; kw++)
        for (int i = 0; i < nch; i++) {
          __m512 wv = _mm512_set1_ps(wc[i][t + kw]);
          const float *xp = P[i] + 16 * v0 + off[t + kw];
          for (int v = 0; v < nv; v++) {
            __m512i xv = _mm512_and_si512(_mm512_castps_si512(_mm512_loadu_ps(xp + 16 * v)), m[kw][v]);
            acc[i][v] = _mm512_fmadd_ps(wv, _mm512_castsi512_ps(xv), acc[i][v]);
          }
        }
  } else {
    for (int64_t t = 0; t < taps; t++)
      for (int i = 0; i < nch; i++) {
        __m512 wv = _mm512_set1_ps(wc[i][t]);
        const float *xp = P[i] + 16 * v0 + off[t];
        const __m512i *mt = mv + mo[t] + v0;
        for (int v = 0; v < nv; v++) {
          __m512i xv = _mm512_and_si512(_mm512_castps_si512(_mm512_loadu_ps(xp + 16 * v)), _mm512_loadu_si512(mt + v));
          acc[i][v] = _mm512_fmadd_ps(wv, _mm512_castsi512_ps(xv), acc[i][v]);
        }
      }
  }
  for (int i = 0; i < nch; i++)
    for (int v = 0; v < nv; v++) {
      __m512 r = bc[i] ? _mm512_add_ps(acc[i][v], _mm512_set1_ps(*bc[i])) : acc[i][v];
      r = act ? mx_act16_run(act, r) : r;
      int64_t o = 16 * (v0 + v);
      if (o + 16 <= n) _mm512_storeu_ps(yc[i] + o, r);
      else _mm512_mask_storeu_ps(yc[i] + o, (__mmask16)((1u << (n - o)) - 1), r);
    }
}

/* The vectors of nch channels: blocks of FLATX_NV, then the rest */
MX_AVX512_TARGET static MX_ALWAYS_INLINE void flatx_planes_of(float *const *yc, const float *const *P, int64_t n,
                                                              const float *const *wc, const float *const *bc,
                                                              int64_t taps, const int64_t *off, const int64_t *mo,
                                                              const __m512i *mv, int64_t nvec, const mx_act16 *act,
                                                              const int nch, const int kw3) {
  int64_t v0 = 0;
  for (; v0 + FLATX_NV <= nvec; v0 += FLATX_NV)
    flatx_block(yc, P, n, wc, bc, taps, off, mo, mv, v0, act, FLATX_NV, nch, kw3);
  switch (nvec - v0) {
    case 3: flatx_block(yc, P, n, wc, bc, taps, off, mo, mv, v0, act, 3, nch, kw3); break;
    case 2: flatx_block(yc, P, n, wc, bc, taps, off, mo, mv, v0, act, 2, nch, kw3); break;
    case 1: flatx_block(yc, P, n, wc, bc, taps, off, mo, mv, v0, act, 1, nch, kw3); break;
    default: break;
  }
}

MX_AVX512_TARGET static void flatx(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                   int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  int64_t W = g->in[2], n = g->out[1] * W, nvec = (n + 15) / 16, in_n = g->in[1] * W, kwn = g->k[2];
  int64_t taps = g->k[1] * kwn, front = flatx_front(g), area = flatx_planes(g) / 2;
  int64_t off[MX_DWCONV_MAX_TAPS];
  int64_t mo[MX_DWCONV_MAX_TAPS];
  for (int64_t kh = 0; kh < g->k[1]; kh++)
    for (int64_t kw = 0; kw < kwn; kw++) {
      off[kh * kwn + kw] = (kh * g->dil[1] - g->pad[1]) * W + kw * g->dil[2] - g->pad[2];
      mo[kh * kwn + kw] = kw * nvec;
    }
  __m512i *mv = (__m512i *)(void *)(buf + 2 * area); /* (read and written unaligned) */
  /* each lane's column (no division per lane: it cost more than the fmas), then per kw the lanes whose
   * column + kw dil - pad lies in [0, W) */
  int lane_col[16];
  for (int l = 0, c = 0; l < 16; l++, c = c + 1 == W ? 0 : c + 1) lane_col[l] = c;
  __m512i col = _mm512_loadu_si512(lane_col), step = _mm512_set1_epi32((int)(16 % W)), wv = _mm512_set1_epi32((int)W);
  for (int64_t v = 0; v < nvec; v++) {
    for (int64_t kw = 0; kw < kwn; kw++) {
      __m512i at = _mm512_add_epi32(col, _mm512_set1_epi32((int)(kw * g->dil[2] - g->pad[2])));
      _mm512_storeu_si512(mv + kw * nvec + v, _mm512_maskz_set1_epi32(_mm512_cmplt_epu32_mask(at, wv), -1));
    }
    col = _mm512_add_epi32(col, step);
    col = _mm512_mask_sub_epi32(col, _mm512_cmpge_epi32_mask(col, wv), col, wv);
  }
  mx_act16 a16 = mx_act16_of(act ? act : &(const mx_act){MX_ACT_NONE, 0, 0, 0.0f, 0.0f});
  const mx_act16 *av = act && act->kind != MX_ACT_NONE ? &a16 : NULL;
  memset(buf, 0, (size_t)(2 * area) * sizeof(float)); /* the rows above and below: zeros for every channel */
  float *Pw[2] = {buf + front, buf + area + front};
  const float *P[2] = {Pw[0], Pw[1]};
  for (int64_t c = c0; c < c1; c += 2) {
    int nch = c + 2 <= c1 ? 2 : 1;
    const float *wc[2], *bc[2];
    float *yc[2];
    for (int j = 0; j < nch; j++) {
      const float *xc = x + (c + j) * in_n;
      wc[j] = w + (c + j) * taps, bc[j] = b ? b + c + j : NULL, yc[j] = y + (c + j) * n;
      int64_t i = 0;
      for (; i + 16 <= in_n; i += 16) _mm512_storeu_ps(Pw[j] + i, _mm512_loadu_ps(xc + i));
      if (i < in_n) _mm512_storeu_ps(Pw[j] + i, _mm512_maskz_loadu_ps((__mmask16)((1u << (in_n - i)) - 1), xc + i));
    }
    if (nch == 2 && kwn == 3) flatx_planes_of(yc, P, n, wc, bc, taps, off, mo, mv, nvec, av, 2, 1);
    else if (nch == 2) flatx_planes_of(yc, P, n, wc, bc, taps, off, mo, mv, nvec, av, 2, 0);
    else if (kwn == 3) flatx_planes_of(yc, P, n, wc, bc, taps, off, mo, mv, nvec, av, 1, 1);
    else flatx_planes_of(yc, P, n, wc, bc, taps, off, mo, mv, nvec, av, 1, 0);
  }
}

/* 8 consecutive elements of a row from element q (lanes outside [0, n) read as +0.0f, the padding's value:
 * a masked load touches none of them). */
MX_FMA_TARGET static MX_ALWAYS_INLINE __m256 load8(const float *row, int64_t q, int64_t n) {
  if (q >= 0 && q + 8 <= n) return _mm256_loadu_ps(row + q);
  __m256i i = _mm256_add_epi32(_mm256_set1_epi32((int)q), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i m = _mm256_and_si256(_mm256_cmpgt_epi32(i, _mm256_set1_epi32(-1)), _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), i));
  return _mm256_maskload_ps((const float *)((uintptr_t)row + (uintptr_t)(q * (int64_t)sizeof(float))), m);
}

/* Channels [c0, c1) of a 2-D 3 x 3 window at stride 2 without dilation (MobileNet v2's downsampling layers):
 * the input read in place, no copies (the rows split into phases in scratch stalled the loads on the
 * split's stores, most on small planes: 7 outputs a row took 6x ORT's time). Outputs o0..o0 + 7 of a row
 * read elements q..q + 16 of each input row under them, q = 2 o0 - pad: taps 0, 1 and 2 are the even
 * elements from q, the odd ones from q + 1 and the even ones from q + 2, each split from two loads of 8
 * (masked where they reach the padding, rows above or below the input zeros) by one shuffle, which leaves
 * the outputs in a fixed order of the lanes that one permutation per 8 outputs undoes; their fmas in
 * Conv's order (kh, kw), one chain per 8 outputs. The last outputs of a row are stored whole where 8 floats fit in the
 * channel's plane (the next row is written after), else masked. Rows of at most 16 outputs (the kernel's
 * choice, mx_dwconv_kernel): on MobileNet v2's rows of 28 and 56 the split rows were as fast or faster. */
MX_FMA_TARGET static void direct33s2(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                     int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  (void)buf;
  int64_t iw = g->in[2], ow = g->out[2], oh_n = g->out[1], pw = g->pad[2], plane = mx_conv_plane(g);
  __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * g->in[1] * iw, *wc = w + c * 9, *bc = b ? b + c : NULL;
    float *yc = y + c * plane;
    __m256 wv[9];
    for (int i = 0; i < 9; i++) wv[i] = _mm256_set1_ps(wc[i]);
    for (int64_t oh = 0; oh < oh_n; oh++) {
      const float *rows[3];
      for (int r = 0; r < 3; r++) {
        int64_t ih = 2 * oh + r - g->pad[1];
        rows[r] = ih >= 0 && ih < g->in[1] ? xc + ih * iw : NULL;
      }
      float *yr = yc + oh * ow;
      for (int64_t l = 0; l < iw * 8; l += 64) /* the two rows 3 output rows down (a hint, maybe past the plane) */
        mx_prefetch(xc + (2 * oh + 7 - g->pad[1]) * iw, l);
      for (int64_t o0 = 0; o0 < ow; o0 += 8) {
        int64_t q = 2 * o0 - pw;
        __m256 acc = _mm256_setzero_ps();
        for (int r = 0; r < 3; r++) {
          __m256 t0 = _mm256_setzero_ps(), t1 = t0, t2 = t0;
          if (rows[r]) {
            __m256 a = load8(rows[r], q, iw), bb = load8(rows[r], q + 8, iw);
            __m256 a2 = load8(rows[r], q + 2, iw), b2 = load8(rows[r], q + 10, iw);
            t0 = _mm256_shuffle_ps(a, bb, 0x88); /* (in the lanes' order 0 1 4 5 2 3 6 7: see below) */
            t1 = _mm256_shuffle_ps(a, bb, 0xdd);
            t2 = _mm256_shuffle_ps(a2, b2, 0x88);
          }
          acc = _mm256_fmadd_ps(wv[r * 3], t0, acc);
          acc = _mm256_fmadd_ps(wv[r * 3 + 1], t1, acc);
          acc = _mm256_fmadd_ps(wv[r * 3 + 2], t2, acc);
        }
        /* shuffle_ps picks within 128-bit halves, so lanes 0-7 held outputs o0 + 0 1 4 5 2 3 6 7: the 64-bit
         * quarters back in order once per 8 outputs, not per tap */
        acc = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(acc), 0xd8));
        if (bc) acc = _mm256_add_ps(acc, _mm256_set1_ps(*bc));
        if (o0 + 8 <= ow || oh * ow + o0 + 8 <= plane) _mm256_storeu_ps(yr + o0, acc);
        else _mm256_maskstore_ps(yr + o0, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ow - o0)), lanes), acc);
      }
      mx_act_run8(act, yr, ow);
    }
  }
}

/* The phase-plane path for direct33s2's geometry with at most 32 outputs a row and 64 inputs, pads of 0 or 1
 * at the start (MobileNet v2's 56 -> 28, 28 -> 14 and 14 -> 7 layers): each input row of the
 * channel is split once, by one load pair and two shuffles per 16 elements, into its even and odd padded
 * elements (phase 0 and 1: padded element j = 2 t + p at t of phase p), rows 2 oh + kh of a zeroed plane
 * in the task's scratch; the padding's cells are the same for every channel, so they stay zeros. Output
 * o's taps kw 0, 1, 2 are then phase 0 at o, phase 1 at o, phase 0 at o + 1: whole unmasked loads, no
 * shuffle per tap, no branch (direct33s2's masked loads and their branches at the rows' ends were most of
 * its time on 7-wide rows). The same fmas in the same order per output (kh, kw), then the bias. A single
 * [1,576,14,14] layer 56.8 -> 24.7 us, [1,192,28,28] 52.1 -> 26.6, [1,144,56,56] 134 -> 90 (1 thread, min of
 * 300, alternated). The scratch is the plane's (at most 8192 floats: the 112-wide rows keep the phases' ring). */
static int64_t s2p_pitch(const mx_conv_geom *g) {
  int64_t a = (g->in[2] + 15) / 16, nv = (g->out[2] + 7) / 8;
  return 8 * (a > nv ? a : nv) + 8;
}

static int64_t s2p_floats(const mx_conv_geom *g) { return (2 * g->out[1] + 1) * 2 * s2p_pitch(g); }

MX_FMA_TARGET static void s2plane(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                  int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  int64_t iw = g->in[2], ih_n = g->in[1], ow = g->out[2], oh_n = g->out[1], plane = mx_conv_plane(g);
  int64_t pp = s2p_pitch(g), rp = 2 * pp, hr = 2 * oh_n + 1, pl = g->pad[2], pt = g->pad[1];
  int nv = (int)((ow + 7) / 8), nu = (int)((iw + 15) / 16);
  int64_t rows_in = ih_n < hr - pt ? ih_n : hr - pt; /* (input rows past the last window are never read) */
  __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256i lo[4], hi[4];
  for (int u = 0; u < nu; u++) {
    lo[u] = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(iw - 16 * u)), lanes);
    hi[u] = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(iw - 16 * u - 8)), lanes);
  }
  __m256i out_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ow - 8 * (nv - 1))), lanes);
  memset(buf, 0, (size_t)(hr * rp) * sizeof(float));
  /* even input elements go to phase pl at t = u0 + k, odd ones to phase 1 - pl at t = u0 + k + pl */
  float *ev0 = buf + pt * rp + pl * pp, *od0 = buf + pt * rp + (1 - pl) * pp + pl;
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * ih_n * iw, *wc = w + c * 9;
    float *yc = y + c * plane;
    for (int64_t r = 0; r < rows_in; r++) {
      const float *xr = xc + r * iw;
      for (int u = 0; u < nu; u++) {
        __m256 a = _mm256_maskload_ps(xr + 16 * u, lo[u]), bb = _mm256_maskload_ps(xr + 16 * u + 8, hi[u]);
        __m256 ev = _mm256_shuffle_ps(a, bb, 0x88), od = _mm256_shuffle_ps(a, bb, 0xdd);
        /* (shuffle_ps picks within 128-bit halves: elements 0 1 4 5 2 3 6 7, the quarters back in order) */
        ev = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(ev), 0xd8));
        od = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(od), 0xd8));
        _mm256_storeu_ps(ev0 + r * rp + 8 * u, ev);
        _mm256_storeu_ps(od0 + r * rp + 8 * u, od);
      }
    }
    __m256 wv[9];
    for (int i = 0; i < 9; i++) wv[i] = _mm256_set1_ps(wc[i]);
    __m256 bv = b ? _mm256_set1_ps(b[c]) : _mm256_setzero_ps();
    for (int64_t oh = 0; oh < oh_n; oh++) {
      const float *p0 = buf + 2 * oh * rp;
      float *yr = yc + oh * ow;
      for (int v = 0; v < nv; v++) {
        __m256 acc = _mm256_setzero_ps();
        for (int r = 0; r < 3; r++) {
          const float *q = p0 + r * rp + 8 * v;
          acc = _mm256_fmadd_ps(wv[r * 3], _mm256_loadu_ps(q), acc);
          acc = _mm256_fmadd_ps(wv[r * 3 + 1], _mm256_loadu_ps(q + pp), acc);
          acc = _mm256_fmadd_ps(wv[r * 3 + 2], _mm256_loadu_ps(q + 1), acc);
        }
        if (b) acc = _mm256_add_ps(acc, bv);
        if (v < nv - 1 || oh * ow + 8 * nv <= plane) _mm256_storeu_ps(yr + 8 * v, acc);
        else _mm256_maskstore_ps(yr + 8 * v, out_mask, acc);
      }
    }
    mx_act_run8(act, yc, plane);
  }
}

/* The last n < 8 outputs from o0: the same lanes, the loads masked; the store
 * too unless `whole` (the lanes past the row then land on the channel's next
 * row, which its own walk writes after: a masked store is microcoded on AMD's
 * cores, and took more than the row's fmas on 7-wide rows). */
MX_FMA_TARGET static void tail(float *y, const float *const *rows, int64_t nrows, const float *w, int64_t kwn,
                               const int64_t *at, int64_t o0, int64_t n, const float *b, int whole) {
  __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 acc = _mm256_setzero_ps();
  for (int64_t r = 0; r < nrows; r++, w += kwn)
    for (int64_t kw = 0; kw < kwn; kw++)
      acc = _mm256_fmadd_ps(_mm256_set1_ps(w[kw]), _mm256_maskload_ps(rows[r] + at[kw] + o0, mask), acc);
  if (b) acc = _mm256_add_ps(acc, _mm256_set1_ps(*b));
  if (whole) _mm256_storeu_ps(y + o0, acc);
  else _mm256_maskstore_ps(y + o0, mask, acc);
}
#endif

/* Channels [c0, c1) of one image: x [C, in...], w [C, window], b [C] or
 * NULL, y [C, out...]; buf: the task's scratch (mx_dwconv_scratch bytes). */
static MX_ALWAYS_INLINE void planes(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                    int64_t c0, int64_t c1, float *buf, const mx_act *act, const int vec) {
  int64_t window = mx_conv_window(g), in_plane = mx_conv_in_plane(g), plane = mx_conv_plane(g), ow = g->out[2];
  int64_t kwn = g->k[2], nrows = g->k[0] * g->k[1], s = g->stride[2], len = mx_dwconv_phase(g), pitch = pitch_of(g);
  int64_t at[MX_DWCONV_MAX_TAPS];
  const float *rows[MX_DWCONV_MAX_TAPS];
  /* a 2-D window without vertical dilation: the rows under an output row are k[1] consecutive input rows, so
   * each row's slot is its index mod k[1], and a row stays there for the next output rows that take it (of
   * the same output depth: the next depth reads other planes, so the slots are emptied at each od) */
  int ring = g->k[0] == 1 && g->dil[1] == 1;
  int64_t held[MX_DWCONV_MAX_TAPS];
  for (int64_t kw = 0; kw < kwn; kw++) at[kw] = kw * g->dil[2] % s * pitch + kw * g->dil[2] / s;
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * in_plane, *wc = w + c * window, *bc = b ? b + c : NULL;
    float *yc = y + c * plane;
    for (int64_t od = 0; od < g->out[0]; od++)
      for (int64_t oh = 0; oh < g->out[1]; oh++) {
        if (oh == 0)
          for (int64_t r = 0; r < nrows; r++) held[r] = INT64_MIN;
        int64_t r = 0;
        for (int64_t kd = 0; kd < g->k[0]; kd++) {
          int64_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];
          for (int64_t kh = 0; kh < g->k[1]; kh++, r++) {
            int64_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];
            int64_t slot = ring ? (ih + g->pad[1]) % g->k[1] : r;
            float *dst = buf + slot * s * pitch;
            if (!ring || held[slot] != ih) {
              const float *src =
                  id >= 0 && id < g->in[0] && ih >= 0 && ih < g->in[1] ? xc + (id * g->in[1] + ih) * g->in[2] : NULL;
#if MX_X86_AVX2
              if (vec && s == 2) fill_row2(g, dst, len, pitch, src);
              else
#endif
                fill_row(g, dst, len, pitch, src);
            }
            held[slot] = ih;
            rows[r] = dst;
          }
        }
        float *yr = yc + (od * g->out[1] + oh) * ow;
        int64_t o = 0;
#if MX_X86_AVX2
        if (vec && nrows == 3 && kwn == 3) {
          row33(yr, rows, wc, at, ow, bc, plane - (od * g->out[1] + oh) * ow);
          o = ow;
        } else if (vec) {
          for (; o + 32 <= ow; o += 32) block(yr, rows, nrows, wc, kwn, at, o, bc, 4);
          for (; o + 8 <= ow; o += 8) block(yr, rows, nrows, wc, kwn, at, o, bc, 1);
          if (o < ow) tail(yr, rows, nrows, wc, kwn, at, o, ow - o, bc, o + 8 <= plane - (od * g->out[1] + oh) * ow);
          o = ow;
        }
#else
        (void)vec;
#endif
        outputs(yr, rows, nrows, wc, kwn, at, o, ow, bc);
        mx_act_run(act, yr, ow);
      }
  }
}

/* The plane path (the file's comment) for g: 2-D, stride 1, short rows, a kernel and a plane of bounded size. */
static int flat_ok(const mx_conv_geom *g) {
  int64_t wp = mx_dwconv_phase(g), hp = g->out[1] + (g->k[1] - 1) * g->dil[1];
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->stride[1] == 1 && g->stride[2] == 1 &&
         g->pad[1] + g->in[1] <= hp && g->pad[2] + g->in[2] <= wp && /* (no negative end padding) */
         g->out[2] < 16 && g->k[1] * g->k[2] <= MX_DWCONV_MAX_TAPS && hp <= 4096 && wp <= 4096 &&
         (hp + g->out[1]) * wp <= 65536;
}

/* A depthwise node is cut into tasks of at least MX_TASK_BYTES of work (4 bytes per fma), and not at all
 * below DW_SPLIT_TASKS of them (about 10 us of work at 1 thread): a task on another core reads its input
 * from the caller's cache and leaves its output there for the next node, and on a node that small that
 * cost more than the second thread saved. DS-CNN's four [1,64,25,5] layers (4 tasks of about 1.4 us)
 * took 90.6-102.4 us a run at 2 threads against 88.0 at 1; uncut, 87.9 (min_ns of 3 rounds, alternated,
 * under chrt -f 1 on the shared machine). MobileNet v2's layers have 15 tasks or more: cut as before. */
#define DW_SPLIT_TASKS 8

int64_t mx_dwconv_tasks(const mx_conv_geom *g) {
  int64_t n = mx_task_count((double)g->m * (double)mx_conv_plane(g) * (double)mx_conv_window(g) * 4, DW_SPLIT_TASKS);
  return n > g->m ? (g->m > 0 ? g->m : 1) : n;
}

#if MX_X86_AVX2
static int s2p_ok(const mx_conv_geom *g);

/* flat32's: flat8's plane (2-D, stride 1, no negative end padding) with rows of 25 to 32 inputs and outputs */
static int flat32_ok(const mx_conv_geom *g) {
  int64_t wp = mx_dwconv_phase(g), hp = g->out[1] + (g->k[1] - 1) * g->dil[1];
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->stride[1] == 1 && g->stride[2] == 1 &&
         g->pad[1] + g->in[1] <= hp && g->pad[2] + g->in[2] <= wp && g->k[1] * g->k[2] <= MX_DWCONV_MAX_TAPS &&
         g->in[2] > 24 && g->in[2] <= 32 && g->out[2] > 24 && g->out[2] <= 32 && hp <= 1024 && wp <= 1024;
}
#endif

int64_t mx_dwconv_scratch(const mx_conv_geom *g) {
  int64_t floats;
  if (flat_ok(g)) floats = (g->out[1] + (g->k[1] - 1) * g->dil[1] + g->out[1]) * mx_dwconv_phase(g) + 8;
  else if (__builtin_mul_overflow(g->k[0] * g->k[1], g->stride[2], &floats) ||
           __builtin_mul_overflow(floats, pitch_of(g), &floats))
    return -1;
#if MX_X86_AVX2
  if (flatx_ok(g) && flatx_floats(g) > floats) floats = flatx_floats(g);
  if (s2p_ok(g) && s2p_floats(g) > floats) floats = s2p_floats(g);
  if (flat32_ok(g)) { /* its padded plane and 4 vectors past it */
    int64_t f32 = (g->out[1] + (g->k[1] - 1) * g->dil[1]) * mx_dwconv_phase(g) + 32;
    if (f32 > floats) floats = f32;
  }
#endif
  return floats;
}

#if MX_X86_AVX2
/* Output rows [r0, r0 + nr) of channel plane yc from the padded plane P: each row's outputs (at most 8 nv)
 * nv vectors, its taps in order; all but the last vector stored whole (ow >= 8 (nv - 1)), the last whole (the
 * lanes past the row land on the next row's, written after) where that stays inside the plane, else under
 * `mask`. */
MX_FMA_TARGET static MX_ALWAYS_INLINE void rows_of(float *yc, const float *P, int64_t wp, int64_t ow, int64_t plane,
                                                   const float *w, int64_t taps, const int64_t *at, int64_t r0,
                                                   const float *b, __m256i mask, const int nv, const int nr) {
  __m256 acc[5][4];
  for (int j = 0; j < nr; j++)
    for (int v = 0; v < nv; v++) acc[j][v] = _mm256_setzero_ps();
  for (int64_t t = 0; t < taps; t++) {
    __m256 wv = _mm256_broadcast_ss(w + t);
    const float *xp = P + r0 * wp + at[t];
    for (int j = 0; j < nr; j++)
      for (int v = 0; v < nv; v++) acc[j][v] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(xp + j * wp + 8 * v), acc[j][v]);
  }
  for (int j = 0; j < nr; j++) {
    float *yr = yc + (r0 + j) * ow;
    for (int v = 0; v < nv; v++) {
      __m256 u = b ? _mm256_add_ps(acc[j][v], _mm256_broadcast_ss(b)) : acc[j][v];
      if (v < nv - 1 || (r0 + j) * ow + 8 * nv <= plane) _mm256_storeu_ps(yr + 8 * v, u);
      else _mm256_maskstore_ps(yr + 8 * v, mask, u);
    }
  }
}

/* The plane path at AVX2+FMA for rows of at most 8 nv outputs and inputs (nv 1: DS-CNN's 25 x 5; nv 2:
 * MobileNet v2's 14 x 14): the channel's rows into the padded plane by whole and masked loads (the lanes past
 * the row zeros, stored over the padding, which is zeros, and the next row's elements, written after), then
 * 5 output rows at a time straight into y: no grid, no copy out. The same fmas in the same order per output. */
MX_FMA_TARGET static MX_ALWAYS_INLINE void flat8_at(const mx_conv_geom *g, const float *x, const float *w,
                                                    const float *b, float *y, int64_t c0, int64_t c1, float *buf,
                                                    const mx_act *act, const int nv) {
  int64_t wp = mx_dwconv_phase(g), hp = g->out[1] + (g->k[1] - 1) * g->dil[1], ow = g->out[2], oh = g->out[1];
  int64_t taps = g->k[1] * g->k[2], in_plane = mx_conv_in_plane(g), plane = mx_conv_plane(g), iw = g->in[2];
  int64_t at[MX_DWCONV_MAX_TAPS];
  for (int64_t kh = 0; kh < g->k[1]; kh++)
    for (int64_t kw = 0; kw < g->k[2]; kw++) at[kh * g->k[2] + kw] = kh * g->dil[1] * wp + kw * g->dil[2];
  __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  /* the last vector's lanes of an input row and of an output row */
  __m256i in_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(iw - 8 * (nv - 1))), lanes);
  __m256i out_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(ow - 8 * (nv - 1))), lanes);
  /* the padding zeros once (and 8 nv floats past the plane, which the last rows' loads and copies reach) */
  memset(buf, 0, (size_t)(hp * wp + 8 * nv) * sizeof(float));
  float *inner = buf + g->pad[1] * wp + g->pad[2];
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * in_plane, *wc = w + c * taps, *bc = b ? b + c : NULL;
    float *yc = y + c * plane;
    for (int64_t r = 0; r < g->in[1]; r++) {
      for (int v = 0; v < nv - 1; v++) _mm256_storeu_ps(inner + r * wp + 8 * v, _mm256_loadu_ps(xc + r * iw + 8 * v));
      _mm256_storeu_ps(inner + r * wp + 8 * (nv - 1), _mm256_maskload_ps(xc + r * iw + 8 * (nv - 1), in_mask));
    }
    int64_t r = 0;
#define ROWS(nr) rows_of(yc, buf, wp, ow, plane, wc, taps, at, r, bc, out_mask, nv, nr)
    if (nv > 2) { /* (3 rows of up to 4 vectors: 12 accumulators in AVX2's 16 registers) */
      for (; r + 3 <= oh; r += 3) ROWS(3);
      if (oh - r == 2) ROWS(2);
      else if (oh - r == 1) ROWS(1);
      r = oh;
    }
    for (; r + 5 <= oh; r += 5) ROWS(5);
    switch (oh - r) {
      case 4: ROWS(4); break;
      case 3: ROWS(3); break;
      case 2: ROWS(2); break;
      case 1: ROWS(1); break;
      default: break;
    }
#undef ROWS
    mx_act_run8(act, yc, plane);
  }
}

MX_FMA_TARGET static void flat8(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  flat8_at(g, x, w, b, y, c0, c1, buf, act, 1);
}

MX_FMA_TARGET static void flat16(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                 int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  flat8_at(g, x, w, b, y, c0, c1, buf, act, 2);
}

MX_FMA_TARGET static void flat32(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                 int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  flat8_at(g, x, w, b, y, c0, c1, buf, act, 4);
}
#endif

/* The plane path: per channel, the padded plane P [hp, wp] and the grid Y [out[1], wp] in buf. */
static MX_ALWAYS_INLINE void flat(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                  int64_t c0, int64_t c1, float *buf, const mx_act *act, const int vec) {
  int64_t wp = mx_dwconv_phase(g), hp = g->out[1] + (g->k[1] - 1) * g->dil[1], ow = g->out[2], oh = g->out[1];
  int64_t taps = g->k[1] * g->k[2], n = oh * wp, in_plane = mx_conv_in_plane(g), plane = mx_conv_plane(g);
  int64_t at[MX_DWCONV_MAX_TAPS];
  float *P = buf, *Y = buf + hp * wp;
  const float *rows[1] = {P};
  for (int64_t kh = 0; kh < g->k[1]; kh++)
    for (int64_t kw = 0; kw < g->k[2]; kw++) at[kh * g->k[2] + kw] = kh * g->dil[1] * wp + kw * g->dil[2];
  /* the padding is zeros once for all channels (stride 1: hp = pad + in + pad_end, the same across); each
   * channel writes only its input's elements */
  memset(P, 0, (size_t)(hp * wp) * sizeof(float));
  float *inner = P + g->pad[1] * wp + g->pad[2];
  for (int64_t c = c0; c < c1; c++) {
    const float *xc = x + c * in_plane, *wc = w + c * taps, *bc = b ? b + c : NULL;
    for (int64_t r = 0; r < g->in[1]; r++)
      for (int64_t i = 0; i < g->in[2]; i++) inner[r * wp + i] = xc[r * g->in[2] + i];
    int64_t o = 0;
#if MX_X86_AVX2
    if (vec) {
      for (; o + 32 <= n; o += 32) block(Y, rows, 1, wc, taps, at, o, bc, 4);
      for (; o + 8 <= n; o += 8) block(Y, rows, 1, wc, taps, at, o, bc, 1);
      if (o < n) tail(Y, rows, 1, wc, taps, at, o, n - o, bc, 0);
      o = n;
    }
#else
    (void)vec;
#endif
    outputs(Y, rows, 1, wc, taps, at, o, n, bc);
    float *yc = y + c * plane;
    for (int64_t r = 0; r < oh; r++) /* (a loop: a call per short row cost more than the row) */
      for (int64_t i = 0; i < ow; i++) yc[r * ow + i] = Y[r * wp + i];
    mx_act_run(act, yc, plane);
  }
}

static void flat_port(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y, int64_t c0,
                      int64_t c1, float *buf, const mx_act *act) {
  flat(g, x, w, b, y, c0, c1, buf, act, 0);
}

static void planes_port(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y, int64_t c0,
                        int64_t c1, float *buf, const mx_act *act) {
  planes(g, x, w, b, y, c0, c1, buf, act, 0);
}

#if MX_X86_AVX2
MX_FMA_TARGET static void planes_fma(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                     int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  planes(g, x, w, b, y, c0, c1, buf, act, 1);
}

MX_FMA_TARGET static void flat_fma(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                                   int64_t c0, int64_t c1, float *buf, const mx_act *act) {
  flat(g, x, w, b, y, c0, c1, buf, act, 1);
}
#endif

#if MX_X86_AVX2
/* direct33's geometry: 2-D, 3 x 3, stride 1, no dilation down. */
static int direct_ok(const mx_conv_geom *g) {
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->k[1] == 3 && g->k[2] == 3 && g->stride[1] == 1 &&
         g->stride[2] == 1 && g->dil[1] == 1;
}

/* direct33x's: direct33's with no dilation, rows of at least DWX_MIN_W that keep their width (a column of
 * padding at each end), at most 2 rows of padding at the top (an output row then takes an input row) */
static int directx_ok(const mx_conv_geom *g) {
  return direct_ok(g) && g->dil[2] == 1 && g->pad[2] == 1 && g->in[2] == g->out[2] && g->out[2] >= DWX_MIN_W &&
         g->pad[1] >= 0 && g->pad[1] <= 2 && g->out[2] <= ((int64_t)1 << 30);
}

/* direct33s2's: 2-D, 3 x 3, stride 2 both ways, no dilation, rows whose element numbers fit the lanes' int32 */
static int direct2_ok(const mx_conv_geom *g) {
  return g->in[0] == 1 && g->k[0] == 1 && g->out[0] == 1 && g->k[1] == 3 && g->k[2] == 3 && g->stride[1] == 2 &&
         g->stride[2] == 2 && g->dil[1] == 1 && g->dil[2] == 1 && g->in[2] <= (1 << 28) && g->pad[2] <= (1 << 28) &&
         g->out[2] <= (1 << 27);
}
#endif

#if MX_X86_AVX2
/* direct33x2's: direct33s2's with one row and one column of padding at the start, output rows of at least 16 */
static int directx2_ok(const mx_conv_geom *g) {
  return direct2_ok(g) && g->pad[1] == 1 && g->pad[2] == 1 && g->out[2] >= 16 && g->out[2] <= ((int64_t)1 << 26);
}

/* s2plane's: direct33s2's with rows of at most 32 outputs and 64 inputs, pads of 0 or 1 at the start, a
 * scratch (2 out[1] + 1 padded rows of two phases) of at most 8192 floats */
static int s2p_ok(const mx_conv_geom *g) {
  return direct2_ok(g) && g->out[2] <= 32 && g->in[2] <= 64 && g->pad[1] >= 0 && g->pad[1] <= 1 && g->pad[2] >= 0 &&
         g->pad[2] <= 1 && g->out[1] <= 1024 && s2p_floats(g) <= 8192;
}
#endif

mx_dwconv_fn mx_dwconv_kernel(const mx_conv_geom *g, int isa) {
  if (g->k[0] > MX_DWCONV_MAX_TAPS || g->k[1] > MX_DWCONV_MAX_TAPS || g->k[0] * g->k[1] > MX_DWCONV_MAX_TAPS ||
      g->k[2] > MX_DWCONV_MAX_TAPS)
    return NULL;
  int f = flat_ok(g);
#if MX_X86_AVX2
  if (isa >= MX_GEMM_AVX512 && directx_ok(g)) return direct33x;
  if (isa >= MX_GEMM_AVX512 && directx2_ok(g)) return direct33x2;
  if (isa >= MX_GEMM_AVX512 && flatx_ok(g)) return flatx;
  if (isa >= MX_GEMM_FMA && flat32_ok(g)) return flat32;
  if (isa >= MX_GEMM_FMA && !f && direct_ok(g)) return direct33;
  if (isa >= MX_GEMM_FMA && s2p_ok(g)) return s2plane;
  if (isa >= MX_GEMM_FMA && direct2_ok(g) && g->out[2] <= 16) return direct33s2; /* (wider rows: the phases' copies
                                                                                  * were faster, each input row split once) */
  if (isa >= MX_GEMM_FMA && f && g->out[2] <= 8 && g->in[2] <= 8) return flat8;
  if (isa >= MX_GEMM_FMA && f && g->out[2] >= 8 && g->out[2] <= 16 && g->in[2] >= 8 && g->in[2] <= 16)
    return flat16; /* (its first vector a row stored whole: at least 8 outputs) */
  if (isa >= MX_GEMM_FMA) return f ? flat_fma : planes_fma; /* (AVX-512F too: its loads would be no wider for these rows) */
#else
  (void)isa;
#endif
  return f ? flat_port : planes_port;
}
