/* BatchNormalization, InstanceNormalization, LayerNormalization (ops/nn/norm.c):
 * their order, the kernels (norm.c.in, instantiated by norm.kernels.cmake for
 * float, double, float16 and bfloat16, portably and for AVX2 and AVX-512 from
 * the same text) and the reference loops (norm_ref.c) they are held to.
 *
 * The order (README, "Normalizations"). The compute type A is float32 for
 * float, float16 and bfloat16 (each element converted exactly), double for
 * double; every result is rounded once into the output's dtype. No fused
 * multiply-add anywhere.
 * - A set's statistics (InstanceNormalization's plane of one (n, c),
 *   LayerNormalization's row of the dims from `axis` on), its n elements in
 *   row-major order j = 0, 1, ...: the mean is s / n, s the sum of the
 *   elements in sum.h's order (element j into partial j mod 16, each partial
 *   sequential from 0, the 16 combined by p[l] += p[l + h] for h = 8, 4, 2,
 *   1); the variance is q / n, q the sum of d_j * d_j, d_j = x_j - mean, in
 *   the same order (two passes: the mean of squared deviations). An empty
 *   set's mean and variance are 0/0, NaN.
 * - BatchNormalization and InstanceNormalization, per channel (per element
 *   of C x D1 x ... for BatchNormalization's spatial=0): s = sqrt(var + eps),
 *   a = scale / s (each one IEEE operation in A: +, correctly rounded sqrt,
 *   /), then y = (x - mean) * a + B per element (-, *, +). scale, B, mean
 *   and var of another dtype than X (BatchNormalization-14's U,
 *   BatchNormalization-15's T1 and T2) are converted to A first (exactly,
 *   but double to float32: rounded once). eps is the float attribute in A.
 * - LayerNormalization (stash_type 1, float32): the statistics in A, which
 *   is the float32 stash for float16, bfloat16 and float; double X keeps
 *   double (as ONNX Runtime does; ONNX's function body would round X to
 *   float32 first). s = sqrt(var + eps), InvStdDev = 1 / s and Mean =
 *   mean, rounded once to float32 for the outputs; then per element
 *   y = ((x - mean) / s) * Scale + B in A (no B: the product alone).
 * Sets are whole in one task: threads split sets, never a sum. */
#ifndef MX_NN_NORM_H
#define MX_NN_NORM_H

#include <stdint.h>

#include "graph/ir.h"
#include "ops/core/cpu.h"
#include "ops/core/half.h"

enum { MX_NORM_LANES = 16 };

/* The kernels of one X dtype (A: its compute type, float or double):
 * - stats: the mean and variance of n contiguous elements into mv[0], mv[1]
 *   (A);
 * - affine: y = (x - m) * a + b for n contiguous elements, with m, a, b
 *   the same for all (vec 0: pointers to one A each) or per element (vec 1:
 *   arrays of n);
 * - layer: y = ((x - ms[0]) / ms[1]) * scale (+ bias unless bias is NULL)
 *   for n contiguous elements, ms two A values; scale and bias of X's dtype. */
struct mx_norm_set {
  void (*stats)(const void *x, int64_t n, void *mv);
  void (*affine)(void *y, const void *x, int64_t n, const void *m, const void *a, const void *b, int vec);
  void (*layer)(void *y, const void *x, int64_t n, const void *ms, const void *scale, const void *bias);
};

/* The set for X's dtype t at the highest level <= isa (NULL: not in the build). */
const struct mx_norm_set *mx_norm_kernels(mx_dtype t, mx_isa isa);

/* ---- per-dtype traits the template calls by suffix ---- */
typedef float mx_norm_acc_f32;
typedef double mx_norm_acc_f64;
typedef float mx_norm_acc_f16;
typedef float mx_norm_acc_bf16;
static inline float mx_norm_load_f32(float x) { return x; }
static inline double mx_norm_load_f64(double x) { return x; }
static inline float mx_norm_load_f16(uint16_t x) { return mx_f16_to_f32(x); }
static inline float mx_norm_load_bf16(uint16_t x) { return mx_bf16_to_f32(x); }
static inline float mx_norm_store_f32(float a) { return a; }
static inline double mx_norm_store_f64(double a) { return a; }
static inline uint16_t mx_norm_store_f16(float a) { return mx_f32_to_f16(a); }
static inline uint16_t mx_norm_store_bf16(float a) { return mx_f32_to_bf16(a); }

/* ---- what the op and the reference loops share ---- */

/* Element i of a float16/float/double/bfloat16 tensor as a double (exact). */
static inline double mx_norm_get(mx_dtype t, const void *p, int64_t i) {
  switch (t) {
    case MINNX_DOUBLE: return ((const double *)p)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)p)[i]);
    case MINNX_BFLOAT16: return mx_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const float *)p)[i];
  }
}
/* Element i of y from A's value (a double when t is double, else a float
 * held in v exactly). */
static inline void mx_norm_put(mx_dtype t, void *p, int64_t i, double v) {
  switch (t) {
    case MINNX_DOUBLE: ((double *)p)[i] = v; break;
    case MINNX_FLOAT16: ((uint16_t *)p)[i] = mx_f32_to_f16((float)v); break;
    case MINNX_BFLOAT16: ((uint16_t *)p)[i] = mx_f32_to_bf16((float)v); break;
    default: ((float *)p)[i] = (float)v; break;
  }
}

/* BatchNormalization's and InstanceNormalization's shape: N sets of `chan`
 * parameter groups (C, or C x D1 x ... for BatchNormalization's spatial=0),
 * each of `inner` contiguous elements. */
typedef struct mx_norm_geom {
  int64_t n, chan, inner;
} mx_norm_geom;

/* The reference loops: one element at a time, the order above.
 * BatchNormalization: p[0..3] = scale, B, mean, var of dtypes pt[0..3]. */
void mx_batchnorm_ref(mx_dtype t, const mx_norm_geom *g, const void *x, const mx_dtype pt[4], const void *const p[4],
                      float eps, void *y);
void mx_instancenorm_ref(mx_dtype t, const mx_norm_geom *g, const void *x, const void *scale, const void *bias,
                         float eps, void *y);
/* rows sets of len; bias may be NULL; mean and inv may be NULL (float32). */
void mx_layernorm_ref(mx_dtype t, int64_t rows, int64_t len, const void *x, const void *scale, const void *bias,
                      float eps, void *y, float *mean, float *inv);

/* The correctly rounded square roots (integer arithmetic: the same bits on
 * every target, no libm) are sum.h's mx_sum_sqrt_f32 and mx_sum_sqrt_f64. */

#endif
