/* Where a reduction starts (extremum_kernels.h): ONNX's value for the
 * reduction over an empty set. In the core library: the reference loops need
 * it whichever ops a build links. */
#include <math.h>
#include <string.h>

#include "ops/minmax/extremum_kernels.h"

void mx_extremum_identity(mx_dtype t, mx_dir dir, void *out) {
  int lo = dir == MX_MAX; /* a maximum starts from the lowest value */
  switch (t) {
    case MINNX_FLOAT: {
      float v = lo ? -INFINITY : INFINITY;
      memcpy(out, &v, sizeof v);
      return;
    }
    case MINNX_DOUBLE: {
      double v = lo ? -INFINITY : INFINITY;
      memcpy(out, &v, sizeof v);
      return;
    }
    case MINNX_FLOAT16:
    case MINNX_BFLOAT16: {
      uint16_t v = (uint16_t)((t == MINNX_FLOAT16 ? MX_F16_INF : MX_BF16_INF) | (lo ? 0x8000 : 0));
      memcpy(out, &v, sizeof v);
      return;
    }
    default: break;
  }
  /* integers, little- or big-endian alike: the lowest signed value is the
   * sign bit alone, the highest all bits but it; unsigned 0 and all ones */
  size_t size = mx_dtype_size(t);
  int is_signed = t == MINNX_INT8 || t == MINNX_INT16 || t == MINNX_INT32 || t == MINNX_INT64;
  uint64_t v = lo ? (is_signed ? (uint64_t)1 << (size * 8 - 1) : 0)
                  : (is_signed ? ((uint64_t)1 << (size * 8 - 1)) - 1 : UINT64_MAX);
  if (t == MINNX_BOOL) v = lo ? 0 : 1;
  if (size == 1) memcpy(out, &(uint8_t){(uint8_t)v}, 1);
  else if (size == 2) memcpy(out, &(uint16_t){(uint16_t)v}, 2);
  else if (size == 4) memcpy(out, &(uint32_t){(uint32_t)v}, 4);
  else memcpy(out, &v, 8);
}
