/* The pools' kernel (pool.h): per output, each dim's taps inside the input
 * found once (mx_window_taps), then only those visited, in the order of the
 * rules; the count of an average from the same ranges. float32 without
 * Indices takes the paths of pool_rows.c.in where they apply (a window as
 * large as its plane; the outputs of a 1-D or 2-D row whose taps along it
 * lie inside the input), this code the rest. */
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

/* One loop per dtype: the loads and the sums' types are constants there. */
static MX_ALWAYS_INLINE void planes_of(mx_dtype t, const mx_pool_geom *g, const struct mx_pool_row_set *k,
                                       const unsigned char *x, unsigned char *y, int64_t *ind, int64_t p0, int64_t p1) {
  size_t es = mx_dtype_size(t);
  int64_t in_plane = mx_pool_in_plane(g), out_plane = mx_pool_out_plane(g), a = 0, b = 0;
  const mx_window *w = &g->w;
  int whole = 1;
  for (int d = 0; d < 3; d++) whole &= w->k[d] == w->in[d] && w->dil[d] == 1 && w->pad[d] == 0 && w->pad_end[d] == 0;
  if (k && !ind && whole && in_plane > 0) {
    k->whole(g, x, y, p0, p1);
    return;
  }
  int rows = k && !ind && w->in[0] == 1 && w->k[0] == 1 && w->pad[0] == 0 && w->pad_end[0] == 0;
  if (rows) inner_range(w, &a, &b);
  for (int64_t p = p0; p < p1; p++) {
    const unsigned char *xp = x + (size_t)(p * in_plane) * es;
    unsigned char *yp = y + (size_t)(p * out_plane) * es;
    if (rows && b > a && k->rows(g, xp, yp, a, b)) continue;
    one_plane(t, g, xp, yp, ind ? ind + p * out_plane : NULL, p, a, b);
  }
}

extern const mx_kernel_row mx_pool_rows_rows[];
extern const size_t mx_pool_rows_n_rows;

const struct mx_pool_row_set *mx_pool_row_kernels(mx_dtype t, mx_isa isa) {
  return t == MINNX_FLOAT && MX_DTYPE_ON(t) ? mx_kernel_find(mx_pool_rows_rows, mx_pool_rows_n_rows, t, isa) : NULL;
}

void mx_pool_planes(mx_dtype t, const mx_pool_geom *g, const struct mx_pool_row_set *k, const void *x, void *y,
                    int64_t *indices, int64_t p0, int64_t p1) {
  switch (t) {
    case MINNX_FLOAT: planes_of(MINNX_FLOAT, g, k, x, y, indices, p0, p1); break;
    case MINNX_DOUBLE: planes_of(MINNX_DOUBLE, g, NULL, x, y, indices, p0, p1); break;
    case MINNX_FLOAT16: planes_of(MINNX_FLOAT16, g, NULL, x, y, indices, p0, p1); break;
    case MINNX_INT8: planes_of(MINNX_INT8, g, NULL, x, y, indices, p0, p1); break;
    default: planes_of(MINNX_UINT8, g, NULL, x, y, indices, p0, p1); break;
  }
}
