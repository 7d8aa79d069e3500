/* The reference loop of Sum and Mean (ops/math/sum_mean.h): one output
 * element at a time, its inputs found by numpy's rule, folded left to right
 * in the order the kernels follow. The oracle of the differential fuzzer. */
#include <string.h>

#include "ops/core/broadcast.h"
#include "ops/core/half.h"
#include "ops/math/sum_mean.h"

/* Element i of a float dtype, widened (the 16-bit floats to float32, exactly). */
static double load(mx_dtype t, const void *x, int64_t i) {
  switch (t) {
    case MINNX_FLOAT: return ((const float *)x)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)x)[i]);
    case MINNX_BFLOAT16: return mx_bf16_to_f32(((const uint16_t *)x)[i]);
    default: return ((const double *)x)[i];
  }
}

void mx_sum_mean_ref(mx_dtype t, int mean, int32_t n, const mx_shape *const *shapes, const void *const *in,
                     const mx_shape *out_shape, void *out) {
  size_t es = mx_dtype_size(t);
  int64_t count = 1, idx[MX_MAX_RANK] = {0};
  for (int d = 0; d < out_shape->rank; d++) count *= out_shape->dims[d];
  for (int64_t i = 0; i < count; i++) {
    int64_t rest = i;
    for (int d = out_shape->rank - 1; d >= 0; d--) idx[d] = rest % out_shape->dims[d], rest /= out_shape->dims[d];
    if (n == 1) { /* a copy */
      memcpy((unsigned char *)out + (size_t)i * es,
             (const unsigned char *)in[0] + (size_t)mx_bcast_offset(shapes[0], out_shape, idx) * es, es);
      continue;
    }
    if (t == MINNX_DOUBLE) {
      double acc = load(t, in[0], mx_bcast_offset(shapes[0], out_shape, idx));
      for (int32_t k = 1; k < n; k++) acc += load(t, in[k], mx_bcast_offset(shapes[k], out_shape, idx));
      ((double *)out)[i] = mean ? acc / (double)n : acc;
      continue;
    }
    float acc = (float)load(t, in[0], mx_bcast_offset(shapes[0], out_shape, idx)); /* exact: a float's value */
    for (int32_t k = 1; k < n; k++) acc += (float)load(t, in[k], mx_bcast_offset(shapes[k], out_shape, idx));
    if (mean) acc /= (float)n;
    if (t == MINNX_FLOAT) ((float *)out)[i] = acc;
    else if (t == MINNX_FLOAT16) ((uint16_t *)out)[i] = mx_f32_to_f16(acc);
    else ((uint16_t *)out)[i] = mx_f32_to_bf16(acc);
  }
}
