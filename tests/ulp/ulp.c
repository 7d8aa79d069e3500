/* The accuracy of ops/core/mathf.h, measured: every float32 input of each
 * unary function (2^32 of them, on two threads: minutes, not run by CI),
 * against the double-precision libm value rounded to float32 (the correctly
 * rounded result but for a double rounding about once in 2^29), and for pow
 * every x at a few exponents y plus random pairs. Prints per function the
 * largest error in ulps of the reference's binade, the input where it
 * occurs, and how many results are not the correctly rounded one; exits 1
 * if an error exceeds the bound README states (tests/ulp/measure.h).
 *
 *   ulp_sweep [--step N] [FUNCTION...]    (default: all; every Nth input only)
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/core/mathf.h"
#include "tests/ulp/measure.h"

#define CHUNK 4096
#define THREADS 2


typedef void (*mx_loop)(const float *x, const float *y, float *out, int n);
typedef double (*ref_fn)(double x, double y);

static void loop_exp(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_expf(x[i]);
}
static void loop_expm1(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_expm1f(x[i]);
}
static void loop_log(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_logf(x[i]);
}
static void loop_log1p(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_log1pf(x[i]);
}
static void loop_tanh(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_tanhf(x[i]);
}
static void loop_sigmoid(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_sigmoidf(x[i]);
}
static void loop_erf(const float *x, const float *y, float *out, int n) {
  (void)y;
  for (int i = 0; i < n; i++)
    out[i] = mx_erff(x[i]);
}
static void loop_pow(const float *x, const float *y, float *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = mx_powf(x[i], y[i]);
}

static double ref_exp(double x, double y) { return (void)y, exp(x); }
static double ref_expm1(double x, double y) { return (void)y, expm1(x); }
static double ref_log(double x, double y) { return (void)y, log(x); }
static double ref_log1p(double x, double y) { return (void)y, log1p(x); }
static double ref_tanh(double x, double y) { return (void)y, tanh(x); }
static double ref_sigmoid(double x, double y) { return (void)y, 1.0 / (1.0 + exp(-x)); }
static double ref_erf(double x, double y) { return (void)y, erf(x); }
static double ref_pow(double x, double y) { return pow(x, y); }

static const struct {
  const char *name;
  mx_loop loop;
  ref_fn ref;
} FUNCS[] = {
    {"exp", loop_exp, ref_exp},       {"expm1", loop_expm1, ref_expm1},       {"log", loop_log, ref_log},
    {"log1p", loop_log1p, ref_log1p}, {"tanh", loop_tanh, ref_tanh},          {"sigmoid", loop_sigmoid, ref_sigmoid},
    {"erf", loop_erf, ref_erf},       {"pow", loop_pow, ref_pow},
};
#define NFUNCS (sizeof FUNCS / sizeof FUNCS[0])

/* pow's exponents swept over every x (those of real models first), and the
 * count of random pairs */
static const float POW_Y[] = {2.0f, 0.5f, 3.0f, -1.0f};
#define POW_PAIRS (1u << 28)


struct result {
  double max_err;
  float worst_x, worst_y;
  uint64_t count, wrong;
};

static void add_result(struct result *r, const float *x, const float *y, const float *out, int n, ref_fn ref) {
  for (int i = 0; i < n; i++) {
    double want = ref((double)x[i], (double)y[i]);
    double err = mathf_ulp_error(out[i], want);
    r->wrong += err != 0;
    if (err > r->max_err) {
      r->max_err = err;
      r->worst_x = x[i];
      r->worst_y = y[i];
    }
  }
  r->count += (uint64_t)n;
}

struct job {
  int func;
  uint64_t step;
  int thread;
  struct result res;
};

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Every input i*step (i from `thread`, by THREADS chunks), and for pow the
 * same x at each of POW_Y, then random pairs: x of any bits, y either of
 * any bits below 2^12 or chosen so that |y log2 |x|| < 150 (results mostly
 * finite and nonzero). */
static void *sweep(void *arg) {
  struct job *j = arg;
  static _Thread_local float x[CHUNK], y[CHUNK], out[CHUNK];
  int is_pow = FUNCS[j->func].loop == loop_pow;
  int passes = is_pow ? (int)(sizeof POW_Y / sizeof POW_Y[0]) : 1;
  for (int pass = 0; pass < passes; pass++) {
    uint64_t base = (uint64_t)j->thread * CHUNK * j->step;
    for (; base < (1ull << 32); base += (uint64_t)THREADS * CHUNK * j->step) {
      int n = 0;
      for (uint64_t u = base; n < CHUNK && u < (1ull << 32); u += j->step, n++) {
        uint32_t b = (uint32_t)u;
        memcpy(&x[n], &b, 4);
        y[n] = is_pow ? POW_Y[pass] : 0.0f;
      }
      FUNCS[j->func].loop(x, y, out, n);
      add_result(&j->res, x, y, out, n, FUNCS[j->func].ref);
    }
  }
  if (is_pow) {
    uint64_t seed = 12345u + (uint64_t)j->thread;
    for (uint64_t done = 0; done < POW_PAIRS / THREADS / j->step; done += CHUNK) {
      for (int n = 0; n < CHUNK; n++) {
        uint64_t r = splitmix(&seed);
        uint32_t xb = (uint32_t)r;
        memcpy(&x[n], &xb, 4);
        double l2 = log2(fabs((double)x[n]));
        double u = (double)(r >> 40) / (double)(1u << 24); /* [0, 1) */
        if ((r >> 32) & 1 || !isfinite(l2) || l2 == 0)
          y[n] = (float)ldexp(u * 2 - 1, 12);
        else
          y[n] = (float)((u * 300 - 150) / l2);
      }
      loop_pow(x, y, out, CHUNK);
      add_result(&j->res, x, y, out, CHUNK, ref_pow);
    }
  }
  return NULL;
}

static int measure(int func, uint64_t step) {
  pthread_t th[THREADS];
  struct job jobs[THREADS];
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (struct job){.func = func, .step = step, .thread = t};
    if (pthread_create(&th[t], NULL, sweep, &jobs[t]) != 0) {
      fprintf(stderr, "ulp_sweep: cannot start a thread\n");
      exit(2);
    }
  }
  struct result all = {0};
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    struct result *r = &jobs[t].res;
    if (r->max_err > all.max_err || t == 0) {
      all.max_err = r->max_err;
      all.worst_x = r->worst_x;
      all.worst_y = r->worst_y;
    }
    all.count += r->count;
    all.wrong += r->wrong;
  }
  const char *name = FUNCS[func].name;
  double want = ref_pow == FUNCS[func].ref ? ref_pow(all.worst_x, all.worst_y) : FUNCS[func].ref(all.worst_x, 0);
  float got;
  FUNCS[func].loop(&all.worst_x, &all.worst_y, &got, 1);
  printf("%-8s max %.3f ulp at x=%a", name, all.max_err, (double)all.worst_x);
  if (FUNCS[func].ref == ref_pow)
    printf(" y=%a", (double)all.worst_y);
  printf(" (got %a, want %a); %" PRIu64 " of %" PRIu64 " not correctly rounded\n", (double)got, want, all.wrong,
         all.count);
  fflush(stdout);
  if (all.max_err > mathf_bound(name)) {
    printf("%s: above README's bound of %g ulp\n", name, mathf_bound(name));
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  uint64_t step = 1;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--step") == 0) {
    step = strtoull(argv[2], NULL, 10);
    first = 3;
    if (step == 0) {
      fprintf(stderr, "ulp_sweep: --step needs a positive count\n");
      return 2;
    }
  }
  for (int a = first; a < argc; a++) {
    size_t f = 0;
    while (f < NFUNCS && strcmp(argv[a], FUNCS[f].name) != 0)
      f++;
    if (f == NFUNCS) {
      fprintf(stderr, "ulp_sweep: no function '%s'\n", argv[a]);
      return 2;
    }
  }
  int failed = 0;
  for (size_t f = 0; f < NFUNCS; f++) {
    int chosen = first == argc;
    for (int a = first; a < argc; a++)
      chosen |= strcmp(argv[a], FUNCS[f].name) == 0;
    if (chosen)
      failed |= measure((int)f, step);
  }
  return failed;
}
