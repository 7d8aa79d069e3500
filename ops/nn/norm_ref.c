/* The reference loops of the normalizations (norm.h's order): one element
 * at a time, every operation done in double and rounded to A (float32 for
 * float, float16, bfloat16: a +, -, *, / or square root of float32 operands
 * done in double and rounded once is the float32 operation's result, double
 * having more than 2 x 24 + 2 bits). Slow on purpose: the oracle the
 * kernels are held to, bit for bit. */
#include "ops/nn/norm.h"
#include "ops/reduction/sum.h"

static double rnd(int dbl, double v) { return dbl ? v : (double)(float)v; }
static double root(int dbl, double v) { return dbl ? mx_sum_sqrt_f64(v) : (double)mx_sum_sqrt_f32((float)v); }

/* The mean and variance of n elements of x from element `at` on. */
static void ref_stats(mx_dtype t, const void *x, int64_t at, int64_t n, double *mean, double *var) {
  int dbl = t == MINNX_DOUBLE;
  double p[MX_NORM_LANES];
  for (int pass = 0; pass < 2; pass++) {
    for (int l = 0; l < MX_NORM_LANES; l++) p[l] = 0;
    for (int64_t j = 0; j < n; j++) {
      double v = mx_norm_get(t, x, at + j);
      if (pass) {
        double d = rnd(dbl, v - *mean);
        v = rnd(dbl, d * d);
      }
      p[j % MX_NORM_LANES] = rnd(dbl, p[j % MX_NORM_LANES] + v);
    }
    for (int h = MX_NORM_LANES / 2; h >= 1; h /= 2)
      for (int l = 0; l < h; l++) p[l] = rnd(dbl, p[l] + p[l + h]);
    *(pass ? var : mean) = rnd(dbl, p[0] / rnd(dbl, (double)n));
  }
}

/* y = (x - m) * (scale / sqrt(var + eps)) + b for the elements [at, at + n). */
static void ref_affine(mx_dtype t, const void *x, void *y, int64_t at, int64_t n, double m, double var, double scale,
                       double b, float eps) {
  int dbl = t == MINNX_DOUBLE;
  m = rnd(dbl, m), var = rnd(dbl, var), scale = rnd(dbl, scale), b = rnd(dbl, b);
  double a = rnd(dbl, scale / root(dbl, rnd(dbl, var + (double)eps)));
  for (int64_t i = at; i < at + n; i++) {
    double d = rnd(dbl, mx_norm_get(t, x, i) - m);
    mx_norm_put(t, y, i, rnd(dbl, rnd(dbl, d * a) + b));
  }
}

void mx_batchnorm_ref(mx_dtype t, const mx_norm_geom *g, const void *x, const mx_dtype pt[4], const void *const p[4],
                      float eps, void *y) {
  for (int64_t n = 0; n < g->n; n++)
    for (int64_t c = 0; c < g->chan; c++)
      ref_affine(t, x, y, (n * g->chan + c) * g->inner, g->inner, mx_norm_get(pt[2], p[2], c),
                 mx_norm_get(pt[3], p[3], c), mx_norm_get(pt[0], p[0], c), mx_norm_get(pt[1], p[1], c), eps);
}

void mx_instancenorm_ref(mx_dtype t, const mx_norm_geom *g, const void *x, const void *scale, const void *bias,
                         float eps, void *y) {
  for (int64_t u = 0; u < g->n * g->chan; u++) {
    double m, v;
    ref_stats(t, x, u * g->inner, g->inner, &m, &v);
    ref_affine(t, x, y, u * g->inner, g->inner, m, v, mx_norm_get(t, scale, u % g->chan),
               mx_norm_get(t, bias, u % g->chan), eps);
  }
}

void mx_layernorm_ref(mx_dtype t, int64_t rows, int64_t len, const void *x, const void *scale, const void *bias,
                      float eps, void *y, float *mean, float *inv) {
  int dbl = t == MINNX_DOUBLE;
  for (int64_t r = 0; r < rows; r++) {
    double m, v;
    ref_stats(t, x, r * len, len, &m, &v);
    double s = root(dbl, rnd(dbl, v + (double)eps));
    for (int64_t i = 0; i < len; i++) {
      double d = rnd(dbl, mx_norm_get(t, x, r * len + i) - m);
      double o = rnd(dbl, rnd(dbl, d / s) * mx_norm_get(t, scale, i));
      if (bias) o = rnd(dbl, o + mx_norm_get(t, bias, i));
      mx_norm_put(t, y, r * len + i, o);
    }
    if (mean) mean[r] = (float)m;
    if (inv) inv[r] = (float)rnd(dbl, 1.0 / s);
  }
}
