/* ops/core/mathf.h against numpy, and against itself on every code path.
 *
 * 1. Each function's edge cases and a sample of ordinary inputs against the
 *    float64 values numpy gives (mathf_expected.h, written by
 *    mathf_reference.py): a NaN, an inf or a zero (with its sign) exactly,
 *    anything else within README's bound (tests/ulp/measure.h).
 * 2. The same bits on every path: one loop per function compiled for the
 *    build's baseline (vectorized for SSE2 or NEON), for AVX2 with FMA and
 *    for AVX-512 (run where the CPU has them), and called one element at a
 *    time through a function the compiler cannot vectorize, over 2^20 inputs
 *    spread across every exponent (2^16 on the Cortex-M4). Then a hash of
 *    the first 2^16 outputs against the one recorded below, so that the
 *    aarch64 build (run under qemu-user, as the whole suite), the Cortex-M4
 *    firmware (tests/m4, qemu-system-arm) and any other give x86-64's bits.
 *    The recorded hashes are minnx's own outputs: they say nothing of
 *    accuracy (part 1 and tests/ulp do), only that no architecture or
 *    compiler differs; a change to an algorithm changes them (`test_mathf
 *    --hashes` prints the new ones). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mathf_expected.h"
#include "ops/core/cpu.h"
#include "ops/core/mathd.h"
#include "ops/core/mathf.h"
#include "test_mathf.h"
#include "tests/ulp/measure.h"

static const struct {
  const char *name;
  const mathf_case *cases;
  size_t n;
  uint64_t hash; /* of the first HASHED outputs of part 2, as x86-64 computes them */
} FUNCS[NFUNC] = {
    [F_EXP] = {"exp", mathf_exp, sizeof mathf_exp / sizeof mathf_exp[0], 0xd780dc62911a0883u},
    [F_EXPM1] = {"expm1", mathf_expm1, sizeof mathf_expm1 / sizeof mathf_expm1[0], 0xc752e9696b63ab80u},
    [F_LOG] = {"log", mathf_log, sizeof mathf_log / sizeof mathf_log[0], 0xa74f452ee5276dacu},
    [F_LOG1P] = {"log1p", mathf_log1p, sizeof mathf_log1p / sizeof mathf_log1p[0], 0x15a34c79e0b9de3cu},
    [F_TANH] = {"tanh", mathf_tanh, sizeof mathf_tanh / sizeof mathf_tanh[0], 0x47c26190bd57c2feu},
    [F_SIGMOID] = {"sigmoid", mathf_sigmoid, sizeof mathf_sigmoid / sizeof mathf_sigmoid[0], 0x9170707bb2a0b5f1u},
    [F_ERF] = {"erf", mathf_erf, sizeof mathf_erf / sizeof mathf_erf[0], 0x4805f0f27b0efc5cu},
    [F_POW] = {"pow", mathf_pow, sizeof mathf_pow / sizeof mathf_pow[0], 0xd320aa1ea5979c3cu},
};

/* One element, never vectorized (the call is opaque to the loop). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static float one(int f, float x, float y) {
  switch (f) {
    case F_EXP: return mx_expf(x);
    case F_EXPM1: return mx_expm1f(x);
    case F_LOG: return mx_logf(x);
    case F_LOG1P: return mx_log1pf(x);
    case F_TANH: return mx_tanhf(x);
    case F_SIGMOID: return mx_sigmoidf(x);
    case F_ERF: return mx_erff(x);
    default: return mx_powf(x, y);
  }
}

MATHF_LOOP(, loop_base)
#if MX_X86_GNU
/* test_mathf_fma.c: the same loop for AVX2 with FMA and for AVX-512, in a
 * file compiled as the kernels of those levels are (MX_MATHF_FMA: mathf.h's
 * fused multiply-adds as the instruction; here they are computed in C) */
void mathf_loop_avx2(int f, const float *x, const float *y, float *out, int n);
void mathf_loop_avx512(int f, const float *x, const float *y, float *out, int n);
/* test_mathf_int.c: the AVX-512 loop with mathf.h's edges in integer form, as the AVX-512 kernels have them */
void mathf_loop_avx512i(int f, const float *x, const float *y, float *out, int n);
/* mx_fmaf_c against the FMA instruction over n triples (test_mathf_fma.c):
 * the number that differ */
long mathf_fma_mismatches(long n);
#define loop_avx2 mathf_loop_avx2
#define loop_avx512 mathf_loop_avx512
#endif

static void check_against_numpy(int f) {
  double bound = mathf_bound(FUNCS[f].name), worst = 0;
  for (size_t i = 0; i < FUNCS[f].n; i++) {
    const mathf_case *c = &FUNCS[f].cases[i];
    float got = one(f, c->x, c->y);
    double err = mathf_ulp_error(got, c->want);
    float wf = (float)c->want;
    int exact = isnan(wf) || isinf(wf) || wf == 0;
    check_count++;
    if (exact ? err != 0 : err > bound) {
      check_failures++;
      fprintf(stderr, "%s(%a, %a) = %a, numpy %a (%.2f ulp)\n", FUNCS[f].name, (double)c->x, (double)c->y,
              (double)got, c->want, err);
    }
    worst = err > worst ? err : worst;
  }
  printf("%-8s %3u cases against numpy, largest error %.3f ulp (bound %g)\n", FUNCS[f].name, (unsigned)FUNCS[f].n, worst,
         bound);
}

#ifndef N /* the M4 firmware's heap holds 2^16 (tests/m4/CMakeLists.txt) */
#define N (1 << 20)
#endif
#define HASHED (1 << 16)

/* 2^20 inputs spread over every bit pattern (an odd stride), the numpy
 * cases among them; pow's exponents from a few that models use and others
 * that keep results mostly finite and nonzero. */
static void fill(int f, float *x, float *y) {
  static const float ys[] = {2.0f, 0.5f, 3.0f, -1.0f, 1.5f, -0.25f, 0.1f, 7.0f};
  for (uint32_t i = 0; i < N; i++) {
    uint32_t b = i * 4099u + 0x9e3779b9u;
    memcpy(&x[i], &b, 4);
    y[i] = ys[i % 8];
  }
  for (size_t i = 0; i < FUNCS[f].n && i < N; i++) {
    x[i * 7] = FUNCS[f].cases[i].x;
    y[i * 7] = f == F_POW ? FUNCS[f].cases[i].y : 0.0f;
  }
}

static uint64_t fnv1a(const float *v, int n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (int i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    for (int k = 0; k < 4; k++)
      h = (h ^ ((b >> (8 * k)) & 0xffu)) * 0x100000001b3u;
  }
  return h;
}

static int same_bits(const char *func, const char *path, const float *want, const float *got, const float *x) {
  for (int i = 0; i < N; i++)
    if (memcmp(&want[i], &got[i], 4) != 0) {
      fprintf(stderr, "%s(%a): %s gives %a, one at a time %a\n", func, (double)x[i], path, (double)got[i],
              (double)want[i]);
      return 0;
    }
  return 1;
}

/* Pow with an exponent of 2 is the square, x * x: one IEEE multiplication, the correctly rounded x^2 (numpy's
 * x ** 2 on arrays, PyTorch's pow(x, 2)), in float32 and double. The exponent is read through a volatile, so
 * that the compiler cannot fold the call (the Pow kernels' rows of exponent 2 do fold it, to this square).
 * 4097^2 = 16785409 lies halfway between two floats: ties to even give 16785408 (glibc's powf, and numpy's
 * np.power, give 16785410); 1.25 2^-73 squared lies halfway between two subnormals. */
static void check_square(void) {
  volatile float two = 2.0f;
  volatile double two64 = 2.0;
  CHECK(mx_f32_bits(mx_powf(4097.0f, two)) == mx_f32_bits(16785408.0f));
  CHECK(mx_f32_bits(mx_powf(0x1.4p-73f, two)) == mx_f32_bits(0x1.8p-146f));
  uint64_t bad = 0, bad64 = 0;
  for (uint64_t b = 0; b < 0x100000000u; b += 65537) { /* 65,536 float32 patterns across every exponent */
    float x = mx_f32_of_bits((uint32_t)b), got = mx_powf(x, two), want = x * x;
    bad += x == x && mx_f32_bits(got) != mx_f32_bits(want);
    double xd = mx_f64_of_bits((uint64_t)b * 0x9e3779b97f4a7c15u), g64 = mx_pow64(xd, two64), w64 = xd * xd;
    bad64 += xd == xd && mx_f64_bits(g64) != mx_f64_bits(w64);
  }
  if (bad || bad64) fprintf(stderr, "pow(x, 2) differs from x * x for %llu floats and %llu doubles\n",
                            (unsigned long long)bad, (unsigned long long)bad64);
  CHECK(bad == 0 && bad64 == 0);
}

int main(int argc, char **argv) {
  int print_hashes = argc > 1 && strcmp(argv[1], "--hashes") == 0;
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  float *scalar = malloc(N * sizeof *scalar), *out = malloc(N * sizeof *out);
  if (!x || !y || !scalar || !out)
    return 1;
#if MX_X86_GNU
  __builtin_cpu_init();
  int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
  printf("paths: baseline%s%s, and one element at a time\n", avx2 ? ", AVX2" : "", avx512 ? ", AVX-512" : "");
#endif
  check_square();
#if MX_X86_GNU
  if (avx2) {
    long bad = mathf_fma_mismatches(1L << 22);
    printf("fmaf in C against the FMA instruction: %ld of %ld triples differ\n", bad, 1L << 22);
    CHECK(bad == 0);
  }
#endif
  for (int f = 0; f < NFUNC; f++) {
    check_against_numpy(f);
    fill(f, x, y);
    for (int i = 0; i < N; i++)
      scalar[i] = one(f, x[i], y[i]);
    loop_base(f, x, y, out, N);
    CHECK(same_bits(FUNCS[f].name, "the baseline loop", scalar, out, x));
#if MX_X86_GNU
    if (avx2) {
      loop_avx2(f, x, y, out, N);
      CHECK(same_bits(FUNCS[f].name, "the AVX2 loop", scalar, out, x));
    }
    if (avx512) {
      loop_avx512(f, x, y, out, N);
      CHECK(same_bits(FUNCS[f].name, "the AVX-512 loop", scalar, out, x));
      mathf_loop_avx512i(f, x, y, out, N);
      CHECK(same_bits(FUNCS[f].name, "the AVX-512 loop with integer edges", scalar, out, x));
    }
#endif
    uint64_t h = fnv1a(scalar, HASHED);
    if (print_hashes)
      printf("    [F_%s] hash 0x%016llxu\n", FUNCS[f].name, (unsigned long long)h);
    else if (h != FUNCS[f].hash) {
      check_count++, check_failures++;
      fprintf(stderr, "%s: outputs hash to 0x%016llx, x86-64's to 0x%016llx\n", FUNCS[f].name,
              (unsigned long long)h, (unsigned long long)FUNCS[f].hash);
    } else
      check_count++;
  }
  free(x), free(y), free(scalar), free(out);
  return check_report("mathf");
}
