#include "compare.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int is_float(minnx_dtype t) {
  return t == MINNX_FLOAT || t == MINNX_DOUBLE || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16;
}

/* The element's bits without the sign, and whether it is NaN. */
static void float_parts(minnx_dtype t, const unsigned char *p, uint64_t *mag, int *nan) {
  uint64_t bits = 0;
  size_t es = minnx_dtype_size(t);
  for (size_t i = 0; i < es; i++) bits |= (uint64_t)p[i] << (8 * i); /* the test data is little-endian */
  unsigned w = (unsigned)es * 8;
  *mag = bits & ~((uint64_t)1 << (w - 1));
  uint64_t exp_all = t == MINNX_FLOAT ? 0x7f800000u : t == MINNX_DOUBLE ? 0x7ff0000000000000u
                   : t == MINNX_FLOAT16 ? 0x7c00u : 0x7f80u;
  *nan = (*mag & exp_all) == exp_all && (*mag & ~exp_all) != 0;
}

int same_tensor(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn) {
  if (want->dtype != got->dtype || want->rank != got->rank || want->nbytes != got->nbytes)
    return snprintf(why, wn, "dtype, rank or size differs"), 0;
  for (int i = 0; i < want->rank; i++)
    if (want->dims[i] != got->dims[i]) return snprintf(why, wn, "dim %d differs", i), 0;
  size_t es = minnx_dtype_size(want->dtype);
  const unsigned char *w = want->data, *g = got->data;
  for (size_t i = 0; es && i < want->nbytes / es; i++) {
    if (memcmp(w + i * es, g + i * es, es) == 0) continue;
    if (is_float(want->dtype)) {
      uint64_t mw, mg;
      int nw, ng;
      float_parts(want->dtype, w + i * es, &mw, &nw);
      float_parts(want->dtype, g + i * es, &mg, &ng);
      if ((nw && ng) || (mw == 0 && mg == 0)) continue;
    }
    return snprintf(why, wn, "element %lu differs", (unsigned long)i), 0;
  }
  return 1;
}
