/* The normalizations' kernels (ops/nn/norm.h, norm.c.in) at every ISA level
 * this CPU has, against the reference loops (ops/nn/norm_ref.c), bit for
 * bit: InstanceNormalization's planes and LayerNormalization's rows (stats,
 * then affine or layer, as norm.c runs them) in float, double, float16 and
 * bfloat16, lengths around the 16 partials (0, 1, 15, 16, 17, 100, 1000),
 * values with NaN, +-inf and signed zeros now and then. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/core/half.h"
#include "ops/nn/norm.h"
#include "ops/reduction/sum.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void fill(mx_dtype t, void *p, int64_t n, int specials) {
  static const double sp[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY};
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next();
    double v = specials && r % 97 == 0 ? sp[(r >> 8) % 5] : (double)((int)(r >> 16) % 20001 - 10000) / 3001.0;
    mx_norm_put(t, p, i, t == MINNX_DOUBLE ? v : (double)(float)v);
  }
}

static int same(mx_dtype t, const void *a, const void *b, int64_t n) {
  size_t es = mx_dtype_size(t);
  for (int64_t i = 0; i < n; i++) {
    double x = mx_norm_get(t, a, i), y = mx_norm_get(t, b, i);
    if (x != x && y != y) continue;
    if (memcmp((const char *)a + i * es, (const char *)b + i * es, es) != 0) return 0;
  }
  return 1;
}

static void run(mx_dtype t, int64_t chan, int64_t len, int specials) {
  size_t es = mx_dtype_size(t);
  int dbl = t == MINNX_DOUBLE;
  void *x = malloc((size_t)(chan * len + 1) * es), *y = malloc((size_t)(chan * len + 1) * es),
       *r = malloc((size_t)(chan * len + 1) * es), *sc = malloc((size_t)(chan + len + 1) * es),
       *b = malloc((size_t)(chan + len + 1) * es);
  float mean[64], inv[64], rmean[64], rinv[64];
  fill(t, x, chan * len, specials);
  fill(t, sc, chan + len, 0);
  fill(t, b, chan + len, 0);
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
    const struct mx_norm_set *k = mx_norm_kernels(t, (mx_isa)isa);
    CHECK(k != NULL);
    /* InstanceNormalization: one image of chan planes */
    mx_norm_geom g = {1, chan, len};
    mx_instancenorm_ref(t, &g, x, sc, b, 1e-5f, r);
    for (int64_t c = 0; c < chan; c++) {
      union { double d[3]; float f[3]; } mv, m;
      const char *at = (const char *)x + (size_t)(c * len) * es;
      k->stats(at, len, &mv);
      double s = mx_norm_get(t, sc, c), bb = mx_norm_get(t, b, c);
      if (dbl) m.d[0] = mv.d[0], m.d[1] = s / mx_sum_sqrt_f64(mv.d[1] + (double)1e-5f), m.d[2] = bb;
      else m.f[0] = mv.f[0], m.f[1] = (float)s / mx_sum_sqrt_f32(mv.f[1] + 1e-5f), m.f[2] = (float)bb;
      const char *p = (const char *)&m;
      k->affine((char *)y + (size_t)(c * len) * es, at, len, p, p + (dbl ? 8 : 4), p + (dbl ? 16 : 8), 0);
    }
    CHECK(same(t, y, r, chan * len));
    /* LayerNormalization: chan rows of len, with and without B */
    for (int bias = 0; bias < 2; bias++) {
      mx_layernorm_ref(t, chan, len, x, sc, bias ? b : NULL, 1e-5f, r, rmean, rinv);
      for (int64_t c = 0; c < chan; c++) {
        union { double d[2]; float f[2]; } mv;
        const char *at = (const char *)x + (size_t)(c * len) * es;
        k->stats(at, len, &mv);
        double mm;
        if (dbl) mm = mv.d[0], mv.d[1] = mx_sum_sqrt_f64(mv.d[1] + (double)1e-5f), inv[c] = (float)(1.0 / mv.d[1]);
        else mm = mv.f[0], mv.f[1] = mx_sum_sqrt_f32(mv.f[1] + 1e-5f), inv[c] = 1.0f / mv.f[1];
        mean[c] = (float)mm;
        k->layer((char *)y + (size_t)(c * len) * es, at, len, &mv, sc, bias ? b : NULL);
      }
      CHECK(same(t, y, r, chan * len));
      CHECK(same(MINNX_FLOAT, mean, rmean, chan));
      CHECK(same(MINNX_FLOAT, inv, rinv, chan));
    }
  }
  free(x), free(y), free(r), free(sc), free(b);
}

int main(void) {
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16};
  static const int64_t lens[] = {0, 1, 2, 15, 16, 17, 33, 100, 1000};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 9; j++)
      for (int sp = 0; sp < 2; sp++) run(types[i], 1 + (int64_t)(next() % 5), lens[j], sp);
  return check_report("test_norm");
}
