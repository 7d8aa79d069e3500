#include "ops/broadcast.h"

#include <string.h>

size_t mx_bplan_size(int32_t n_in) {
  return sizeof(mx_bplan) + (size_t)n_in * (MX_MAX_RANK + 1) * sizeof(int64_t);
}

static int64_t *offsets(const mx_bplan *p) { return (int64_t *)(p + 1) + (size_t)p->n_in * MX_MAX_RANK; }

/* Whether input k is broadcast along output dim i (its dim is 1, or absent). */
static int is_bcast(const mx_shape *in, const mx_shape *out, int i) {
  int off = out->rank - in->rank;
  return i < off || (in->dims[i - off] == 1 && out->dims[i] != 1);
}

void mx_bplan_init(mx_bplan *p, const mx_shape *const *in, int32_t n, const mx_shape *out) {
  p->n_in = n;
  p->count = 1;
  for (int i = 0; i < out->rank; i++) p->count *= out->dims[i];
  /* Collapse: drop dims of size 1, merge neighbours that every input either
   * spans or broadcasts alike. kept[] holds the first output dim of each group. */
  int kept[MX_MAX_RANK], r = 0;
  int64_t dims[MX_MAX_RANK];
  for (int i = 0; i < out->rank; i++) {
    if (out->dims[i] == 1) continue;
    int merge = r > 0;
    for (int32_t k = 0; k < n && merge; k++)
      if (is_bcast(in[k], out, i) != is_bcast(in[k], out, kept[r - 1])) merge = 0;
    if (merge) {
      dims[r - 1] *= out->dims[i];
    } else {
      kept[r] = i;
      dims[r++] = out->dims[i];
    }
  }
  if (r == 0) { /* a scalar, or all ones */
    kept[0] = 0;
    dims[0] = 1;
    r = 1;
  }
  p->rank = r;
  memcpy(p->dims, dims, sizeof dims);
  memset(offsets(p), 0, (size_t)n * sizeof(int64_t));
  for (int32_t k = 0; k < n; k++) {
    int64_t *s = mx_bplan_strides(p, k);
    int64_t step = 1;
    for (int d = r - 1; d >= 0; d--) {
      int b = out->rank > 0 && dims[d] != 1 ? is_bcast(in[k], out, kept[d]) : 1;
      s[d] = b ? 0 : step;
      if (!b) step *= dims[d];
    }
  }
}

void mx_bplan_walk(const mx_bplan *p, mx_tile_fn tile, void *ctx) {
  if (p->count == 0) return;
  int r = p->rank;
  int64_t len = p->dims[r - 1], rows = r > 1 ? p->dims[r - 2] : 1;
  int64_t *off = offsets(p); /* zero: set so by init, and every walk wraps back to it */
  if (r <= 2) { /* one tile: no odometer */
    tile(ctx, 0, off, rows, len);
    return;
  }
  int64_t idx[MX_MAX_RANK] = {0}, tiles = p->count / (len * rows);
  for (int64_t t = 0; t < tiles; t++) {
    tile(ctx, t * rows * len, off, rows, len);
    /* advance the odometer over the dims outside the tile */
    for (int d = r - 3; d >= 0; d--) {
      for (int32_t k = 0; k < p->n_in; k++) off[k] += mx_bplan_strides(p, k)[d];
      if (++idx[d] < p->dims[d]) break;
      for (int32_t k = 0; k < p->n_in; k++) off[k] -= mx_bplan_strides(p, k)[d] * p->dims[d];
      idx[d] = 0;
    }
  }
}
