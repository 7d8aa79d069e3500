/* The accuracy of ops/core/mathd.h, measured: for each double function, N
 * sampled inputs (default 4 million, split over two threads): half of them
 * any bit pattern (the whole range, subnormals, NaN and inf included), half
 * uniform over the function's interesting intervals (where its algorithm
 * changes, where it cancels, near over- and underflow); pow: pairs, x of any
 * bits or near 1, y of any bits below 2^11 or chosen so that |y log x| <
 * 745. The reference is libquadmath's __float128 function (113 bits; in this
 * tool only, never in the library), rounded to double. Prints per function
 * the largest error in ulps of the reference's binade (2^-1074 at the
 * least), the input where it occurs, and how many results are not the
 * correctly rounded one; exits 1 if an error exceeds the bound README
 * states (MATHD_BOUNDS below).
 *
 *   ulp_sweep64 [--n N] [FUNCTION...]
 */
#include <math.h>
#include <pthread.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/core/mathd.h"

#define THREADS 2

/* ulps, as README states them */
static const struct {
  const char *name;
  double ulp;
} MATHD_BOUNDS[] = {
    {"exp", 1}, {"expm1", 1.5}, {"log", 1}, {"log1p", 1}, {"tanh", 2}, {"sigmoid", 1.5}, {"erf", 1.5}, {"pow", 1},
};

typedef double (*fn)(double x, double y);
typedef __float128 (*qfn)(__float128 x, __float128 y);

static double f_exp(double x, double y) { return (void)y, mx_exp64(x); }
static double f_expm1(double x, double y) { return (void)y, mx_expm1_64(x); }
static double f_log(double x, double y) { return (void)y, mx_log64(x); }
static double f_log1p(double x, double y) { return (void)y, mx_log1p64(x); }
static double f_tanh(double x, double y) { return (void)y, mx_tanh64(x); }
static double f_sigmoid(double x, double y) { return (void)y, mx_sigmoid64(x); }
static double f_erf(double x, double y) { return (void)y, mx_erf64(x); }
static double f_pow(double x, double y) { return mx_pow64(x, y); }
static __float128 q_exp(__float128 x, __float128 y) { return (void)y, expq(x); }
static __float128 q_expm1(__float128 x, __float128 y) { return (void)y, expm1q(x); }
static __float128 q_log(__float128 x, __float128 y) { return (void)y, logq(x); }
static __float128 q_log1p(__float128 x, __float128 y) { return (void)y, log1pq(x); }
static __float128 q_tanh(__float128 x, __float128 y) { return (void)y, tanhq(x); }
static __float128 q_sigmoid(__float128 x, __float128 y) { return (void)y, 1 / (1 + expq(-x)); }
static __float128 q_erf(__float128 x, __float128 y) { return (void)y, erfq(x); }
static __float128 q_pow(__float128 x, __float128 y) { return powq(x, y); }

/* the intervals sampled uniformly, per function */
struct span {
  double lo, hi;
};
static const struct {
  const char *name;
  fn f;
  qfn q;
  struct span spans[6];
} FUNCS[] = {
    {"exp", f_exp, q_exp, {{-1, 1}, {-50, 50}, {-745.2, -700}, {700, 709.8}, {-1e-8, 1e-8}, {-800, 800}}},
    {"expm1", f_expm1, q_expm1, {{-0.8, 0.8}, {-3, 3}, {-40, 40}, {700, 709.8}, {-1e-9, 1e-9}, {36, 40}}},
    {"log", f_log, q_log, {{0.5, 2}, {0.99, 1.01}, {1e-300, 1e-290}, {1, 1e300}, {0.9999999, 1.0000001}, {0, 1e-310}}},
    {"log1p", f_log1p, q_log1p, {{-0.5, 1}, {-1e-5, 1e-5}, {-1, -0.99}, {1, 1e10}, {-0.3, 0.5}, {1e15, 1e20}}},
    {"tanh", f_tanh, q_tanh, {{-0.6, 0.6}, {0.5, 0.6}, {-3, 3}, {-25, 25}, {-1e-8, 1e-8}, {0.54, 0.56}}},
    {"sigmoid", f_sigmoid, q_sigmoid, {{-1, 1}, {-40, 40}, {-745, -700}, {30, 40}, {-1e-8, 1e-8}, {-800, 800}}},
    {"erf", f_erf, q_erf, {{-0.8, 0.8}, {0.7, 0.8}, {-6.5, 6.5}, {0.75, 6}, {-1e-8, 1e-8}, {5.5, 6.1}}},
    {"pow", f_pow, q_pow, {{0, 0}}},
};
#define NFUNCS (sizeof FUNCS / sizeof FUNCS[0])

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double of_bits(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
static uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static double uniform(uint64_t *s) { return (double)(splitmix(s) >> 11) * 0x1p-53; }

/* |y - want| in ulps of double at want's binade; 0 when y is want rounded
 * (a zero's sign counts, any NaN matches a NaN), 0.5 for a zero of the wrong
 * sign, inf when one is NaN or inf and the other not */
static double ulp_error(double y, __float128 want) {
  double wd = (double)want;
  if (isnan(wd) || isnan(y)) return isnan(wd) && isnan(y) ? 0 : INFINITY;
  if (bits_of(y) == bits_of(wd)) return 0;
  if (isinf(y) || isinf(wd)) return INFINITY;
  int e;
  frexpq(want, &e);
  __float128 unit = ldexpq(1, e - 53 < -1074 ? -1074 : e - 53);
  double err = (double)(fabsq((__float128)y - want) / unit);
  return err == 0 ? 0.5 : err;
}

struct job {
  int func, thread;
  uint64_t n;
  double max_err, wx, wy;
  uint64_t wrong;
};

static void sample(int func, uint64_t i, uint64_t *s, double *x, double *y) {
  *y = 0;
  if (FUNCS[func].f == f_pow) {
    uint64_t kind = i % 4;
    *x = kind == 0 ? of_bits(splitmix(s)) : kind == 1 ? 1 + (uniform(s) - 0.5) * 0x1p-20 : fabs(of_bits(splitmix(s)));
    if (kind == 3) *x = -*x;
    double lx = fabs(log(fabs(*x)));
    if (i % 8 < 4) {
      *y = (uniform(s) * 2 - 1) * 2048; /* any y below 2^11, integers among them */
      if (i % 16 < 2) *y = rint(*y);
    } else {
      *y = (uniform(s) * 2 - 1) * (lx > 0 && isfinite(lx) ? 745 / lx : 2048);
    }
    return;
  }
  if (i % 2 == 0) {
    *x = of_bits(splitmix(s));
    return;
  }
  const struct span *sp = &FUNCS[func].spans[(i / 2) % 6];
  *x = sp->lo + (sp->hi - sp->lo) * uniform(s);
}

static void *run(void *arg) {
  struct job *j = arg;
  uint64_t s = 0x1234567u * (uint64_t)(j->func + 1) + (uint64_t)j->thread;
  for (uint64_t i = (uint64_t)j->thread; i < j->n; i += THREADS) {
    double x, y;
    sample(j->func, i, &s, &x, &y);
    double got = FUNCS[j->func].f(x, y);
    double err = ulp_error(got, FUNCS[j->func].q((__float128)x, (__float128)y));
    j->wrong += err != 0;
    if (err > j->max_err) j->max_err = err, j->wx = x, j->wy = y;
  }
  return NULL;
}

int main(int argc, char **argv) {
  uint64_t n = 4000000;
  int want[NFUNCS] = {0}, any = 0, fail = 0;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--n") == 0 && a + 1 < argc) {
      n = strtoull(argv[++a], NULL, 10);
      continue;
    }
    for (size_t f = 0; f < NFUNCS; f++)
      if (strcmp(argv[a], FUNCS[f].name) == 0) want[f] = any = 1;
  }
  for (size_t f = 0; f < NFUNCS; f++) {
    if (any && !want[f]) continue;
    struct job jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
      jobs[t] = (struct job){.func = (int)f, .thread = t, .n = n};
      pthread_create(&th[t], NULL, run, &jobs[t]);
    }
    double max_err = 0, wx = 0, wy = 0;
    uint64_t wrong = 0;
    for (int t = 0; t < THREADS; t++) {
      pthread_join(th[t], NULL);
      wrong += jobs[t].wrong;
      if (jobs[t].max_err > max_err) max_err = jobs[t].max_err, wx = jobs[t].wx, wy = jobs[t].wy;
    }
    int over = max_err > MATHD_BOUNDS[f].ulp;
    fail |= over;
    printf("%-8s %llu inputs: max %.3f ulp at x=%a y=%a, %llu not correctly rounded%s\n", FUNCS[f].name,
           (unsigned long long)n, max_err, wx, wy, (unsigned long long)wrong, over ? "  OVER THE BOUND" : "");
    fflush(stdout);
  }
  return fail;
}
