/* The reference loop of ConvTranspose (convt.h): each output element on its
 * own, gathering the input elements that land on it offset by offset, in the
 * documented order, one operation at a time (no product kernel, no col
 * buffer). Slow on purpose: the oracle the run is held to, bit for bit. */
#include <math.h>
#include <string.h>

#include "ops/core/half.h"
#include "ops/nn/convt.h"

static double load(mx_dtype t, const void *p, int64_t i) {
  if (t == MINNX_DOUBLE) {
    double v;
    memcpy(&v, (const double *)p + i, 8);
    return v;
  }
  if (t == MINNX_FLOAT16) {
    uint16_t h;
    memcpy(&h, (const uint16_t *)p + i, 2);
    return mx_f16_to_f32(h);
  }
  float f;
  memcpy(&f, (const float *)p + i, 4);
  return f;
}

static void store(mx_dtype t, void *p, int64_t i, double v) {
  if (t == MINNX_DOUBLE) {
    memcpy((double *)p + i, &v, 8);
  } else if (t == MINNX_FLOAT16) {
    uint16_t h = mx_f32_to_f16((float)v); /* v is a float here: exact */
    memcpy((uint16_t *)p + i, &h, 2);
  } else {
    float f = (float)v;
    memcpy((float *)p + i, &f, 4);
  }
}

/* The input position (flat in one channel plane) that lands on output o
 * under offset t, or -1 when none does. */
static int64_t landing(const mx_conv_geom *g, const int64_t o[3], const int64_t t[3]) {
  int64_t at = 0;
  for (int d = 0; d < 3; d++) {
    int64_t q = o[d] + g->pad[d] - t[d] * g->dil[d];
    if (q < 0 || q % g->stride[d] != 0 || q / g->stride[d] >= g->in[d]) return -1;
    at = at * g->in[d] + q / g->stride[d];
  }
  return at;
}

static double one(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, int64_t n, int64_t m,
                  const int64_t o[3]) {
  int64_t cg = g->c / g->group, mg = g->m / g->group, grp = m / mg, mm = m % mg, window = mx_conv_window(g);
  int64_t in_plane = mx_conv_in_plane(g);
  double dacc = 0;
  float facc = 0;
  for (int64_t at = 0; at < window; at++) {
    int64_t k[3] = {at / (g->k[2] * g->k[1]), at / g->k[2] % g->k[1], at % g->k[2]};
    int64_t i = landing(g, o, k);
    if (i < 0) continue;
    double ds = 0;
    float fs = 0;
    for (int64_t c = 0; c < cg; c++) {
      int64_t ch = grp * cg + c;
      double xv = load(t, x, (n * g->c + ch) * in_plane + i), wv = load(t, w, (ch * mg + mm) * window + at);
      if (t == MINNX_DOUBLE) ds = MX_FMA64(wv, xv, ds);
      else fs = fmaf((float)wv, (float)xv, fs);
    }
    if (t == MINNX_DOUBLE) dacc = dacc + ds;
    else facc = facc + fs;
  }
  if (t == MINNX_DOUBLE) return b ? dacc + load(t, b, m) : dacc;
  return b ? facc + (float)load(t, b, m) : facc;
}

void mx_convt_ref(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, void *y) {
  int64_t plane = mx_conv_plane(g), i = 0;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t m = 0; m < g->m; m++)
      for (int64_t p = 0; p < plane; p++) {
        int64_t o[3] = {p / (g->out[2] * g->out[1]), p / g->out[2] % g->out[1], p % g->out[2]};
        store(t, y, i++, one(t, g, x, w, b, n, m, o));
      }
}
