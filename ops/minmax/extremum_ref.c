/* The reference loops (extremum_ref.h). One comparator serves them all: an
 * element is selected when it lies beyond the one selected so far, NaN lying
 * beyond every number; so the selected element of a set is a NaN if the set
 * holds one, which is also the NaN rule of the elementwise ops and the
 * reductions. */
#include <math.h>
#include <string.h>

#include "ops/minmax/extremum_kernels.h"
#include "ops/minmax/extremum_ref.h"

/* Element i of p as a double, or for float16/bfloat16 as its sign-magnitude
 * bits made a signed number (the values' order; NaN stays NaN). 64-bit
 * integers are compared apart. */
static double value(mx_dtype t, const void *p, int64_t i) {
  if (MX_DTYPE_IS(t, MINNX_FLOAT)) return ((const float *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_DOUBLE)) return ((const double *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_FLOAT16) || MX_DTYPE_IS(t, MINNX_BFLOAT16)) {
    uint16_t h = ((const uint16_t *)p)[i], mag = h & 0x7fff;
    if (mag > (t == MINNX_FLOAT16 ? MX_F16_INF : MX_BF16_INF)) return NAN;
    return h >> 15 ? -(double)mag : (double)mag;
  }
  if (MX_DTYPE_IS(t, MINNX_INT8)) return ((const int8_t *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_INT16)) return ((const int16_t *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_INT32)) return ((const int32_t *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_UINT16)) return ((const uint16_t *)p)[i];
  if (MX_DTYPE_IS(t, MINNX_UINT32)) return ((const uint32_t *)p)[i];
  return ((const uint8_t *)p)[i]; /* uint8, bool */
}

/* Whether element i of p lies beyond element j of q in direction dir. */
static int beyond(mx_dtype t, mx_dir dir, const void *p, int64_t i, const void *q, int64_t j) {
  if (MX_DTYPE_IS(t, MINNX_INT64)) return MX_BEYOND(dir, ((const int64_t *)p)[i], ((const int64_t *)q)[j]);
  if (MX_DTYPE_IS(t, MINNX_UINT64)) return MX_BEYOND(dir, ((const uint64_t *)p)[i], ((const uint64_t *)q)[j]);
  double a = value(t, p, i), b = value(t, q, j);
  if (isnan(a) || isnan(b)) return isnan(a) && !isnan(b);
  return MX_BEYOND(dir, a, b);
}

static void copy(mx_dtype t, void *out, int64_t i, const void *in, int64_t j) {
  size_t es = MX_DTYPE_IS(t, MINNX_FLOAT) ? sizeof(float) : mx_dtype_size(t);
  memcpy((unsigned char *)out + (size_t)i * es, (const unsigned char *)in + (size_t)j * es, es);
}

void mx_ref_elementwise(mx_dtype t, mx_dir dir, int32_t n, const mx_shape *const *shapes, const void *const *in,
                        const mx_shape *out_shape, void *out) {
  int64_t idx[MX_MAX_RANK] = {0}, count = 1;
  for (int d = 0; d < out_shape->rank; d++) count *= out_shape->dims[d];
  for (int64_t i = 0; i < count; i++) {
    int32_t best = -1;
    int64_t at = 0;
    for (int32_t k = 0; k < n; k++) {
      const mx_shape *s = shapes[k];
      int64_t e = 0; /* input k's element at idx: its dims align on the right */
      for (int d = 0; d < s->rank; d++)
        e = e * s->dims[d] + (s->dims[d] == 1 ? 0 : idx[d + out_shape->rank - s->rank]);
      if (best < 0 || beyond(t, dir, in[k], e, in[best], at)) best = k, at = e;
    }
    copy(t, out, i, in[best], at);
    for (int d = out_shape->rank - 1; d >= 0 && ++idx[d] == out_shape->dims[d]; d--) idx[d] = 0;
  }
}

void mx_ref_arg(mx_dtype t, mx_dir dir, int last, const mx_shape *shape, int axis, const void *in, int64_t *out) {
  int64_t outer = 1, n = shape->dims[axis], inner = 1;
  for (int d = 0; d < axis; d++) outer *= shape->dims[d];
  for (int d = axis + 1; d < shape->rank; d++) inner *= shape->dims[d];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      int64_t base = o * n * inner + j, best = 0;
      for (int64_t k = 1; k < n; k++) {
        int64_t x = base + k * inner, b = base + best * inner;
        /* ties: the candidate is taken when it is not beyond-or-behind */
        if (beyond(t, dir, in, x, in, b) || (last && !beyond(t, dir, in, b, in, x))) best = k;
      }
      out[o * inner + j] = best;
    }
}

void mx_ref_reduce(mx_dtype t, mx_dir dir, const mx_shape *shape, uint32_t axes, const void *in, void *out) {
  /* out[o] starts as the identity; each input element is folded into the
   * output element of its kept indices */
  int64_t count = 1, out_count = 1, idx[MX_MAX_RANK] = {0};
  for (int d = 0; d < shape->rank; d++) {
    count *= shape->dims[d];
    if (!(axes >> d & 1)) out_count *= shape->dims[d];
  }
  unsigned char seed[8];
  mx_extremum_identity(t, dir, seed);
  for (int64_t o = 0; o < out_count; o++) copy(t, out, o, seed, 0);
  for (int64_t i = 0; i < count; i++) {
    int64_t o = 0;
    for (int d = 0; d < shape->rank; d++)
      if (!(axes >> d & 1)) o = o * shape->dims[d] + idx[d];
    if (beyond(t, dir, in, i, out, o)) copy(t, out, o, in, i);
    for (int d = shape->rank - 1; d >= 0 && ++idx[d] == shape->dims[d]; d--) idx[d] = 0;
  }
}
