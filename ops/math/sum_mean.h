/* Sum and Mean of N inputs (ops/math/sum_mean.c). The order, one for every
 * dtype, thread count and ISA level: each output element folds its inputs
 * left to right in input order, ((x0 + x1) + x2) + ... + x(N-1), one IEEE
 * addition at a time; Mean then divides that sum by N once. float and double
 * compute in their own type (Add's and Div's kernels, ops/math/binary.c.in:
 * a Sum of two is Add, numpy's bits); float16 and bfloat16 in float32, the
 * sum (and Mean's quotient) rounded once to the 16-bit type at the end. One
 * input is copied. The half types' kernels are ops/math/sum_mean.c.in's,
 * instantiated per dtype and ISA level (ops/math/sum_mean.kernels.cmake). */
#ifndef MX_SUM_MEAN_H
#define MX_SUM_MEAN_H

#include <stdint.h>

#include "graph/ir.h"

/* float16, bfloat16: acc[i] = wide(a[i or 0]) + wide(b[i or 0]) (sa, sb
 * nonzero: the operand steps; zero: one value); acc[i] += wide(x[i or 0]);
 * out[i] = narrow(acc[i]) (Sum) or narrow(acc[i] / d) (Mean). */
struct mx_sum_mean_set {
  void (*first)(float *acc, const void *a, int sa, const void *b, int sb, int64_t n);
  void (*more)(float *acc, const void *x, int sx, int64_t n);
  void (*sum)(void *out, const float *acc, int64_t n);
  void (*mean)(void *out, const float *acc, float d, int64_t n);
};

/* The reference loop, the fuzzer's oracle: each output element from its n
 * inputs under numpy broadcasting, one at a time, in the order above
 * (ops/math/sum_mean_ref.c). */
void mx_sum_mean_ref(mx_dtype t, int mean, int32_t n, const mx_shape *const *shapes, const void *const *in,
                     const mx_shape *out_shape, void *out);

#endif
