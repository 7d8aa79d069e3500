/* A fused activation (act.h) on the vectors of the x86-64 levels, for the
 * kernels that apply it to their results (ops/math/gemm_x86.c's tiles,
 * ops/nn/conv_run.c's and ops/nn/dwconv.c's rows): the bits of mx_act_one,
 * lane for lane. Relu keeps x where !(x <= 0), else +0; Clip's picks keep x
 * where the bound does not lie beyond it, the bound where x does not, and OR
 * the two (both when they are equal or one is a NaN). Include only where
 * MX_X86_AVX2. */
#ifndef MX_ACT_X86_H
#define MX_ACT_X86_H

#include <immintrin.h>

#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/math/act.h"

/* 8 lanes (AVX2) */
typedef struct {
  int kind, lo_on, hi_on;
  __m256 lo, hi;
} mx_act8;
MX_FMA_TARGET static MX_ALWAYS_INLINE mx_act8 mx_act8_of(const mx_act *a) {
  mx_act8 v = {a->kind, a->lo_on, a->hi_on, _mm256_set1_ps(a->lo), _mm256_set1_ps(a->hi)};
  return v;
}
MX_FMA_TARGET static MX_ALWAYS_INLINE __m256 mx_act8_run(const mx_act8 *a, __m256 x) {
  if (a->kind == MX_ACT_RELU) return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OQ), x);
  if (a->lo_on)
    x = _mm256_or_ps(_mm256_andnot_ps(_mm256_cmp_ps(a->lo, x, _CMP_GT_OQ), x),
                     _mm256_andnot_ps(_mm256_cmp_ps(x, a->lo, _CMP_GT_OQ), a->lo));
  if (a->hi_on)
    x = _mm256_or_ps(_mm256_andnot_ps(_mm256_cmp_ps(a->hi, x, _CMP_LT_OQ), x),
                     _mm256_andnot_ps(_mm256_cmp_ps(x, a->hi, _CMP_LT_OQ), a->hi));
  return x;
}

/* y[i] = act(y[i]) for i < n, 8 at a time, the last few one at a time (mx_act_run's work for a row or plane
 * just stored; a NULL act or MX_ACT_NONE: nothing). mx_act_run's scalar loop had taken 0.5 cycles an element
 * where the compiler left it as it is: a Clip fused into MobileNet v2's 144-channel depthwise layer at 56 x 56,
 * a call per row of 56, had cost 65 us of its 293 (bench, min of 1000, 2026-12-06). */
MX_FMA_TARGET static inline void mx_act_run8(const mx_act *a, float *y, int64_t n) {
  if (!a || a->kind == MX_ACT_NONE) return;
  mx_act8 v = mx_act8_of(a);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, mx_act8_run(&v, _mm256_loadu_ps(y + i)));
  for (; i < n; i++) y[i] = mx_act_one(a, y[i]);
}

/* 16 lanes (AVX-512F: masks keep a lane where the compare says so and zero it elsewhere, then OR) */
typedef struct {
  int kind, lo_on, hi_on;
  __m512 lo, hi;
} mx_act16;
MX_AVX512_TARGET static MX_ALWAYS_INLINE mx_act16 mx_act16_of(const mx_act *a) {
  mx_act16 v = {a->kind, a->lo_on, a->hi_on, _mm512_set1_ps(a->lo), _mm512_set1_ps(a->hi)};
  return v;
}
MX_AVX512_TARGET static MX_ALWAYS_INLINE __m512 mx_act16_run(const mx_act16 *a, __m512 x) {
  if (a->kind == MX_ACT_RELU) return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NLE_UQ), x);
  if (a->lo_on)
    x = _mm512_or_ps(_mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a->lo, x, _CMP_NGT_UQ), x),
                     _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, a->lo, _CMP_NGT_UQ), a->lo));
  if (a->hi_on)
    x = _mm512_or_ps(_mm512_maskz_mov_ps(_mm512_cmp_ps_mask(a->hi, x, _CMP_NLT_UQ), x),
                     _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, a->hi, _CMP_NLT_UQ), a->hi));
  return x;
}

#endif
