/* test_mathf.c's loops for AVX2 with FMA and for AVX-512, compiled as the
 * kernels of those levels are: with MX_MATHF_FMA (tests/CMakeLists.txt), so
 * that ops/core/mathf.h's fused multiply-adds are the instruction. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/core/cpu.h"
#include "ops/core/mathf.h"
#include "test_mathf.h"

#if MX_X86_GNU
#if !MX_FMAF_HW
#error "test_mathf_fma.c is compiled with MX_MATHF_FMA"
#endif
MATHF_LOOP(__attribute__((target("avx2,fma"))), mathf_loop_avx2_)
MATHF_LOOP(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,fma"))), mathf_loop_avx512_)
void mathf_loop_avx2(int f, const float *x, const float *y, float *out, int n);
void mathf_loop_avx512(int f, const float *x, const float *y, float *out, int n);
/* Triples that reach every case of the C version's rounding: any bits (NaN,
 * inf, subnormals, zeros of both signs), and c close to -a*b, so that the
 * sum cancels, or a*b far above or below c, so that it rounds on a tie or
 * just off one. */
static uint32_t xorshift(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}
__attribute__((target("avx2,fma"), noinline)) static float fma_hw(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
long mathf_fma_mismatches(long n);
long mathf_fma_mismatches(long n) {
  uint32_t st = 0x12345678u;
  long bad = 0;
  for (long i = 0; i < n; i++) {
    uint32_t ua = xorshift(&st), ub = xorshift(&st), uc = xorshift(&st);
    float a, b, c;
    memcpy(&a, &ua, 4), memcpy(&b, &ub, 4), memcpy(&c, &uc, 4);
    switch (i % 4) {
      case 0: break;
      case 1: /* cancellation: c is -a*b rounded, nudged */
        a = (float)((double)(ua >> 8) * 0x1p-20), b = (float)((double)(ub >> 8) * 0x1p-21);
        c = -(a * b);
        c = (uc & 1u) ? c * (1.0f + 0x1p-23f) : c;
        break;
      case 2: /* c far below a*b: a tie or near one */
        a = 1.0f + (float)(ua >> 9) * 0x1p-23f, b = 1.0f + (float)(ub >> 9) * 0x1p-23f;
        c = (float)(int32_t)(uc >> 20) * 0x1p-60f;
        break;
      default: /* moderate exponents of either sign */
        ua = (ua & 0x807fffffu) | ((100u + (ua >> 24) % 56u) << 23);
        ub = (ub & 0x807fffffu) | ((100u + (ub >> 24) % 56u) << 23);
        uc = (uc & 0x807fffffu) | ((60u + (uc >> 24) % 120u) << 23);
        memcpy(&a, &ua, 4), memcpy(&b, &ub, 4), memcpy(&c, &uc, 4);
        break;
    }
    float want = fma_hw(a, b, c), got = mx_fmaf_c(a, b, c);
    if (memcmp(&want, &got, 4) != 0 && !(want != want && got != got)) {
      if (bad < 5)
        fprintf(stderr, "mx_fmaf_c(%a, %a, %a) = %a, the instruction %a\n", (double)a, (double)b, (double)c, (double)got,
                (double)want);
      bad++;
    }
  }
  return bad;
}

void mathf_loop_avx2(int f, const float *x, const float *y, float *out, int n) { mathf_loop_avx2_(f, x, y, out, n); }
void mathf_loop_avx512(int f, const float *x, const float *y, float *out, int n) {
  mathf_loop_avx512_(f, x, y, out, n);
}
#endif
