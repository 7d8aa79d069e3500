/* Sum, Mean and PRelu kernels (ops/math/sum_mean.c, binary.c): at every ISA
 * level this CPU has, over any bits (NaN, infinities, subnormals, the
 * integers' extremes): the float16/bfloat16 accumulation against the
 * reference loop and, for two inputs, against Add's one operation; PRelu's
 * kernel against its one-element rule (ops/math/arith.h); and the rounding
 * once at the end that the order documents (ops/math/sum_mean.h). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/core/bits.h"
#include "ops/core/half.h"
#include "ops/core/kernel.h"
#include "ops/math/arith.h"
#include "ops/math/binary.h"
#include "ops/math/sum_mean.h"

extern const mx_kernel_row mx_sum_mean_rows[];
extern const size_t mx_sum_mean_n_rows;

static uint64_t state = 0x2545f4914f6cdd1du;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

/* Equal bits, or two NaNs of a 16-bit float. */
static int same16(mx_dtype t, uint16_t a, uint16_t b) {
  uint16_t inf = t == MINNX_FLOAT16 ? 0x7c00 : 0x7f80;
  return a == b || ((a & 0x7fff) > inf && (b & 0x7fff) > inf);
}

enum { N = 301, K = 5 };

static void half_kernels(void) {
  static uint16_t x[K][N], got[N], want[N];
  static float acc[N];
  static const mx_dtype halves[] = {MINNX_FLOAT16, MINNX_BFLOAT16};
  for (int h = 0; h < 2; h++) {
    mx_dtype t = halves[h];
    for (int k = 0; k < K; k++)
      for (int i = 0; i < N; i++) x[k][i] = (uint16_t)next();
    mx_shape s = {.rank = 1, .dims = {N}};
    const mx_shape *shapes[K] = {&s, &s, &s, &s, &s};
    const void *ins[K] = {x[0], x[1], x[2], x[3], x[4]};
    for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
      const struct mx_sum_mean_set *set = mx_kernel_find(mx_sum_mean_rows, mx_sum_mean_n_rows, t, (mx_isa)isa);
      CHECK(set != NULL);
      if (!set) continue;
      for (int n = 2; n <= K; n++)
        for (int mean = 0; mean < 2; mean++) {
          set->first(acc, x[0], 1, x[1], n == 3 ? 0 : 1, N); /* three inputs: the second one value */
          for (int k = 2; k < n; k++) set->more(acc, x[k], 1, N);
          if (mean) set->mean(got, acc, (float)n, N);
          else set->sum(got, acc, N);
          mx_shape one = {.rank = 0};
          shapes[1] = n == 3 ? &one : &s;
          mx_sum_mean_ref(t, mean, n, shapes, ins, &s, want);
          shapes[1] = &s;
          int bad = -1;
          for (int i = 0; i < N && bad < 0; i++)
            if (!same16(t, got[i], want[i])) bad = i;
          CHECK_EQ_INT(bad, -1);
          if (n == 2 && !mean)
            for (int i = 0; i < N; i++) {
              uint16_t add = t == MINNX_FLOAT16 ? mx_add_f16(x[0][i], x[1][i]) : mx_add_bf16(x[0][i], x[1][i]);
              if (!same16(t, got[i], add)) bad = i;
            }
          CHECK_EQ_INT(bad, -1);
        }
    }
  }
}

/* 2048 + 1 + ... + 1 (seven ones) in float16: 2048 if each addition rounded
 * (ties to even), 2056 rounded once at the end; Mean: 2055 / 8 = 256.875, a tie
 * between float16 neighbours, 257 (per-step rounding: 256). */
static void rounded_once(void) {
  static uint16_t x[8][1], out[1];
  const mx_shape s = {.rank = 1, .dims = {1}};
  const mx_shape *shapes[8];
  const void *ins[8];
  for (int k = 0; k < 8; k++) x[k][0] = mx_f32_to_f16(k ? 1.0f : 2048.0f), shapes[k] = &s, ins[k] = x[k];
  mx_sum_mean_ref(MINNX_FLOAT16, 0, 8, shapes, ins, &s, out);
  CHECK(mx_f16_to_f32(out[0]) == 2056.0f);
  mx_sum_mean_ref(MINNX_FLOAT16, 1, 8, shapes, ins, &s, out);
  CHECK(mx_f16_to_f32(out[0]) == 257.0f);
}

static void prelu_kernels(void) {
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16,
                                   MINNX_INT32, MINNX_INT64, MINNX_UINT32, MINNX_UINT64};
  static unsigned char x[N * 8], slope[N * 8], got[N * 8], want[N * 8];
  for (size_t j = 0; j < sizeof types / sizeof types[0]; j++) {
    mx_dtype t = types[j];
    size_t es = mx_dtype_size(t);
    for (size_t i = 0; i < N * es; i++) x[i] = (unsigned char)next(), slope[i] = (unsigned char)next();
    mx_shape s = {.rank = 1, .dims = {N}};
    mx_binary_ref(t, MX_PRELU)(MX_PRELU, &s, x, &s, slope, &s, want);
    for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
      mx_binary_fn f = mx_binary_kernel(t, MX_PRELU, (mx_isa)isa);
      CHECK(f != NULL);
      if (!f) continue;
      f(got, x, 1, slope, 1, N, 1, 0, 0);
      CHECK(memcmp(got, want, N * es) == 0);
    }
  }
  /* the rule itself: x < 0 only; -0, NaN and unsigned values pass unchanged */
  CHECK(mx_prelu_f32(-2.0f, 0.25f) == -0.5f && mx_prelu_f32(3.0f, 0.25f) == 3.0f);
  CHECK(mx_f32_bits(mx_prelu_f32(-0.0f, 5.0f)) == 0x80000000u);
  CHECK(mx_prelu_f16(0xfe01, 0x3c00) == 0xfe01 && mx_prelu_bf16(0xbf80, 0x4000) == 0xc000);
  CHECK(mx_prelu_i32(INT32_MIN, -1) == INT32_MIN && mx_prelu_u32(0x80000000u, 2) == 0x80000000u);
}

int main(void) {
  half_kernels();
  rounded_once();
  prelu_kernels();
  return check_report("test_sum_mean");
}
