/* The pools' kernel (pool.h): per output, each dim's taps inside the input
 * found once (mx_window_taps), then only those visited, in the order of the
 * rules; the count of an average from the same ranges. float32 1-D and 2-D
 * windows without Indices take a row path: the outputs of a row whose
 * windows lie wholly inside the input along it are computed side by side
 * (a loop over them inside each tap's, which the compiler vectorizes), the
 * others by the general code. Every output still sees its taps in the
 * rules' order: an average's sum is the same sum; a max is the same element
 * (the first largest, the first NaN) taken row by row: each row's winner
 * over its taps, then the rows' winners in order, a later one only when it
 * beats the one before. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/nn/pool.h"

/* Dim d's taps at output o: those inside the input [*lo, *hi), and how many
 * lie inside the padded input (count_include_pad's). */
static int64_t dim_taps(const mx_window *w, int d, int64_t o, int64_t *lo, int64_t *hi) {
  int64_t plo, phi;
  mx_window_taps(w, d, o, 0, w->in[d], lo, hi);
  mx_window_taps(w, d, o, -w->pad[d], w->in[d] + w->pad_end[d], &plo, &phi);
  return phi - plo;
}

/* Each dim's taps are found once per output index of that dim, then only
 * those inside the input are visited, in the rules' order. */
static MX_ALWAYS_INLINE void one_plane(mx_dtype t, const mx_pool_geom *g, const unsigned char *x, unsigned char *y,
                                       int64_t *ind, int64_t plane, int64_t skip_a, int64_t skip_b) {
  const mx_window *w = &g->w;
  size_t es = mx_dtype_size(t);
  int64_t q = 0, base = plane * mx_pool_in_plane(g), lo[3], hi[3], all[3];
  for (int64_t od = 0; od < w->out[0]; od++) {
    all[0] = dim_taps(w, 0, od, &lo[0], &hi[0]);
    for (int64_t oh = 0; oh < w->out[1]; oh++) {
      all[1] = dim_taps(w, 1, oh, &lo[1], &hi[1]);
      /* [skip_a, skip_b): the row path's outputs */
      for (int64_t ow = skip_a == 0 ? skip_b : 0; ow < w->out[2]; ow = ow + 1 == skip_a ? skip_b : ow + 1) {
        q = (od * w->out[1] + oh) * w->out[2] + ow;
        all[2] = dim_taps(w, 2, ow, &lo[2], &hi[2]);
        int64_t s0 = od * w->stride[0] - w->pad[0], s1 = oh * w->stride[1] - w->pad[1], s2 = ow * w->stride[2] - w->pad[2];
        int64_t best_pos[3] = {0}, best_at = -1;
        double best = 0, dacc = 0;
        float facc = 0;
        for (int64_t kd = lo[0]; kd < hi[0]; kd++) {
          int64_t id = s0 + kd * w->dil[0];
          for (int64_t kh = lo[1]; kh < hi[1]; kh++) {
            int64_t ih = s1 + kh * w->dil[1], row = (id * w->in[1] + ih) * w->in[2];
            for (int64_t kw = lo[2]; kw < hi[2]; kw++) {
              int64_t iw = s2 + kw * w->dil[2];
              double v = mx_pool_load(t, x, row + iw);
              if (g->avg) {
                if (t == MINNX_DOUBLE) dacc = dacc + v;
                else facc = facc + (float)v;
              } else if (best_at < 0 || mx_pool_beats(v, best)) {
                best = v, best_at = row + iw;
                best_pos[0] = id, best_pos[1] = ih, best_pos[2] = iw;
              }
            }
          }
        }
        if (g->avg) {
          int64_t count = g->include_pad ? all[0] * all[1] * all[2] : (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
          mx_pool_store_avg(t, y, q, dacc / (double)count, facc / (float)count);
          continue;
        }
        memcpy(y + (size_t)q * es, x + (size_t)best_at * es, es);
        if (ind)
          ind[q] = base + (g->storage_order ? (best_pos[2] * w->in[1] + best_pos[1]) * w->in[0] + best_pos[0] : best_at);
      }
    }
  }
}

/* The outputs [*a, *b) of a row whose taps along it all lie inside the input. */
static void inner_range(const mx_window *w, int64_t *a, int64_t *b) {
  int64_t last = w->in[2] - 1 + w->pad[2] - (w->k[2] - 1) * w->dil[2]; /* the last tap 0 that fits, + pad */
  *a = (w->pad[2] + w->stride[2] - 1) / w->stride[2];
  *b = last < 0 ? 0 : last / w->stride[2] + 1;
  if (*a > w->out[2]) *a = w->out[2];
  if (*b > w->out[2]) *b = w->out[2];
  if (*b < *a) *b = *a;
}

/* v beats best (mx_pool_beats in float32: the same for float32 values). */
static MX_ALWAYS_INLINE int beats_f32(float v, float best) { return v > best || (v != v && best == best); }

#define ROW_CHUNK 64

/* The row path of one plane (the file's comment): outputs [a, b) of each row
 * here, the rest through one_plane's general code for those outputs alone. */
static void rows_f32(const mx_pool_geom *g, const float *x, float *y, int64_t a, int64_t b) {
  const mx_window *w = &g->w;
  int64_t ow_n = w->out[2], iw_n = w->in[2], sw = w->stride[2], dw = w->dil[2], pw = w->pad[2], kw_n = w->k[2];
  for (int64_t oh = 0; oh < w->out[1]; oh++) {
    int64_t lo, hi, plo, phi;
    mx_window_taps(w, 1, oh, 0, w->in[1], &lo, &hi);
    mx_window_taps(w, 1, oh, -w->pad[1], w->in[1] + w->pad_end[1], &plo, &phi);
    float *yr = y + oh * ow_n;
    const float *r0 = x + (oh * w->stride[1] - w->pad[1]) * iw_n - pw;
    for (int64_t o0 = a; o0 < b; o0 += ROW_CHUNK) {
      int64_t n = b - o0 < ROW_CHUNK ? b - o0 : ROW_CHUNK;
      float *yc = yr + o0;
      if (g->avg) {
        for (int64_t j = 0; j < n; j++) yc[j] = 0.0f;
        for (int64_t kh = lo; kh < hi; kh++) {
          const float *row = r0 + kh * w->dil[1] * iw_n + o0 * sw;
          for (int64_t kw = 0; kw < kw_n; kw++)
            for (int64_t j = 0; j < n; j++) yc[j] = yc[j] + row[j * sw + kw * dw];
        }
        float count = (float)((g->include_pad ? phi - plo : hi - lo) * kw_n);
        for (int64_t j = 0; j < n; j++) yc[j] = yc[j] / count;
        continue;
      }
      float h[ROW_CHUNK];
      for (int64_t kh = lo; kh < hi; kh++) {
        const float *row = r0 + kh * w->dil[1] * iw_n + o0 * sw;
        for (int64_t j = 0; j < n; j++) h[j] = row[j * sw];
        for (int64_t kw = 1; kw < kw_n; kw++)
          for (int64_t j = 0; j < n; j++) {
            float v = row[j * sw + kw * dw];
            h[j] = beats_f32(v, h[j]) ? v : h[j];
          }
        if (kh == lo)
          for (int64_t j = 0; j < n; j++) yc[j] = h[j];
        else
          for (int64_t j = 0; j < n; j++) yc[j] = beats_f32(h[j], yc[j]) ? h[j] : yc[j];
      }
    }
  }
}

#define GLOBAL_LANES 8

/* A float32 window over whole planes (the global pools, and any window as
 * large as its input): GLOBAL_LANES planes side by side, each one's taps in
 * order (its own sum, its own first largest), so that their chains of
 * dependent operations overlap. */
static void global_f32(const mx_pool_geom *g, const float *x, float *y, int64_t p0, int64_t p1) {
  int64_t n = mx_pool_in_plane(g);
  int64_t p = p0;
  for (; p + GLOBAL_LANES <= p1; p += GLOBAL_LANES) {
    const float *xp = x + p * n;
    float acc[GLOBAL_LANES];
    for (int j = 0; j < GLOBAL_LANES; j++) acc[j] = g->avg ? 0.0f : xp[j * n];
    for (int64_t i = g->avg ? 0 : 1; i < n; i++)
      for (int j = 0; j < GLOBAL_LANES; j++) {
        float v = xp[j * n + i];
        acc[j] = g->avg ? acc[j] + v : beats_f32(v, acc[j]) ? v : acc[j];
      }
    for (int j = 0; j < GLOBAL_LANES; j++) y[p + j] = g->avg ? acc[j] / (float)n : acc[j];
  }
  for (; p < p1; p++) {
    const float *xp = x + p * n;
    float acc = g->avg ? 0.0f : xp[0];
    for (int64_t i = g->avg ? 0 : 1; i < n; i++) acc = g->avg ? acc + xp[i] : beats_f32(xp[i], acc) ? xp[i] : acc;
    y[p] = g->avg ? acc / (float)n : acc;
  }
}

/* One loop per dtype: the loads and the sums' types are constants there. */
static MX_ALWAYS_INLINE void planes_of(mx_dtype t, const mx_pool_geom *g, const unsigned char *x, unsigned char *y,
                                       int64_t *ind, int64_t p0, int64_t p1) {
  size_t es = mx_dtype_size(t);
  int64_t in_plane = mx_pool_in_plane(g), out_plane = mx_pool_out_plane(g), a = 0, b = 0;
  const mx_window *w = &g->w;
  int whole = 1;
  for (int d = 0; d < 3; d++) whole &= w->k[d] == w->in[d] && w->dil[d] == 1 && w->pad[d] == 0 && w->pad_end[d] == 0;
  if (t == MINNX_FLOAT && !ind && whole && in_plane > 0) {
    global_f32(g, (const float *)x, (float *)y, p0, p1);
    return;
  }
  int rows = t == MINNX_FLOAT && !ind && w->in[0] == 1 && w->k[0] == 1 && w->pad[0] == 0 && w->pad_end[0] == 0;
  if (rows) inner_range(w, &a, &b);
  for (int64_t p = p0; p < p1; p++) {
    const unsigned char *xp = x + (size_t)(p * in_plane) * es;
    unsigned char *yp = y + (size_t)(p * out_plane) * es;
    if (rows && b > a) rows_f32(g, (const float *)xp, (float *)yp, a, b);
    one_plane(t, g, xp, yp, ind ? ind + p * out_plane : NULL, p, a, b);
  }
}

void mx_pool_planes(mx_dtype t, const mx_pool_geom *g, const void *x, void *y, int64_t *indices, int64_t p0, int64_t p1) {
  switch (t) {
    case MINNX_FLOAT: planes_of(MINNX_FLOAT, g, x, y, indices, p0, p1); break;
    case MINNX_DOUBLE: planes_of(MINNX_DOUBLE, g, x, y, indices, p0, p1); break;
    case MINNX_FLOAT16: planes_of(MINNX_FLOAT16, g, x, y, indices, p0, p1); break;
    case MINNX_INT8: planes_of(MINNX_INT8, g, x, y, indices, p0, p1); break;
    default: planes_of(MINNX_UINT8, g, x, y, indices, p0, p1); break;
  }
}
