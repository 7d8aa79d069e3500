#include "compare.h"

#include <math.h> /* INFINITY: a constant, no libm call */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

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

/* Equal dtype and shape (and so the byte count); else 0 with why. */
static int same_layout(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn) {
  char a[128], b[128];
  if (want->dtype != got->dtype)
    return snprintf(why, wn, "dtype %s, expected %s", minnx_dtype_name(got->dtype), minnx_dtype_name(want->dtype)), 0;
  int same_shape = want->rank == got->rank;
  for (int i = 0; same_shape && i < want->rank; i++) same_shape = want->dims[i] == got->dims[i];
  if (!same_shape)
    return snprintf(why, wn, "shape %s, expected %s", shape_text(got, a, sizeof a), shape_text(want, b, sizeof b)), 0;
  if (want->nbytes != got->nbytes) return snprintf(why, wn, "%zu bytes, expected %zu", got->nbytes, want->nbytes), 0;
  return 1;
}

static void name_element(const minnx_tensor *want, const minnx_tensor *got, size_t i, const char *after, char *why,
                         size_t wn) {
  char a[64], b[64];
  elem_text(got, i, a, sizeof a);
  elem_text(want, i, b, sizeof b);
  snprintf(why, wn, "element %zu is %s, expected %s%s", i, a, b, after);
}

int same_element(minnx_dtype t, const void *want, const void *got) {
  size_t es = minnx_dtype_size(t);
  if (memcmp(want, got, es) == 0) return 1;
  if (!is_float(t)) return 0;
  uint64_t mw, mg;
  int nw, ng;
  float_parts(t, want, &mw, &nw);
  float_parts(t, got, &mg, &ng);
  return (nw && ng) || (mw == 0 && mg == 0);
}

int same_tensor(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn) {
  if (!same_layout(want, got, why, wn)) return 0;
  size_t es = minnx_dtype_size(want->dtype);
  const unsigned char *w = want->data, *g = got->data;
  for (size_t i = 0; es && i < want->nbytes / es; i++) {
    if (same_element(want->dtype, w + i * es, g + i * es)) continue;
    name_element(want, got, i, "", why, wn);
    return 0;
  }
  return 1;
}

static double magnitude(double x) { return x < 0 ? -x : x; }
static int is_number(double x) { return x - x == 0; } /* not NaN, not an infinity */

int close_tensor(const minnx_tensor *want, const minnx_tensor *got, double rtol, double atol, compare_errors *e,
                 char *why, size_t wn) {
  if (!is_float(want->dtype) || !is_float(got->dtype)) return same_tensor(want, got, why, wn);
  if (!same_layout(want, got, why, wn)) return 0;
  e->compared = 1;
  size_t n = want->nbytes / minnx_dtype_size(want->dtype), worst = 0;
  double worst_excess = 0; /* error / bound of the worst element beyond its bound; 0: none */
  for (size_t i = 0; i < n; i++) {
    double x = elem_value(want, i), y = elem_value(got, i), excess;
    if (!is_number(x) || !is_number(y)) { /* NaN matches only NaN, an infinity only itself */
      excess = (x != x && y != y) || x == y ? 0 : INFINITY;
    } else {
      double abs_err = magnitude(y - x), bound = atol + rtol * magnitude(x);
      if (abs_err > e->max_abs) e->max_abs = abs_err;
      if (x != 0 && abs_err / magnitude(x) > e->max_rel) e->max_rel = abs_err / magnitude(x);
      excess = abs_err <= bound ? 0 : bound > 0 ? abs_err / bound : INFINITY;
    }
    if (excess > worst_excess) worst = i, worst_excess = excess; /* ties: the first */
  }
  if (worst_excess == 0) return 1;
  char after[96];
  snprintf(after, sizeof after, ", beyond |got - expected| <= %g + %g |expected|", atol, rtol);
  name_element(want, got, worst, after, why, wn);
  return 0;
}
