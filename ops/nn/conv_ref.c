/* The reference loop of Conv (conv.h): each output element on its own, in
 * the documented order, one operation at a time, with the padding tested
 * element by element (no im2col, no product kernel). Slow on purpose: the
 * oracle the kernels are held to, bit for bit. */
#include <math.h>
#include <string.h>

#include "ops/core/half.h"
#include "ops/math/gemm.h"
#include "ops/nn/conv.h"

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

/* The input element under kernel offset (kd, kh, kw) of output (od, oh, ow)
 * of channel plane xc, or 0 in the padding. */
static double under(mx_dtype t, const mx_conv_geom *g, const void *x, int64_t xc, const int64_t o[3], const int64_t k[3]) {
  int64_t at = 0;
  for (int d = 0; d < 3; d++) {
    int64_t i = o[d] * g->stride[d] + k[d] * g->dil[d] - g->pad[d];
    if (i < 0 || i >= g->in[d]) return 0;
    at = at * g->in[d] + i;
  }
  return load(t, x, xc + at);
}

static double one(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, int64_t n, int64_t m,
                  const int64_t o[3]) {
  int64_t cg = g->c / g->group, grp = m / (g->m / g->group), window = mx_conv_window(g);
  double dacc = 0;
  float facc = 0;
  for (int64_t c = 0; c < cg; c++) {
    int64_t xc = (n * g->c + grp * cg + c) * mx_conv_in_plane(g);
    for (int64_t at = 0; at < window; at++) {
      int64_t k[3] = {at / (g->k[2] * g->k[1]), at / g->k[2] % g->k[1], at % g->k[2]};
      double xv = under(t, g, x, xc, o, k), wv = load(t, w, (m * cg + c) * window + at);
      if (t == MINNX_DOUBLE) dacc = MX_FMA64(wv, xv, dacc);
      else facc = fmaf((float)wv, (float)xv, facc);
    }
  }
  if (t == MINNX_DOUBLE) return b ? dacc + load(t, b, m) : dacc;
  return b ? facc + (float)load(t, b, m) : facc;
}

void mx_conv_ref_act(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, const mx_act *act,
                     void *y) {
  int64_t plane = mx_conv_plane(g), i = 0;
  act = t == MINNX_FLOAT ? mx_act_or_null(act) : NULL;
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t m = 0; m < g->m; m++)
      for (int64_t p = 0; p < plane; p++) {
        int64_t o[3] = {p / (g->out[2] * g->out[1]), p / g->out[2] % g->out[1], p % g->out[2]};
        double v = one(t, g, x, w, b, n, m, o);
        store(t, y, i++, act ? mx_act_one(act, (float)v) : v); /* (a float's value: exact either way) */
      }
}

void mx_conv_ref(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, void *y) {
  mx_conv_ref_act(t, g, x, w, b, NULL, y);
}
