#include "text.h"

/* No <inttypes.h> formats: the Cortex-M4's C library (newlib) leaves them
 * out; long long is C99's everywhere. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char *shape_text(const minnx_tensor *t, char *buf, size_t n) {
  if (t->rank < 0) return snprintf(buf, n, "[?]"), buf;
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->rank && k < n; i++) {
    if (t->dims[i] < 0) k += (size_t)snprintf(buf + k, n - k, "%s?", i ? "," : "");
    else k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  }
  if (k < n) snprintf(buf + k, n - k, "]");
  return buf;
}

static float float_of_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* float16 and bfloat16 widen to float exactly: the bits move, nothing rounds. */
static float half_to_float(uint16_t h, int bf16) {
  if (bf16) return float_of_bits((uint32_t)h << 16);
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0) { /* zero or subnormal: man * 2^-24, exact in float */
    float v = (float)man * 0x1p-24f;
    return sign ? -v : v;
  }
  if (exp == 31) return float_of_bits(sign | 0x7f800000u | man << 13); /* inf, NaN */
  return float_of_bits(sign | (exp - 15 + 127) << 23 | man << 13);
}

double elem_value(const minnx_tensor *t, size_t i) {
  const void *d = t->data;
  switch (t->dtype) {
    case MINNX_FLOAT: return ((const float *)d)[i];
    case MINNX_DOUBLE: return ((const double *)d)[i];
    case MINNX_FLOAT16: return half_to_float(((const uint16_t *)d)[i], 0);
    case MINNX_BFLOAT16: return half_to_float(((const uint16_t *)d)[i], 1);
    default: return 0;
  }
}

void elem_text(const minnx_tensor *t, size_t i, char *buf, size_t n) {
  const void *d = t->data;
  switch (t->dtype) {
    case MINNX_FLOAT: snprintf(buf, n, "%.9g", elem_value(t, i)); break;
    case MINNX_DOUBLE: snprintf(buf, n, "%.17g", elem_value(t, i)); break;
    case MINNX_FLOAT16: snprintf(buf, n, "%.5g", elem_value(t, i)); break;
    case MINNX_BFLOAT16: snprintf(buf, n, "%.4g", elem_value(t, i)); break;
    case MINNX_INT8: snprintf(buf, n, "%d", ((const int8_t *)d)[i]); break;
    case MINNX_INT16: snprintf(buf, n, "%d", ((const int16_t *)d)[i]); break;
    case MINNX_INT32: snprintf(buf, n, "%ld", (long)((const int32_t *)d)[i]); break;
    case MINNX_INT64: snprintf(buf, n, "%lld", (long long)((const int64_t *)d)[i]); break;
    case MINNX_UINT8: case MINNX_BOOL: snprintf(buf, n, "%u", ((const uint8_t *)d)[i]); break;
    case MINNX_UINT16: snprintf(buf, n, "%u", ((const uint16_t *)d)[i]); break;
    case MINNX_UINT32: snprintf(buf, n, "%lu", (unsigned long)((const uint32_t *)d)[i]); break;
    case MINNX_UINT64: snprintf(buf, n, "%llu", (unsigned long long)((const uint64_t *)d)[i]); break;
    default: snprintf(buf, n, "?"); break;
  }
}
