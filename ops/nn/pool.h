/* MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool (ops/nn/pool.c):
 * the geometry, the kernels, and the reference loop they are held to.
 *
 * The rules (README, "Pooling"): each (image, channel) plane on its own; a
 * window's taps run in the order (kd, kh, kw), the last fastest, and only
 * taps inside the input count (padding is no value).
 * - max: the largest tap (compared exactly, in double); a NaN tap makes the
 *   result that NaN (the first); of equal taps the first. The output is
 *   that element's bits, Indices its flat index in X: the plane's offset
 *   (n * C + c) * plane plus the spatial index, row-major (storage_order 0:
 *   the last dim fastest) or column-major (1: the first fastest).
 * - average: acc = 0; acc = acc + x for each tap inside the input (float32
 *   for float16 and float, double for double); then y = acc / count (one
 *   division), count the taps inside the input, or with count_include_pad the
 *   taps inside the padded input (a ceil_mode window's taps beyond the end
 *   padding never count). float16 rounds the float32 result once.
 * A window with no tap inside the input is refused at prepare. */
#ifndef MX_NN_POOL_H
#define MX_NN_POOL_H

#include <stdint.h>

#include "graph/ir.h"
#include "ops/core/cpu.h"
#include "ops/core/half.h"
#include "ops/nn/window.h"

typedef struct mx_pool_geom {
  int64_t planes; /* N * C */
  mx_window w;
  int avg, include_pad, storage_order;
} mx_pool_geom;

/* Elements of one input and one output plane. */
static inline int64_t mx_pool_in_plane(const mx_pool_geom *g) { return g->w.in[0] * g->w.in[1] * g->w.in[2]; }
static inline int64_t mx_pool_out_plane(const mx_pool_geom *g) { return g->w.out[0] * g->w.out[1] * g->w.out[2]; }

/* The row and whole-plane paths of float32 without Indices (pool_rows.c.in,
 * one set per ISA level): rows() computes outputs [a, b) of every row of one
 * plane (those whose taps along it lie inside the input) and, when each end
 * of the row has at most 8 outputs outside [a, b), those too (returns 1;
 * else 0, and the general code does them); whole() planes [p0, p1) under
 * windows as large as the plane. Every output's taps in the rules' order:
 * the general code's bits. */
struct mx_pool_row_set {
  int (*rows)(const mx_pool_geom *g, const void *x, void *y, int64_t a, int64_t b);
  void (*whole)(const mx_pool_geom *g, const void *x, void *y, int64_t p0, int64_t p1);
};
/* The set of dtype t at the highest level <= isa; NULL when t has none. */
const struct mx_pool_row_set *mx_pool_row_kernels(mx_dtype t, mx_isa isa);

/* Planes [p0, p1) of y (and of indices, when not NULL) from x, of dtype t
 * (float16, float, double; int8 and uint8 for max); k: the row paths to take
 * where they apply (mx_pool_row_kernels), or NULL for the general code only. */
void mx_pool_planes(mx_dtype t, const mx_pool_geom *g, const struct mx_pool_row_set *k, const void *x, void *y,
                    int64_t *indices, int64_t p0, int64_t p1);

/* The reference loop: every tap tested on its own, the rules above. */
void mx_pool_ref(mx_dtype t, const mx_pool_geom *g, const void *x, void *y, int64_t *indices);

/* Element i of x as a double (exact for every dtype the pools take). */
static inline double mx_pool_load(mx_dtype t, const void *x, int64_t i) {
  switch (t) {
    case MINNX_FLOAT: return ((const float *)x)[i];
    case MINNX_DOUBLE: return ((const double *)x)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)x)[i]);
    case MINNX_INT8: return ((const int8_t *)x)[i];
    default: return ((const uint8_t *)x)[i];
  }
}

/* An average into element i of y: double's as is, float32's rounded once
 * into float16. */
static inline void mx_pool_store_avg(mx_dtype t, void *y, int64_t i, double dv, float fv) {
  if (t == MINNX_DOUBLE) ((double *)y)[i] = dv;
  else if (t == MINNX_FLOAT) ((float *)y)[i] = fv;
  else ((uint16_t *)y)[i] = mx_f32_to_f16(fv);
}

/* v beats the best so far: larger, or the first NaN. */
static inline int mx_pool_beats(double v, double best) { return v > best || (v != v && best == best); }

#endif
