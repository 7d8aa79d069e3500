/* minnx's own transcendental functions on double (the numeric contract,
 * README "Numbers"): exp, expm1, log, log1p, tanh, sigmoid, erf, pow.
 *
 * The rules of ops/core/mathf.h hold: each is one algorithm, a scalar static
 * inline function of IEEE +, -, *, /, conversions, unsigned integer bit
 * operations, table loads at an index in range and selects on values both
 * computed; no libm call, no branch on the data, no fused multiply-add (the
 * build has -ffp-contract=off). Exact products come from Dekker's splitting
 * (mx_two_prod64), not from an FMA, so the soft-float Cortex-M4, x86-64 at
 * every level and aarch64 compute the same operations and give the same bits
 * (the Cortex-M4 toolchain's soft-float subtraction rounds some 1 - p the
 * wrong way: erf's goes through mx_one_minus64, README).
 *
 * The constants are ops/core/mathd_coef.h's, made by tests/ulp/coef_f64.py:
 * truncated Taylor series (no fit), and the table of log. Accuracy, measured
 * by tests/ulp/ulp64.c against __float128 references, is in README's table.
 * Edge cases (NaN, +-inf, +-0, subnormals, overflow, underflow) are numpy's;
 * a NaN input gives a quiet NaN (x + x), a NaN made from numbers the quiet
 * NaN 0x7ff8000000000000.
 *
 * The shared core: log x as a pair of doubles hi + lo (relative error about
 * 2^-67), by x = 2^k m, m in [sqrt(1/2), sqrt(2)), m = c_i (1 + r) with a
 * table of 64 centers c_i and log c_i as pairs, r exact as a pair (|r| <
 * 0.0079), log(1 + r) by its series; and e^(x + xl) = 2^k e^r with |r| <=
 * ln2/2 and e^r - 1 by its series. log, log1p and pow use the pair, exp,
 * sigmoid, erf and pow the second input. */
#ifndef MX_MATHD_H
#define MX_MATHD_H

#include <stdint.h>

#include "ops/core/bits.h"
#include "ops/core/mathd_coef.h"
#include "ops/core/mathf.h"

#define MX_NAN64_BITS 0x7ff8000000000000u
#define MX_INF64_BITS 0x7ff0000000000000u
#define MX_ROUNDER64 0x1.8p52

static inline double mx_abs64(double x) { return mx_f64_of_bits(mx_f64_bits(x) & 0x7fffffffffffffffu); }
static inline double mx_copysign64(double mag, double sign) {
  return mx_f64_of_bits((mx_f64_bits(mag) & 0x7fffffffffffffffu) | (mx_f64_bits(sign) & 0x8000000000000000u));
}

/* a = hi + lo, hi with 26 significant bits (Veltkamp), |a| < 2^995 */
static inline double mx_split64(double a, double *lo) {
  double t = a * 134217729.0; /* 2^27 + 1 */
  double hi = t - (t - a);
  *lo = a - hi;
  return hi;
}

/* a b = p + e exactly (Dekker), p = a b rounded; for |a|, |b| < 2^995 and
 * a product far from the subnormals (there e is only approximate) */
static inline double mx_two_prod64(double a, double b, double *e) {
  double al, bl;
  double ah = mx_split64(a, &al), bh = mx_split64(b, &bl);
  double p = a * b;
  *e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return p;
}

/* a + b = s + e exactly (Knuth's TwoSum, any order) */
static inline double mx_two_sum64(double a, double b, double *e) {
  double s = a + b;
  double bb = s - a;
  *e = (a - (s - bb)) + (b - bb);
  return s;
}

/* log x = hi + lo for a positive finite x (a subnormal one scaled by 2^54
 * first); other inputs are replaced by 1 (their results are selected away). */
static inline double mx_log_pair64(double x, double *lo) {
  x = ((x > 0.0) & (x < mx_f64_of_bits(MX_INF64_BITS))) ? x : 1.0;
  int sub = x < 0x1p-1022;
  double xs = sub ? x * 0x1p54 : x;
  uint64_t ix = mx_f64_bits(xs);
  uint64_t u = ix - 0x3fe6a09e667f3bcdu; /* sqrt(1/2)'s bits */
  double k = (double)((int32_t)(uint32_t)((u >> 52) ^ 2048u) - 2048);
  k = sub ? k - 54.0 : k;
  double m = mx_f64_of_bits(ix - (u & 0xfff0000000000000u)); /* in [sqrt(1/2), sqrt(2)) */
  double fi = (m - MX_SQRT1_2_64) * MX_LOG_SCALE;
  fi = fi > 0.0 ? fi : 0.0;
  fi = fi < 64.0 ? fi : 64.0;
  int32_t i = (int32_t)fi;
  /* r = m / c - 1 exactly, as r_hi + r_lo: m invc = p + pe (exact), p - 1 exact (Sterbenz) */
  double pe, p = mx_two_prod64(m, MX_LOG_INVC[i], &pe);
  double r0 = p - 1.0;
  double r = r0 + pe, r_lo = pe - (r - r0);
  /* log(1 + r) = r - r^2/2 + r^3 P(r): r - r_hi^2/2 as a pair, the rest small */
  double sq_lo, sq = mx_two_prod64(r, r, &sq_lo);
  double h = -0.5 * sq;
  double s1 = r + h, s1_lo = h - (s1 - r);
  double tail = (r_lo - r * r_lo) - 0.5 * sq_lo + (r * sq) * mx_horner(r, MX_LOG_C, 11);
  /* k ln2 + log c + log(1 + r) */
  double e1, t1 = mx_two_sum64(k * MX_LN2_HI_64, MX_LOG_LOGC_HI[i], &e1);
  double e2, t2 = mx_two_sum64(t1, s1, &e2);
  double rest = ((e1 + e2) + (s1_lo + tail)) + (k * MX_LN2_LO_64 + MX_LOG_LOGC_LO[i]);
  double hi = t2 + rest;
  *lo = rest - (hi - t2);
  return hi;
}

/* e^(x + xl) = (1 + q) s1 s2: q = e^r - 1, r (+ r_lo) = x + xl - k ln2,
 * 2^k = s1 s2 two normal doubles. x is clamped to [-746, 710] (xl is then
 * dropped): k stays in [-1077, 1025], where the second product rounds once,
 * into a subnormal, to 0, or to inf. |xl| is at most an ulp of x or so. */
static inline double mx_exp_split64(double x, double xl, double *s1, double *s2) {
  int clamped = (x < -746.0) | (x > 710.0);
  double xc = x < -746.0 ? -746.0 : x;
  xc = xc > 710.0 ? 710.0 : xc;
  xl = clamped ? 0.0 : xl;
  double t = xc * MX_LOG2E_64 + MX_ROUNDER64;
  double kf = t - MX_ROUNDER64;
  uint64_t ku = mx_f64_bits(t) - mx_f64_bits(MX_ROUNDER64);
  double hi = xc - kf * MX_LN2_HI_64, lo = kf * MX_LN2_LO_64;
  double r = hi - lo;
  double r_lo = (hi - r) - lo;
  uint64_t h = (ku + 2048u) >> 1;
  *s1 = mx_f64_of_bits((h - 1u) << 52);
  *s2 = mx_f64_of_bits((ku - h + 2047u) << 52);
  /* e^(r + r_lo) - 1 = r + e (r r_lo is below 2^-50 of it); e^(r + r_lo + xl) - 1 adds xl (1 + r + e) */
  double e = r_lo + (r * r) * mx_horner(r, MX_EXP_C, 13);
  return r + (e + xl * (1.0 + (r + e)));
}

static inline double mx_exp_lo64(double x, double xl) {
  double s1, s2, q = mx_exp_split64(x, xl, &s1, &s2);
  return ((1.0 + q) * s1) * s2;
}

static inline double mx_exp64(double x) {
  double y = mx_exp_lo64(x, 0.0);
  return x != x ? x + x : y;
}

/* e^x - 1 = 2^k (e^r - 1) + (2^k - 1), both terms exact for k in [-53, 53],
 * their sum rounded once; k = 0 (r = x) for |x| < 0.75. From k = 54 on,
 * 2^k e^r scaled in two steps (so that k = 1024 can overflow). Below -38 the
 * result rounds to -1, above 709.79 to inf: the clamp. x == 0 keeps its sign. */
static inline double mx_expm1_64(double x) {
  double xc = x < -38.0 ? -38.0 : x;
  xc = xc > 709.79 ? 709.79 : xc;
  double t = xc * MX_LOG2E_64 + MX_ROUNDER64;
  double kf = t - MX_ROUNDER64;
  uint64_t ku = mx_f64_bits(t) - mx_f64_bits(MX_ROUNDER64);
  double hi = xc - kf * MX_LN2_HI_64, lo = kf * MX_LN2_LO_64;
  double r = hi - lo;
  double r_lo = (hi - r) - lo;
  int near0 = mx_abs64(xc) < 0.75;
  r = near0 ? xc : r;
  r_lo = near0 ? 0.0 : r_lo;
  kf = near0 ? 0.0 : kf;
  ku = near0 ? 0u : ku;
  double q = r + (r_lo + (r * r) * mx_horner(r, MX_EXPM1_C, 19));
  double s = mx_f64_of_bits((ku + 1023u) << 52);
  double near = q * s + (s - 1.0);
  double half = mx_f64_of_bits((ku + 1022u) << 52);
  double far = ((q + 1.0) * half) * 2.0;
  double y = kf < 54.0 ? near : far;
  y = x == 0.0 ? x : y;
  return x != x ? x + x : y;
}

static inline double mx_log64(double x) {
  double lo, hi = mx_log_pair64(x, &lo);
  double y = hi + lo;
  y = x == 0.0 ? -mx_f64_of_bits(MX_INF64_BITS) : y;
  y = x < 0.0 ? mx_f64_of_bits(MX_NAN64_BITS) : y;
  y = x == mx_f64_of_bits(MX_INF64_BITS) ? x : y;
  return x != x ? x + x : y;
}

/* log(1 + x) = log u + (x - (u - 1)) / u for u = 1 + x rounded (mathf.h's
 * mx_log1pf says why the correction is exact where it matters). */
static inline double mx_log1p64(double x) {
  double u = 1.0 + x;
  double c = (x - (u - 1.0)) / u;
  double lo, hi = mx_log_pair64(u, &lo);
  double y = hi + (lo + c);
  y = x == 0.0 ? x : y;
  y = x == -1.0 ? -mx_f64_of_bits(MX_INF64_BITS) : y;
  y = x < -1.0 ? mx_f64_of_bits(MX_NAN64_BITS) : y;
  y = x == mx_f64_of_bits(MX_INF64_BITS) ? x : y;
  return x != x ? x + x : y;
}

/* tanh x: x + x^3 P(x^2) below 0.55 (the series); above, t / (t + 2) with
 * t = e^2|x| - 1 and the sign of x (1 from |x| = 22 on: the clamp). */
static inline double mx_tanh64(double x) {
  double z = x * x;
  double near = x + (x * z) * mx_horner(z, MX_TANH_C, 20);
  double a = mx_abs64(x);
  double ac = a > 22.0 ? 22.0 : a;
  double t = mx_expm1_64(2.0 * ac);
  double far = mx_copysign64(t / (t + 2.0), x);
  double y = a < 0.55 ? near : far;
  y = x == 0.0 ? x : y;
  return x != x ? x + x : y;
}

/* 1 / (1 + e^-x) from e = e^-|x| as mathf.h's mx_sigmoidf: e and 1 + e as
 * pairs, y0 = n / d corrected by (n_lo - y0 d_lo) / d. */
static inline double mx_sigmoid64(double x) {
  double a = mx_abs64(x);
  double s1, s2, q = mx_exp_split64(-a, 0.0, &s1, &s2);
  double p = 1.0 + q, p_lo = (1.0 - p) + q;
  double e = (p * s1) * s2, e_lo = (p_lo * s1) * s2;
  double d = 1.0 + e, d_lo = ((1.0 - d) + e) + e_lo;
  double n = x < 0.0 ? e : 1.0, n_lo = x < 0.0 ? e_lo : 0.0;
  double y0 = n / d;
  double y = y0 + (n_lo - y0 * d_lo) / d;
  return x != x ? x + x : y;
}

/* 1 - p rounded to nearest even for 0 <= p < 0.5, from p's bits by integer
 * operations: the Cortex-M4 toolchain's soft-float subtraction rounds some
 * of these the wrong way (README). In units of 2^-53, p = m 2^-s, and 1 - p
 * = 2^53 - (m >> s) - (the bits shifted out) / 2^s, rounded; below 2^-54 it
 * is 1. */
static inline double mx_one_minus64(double p) {
  uint64_t b = mx_f64_bits(p);
  int32_t s = 1022 - (int32_t)(b >> 52);
  s = s < 1 ? 1 : s;
  s = s > 63 ? 63 : s;
  uint64_t m = (b & 0x000fffffffffffffu) | 0x0010000000000000u;
  uint64_t rem = m & ((UINT64_C(1) << s) - 1u), half = UINT64_C(1) << (s - 1);
  uint64_t n = (UINT64_C(1) << 53) - (m >> s);
  n -= (uint64_t)((rem > half) | ((rem == half) & (int)(n & 1u)));
  return p < 0x1p-54 ? 1.0 : (double)n * 0x1p-53;
}

/* erf x: x + x P(x^2) below 0.75 (the series); from 0.75 on, 1 - e^-x^2
 * Q(|x|) with the sign of x, Q(x) = erfc(x) e^x^2 by its Taylor series at
 * the middle of the piece of 0.25 holding |x|, e^-x^2 from x^2 as a pair;
 * |x| clamped to 6, where erf rounds to 1. */
static inline double mx_erf64(double x) {
  double z = x * x;
  double near = x + x * mx_horner(z, MX_ERF_C, 22);
  double a = mx_abs64(x);
  double ac = a > 6.0 ? 6.0 : a;
  ac = ac >= 0.75 ? ac : 0.75; /* (and NaN: 0.75; selected away) */
  double fp = (ac - 0.75) * 4.0;
  fp = fp < 20.0 ? fp : 20.0;
  int32_t piece = (int32_t)fp;
  double t = ac - (0.875 + 0.25 * (double)piece);
  double qv = mx_horner(t, MX_ERFC_Q + piece * MX_ERFC_N, MX_ERFC_N);
  double sq_lo, sq = mx_two_prod64(ac, ac, &sq_lo);
  double far = mx_copysign64(mx_one_minus64(mx_exp_lo64(-sq, -sq_lo) * qv), x);
  double y = a < 0.75 ? near : far;
  return x != x ? x + x : y;
}

/* x^y = e^(y log |x|): log |x| as a pair, y times it as a pair (|y| clamped
 * to 2^900, beyond which every result but those of x = 1 or -1, taken apart
 * below, over- or underflows), e^ of the pair. C99 Annex F's rules for the
 * rest, as mx_powf: a negative x needs an integer y (else NaN) and gives the
 * sign of (-1)^y; x = +-0 or +-inf gives 0 or inf; y = +-inf gives 0 or inf
 * as |x| < 1 or > 1, and 1 for x = -1; x = 1 or y = 0 give 1 even with a
 * NaN. */
static inline double mx_pow64(double x, double y) {
  const double inf = mx_f64_of_bits(MX_INF64_BITS);
  double ax = mx_abs64(x), ay = mx_abs64(y);
  double w = ay + 0x1p52;
  int big = ay >= 0x1p52;
  int is_int = big | ((w - 0x1p52) == ay);
  int odd = is_int & (ay < 0x1p53) & (int)(mx_f64_bits(big ? ay : w) & 1u);
  double yc = y < -0x1p900 ? -0x1p900 : y;
  yc = yc > 0x1p900 ? 0x1p900 : yc;
  yc = yc != yc ? 0.0 : yc;
  double l_lo, l = mx_log_pair64(ax, &l_lo);
  double t_lo, t = mx_two_prod64(yc, l, &t_lo);
  t_lo = t_lo + yc * l_lo;
  double mag = mx_exp_lo64(t, t_lo);
  double edge = (ax == 0.0) == (y < 0.0) ? inf : 0.0; /* x = +-0 or +-inf */
  mag = ((ax == 0.0) | (ax == inf)) ? edge : mag;
  double ytail = (ax < 1.0) == (y < 0.0) ? inf : 0.0; /* y = +-inf */
  mag = ay == inf ? ytail : mag;
  double r = (odd & (int)(mx_f64_bits(x) >> 63)) ? -mag : mag;
  r = ((x < 0.0) & (ax != inf) & !is_int) ? mx_f64_of_bits(MX_NAN64_BITS) : r;
  r = ((x == -1.0) & (ay == inf)) ? 1.0 : r;
  r = y == 2.0 ? x * x : r; /* the square: one IEEE multiplication, correctly rounded (numpy's x**2) */
  r = y != y ? y + y : r;
  r = x != x ? x + x : r;
  return ((x == 1.0) | (y == 0.0)) ? 1.0 : r;
}

#endif
