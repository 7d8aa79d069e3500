/* The CLI's one comparison rule (tools/compare.c) on crafted tensors: exact
 * for exact models (NaN matches NaN, -0.0 matches 0.0, the first difference
 * named), and ONNX's tolerance for models with an inexact node (|got - want|
 * <= atol + rtol |want|; NaN only NaN, an infinity only itself; the worst
 * element named, the largest errors reported). The expected verdicts and
 * errors are worked out by hand from the literals (powers of two where the
 * error must be exact), not by minnx. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "compare.h"

static minnx_tensor vec(minnx_dtype dt, void *data, int64_t n) {
  minnx_tensor t = {dt, 1, {n}, data, (size_t)n * minnx_dtype_size(dt)};
  return t;
}

static float f32(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static int starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static int close_d(const double *want, const double *got, int n, compare_errors *e, char *why) {
  minnx_tensor w = vec(MINNX_DOUBLE, (void *)want, n), g = vec(MINNX_DOUBLE, (void *)got, n);
  return close_tensor(&w, &g, COMPARE_RTOL, COMPARE_ATOL, e, why, 256);
}

static void exact_rule(void) {
  char why[256];
  float nan1 = f32(0x7fc00000u), nan2 = f32(0xffc00001u);
  float w[3] = {1, nan1, -0.0f}, g[3] = {1, nan2, 0.0f};
  minnx_tensor tw = vec(MINNX_FLOAT, w, 3), tg = vec(MINNX_FLOAT, g, 3);
  CHECK(same_tensor(&tw, &tg, why, sizeof why));
  g[2] = 3.5f, w[2] = 3;
  CHECK(!same_tensor(&tw, &tg, why, sizeof why) && strcmp(why, "element 2 is 3.5, expected 3") == 0);
  g[2] = 3, g[1] = 1; /* NaN expected, a number given */
  CHECK(!same_tensor(&tw, &tg, why, sizeof why) && strcmp(why, "element 1 is 1, expected nan") == 0);
  double d[3] = {0};
  minnx_tensor td = vec(MINNX_DOUBLE, d, 3);
  CHECK(!same_tensor(&tw, &td, why, sizeof why) && strcmp(why, "dtype double, expected float") == 0);
  minnx_tensor t13 = tg;
  t13.rank = 2, t13.dims[0] = 1, t13.dims[1] = 3;
  CHECK(!same_tensor(&tw, &t13, why, sizeof why) && strcmp(why, "shape [1,3], expected [3]") == 0);
  int64_t iw[2] = {5, -7}, ig[2] = {5, 7};
  minnx_tensor tiw = vec(MINNX_INT64, iw, 2), tig = vec(MINNX_INT64, ig, 2);
  CHECK(!same_tensor(&tiw, &tig, why, sizeof why) && strcmp(why, "element 1 is 7, expected -7") == 0);
  uint16_t hw[3] = {0x7e00, 0x8000, 0x3c00}, hg[3] = {0x7c01, 0x0000, 0x3c00}; /* float16: NaNs, zeros, 1 */
  minnx_tensor thw = vec(MINNX_FLOAT16, hw, 3), thg = vec(MINNX_FLOAT16, hg, 3);
  CHECK(same_tensor(&thw, &thg, why, sizeof why));
  hg[0] = 0x7c00; /* +inf is no NaN */
  CHECK(!same_tensor(&thw, &thg, why, sizeof why) && strcmp(why, "element 0 is inf, expected nan") == 0);
  uint16_t bw[2] = {0x7fc1, 0x3f80}, bg[2] = {0xffc0, 0x3f81}; /* bfloat16: NaNs, then 1 against 1 + 2^-7 */
  minnx_tensor tbw = vec(MINNX_BFLOAT16, bw, 2), tbg = vec(MINNX_BFLOAT16, bg, 2);
  CHECK(!same_tensor(&tbw, &tbg, why, sizeof why) && strcmp(why, "element 1 is 1.008, expected 1") == 0);
}

static void tolerance_rule(void) {
  char why[256];
  compare_errors e = {0, 0, 0};
  /* within: 1 + 2^-11 (bound 1e-7 + 1e-3), 100 + 2^-4 (bound 0.1000001), 0 + 2^-24 (bound 1e-7) */
  double w[3] = {1, 100, 0}, g[3] = {1 + 0x1p-11, 100 + 0x1p-4, 0x1p-24};
  CHECK(close_d(w, g, 3, &e, why));
  CHECK(e.compared);
  CHECK(e.max_abs == 0x1p-4);
  CHECK(e.max_rel == 0x1p-4 / 100); /* beats 2^-11 / 1; the element expected 0 has none */
  /* folded over calls: the largest stays */
  double w1[1] = {4}, g1[1] = {4 - 0x1p-9};
  CHECK(close_d(w1, g1, 1, &e, why));
  CHECK(e.max_abs == 0x1p-4 && e.max_rel == 0x1p-4 / 100); /* 2^-9 / 4 is less */
  /* just beyond: 2 + 2^-8 (0.00390625 > 0.0020001) */
  double w2[1] = {2}, g2[1] = {2 + 0x1p-8};
  CHECK(!close_d(w2, g2, 1, &e, why));
  CHECK(strcmp(why, "element 0 is 2.00390625, expected 2, beyond |got - expected| <= 1e-07 + 0.001 |expected|") == 0);
  /* the worst element is named: the farthest beyond its bound, not the first */
  double w3[3] = {1, 1000, 1}, g3[3] = {1.002, 1003.5, 1.01};
  CHECK(!close_d(w3, g3, 3, &e, why) && starts(why, "element 2 is 1.01, expected 1,"));
  /* an element expected 0 has atol alone: 2^-23 > 1e-7 */
  double w4[2] = {0, 1}, g4[2] = {0x1p-23, 1};
  CHECK(!close_d(w4, g4, 2, &e, why) && starts(why, "element 0 is"));
  /* NaN only NaN, an infinity only itself; a non-number beats any finite excess */
  double nan = f32(0x7fc00000u), inf = (double)f32(0x7f800000u);
  double w5[4] = {nan, inf, -inf, 5}, g5[4] = {nan, inf, -inf, 5};
  compare_errors e5 = {0, 0, 0};
  CHECK(close_d(w5, g5, 4, &e5, why) && e5.max_abs == 0 && e5.max_rel == 0);
  g5[1] = -inf;
  CHECK(!close_d(w5, g5, 4, &e5, why) && starts(why, "element 1 is -inf, expected inf,"));
  g5[1] = inf, g5[0] = 0;
  CHECK(!close_d(w5, g5, 4, &e5, why) && starts(why, "element 0 is 0, expected nan,"));
  g5[0] = nan, g5[3] = inf, g5[2] = -1e308;
  CHECK(!close_d(w5, g5, 4, &e5, why) && starts(why, "element 2 is -1e+308, expected -inf,"));
  g5[2] = -inf, w5[3] = 1e300, g5[3] = 2e300; /* finite, far beyond */
  g5[0] = 1;
  CHECK(!close_d(w5, g5, 4, &e5, why) && starts(why, "element 0 is 1, expected nan,"));
  /* float32: one ulp above 1 is 2^-23 off, exactly */
  float fw[1] = {1}, fg[1] = {f32(0x3f800001u)};
  minnx_tensor tfw = vec(MINNX_FLOAT, fw, 1), tfg = vec(MINNX_FLOAT, fg, 1);
  compare_errors ef = {0, 0, 0};
  CHECK(close_tensor(&tfw, &tfg, COMPARE_RTOL, COMPARE_ATOL, &ef, why, sizeof why));
  CHECK(ef.max_abs == 0x1p-23 && ef.max_rel == 0x1p-23);
  /* float16: 1 + 2^-10 within (0.0010001), 1 + 2^-9 not */
  uint16_t hw[1] = {0x3c00}, hg[1] = {0x3c01};
  minnx_tensor thw = vec(MINNX_FLOAT16, hw, 1), thg = vec(MINNX_FLOAT16, hg, 1);
  CHECK(close_tensor(&thw, &thg, COMPARE_RTOL, COMPARE_ATOL, &ef, why, sizeof why));
  hg[0] = 0x3c02;
  CHECK(!close_tensor(&thw, &thg, COMPARE_RTOL, COMPARE_ATOL, &ef, why, sizeof why) &&
        starts(why, "element 0 is 1.002, expected 1,"));
  /* integers and a dtype or shape that differs: as the exact rule */
  int32_t iw[1] = {1}, ig[1] = {2};
  minnx_tensor tiw = vec(MINNX_INT32, iw, 1), tig = vec(MINNX_INT32, ig, 1);
  compare_errors ei = {0, 0, 0};
  CHECK(!close_tensor(&tiw, &tig, COMPARE_RTOL, COMPARE_ATOL, &ei, why, sizeof why) &&
        strcmp(why, "element 0 is 2, expected 1") == 0);
  CHECK(!ei.compared);
  minnx_tensor t2 = tfg;
  t2.rank = 0;
  CHECK(!close_tensor(&tfw, &t2, COMPARE_RTOL, COMPARE_ATOL, &ei, why, sizeof why) &&
        strcmp(why, "shape [], expected [1]") == 0);
  CHECK(!close_tensor(&tfw, &tiw, COMPARE_RTOL, COMPARE_ATOL, &ei, why, sizeof why) &&
        strcmp(why, "dtype int32, expected float") == 0);
}

int main(void) {
  exact_rule();
  tolerance_rule();
  return check_report("test_compare");
}
