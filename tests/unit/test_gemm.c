/* The matrix products' kernels (ops/math/gemm.h) against their reference
 * loop, bit for bit: the float32 driver at every instruction-set level this
 * CPU has, called directly, on odd shapes (every M and N of 1..17, 31, 33,
 * 67, K cycling through those and 259, which crosses a block of k), with A
 * and B transposed or not, MatMul's plain product and Gemm's epilogue (C of
 * every broadcast), batches with broadcast operands, shapes that cross every
 * block (MC, NC, KC, GEMV's stretch), tasks run in reverse order as another
 * thread would; and the row kernels of double and the integers. Values span
 * many binades, so that a kernel summing in another order, or rounding a
 * product apart from its sum, gives other bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/math/gemm.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static float value(void) {
  uint64_t r = next();
  float f = (float)((int)(r % 2001) - 1000) / 997.0f;
  return ldexpf(f, (int)(r >> 20) % 24 - 12);
}

/* Runs the tasks last first, as a second thread might. */
static void reverse(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  (void)pool;
  for (size_t i = n; i-- > 0;) task(ctx, i);
}

static int failed_shapes;

/* Returns whether the plan read B where it lies (mx_sgemm_plan.b_in_place). */
static int product(int isa, int64_t m, int64_t n, int64_t k, int ta, int tb, int gemm, int crank, int64_t batch) {
  mx_gemm_dims d = {.m = m, .n = n, .k = k, .batch = batch, .gemm = gemm};
  d.rsa = ta ? 1 : k, d.csa = ta ? m : 1;
  d.rsb = tb ? 1 : n, d.csb = tb ? k : 1;
  if (batch > 1) { /* [batch] x [1]: B broadcast */
    d.brank = 1, d.bdims[0] = batch, d.bsa[0] = m * k, d.bsb[0] = 0;
  }
  int64_t nc = 0;
  if (gemm) {
    d.alpha = 0.75, d.beta = -1.5;
    d.has_c = crank >= 0;
    /* crank 0: one element; 1: [n]; 2: [m, n]; 3: [m, 1] */
    d.rsc = crank == 2 ? n : crank == 3 ? 1 : 0;
    d.csc = crank == 1 || crank == 2 ? 1 : 0;
    nc = crank == 2 ? m * n : crank == 1 ? n : crank == 3 ? m : 1;
  }
  size_t na = (size_t)(batch * m * k), nb = (size_t)(k * n), ny = (size_t)(batch * m * n);
  float *a = malloc((na + 1) * 4), *b = malloc((nb + 1) * 4), *c = malloc(((size_t)nc + 1) * 4);
  float *y = malloc((ny + 1) * 4), *want = malloc((ny + 1) * 4);
  for (size_t i = 0; i < na; i++) a[i] = value();
  for (size_t i = 0; i < nb; i++) b[i] = value();
  for (int64_t i = 0; i < nc; i++) c[i] = value();
  mx_gemm_ref(MINNX_FLOAT, &d, a, b, c, want);
  mx_sgemm_plan p;
  mx_sgemm_plan_init(&p, &d, isa);
  void *scratch = NULL;
  size_t bytes = mx_sgemm_scratch(&p);
  if (bytes && !(scratch = aligned_alloc(64, bytes))) abort();
  for (int way = 0; way < 2; way++) {
    mx_exec x = {.parallel = way ? reverse : NULL};
    memset(y, 0xff, ny * 4);
    mx_sgemm_run(&p, &x, a, b, c, y, scratch);
    int same = memcmp(y, want, ny * 4) == 0;
    CHECK(same);
    if (!same && failed_shapes++ < 10)
      fprintf(stderr, "  level %d: m %lld n %lld k %lld transA %d transB %d gemm %d C rank %d batch %lld (%s)\n", isa,
              (long long)m, (long long)n, (long long)k, ta, tb, gemm, crank, (long long)batch,
              way ? "tasks reversed" : "inline");
  }
  free(scratch);
  free(a), free(b), free(c), free(y), free(want);
  return p.b_in_place;
}

static void rows_kernel(mx_dtype t, int64_t m, int64_t n, int64_t k, int tb, int gemm) {
  mx_gemm_dims d = {.m = m, .n = n, .k = k, .batch = 1, .gemm = gemm, .has_c = gemm};
  d.rsa = k, d.csa = 1;
  d.rsb = tb ? 1 : n, d.csb = tb ? k : 1;
  d.alpha = 3, d.beta = -2, d.ialpha = 3, d.ibeta = -2, d.rsc = 0, d.csc = 1;
  size_t es = mx_dtype_size(t);
  unsigned char *a = malloc((size_t)(m * k) * es + 8), *b = malloc((size_t)(k * n) * es + 8);
  unsigned char *c = malloc((size_t)n * es + 8), *y = malloc((size_t)(m * n) * es + 8),
                *want = malloc((size_t)(m * n) * es + 8);
  for (int64_t i = 0; i < m * k * (int64_t)es; i++) a[i] = (unsigned char)next();
  for (int64_t i = 0; i < k * n * (int64_t)es; i++) b[i] = (unsigned char)next();
  for (int64_t i = 0; i < n * (int64_t)es; i++) c[i] = (unsigned char)next();
  if (t == MINNX_DOUBLE) { /* finite values over many binades, not random bits */
    for (int64_t i = 0; i < m * k; i++) ((double *)a)[i] = (double)value() * (1 + 1e-9 * (double)i);
    for (int64_t i = 0; i < k * n; i++) ((double *)b)[i] = (double)value() / 3;
    for (int64_t i = 0; i < n; i++) ((double *)c)[i] = (double)value();
  }
  mx_gemm_ref(t, &d, a, b, c, want);
  for (int fma = 0; fma <= mx_cpu_fma(); fma++) {
    memset(y, 0xa5, (size_t)(m * n) * es);
    mx_gemm_rows_kernel_isa(t, fma)(&d, a, b, c, y, 0, m);
    CHECK(memcmp(y, want, (size_t)(m * n) * es) == 0);
  }
  free(a), free(b), free(c), free(y), free(want);
}

/* minnx's own double fma (fma64.c) against the C library's (glibc's is
 * rounded once): random bits, cancellations, subnormal and overflowing
 * results, ties. */
static double bits64(uint64_t u) {
  double v;
  memcpy(&v, &u, 8);
  return v;
}

static void fma64(void) {
  int bad = 0;
  for (int i = 0; i < 400000; i++) {
    uint64_t r1 = next(), r2 = next(), r3 = next();
    double x, y, z;
    switch (i % 6) {
      case 0: /* anything (NaN and infinities too) */
        x = bits64(r1), y = bits64(r2), z = bits64(r3);
        break;
      case 1: /* products and sums near 1: cancellation, ties */
        x = bits64(0x3ff0000000000000 | (r1 & 0xfffffffffffff)), y = bits64(0x3ff0000000000000 | (r2 & 0xfffffffffffff));
        z = -x * y + bits64(r3 & 0x3cbfffffffffffff) * (r3 >> 63 ? 1 : -1);
        break;
      case 2: /* tiny: subnormal results */
        x = bits64((r1 & 0x800fffffffffffff) | (uint64_t)(0x1ff + r1 % 64) << 52);
        y = bits64((r2 & 0x800fffffffffffff) | (uint64_t)(0x1ff + r2 % 64) << 52);
        z = bits64(r3 & 0x801fffffffffffff);
        break;
      case 3: /* huge: overflow */
        x = bits64((r1 & 0x800fffffffffffff) | (uint64_t)(0x5f0 + r1 % 32) << 52);
        y = bits64((r2 & 0x800fffffffffffff) | (uint64_t)(0x5f0 + r2 % 32) << 52);
        z = bits64((r3 & 0x800fffffffffffff) | 0x7fe0000000000000);
        break;
      case 4: /* exponents far apart */
        x = bits64((r1 & 0x800fffffffffffff) | (uint64_t)(900 + r1 % 300) << 52);
        y = bits64((r2 & 0x800fffffffffffff) | (uint64_t)(900 + r2 % 300) << 52);
        z = bits64((r3 & 0x800fffffffffffff) | (uint64_t)(r3 % 2046 + 1) << 52);
        break;
      default: /* small integers and halves: exact results, zeros of both signs */
        x = (double)((int)(r1 % 9) - 4) / 2, y = (double)((int)(r2 % 9) - 4), z = (double)((int)(r3 % 9) - 4) * 2;
        if (r3 & 1) z = -0.0;
        break;
    }
    /* The small cases are exact in two IEEE operations (x*y and the sum need few bits), which also gives
     * an exact zero its sign by IEEE 754's rule; valgrind's emulated fma instruction does not (0 * -4 + -0
     * gives +0 there). The others against the C library's fma. */
    double got = mx_fma64(x, y, z), want = i % 6 >= 5 ? x * y + z : fma(x, y, z);
    uint64_t g, w;
    memcpy(&g, &got, 8);
    memcpy(&w, &want, 8);
    int same = g == w || (isnan(got) && isnan(want));
    CHECK(same);
    if (!same && bad++ < 5)
      fprintf(stderr, "  mx_fma64(%a, %a, %a) = %a, fma gives %a\n", x, y, z, got, want);
  }
}

int main(void) {
  fma64();
  static const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 33, 67};
  static const int64_t ks[] = {1, 2, 3, 5, 7, 8, 9, 12, 16, 17, 31, 33, 67, 259, 0};
  int ns = (int)(sizeof sizes / sizeof sizes[0]), nk = (int)(sizeof ks / sizeof ks[0]);
  int top = mx_gemm_isa_available();
  for (int isa = MX_GEMM_PORTABLE; isa <= top; isa++) {
    int step = 0;
    for (int i = 0; i < ns; i++)
      for (int j = 0; j < ns; j++, step++)
        product(isa, sizes[i], sizes[j], ks[step % nk], step & 1, step >> 1 & 1, step % 3 != 0, step % 5 - 1, 1);
    /* every block crossed: MC (96), NC (512), KC (256); GEMV's stretches */
    product(isa, 100, 530, 300, 0, 0, 0, -1, 1);
    product(isa, 100, 530, 300, 1, 1, 1, 2, 1);
    product(isa, 97, 45, 513, 0, 1, 1, 3, 1);
    product(isa, 400, 40, 300, 0, 1, 0, -1, 1); /* tiles of more than MC rows, run in blocks of MC (96 + 12) */
    product(isa, 230, 530, 70, 1, 0, 1, 2, 1);  /* two tiles of columns, two of 120 rows (96 + 24) */
    /* the last columns one a vector (AVX-512F): 16 + 1 and 32 + 3 over 12-, 8- and 4-row slivers, k > KC */
    product(isa, 20, 49, 300, 0, 0, 0, -1, 1);
    product(isa, 28, 35, 40, 0, 1, 1, 2, 1);
    product(isa, 16, 19, 259, 1, 0, 0, -1, 1);
    product(isa, 1, 1100, 300, 0, 0, 1, 1, 1);
    product(isa, 1, 1100, 130, 0, 1, 0, -1, 1);
    product(isa, 1, 513, 65, 1, 1, 1, 0, 1);
    product(isa, 1, 1000, 512, 0, 1, 1, 1, 1); /* nn.Linear at batch 1 */
    product(isa, 1, 399, 45, 0, 0, 0, -1, 1);  /* GEMV's blocks: 256, 128, 8 or 16, the rest */
    product(isa, 1, 200, 9, 1, 0, 1, 2, 1);
    product(isa, 1, 128, 784, 0, 0, 0, -1, 1);
    /* B read where it lies by tiles of at most MC rows: its full slivers in
     * place, a partial one packed; and where it is not (a pitch of 4 KiB) */
    int reads = isa == MX_GEMM_AVX512; /* (the levels that read B in place) */
    CHECK(product(isa, 16, 3025, 128, 0, 0, 0, -1, 1) == reads); /* SqueezeNet's squeeze: 12 + 4 rows */
    CHECK(product(isa, 20, 100, 300, 0, 0, 1, 2, 1) == reads);   /* two stretches of k */
    CHECK(product(isa, 30, 200, 40, 1, 0, 1, 1, 1) == reads);    /* 12 + 12 + 6 rows: the edge block reads B in place */
    CHECK(product(isa, 7, 70, 9, 0, 0, 0, -1, 3) == reads);      /* a batch, B broadcast */
    CHECK(!product(isa, 24, 1024, 64, 0, 0, 0, -1, 1)); /* every row in one set of L1 */
    CHECK(!product(isa, 400, 300, 40, 0, 0, 0, -1, 1)); /* tiles of more than MC rows: packed */
    product(isa, 5, 9, 7, 0, 0, 0, -1, 6);    /* a batch, B broadcast */
    product(isa, 1, 33, 17, 0, 1, 0, -1, 3);
  }
  static const mx_dtype others[] = {MINNX_DOUBLE, MINNX_INT32, MINNX_INT64, MINNX_UINT32, MINNX_UINT64};
  for (size_t t = 0; t < sizeof others / sizeof others[0]; t++)
    for (int s = 0; s < 12; s++) rows_kernel(others[t], sizes[s + 3], sizes[(s * 7) % ns], ks[s], s & 1, s % 3 != 0);
  printf("levels run: portable%s%s\n", top >= MX_GEMM_FMA ? ", AVX2+FMA" : "", top >= MX_GEMM_AVX512 ? ", AVX-512F" : "");
  return check_report("test_gemm");
}
