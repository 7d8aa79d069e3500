/* The reference loop of the pools (pool.h): every output on its own, every
 * tap of its window tested against the input's and the padding's bounds.
 * Slow on purpose: the oracle the kernels are held to, bit for bit. */
#include <string.h>

#include "ops/nn/pool.h"

/* Tap (kd, kh, kw) of output o: its input index (spatial, row-major; -1
 * outside the input) and whether it lies in the padded input. */
static int64_t tap(const mx_window *w, const int64_t o[3], const int64_t k[3], int *in_padded, int64_t pos[3]) {
  int64_t at = 0, inside = 1;
  *in_padded = 1;
  for (int d = 0; d < 3; d++) {
    pos[d] = o[d] * w->stride[d] + k[d] * w->dil[d] - w->pad[d];
    if (pos[d] < -w->pad[d] || pos[d] >= w->in[d] + w->pad_end[d]) *in_padded = 0;
    if (pos[d] < 0 || pos[d] >= w->in[d]) inside = 0;
    at = at * w->in[d] + pos[d];
  }
  return inside ? at : -1;
}

static int64_t index_of(const mx_pool_geom *g, int64_t plane, const int64_t pos[3]) {
  const mx_window *w = &g->w;
  int64_t at = g->storage_order ? (pos[2] * w->in[1] + pos[1]) * w->in[0] + pos[0] : (pos[0] * w->in[1] + pos[1]) * w->in[2] + pos[2];
  return plane * mx_pool_in_plane(g) + at;
}

void mx_pool_ref(mx_dtype t, const mx_pool_geom *g, const void *x, void *y, int64_t *indices) {
  const mx_window *w = &g->w;
  int64_t in_plane = mx_pool_in_plane(g), out_plane = mx_pool_out_plane(g), window = w->k[0] * w->k[1] * w->k[2];
  size_t es = mx_dtype_size(t);
  for (int64_t p = 0; p < g->planes; p++)
    for (int64_t q = 0; q < out_plane; q++) {
      int64_t o[3] = {q / (w->out[2] * w->out[1]), q / w->out[2] % w->out[1], q % w->out[2]}, pos[3], best_pos[3] = {0};
      int64_t best_at = -1, count = 0;
      double best = 0, dacc = 0;
      float facc = 0;
      for (int64_t a = 0; a < window; a++) {
        int64_t k[3] = {a / (w->k[2] * w->k[1]), a / w->k[2] % w->k[1], a % w->k[2]};
        int padded;
        int64_t at = tap(w, o, k, &padded, pos);
        if (g->avg && (at >= 0 || (g->include_pad && padded))) count++;
        if (at < 0) continue;
        double v = mx_pool_load(t, x, p * in_plane + at);
        if (g->avg) {
          if (t == MINNX_DOUBLE) dacc = dacc + v;
          else facc = facc + (float)v;
        } else if (best_at < 0 || mx_pool_beats(v, best)) {
          best = v, best_at = p * in_plane + at;
          memcpy(best_pos, pos, sizeof pos);
        }
      }
      int64_t i = p * out_plane + q;
      if (g->avg) {
        mx_pool_store_avg(t, y, i, dacc / (double)count, facc / (float)count);
      } else {
        memcpy((unsigned char *)y + (size_t)i * es, (const unsigned char *)x + (size_t)best_at * es, es);
        if (indices) indices[i] = index_of(g, p, best_pos);
      }
    }
}
