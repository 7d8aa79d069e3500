/* Clip's one-pass kernels (ops/minmax/clip.h), portable and AVX2, against a
 * reference written here from the rules (NaN in x or in a bound gives NaN;
 * lo > hi gives hi; +0 and -0 are equal) and, bit for bit, against the two
 * passes of the min/max family's pair kernels that Clip ran before: every
 * length around the chunks (and a long one), misaligned starts of x and y,
 * in place, with NaNs of both signs and with payloads, +-0, +-inf, extremes,
 * subnormals and values on the bounds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/dtype.h"
#include "ops/minmax/clip.h"
#include "ops/core/cpu.h"
#include "ops/minmax/extremum_kernels.h"

#define MAXN 4200

/* Value k of the pool (past the fixed ones: r picks one on a 1/512 grid). */
static double pool(int k, unsigned r) {
  static const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.25, -0.75, 2.0, -2.0, INFINITY, -INFINITY,
                                 NAN, -NAN, 1e-310, -1e-310, 1e-40, -1e-40, 3.4028234663852886e38, -1e300, 1e300};
  int nf = (int)(sizeof fixed / sizeof fixed[0]);
  if (k < nf) return fixed[k];
  return ((double)(r % 2001) - 1000.0) / 512.0; /* many on and around the bounds' steps */
}

static void put(mx_dtype t, void *p, int64_t i, double v, unsigned payload) {
  if (t == MINNX_FLOAT) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (isnan(f)) u |= payload & 0x3fffffu; /* a NaN with a payload */
    memcpy((char *)p + 4 * i, &u, 4);
  } else {
    uint64_t u;
    memcpy(&u, &v, 8);
    if (isnan(v)) u |= (uint64_t)payload << 20;
    memcpy((char *)p + 8 * i, &u, 8);
  }
}

static double get(mx_dtype t, const void *p, int64_t i) {
  if (t == MINNX_FLOAT) {
    float f;
    memcpy(&f, (const char *)p + 4 * i, 4);
    return f;
  }
  double d;
  memcpy(&d, (const char *)p + 8 * i, 8);
  return d;
}

/* The rule, from scratch. */
static double clip_rule(double x, double lo, double hi) {
  if (isnan(x) || isnan(lo) || isnan(hi)) return NAN;
  if (lo > hi) return hi;
  return x < lo ? lo : x > hi ? hi : x;
}

static int same_value(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static int run(mx_dtype t, mx_isa isa, double lo, double hi, int64_t n, int sx, int sy, int in_place, unsigned seed) {
  size_t es = t == MINNX_FLOAT ? 4 : 8;
  static unsigned char xb[(MAXN + 8) * 8], yb[(MAXN + 8) * 8], wb[(MAXN + 8) * 8];
  unsigned char lob[8], hib[8];
  unsigned char *x = xb + es * (size_t)sx, *y = in_place ? x : yb + es * (size_t)sy, *w = wb + es * (size_t)sy;
  unsigned r = seed;
  for (int64_t i = 0; i < n; i++) {
    r = r * 1103515245u + 12345u;
    put(t, x, i, pool((int)((r >> 16) % 40), r >> 8), r);
  }
  put(t, lob, 0, lo, 0x1234);
  put(t, hib, 0, hi, 0x4321);
  /* the two passes, as Clip made them before */
  const mx_pair_kernels *mx = mx_pair_kernels_isa(t, MX_MAX, isa), *mn = mx_pair_kernels_isa(t, MX_MIN, isa);
  mx->pair(w, x, MX_STREAM, lob, MX_SCALAR, n, 1, 0, 0);
  mn->pair(w, w, MX_CACHED, hib, MX_SCALAR, n, 1, 0, 0);
  double xs[MAXN];
  for (int64_t i = 0; i < n; i++) xs[i] = get(t, x, i);
  mx_clip_kernel(t, isa)(y, x, lob, hib, n);
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double want = clip_rule(xs[i], get(t, lob, 0), get(t, hib, 0)), got = get(t, y, i);
    if (!same_value(got, want) || memcmp(y + es * (size_t)i, w + es * (size_t)i, es) != 0) {
      if (bad++ < 3)
        fprintf(stderr, "clip %s ISA level %d: x=%g lo=%g hi=%g gave %g, want %g (n %lld, skews %d %d, in place %d)\n",
                t == MINNX_FLOAT ? "float" : "double", (int)isa, xs[i], lo, hi, got, want, (long long)n, sx, sy, in_place);
    }
  }
  return bad;
}

int main(void) {
  static const double bounds[][2] = {{-0.5, 0.5}, {0.0, 0.0},       {-0.0, 0.0},  {0.0, -0.0}, {1.0, -1.0},
                                     {NAN, 1.0},  {-1.0, NAN},      {NAN, NAN},   {-INFINITY, INFINITY},
                                     {0.25, 0.25}, {-1e-40, 1e-310}, {2.0, 1e300}};
  static const int64_t lengths[] = {0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 1000, MAXN};
  int kernels = 0;
  for (int ti = 0; ti < 2; ti++) {
    mx_dtype t = ti ? MINNX_DOUBLE : MINNX_FLOAT;
    if (!MX_DTYPE_ON(t)) continue; /* left out of this build (MINNX_DTYPES) */
    for (mx_isa isa = MX_ISA_PORTABLE; isa <= mx_cpu_isa() && isa <= MX_ISA_AVX2; isa++) { /* its levels */
      CHECK(mx_clip_kernel(t, isa) != NULL);
      kernels++;
      for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
          for (int skew = 0; skew < 4; skew++) {
            unsigned seed = (unsigned)(b * 131 + l * 17 + (size_t)skew);
            CHECK_EQ_INT(run(t, isa, bounds[b][0], bounds[b][1], lengths[l], skew, (skew * 3) % 4, 0, seed), 0);
            if (skew == 1) CHECK_EQ_INT(run(t, isa, bounds[b][0], bounds[b][1], lengths[l], skew, 0, 1, seed), 0);
          }
    }
  }
  /* the other dtypes have none: Clip makes two passes */
  CHECK(mx_clip_kernel(MINNX_INT32, MX_ISA_PORTABLE) == NULL);
  CHECK(mx_clip_kernel(MINNX_FLOAT16, MX_ISA_AVX2) == NULL);
  printf("clip: %d one-pass kernels tested (AVX2 %s)\n", kernels,
         mx_cpu_isa() >= MX_ISA_AVX2 ? "too" : "not in this build or CPU");
  return check_report("clip");
}
