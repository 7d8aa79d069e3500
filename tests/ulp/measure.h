/* What tests/ulp/ulp.c and tests/unit/test_mathf.c share: the bounds README
 * states for ops/core/mathf.h, and the error measure they are stated in. */
#ifndef MX_TEST_MEASURE_H
#define MX_TEST_MEASURE_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ulps, measured over every float32 input (pow: every x at the exponents
 * the sweep takes, and its random pairs) */
static const struct {
  const char *name;
  double ulp;
} MATHF_BOUNDS[] = {
    {"exp", 1}, {"expm1", 1.5}, {"log", 1}, {"log1p", 1}, {"tanh", 1.5}, {"sigmoid", 1.5}, {"erf", 1.5}, {"pow", 1},
};

static inline double mathf_bound(const char *name) {
  for (size_t i = 0; i < sizeof MATHF_BOUNDS / sizeof MATHF_BOUNDS[0]; i++)
    if (strcmp(MATHF_BOUNDS[i].name, name) == 0)
      return MATHF_BOUNDS[i].ulp;
  return 0;
}

static inline uint32_t mathf_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* |y - want| in ulps of float32 at want's magnitude (2^-149 at the least),
 * 0 when y is want rounded to float32 (bit for bit: a zero's sign counts;
 * any NaN matches a NaN), 0.5 for a zero of the wrong sign, and infinite
 * when one of them is a NaN or an inf and the other not, or when y
 * overflowed (or did not) against want */
static inline double mathf_ulp_error(float y, double want) {
  float wf = (float)want;
  if (isnan(wf) || isnan(y))
    return isnan(wf) && isnan(y) ? 0 : INFINITY;
  if (mathf_bits(y) == mathf_bits(wf))
    return 0;
  if (isinf(y) || isinf(wf))
    return INFINITY;
  int e;
  frexp(want, &e);
  double err = fabs((double)y - want) / ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
  return err == 0 ? 0.5 : err;
}

#endif
