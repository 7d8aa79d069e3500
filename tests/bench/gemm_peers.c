/* The matrix products' peers in tests/bench/run.py, timed in the same run as
 * minnx (never linked into the library):
 *
 *   gemm_peers peak [--threads N]
 *       the machine's float32 FMA throughput: each thread runs independent
 *       chains of fused multiply-adds at the full vector width this is built
 *       for (run.py: -march=native), enough chains to cover their latency;
 *       prints flops_per_ns=<all threads'>.
 *   gemm_peers sgemm M N K TRANSB [--repeat N] [--threads N]
 *       OpenBLAS's cblas_sgemm, C = A x B (B transposed with TRANSB 1),
 *       row-major, on OpenBLAS's own threads; prints ns_per_run=<median>.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

void openblas_set_num_threads(int n);

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the FMA peak ---- */

#define CHAINS 12
#define STEPS (1 << 24)
#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
static float first(vec v) { return _mm512_cvtss_f32(v); }
#elif defined(__FMA__)
typedef __m256 vec;
#define LANES 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
static float first(vec v) { return _mm256_cvtss_f32(v); }
#else
typedef float vec;
#define LANES 1
#define SET1(x) (x)
#define FMA(a, b, c) __builtin_fmaf(a, b, c)
static float first(vec v) { return v; }
#endif

static void *chains(void *out) {
  vec acc[CHAINS], m = SET1(1.0000001f), add = SET1(1e-7f);
  for (int i = 0; i < CHAINS; i++) acc[i] = SET1((float)i);
  for (long s = 0; s < STEPS; s++) {
#pragma GCC unroll 12 /* the chains in registers */
    for (int i = 0; i < CHAINS; i++) acc[i] = FMA(acc[i], m, add);
  }
  float sum = 0;
  for (int i = 0; i < CHAINS; i++) sum += first(acc[i]);
  *(float *)out = sum;
  return NULL;
}

static int peak(int threads) {
  pthread_t t[64];
  float sink[64];
  double best = 0;
  for (int round = 0; round < 3; round++) {
    uint64_t t0 = now_ns();
    for (int i = 1; i < threads; i++) pthread_create(&t[i], NULL, chains, &sink[i]);
    chains(&sink[0]);
    for (int i = 1; i < threads; i++) pthread_join(t[i], NULL);
    double flops = 2.0 * LANES * CHAINS * (double)STEPS * threads / (double)(now_ns() - t0);
    if (flops > best) best = flops;
  }
  printf("sink=%g\nflops_per_ns=%.3f\n", (double)sink[0], best);
  return 0;
}

/* ---- OpenBLAS ---- */

static int cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int sgemm(int m, int n, int k, int tb, int repeat) {
  float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
  uint64_t *times = malloc((size_t)repeat * sizeof *times);
  if (!a || !b || !c || !times) return 1;
  for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)(i % 13) - 6;
  for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)(i % 7) - 3;
  for (int r = -3; r < repeat; r++) {
    uint64_t t0 = now_ns();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, k, b, tb ? k : n, 0.0f,
                c, n);
    if (r >= 0) times[r] = now_ns() - t0;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp);
  printf("c0=%g\nns_per_run=%llu\n", (double)c[0], (unsigned long long)times[repeat / 2]);
  return 0;
}

int main(int argc, char **argv) {
  int threads = 1, repeat = 11, pos[4] = {0}, np = 0;
  const char *what = argc > 1 ? argv[1] : "";
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (np < 4) pos[np++] = atoi(argv[i]);
  }
  if (threads < 1 || threads > 64 || repeat < 1) return 2;
  if (strcmp(what, "peak") == 0) return peak(threads);
  if (strcmp(what, "sgemm") == 0 && np == 4) {
    openblas_set_num_threads(threads);
    return sgemm(pos[0], pos[1], pos[2], pos[3], repeat);
  }
  fprintf(stderr, "usage: gemm_peers peak [--threads N] | sgemm M N K TRANSB [--repeat N] [--threads N]\n");
  return 2;
}
