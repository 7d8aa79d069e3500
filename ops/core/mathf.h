/* minnx's own transcendental functions on float32 (the numeric contract,
 * README "Numbers"): exp, expm1, log, log1p, tanh, sigmoid, erf, pow.
 *
 * Each is one algorithm, written once as a scalar static inline function
 * that uses only IEEE +, -, *, /, conversions between float, double and
 * int32, unsigned integer bit operations and selects (?: on values both
 * computed), never a branch on the data or a libm call; exp, tanh and erf also use fused
 * multiply-adds, written as mx_fmaf calls (below): the one fused operation
 * on every path, never one the compiler makes of a*b+c.
 * A loop that calls one vectorizes (gcc and clang, -O3) for SSE2, AVX2,
 * AVX-512 and NEON alike (the Cortex-M4 runs it scalar), and every lane
 * computes exactly what the scalar code does, so the portable, AVX2,
 * AVX-512, aarch64 and Cortex-M4 builds give the same bits. That needs no
 * contraction of a*b+c into an FMA by the compiler: the project builds with
 * -ffp-contract=off, and with -fno-trapping-math, without which gcc keeps
 * the selects as branches (CMakeLists.txt).
 *
 * Accuracy, measured over every float32 input against the correctly rounded
 * value by tests/ulp/ulp.c, is in README's table. The polynomial coefficients
 * come from tests/ulp/fit.py (weighted minimax fits, rounded to float32 or
 * double), which prints them in this order. Edge cases (NaN, +-inf, +-0,
 * subnormals, overflow, underflow) are numpy's (C99 Annex F's); a NaN input
 * gives a quiet NaN (x + x), a NaN made from numbers the quiet NaN 0x7fc00000.
 *
 * powf computes in double (a float32 pow through exp(y log x) would need
 * log x to about 2^-32, beyond float32 arithmetic); the others in float32.
 * Double versions of these functions are not here yet. */
#ifndef MX_MATHF_H
#define MX_MATHF_H

#include <stdint.h>
#include <string.h>

#include "ops/core/bits.h"


/* c[0] + t (c[1] + t (... + t c[n-1])): Horner's order, innermost first.
 * (gcc and clang unroll it before vectorizing the caller's loop; unrolled or
 * not, the operations are the same.) */
static inline float mx_hornerf(float t, const float *c, int n) {
  float p = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    p = c[i] + t * p;
  return p;
}

static inline double mx_horner(double t, const double *c, int n) {
  double p = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    p = c[i] + t * p;
  return p;
}

/* a * b + c rounded once (fused multiply-add), the one way every path does
 * it: the instruction where the target has one (x86-64's AVX2 and AVX-512
 * levels, whose kernel instances are compiled with MX_MATHF_FMA and FMA
 * enabled; aarch64's fmadd; the Cortex-M4's vfma.f32), and elsewhere
 * (x86-64's baseline level) in C, correctly rounded as well: the product is
 * exact in double (24 + 24 bits), the sum is rounded to double by round to
 * odd (the nearest sum, moved one ulp toward the exact value when it is
 * inexact and its last bit even; TwoSum gives the error), then once to
 * float, which 53 >= 24 + 2 bits make the correctly rounded result. A sum
 * that is not finite is left alone. (The functions below select their NaN
 * results themselves, so a NaN's payload never comes from here.) */
static inline float mx_fmaf_c(float a, float b, float c) {
  double p = (double)a * (double)b, cd = (double)c;
  double s = p + cd;
  double bv = s - p;
  double e = (p - (s - bv)) + (cd - bv);
  uint64_t sb = mx_f64_bits(s);
  uint64_t away = (e > 0.0) == (s > 0.0) ? 1u : (uint64_t)-1;
  uint64_t adj = ((e < 0.0) | (e > 0.0)) & (int)((sb & 1u) == 0) ? away : 0u;
  return (float)mx_f64_of_bits(sb + adj);
}

#if (defined(__GNUC__) || defined(__clang__)) &&                                                                   \
    (defined(MX_MATHF_FMA) || defined(__FMA__) || defined(__ARM_FEATURE_FMA) || defined(__aarch64__))
#define MX_FMAF_HW 1
static inline float mx_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
#else
#define MX_FMAF_HW 0
static inline float mx_fmaf(float a, float b, float c) { return mx_fmaf_c(a, b, c); }
#endif

/* c[0] + t (c[1] + t (...)) by fused multiply-adds, innermost first. */
static inline float mx_hornerf_fma(float t, const float *c, int n) {
  float p = c[n - 1];
  for (int i = n - 2; i >= 0; i--)
    p = mx_fmaf(p, t, c[i]);
  return p;
}

#define MX_NANF_BITS 0x7fc00000u
#define MX_INFF_BITS 0x7f800000u

/* ln 2 split so that k * MX_LN2_HI is exact for |k| < 2^9 (MX_LN2_HI has
 * 15 significant bits) and x - k * MX_LN2_HI exact too (Sterbenz) */
#define MX_LN2_HI 0x1.62e4p-1f
#define MX_LN2_LO 0x1.7f7d1cp-20f
#define MX_LOG2E 0x1.715476p0f
/* adding it rounds a float of magnitude below 2^22 to an integer, which
 * the sum's low mantissa bits then hold (two's complement) */
#define MX_ROUNDER 0x1.8p23f

/* x = k ln2 + r + r_lo, |r| <= ln2/2 (a little more: k comes from a
 * rounded product), r_lo the rounding error of r (exact by Fast2Sum): k as a
 * float and as bits, for |x| < 2^8 */
static inline float mx_reduce_ln2(float x, float *kf, uint32_t *ku, float *r_lo) {
  float t = x * MX_LOG2E + MX_ROUNDER;
  *kf = t - MX_ROUNDER;
  *ku = mx_f32_bits(t) - mx_f32_bits(MX_ROUNDER);
  float hi = x - *kf * MX_LN2_HI, lo = *kf * MX_LN2_LO;
  float r = hi - lo;
  *r_lo = (hi - r) - lo;
  return r;
}

/* The same form on |r| <= 0.75, fitted for the relative error of e^r - 1. */
static inline float mx_expm1_poly(float r, float r_lo) {
  static const float c[] = {0x1p-1f,         0x1.55556p-3f,   0x1.555544p-5f, 0x1.11095ep-7f,
                            0x1.6c1e68p-10f, 0x1.a63aaep-13f, 0x1.a0e4aap-16f};
  return r + (r_lo + (r * r) * mx_hornerf(r, c, 7));
}

/* e^x = 2^k e^r by fused multiply-adds: k = round(x log2 e) (the fma rounds
 * x log2 e + 1.5 2^23 once), r = x - k ln2 with ln2 = MX_LN2_F + MX_LN2_FLO
 * (x - k MX_LN2_F is exact: a multiple of 2^-21 below 1/2), r_lo the
 * rounding error of the second step (exact enough: the fma rounds a value
 * below 2^-26); e^r - 1 = r + (r_lo + r^2 P(r)) on |r| <= ln2/2, P fitted
 * for e^r's relative error, its sum q rounded once; then
 * (1 + q) 2^k = fma(q, s1, s1) s2, 2^k split as 2^k1 2^k2 with
 * k1 = floor((k + 256) / 2) - 128 (both normal for |k| <= 252): a normal result is
 * rounded once, by the fma (s2's product is exact), a subnormal one by s2's
 * product too, and one past FLT_MAX overflows there to inf, one below
 * 2^-150 to 0. For |x| < 128 that holds as it is (|k| <= 185); mx_expf
 * takes x down to 104 (a min) and selects 0 below -104 and the NaN. */
#define MX_LN2_F 0x1.62e43p-1f
#define MX_LN2_FLO -0x1.05c61p-29f
/* e^r - 1 (q) and k (bits, as an unsigned offset) for mx_expf and mx_expf_mid
 * (mx_tanhf has a shorter copy of the same steps) */
static inline float mx_expf_core(float x, uint32_t *ku) {
  static const float c[] = {0x1.fffffcp-2f, 0x1.555492p-3f, 0x1.5558b8p-5f, 0x1.1239a4p-7f, 0x1.6a4502p-10f};
  float t = mx_fmaf(x, MX_LOG2E, MX_ROUNDER);
  float kf = t - MX_ROUNDER;
  *ku = mx_f32_bits(t) - mx_f32_bits(MX_ROUNDER);
  float r1 = mx_fmaf(-kf, MX_LN2_F, x);
  float r = mx_fmaf(-kf, MX_LN2_FLO, r1);
  float r_lo = mx_fmaf(-kf, MX_LN2_FLO, r1 - r);
  return r + mx_fmaf(r * r, mx_hornerf_fma(r, c, 5), r_lo);
}

/* (1 + q) 2^k = fma(q, s1, s1) s2 as above, without the edge selects (mx_expf) */
static inline float mx_expf_scaled(float x) {
  uint32_t ku;
  float q = mx_expf_core(x, &ku);
  uint32_t h = (ku + 256u) >> 1;
  float s1 = mx_f32_of_bits((h - 1u) << 23);
  float s2 = mx_f32_of_bits((ku - h + 255u) << 23);
  return mx_fmaf(q, s1, s1) * s2;
}

/* The edges (clamps, branch selects, the NaN's x + x) in two forms that pick
 * the same value in every lane, so that a path may take either: float
 * compares and selects, and, where MX_MATHF_INT_EDGES is defined (the
 * AVX-512 kernel instances, ops/math/unary_math.c.in), integer operations on
 * the bits: there a float compare writes a mask register, which on Zen 5
 * takes a slot of the multiply-add pipes, as a multiply does, while integer
 * mins, shifts, ands and ors take the others (AVX2's compares write a
 * vector, and its blends read it: the float form is the faster there). The
 * NaN test stays a compare (mx_nan_or).
 * A float's bits as int32 order like the float for every float >= +0 (and
 * for the positive NaNs, above +inf), as uint32 for the negative ones
 * (larger bits, larger magnitude). Lanes whose x is a NaN may hold any
 * value until mx_nan_or replaces it. */
static inline uint32_t mx_min_s32(uint32_t a, uint32_t c) { return (int32_t)a < (int32_t)c ? a : c; }
static inline uint32_t mx_min_u32(uint32_t a, uint32_t c) { return a < c ? a : c; }

/* min(a, c) for a >= +0 or a NaN (which gives either), c > 0; ab, cb their bits */
static inline float mx_edge_min(float a, uint32_t ab, float c, uint32_t cb) {
#ifdef MX_MATHF_INT_EDGES
  return (void)a, (void)c, mx_f32_of_bits(mx_min_s32(ab, cb));
#else
  return (void)ab, (void)cb, a > c ? c : a;
#endif
}

/* a < c ? lt : ge for a >= +0 or a NaN (which takes either), c > 0 */
static inline float mx_edge_below(float a, uint32_t ab, float c, uint32_t cb, float lt, float ge) {
#ifdef MX_MATHF_INT_EDGES
  uint32_t m = 0u - ((ab - cb) >> 31); /* both below 2^31: the difference's sign */
  return (void)a, (void)c, mx_f32_of_bits((mx_f32_bits(lt) & m) | (mx_f32_bits(ge) & ~m));
#else
  return (void)ab, (void)cb, a < c ? lt : ge;
#endif
}

/* x + x where x is a NaN, else y. x + x sets the quiet bit and keeps the
 * payload and sign on x86-64, aarch64 and the Cortex-M4 (test_mathf's
 * hashes, which cover NaNs, agree), so the integer form ors that bit in
 * (an or under the compare's mask, where gcc made x + x a multiply by 2).
 * It keeps the one float compare: found by integer steps (and, subtract,
 * shift, two selects) the NaN cost Exp, Tanh and Sigmoid 3-9% more time
 * than the compare's slot does. */
static inline float mx_nan_or(float x, float y) {
#ifdef MX_MATHF_INT_EDGES
  return x != x ? mx_f32_of_bits(mx_f32_bits(x) | 0x00400000u) : y;
#else
  return x != x ? x + x : y;
#endif
}

/* x clamped to 104 from above (e^104 > FLT_MAX, and mx_expf_scaled gives
 * inf there and from 89 up, as it is), then 0 selected below -104 (e^-104
 * < 2^-150: mx_expf_scaled gives +0 from there down to -128 too, and
 * garbage further down and at -inf), then the NaN: the same bits as the
 * selects on |x| >= 128 that it had, with fewer operations (every float32
 * input compared, 2026-12-06). The integer form clamps x to [-104, 104] by
 * two mins on its bits, a signed one (+inf and the positive NaNs to 104) and
 * an unsigned one (-inf and the negative NaNs to -104), and so needs no
 * select below: e^-104 is +0 (every float32 input compared, 2026-12-06). */
static inline float mx_expf(float x) {
#ifdef MX_MATHF_INT_EDGES
  uint32_t cb = mx_min_u32(mx_min_s32(mx_f32_bits(x), 0x42d00000u), 0xc2d00000u); /* +-104 */
  return mx_nan_or(x, mx_expf_scaled(mx_f32_of_bits(cb)));
#else
  float xc = x < 104.0f ? x : 104.0f;
  float y = mx_expf_scaled(xc);
  y = x < -104.0f ? 0.0f : y;
  return mx_nan_or(x, y);
#endif
}

/* mx_expf's value for an x its caller knows to lie in [-64, 64] or to be
 * NaN (whose result the caller selects away): no edge select, no NaN
 * select, and 2^k (k in [-93, 93]) one normal float s, so that
 * fma(q, s1, s1) s2 (s2's product exact) is fma(q, s, s): the same bits as
 * mx_expf, with fewer operations (erf's exp). */
static inline float mx_expf_mid(float x) {
  uint32_t ku;
  float q = mx_expf_core(x, &ku);
  float s = mx_f32_of_bits((ku + 127u) << 23);
  return mx_fmaf(q, s, s);
}

/* e^x - 1 = 2^k (e^r - 1) + (2^k - 1): both terms exact for k in [-26, 24],
 * their sum rounded once. k is 0 for |x| < 0.75 (r = x), so that k = +-1
 * (|r| from 0.06 to ln2/2 there) never cancels e^r - 1 against 2^k - 1.
 * From k = 25 on, 2^k e^r (the - 1 is below half an ulp of it), scaled in
 * two steps so that k = 128 can overflow to inf. Below -18 the result rounds
 * to -1, above 88.8 to inf: the clamp keeps k in [-26, 128]. x == 0 keeps
 * its sign. */
static inline float mx_expm1f(float x) {
  float xc = x < -18.0f ? -18.0f : x;
  xc = xc > 88.8f ? 88.8f : xc;
  float kf, r_lo;
  uint32_t ku;
  float r = mx_reduce_ln2(xc, &kf, &ku, &r_lo);
  int near0 = mx_f32_of_bits(mx_f32_bits(xc) & 0x7fffffffu) < 0.75f; /* (gcc 12 vectorizes |x| < c, not a pair of compares) */
  r = near0 ? xc : r;
  r_lo = near0 ? 0.0f : r_lo;
  kf = near0 ? 0.0f : kf;
  ku = near0 ? 0u : ku;
  float q = mx_expm1_poly(r, r_lo);
  float s = mx_f32_of_bits((ku + 127u) << 23);
  float near = q * s + (s - 1.0f);
  float half = mx_f32_of_bits((ku + 126u) << 23);
  float far = ((q + 1.0f) * half) * 2.0f;
  float y = kf < 25.0f ? near : far;
  y = x == 0.0f ? x : y;
  return x != x ? x + x : y;
}

/* ln(1 + f) = 2s + s R(s^2), s = f / (2 + f), for f in [sqrt(1/2) - 1,
 * sqrt(2) - 1], written so that f itself is the leading term, exact:
 * f - (f^2/2 - s (f^2/2 + R)) (2s = f - s f and s f = f^2/2 - s f^2/2), with
 * `low` (what lies below f's last bit: k ln2's low part, log1p's rounding
 * correction) added in the small terms. */
static inline float mx_log_core(float f, float kf, float low) {
  float s = f / (2.0f + f);
  float z = s * s;
  static const float c[] = {0x1.555554p-1f, 0x1.999c26p-2f, 0x1.23d3dep-2f, 0x1.f13b92p-3f};
  float R = z * mx_hornerf(z, c, 4);
  float hfsq = 0.5f * f * f;
  return kf * MX_LN2_HI + (f - (hfsq - (s * (hfsq + R) + (kf * MX_LN2_LO + low))));
}

/* A positive normal x as 2^k m, m in [sqrt(1/2), sqrt(2)): returns m - 1
 * (exact) and k as a float. Other inputs give garbage the callers select
 * away. */
static inline float mx_split_sqrt2(float x, float *kf) {
  uint32_t ix = mx_f32_bits(x);
  uint32_t u = ix - 0x3f3504f3u; /* sqrt(1/2)'s bits */
  /* the exponent difference is u's top 9 bits, signed */
  *kf = (float)((int32_t)((u >> 23) ^ 256u) - 256);
  return mx_f32_of_bits(ix - (u & 0xff800000u)) - 1.0f;
}

/* log x: a subnormal x is scaled by 2^23 first. */
static inline float mx_logf(float x) {
  int sub = x < 0x1p-126f;
  float kf, f = mx_split_sqrt2(sub ? x * 0x1p23f : x, &kf);
  kf = sub ? kf - 23.0f : kf;
  float y = mx_log_core(f, kf, 0.0f);
  y = x == 0.0f ? -mx_f32_of_bits(MX_INFF_BITS) : y;
  y = x < 0.0f ? mx_f32_of_bits(MX_NANF_BITS) : y;
  y = x == mx_f32_of_bits(MX_INFF_BITS) ? x : y;
  return x != x ? x + x : y;
}

/* log(1 + x) = log u + (1 + x - u) / u for u = 1 + x rounded; 1 + x - u is
 * x - (u - 1), exact wherever it matters (u - 1 is exact for u in [0.5, 4)
 * and for u >= 2 whenever the correction is above u's rounding). u is never
 * subnormal (the smallest is 2^-24). x == 0 keeps its sign. */
static inline float mx_log1pf(float x) {
  float u = 1.0f + x;
  float kf, f = mx_split_sqrt2(u, &kf);
  float c = (x - (u - 1.0f)) / u;
  float y = mx_log_core(f, kf, c);
  y = x == 0.0f ? x : y;
  y = x == -1.0f ? -mx_f32_of_bits(MX_INFF_BITS) : y;
  y = x < -1.0f ? mx_f32_of_bits(MX_NANF_BITS) : y;
  y = x == mx_f32_of_bits(MX_INFF_BITS) ? x : y;
  return x != x ? x + x : y;
}

static inline float mx_copysignf(float mag, float sign) {
  return mx_f32_of_bits(mx_f32_bits(mag) | (mx_f32_bits(sign) & 0x80000000u));
}

/* tanh x, on a = |x| with the sign of x put back at the end (so that -0
 * stays -0): a + a^3 P(a^2) below 0.625 (Horner's steps and the last sum by
 * fused multiply-adds, a^3 as (a a^2)); above, 1 - 2 / (e^2a + 1) (1 from
 * a = 9.25 on: the clamp keeps e^2a finite). e^2a is mx_expf_core's
 * algorithm cut to what this branch needs, where 2 / (e^2a + 1) <= 0.45
 * damps its error: k = round(2a log2 e) by one fma, r = 2a - k ln2 in one
 * fused step with ln2 as the float MX_LN2_F (exact; MX_LN2_F's own error,
 * 2^-29 k relative in e^2a, moves tanh by 2^-5 of its ulp at the most), no
 * r_lo;
 * carried as h = r / 2 and (e^r - 1) / 2 = h + h^2 P'(h), P' being
 * mx_expf_core's P with its c_i scaled by 2^(i+1) (the same roundings,
 * scaled by powers of two), so that the doubling of a costs nothing; then
 * e^2a + 1 = 2^k (1 + (e^r - 1)) + 1 = fma((e^r - 1) / 2, 2^(k+1), 2^k + 1),
 * 2^k + 1 exact (k <= 23 wherever it matters). Both branches are computed
 * for every element (one division), then one selected. */
static inline float mx_tanh_form(float x, int full) {
  static const float c[] = {-0x1.555532p-2f, 0x1.1106fap-3f, -0x1.b8367cp-5f, 0x1.51ffcep-6f, -0x1.753152p-8f};
  static const float e[] = {0x1.fffffcp-1f, 0x1.555492p-1f, 0x1.5558b8p-2f, 0x1.1239a4p-3f, 0x1.6a4502p-5f};
  uint32_t xb = mx_f32_bits(x), ab = xb & 0x7fffffffu;
  float a = mx_f32_of_bits(ab);
  float z = a * a;
  float near = mx_fmaf(a * z, mx_hornerf_fma(z, c, 5), a);
  float ac = full ? mx_edge_min(a, ab, 9.25f, 0x41140000u) : a;
  float t = mx_fmaf(ac, 2.0f * MX_LOG2E, MX_ROUNDER);
  float kf = t - MX_ROUNDER;
  uint32_t ku = mx_f32_bits(t) - mx_f32_bits(MX_ROUNDER);
  float h = mx_fmaf(-kf, 0.5f * MX_LN2_F, ac); /* r / 2 */
  float qh = mx_fmaf(h * h, mx_hornerf_fma(h, e, 5), h);
  float s2 = mx_f32_of_bits((ku + 128u) << 23); /* 2^(k+1) */
  float far = 1.0f - 2.0f / mx_fmaf(qh, s2, mx_fmaf(s2, 0.5f, 1.0f)); /* 2a in [0, 18.5] or NaN */
  float y = mx_copysignf(mx_edge_below(a, ab, 0.625f, 0x3f200000u, near, far), x);
  return full ? mx_nan_or(x, y) : y;
}
static inline float mx_tanhf(float x) { return mx_tanh_form(x, 1); }
/* mx_tanhf's value for |x| <= 9.25 (a caller's chunk of such x, no NaN):
 * the clamp and the NaN select left out, the same steps otherwise */
static inline float mx_tanhf_mid(float x) { return mx_tanh_form(x, 0); }

/* 1 / (1 + e^-x), from e = e^-|x| <= 1 so that nothing overflows and small
 * results keep their precision: n / (1 + e) with n = 1 for x >= 0, e below.
 * e is mx_expf's on -|x| (|x| clamped to 104, where e rounds to 0; a NaN,
 * whose result is selected away, gives 104 too), with its scaling by 2^k
 * in a form that only k in [-150, 0] allows: fma(q, s, s) 2^-64 with
 * s = 2^(k+64) normal, where mx_expf splits 2^k in two halves that it
 * computes from k (the same bits: the fma rounds 1 + q to 24 bits at any
 * normal scale, and the product by a power of two is exact, or rounds a
 * subnormal result once, as s2's did; every float32 input compared,
 * 2026-12-06). 1 + e
 * is carried as a float pair (d + d_lo, exact by Fast2Sum). One division,
 * r = 1 / d: y0 = n r, the residual n - y0 (d + d_lo) by two fused
 * multiply-adds, and y = y0 + residual r rounded once, so that what remains
 * is e's rounding and the polynomial's error (<= 1.5 ulp, README). */
/* n / (1 + e) as above, from e = e^-|x| (mx_sigmoidf and mx_sigmoidf_mid) */
static inline float mx_sigmoid_div(float x, float e) {
  float d = 1.0f + e, d_lo = (1.0f - d) + e;
#ifdef MX_MATHF_INT_EDGES
  uint32_t neg = 0u - (mx_f32_bits(x) >> 31); /* x's sign bit: -0 takes e, which is 1 there too */
  float n = mx_f32_of_bits((mx_f32_bits(e) & neg) | (0x3f800000u & ~neg));
#else
  float n = x < 0.0f ? e : 1.0f;
#endif
  float r = 1.0f / d;
  float y0 = n * r;
  float res = mx_fmaf(-y0, d_lo, mx_fmaf(-y0, d, n));
  return mx_fmaf(res, r, y0);
}

static inline float mx_sigmoidf(float x) {
  uint32_t ab = mx_f32_bits(x) & 0x7fffffffu;
  float m = -mx_edge_min(mx_f32_of_bits(ab), ab, 104.0f, 0x42d00000u);
  uint32_t ku;
  float q = mx_expf_core(m, &ku);
  float s = mx_f32_of_bits((ku + 191u) << 23); /* 2^(k+64), k in [-150, 0] */
  float e = mx_fmaf(q, s, s) * 0x1p-64f;
  return mx_nan_or(x, mx_sigmoid_div(x, e));
}

/* mx_sigmoidf's value for |x| <= 64 (a caller's chunk of such x, no NaN):
 * no clamp, no NaN select, and 2^k (k in [-93, 0]) one normal float s, so
 * that e = fma(q, s, s), a normal float: the significand that
 * fma(q, 2^(k+64), 2^(k+64)) rounds to, and its product by 2^-64 exact (the
 * same bits; every float32 input of [-64, 64] compared, 2026-12-06). */
static inline float mx_sigmoidf_mid(float x) {
  float m = -mx_f32_of_bits(mx_f32_bits(x) & 0x7fffffffu);
  uint32_t ku;
  float q = mx_expf_core(m, &ku);
  float s = mx_f32_of_bits((ku + 127u) << 23);
  return mx_sigmoid_div(x, mx_fmaf(q, s, s));
}

/* erf x: x + x P(x^2) below 1; from 1 on, 1 - e^-x^2 Q(|x|) with the sign of
 * x, Q(x) ~ erfc x e^x^2 fitted for erfc's absolute error (erf is 1 - erfc,
 * on [0.84, 1)), x clamped to 4, where erf rounds to 1. Both polynomials by
 * Horner's fused steps, and each last step (x + x P, 1 - e Q) one fused
 * multiply-add. mx_erff_num is erf without its NaN: a NaN x gives a number
 * there (the far branch at 4), for a caller whose result takes its NaN from
 * another factor (Gelu's x/2); mx_erff puts x + x back. */
static inline float mx_erff_num(float x) {
  float z = x * x;
  static const float c[] = {0x1.06eba8p-3f, -0x1.81273ep-2f, 0x1.ce2ce6p-4f, -0x1.b7f71ap-6f,
                            0x1.53f224p-8f, -0x1.a3515ep-11f, 0x1.4771fcp-14f};
  static const float d[] = {0x1.afbb3cp-3f,   -0x1.3088f2p-4f, 0x1.98723cp-6f,   -0x1.06271p-7f,   0x1.4a5d0cp-9f,
                            -0x1.546fe6p-11f, 0x1.d53d66p-13f, -0x1.1d4a52p-13f, -0x1.e3f474p-15f, -0x1.d568acp-16f};
  float near = mx_fmaf(x, mx_hornerf_fma(z, c, 7), x);
  uint32_t ab = mx_f32_bits(x) & 0x7fffffffu;
  float a = mx_f32_of_bits(ab);
  float ac = mx_edge_min(a, ab, 4.0f, 0x40800000u);
  float t = ac - 2.5f;
  float q = mx_hornerf_fma(t, d, 10);
  float far = mx_copysignf(mx_fmaf(-mx_expf_mid(-(ac * ac)), q, 1.0f), x); /* -x^2 in [-16, 0] */
  return mx_edge_below(a, ab, 1.0f, 0x3f800000u, near, far); /* |x| < 1 */
}

static inline float mx_erff(float x) { return mx_nan_or(x, mx_erff_num(x)); }

/* log2 |x| for a positive finite x, in double (to about 2^-44 relative):
 * the float split of mx_logf, then ln(1 + f) by the same form in double. */
static inline double mx_pow_log2(float ax) {
  int sub = ax < 0x1p-126f;
  float kf, ff = mx_split_sqrt2(sub ? ax * 0x1p23f : ax, &kf);
  double k = (double)(sub ? kf - 23.0f : kf);
  double f = (double)ff;
  double s = f / (2.0 + f);
  double z = s * s;
  static const double c[] = {0x1.55555556202d1p-1, 0x1.999996a3883ccp-2, 0x1.24941490b490bp-2, 0x1.c62a251a04011p-3,
                             0x1.91240aa2ecd80p-3};
  double R = z * mx_horner(z, c, 5);
  double hfsq = 0.5 * f * f;
  double ln = f - (hfsq - s * (hfsq + R));
  return k + ln * 0x1.71547652b82fep0;
}

/* 2^t in double for t in [-160, 130]: 2^k 2^r, |r| <= 1/2 exact. */
static inline double mx_pow_exp2(double t) {
  double w = t + 0x1.8p52;
  double k = w - 0x1.8p52;
  uint64_t ku = mx_f64_bits(w) - mx_f64_bits(0x1.8p52);
  double r = t - k;
  static const double c[] = {0x1.62e42fefa37c1p-1,  0x1.ebfbdff81bbcep-3,  0x1.c6b08d70c98fcp-5,
                             0x1.3b2ab7244d46ap-7,  0x1.5d87fd9210f60p-10, 0x1.4308977e86720p-13,
                             0x1.ffce3281b9600p-17, 0x1.63e71fd114400p-20, 0x1.b3dcc2e95c000p-24};
  return (1.0 + r * mx_horner(r, c, 9)) * mx_f64_of_bits((ku + 1023u) << 52);
}

/* x^y = 2^(y log2 |x|) in double, rounded once to float (below 2^-149 to 0,
 * above FLT_MAX to inf), with C99 Annex F's rules for the rest: a negative x
 * needs an integer y (else NaN) and gives the sign of (-1)^y; x = +-0 or
 * +-inf gives 0 or inf; y = +-inf gives 0 or inf as |x| < 1 or > 1, and 1
 * for x = -1; x = 1 or y = 0 give 1 even with a NaN. */
static inline float mx_powf(float x, float y) {
  const float inf = mx_f32_of_bits(MX_INFF_BITS);
  float ax = mx_f32_of_bits(mx_f32_bits(x) & 0x7fffffffu);
  float ay = mx_f32_of_bits(mx_f32_bits(y) & 0x7fffffffu);
  /* y an integer, and odd: below 2^23, y + 2^23 rounds it to one, in its
   * low bit; from 2^23 on every float is one (inf counts as even). (Tests
   * combined with & and |: gcc 12 vectorizes no && or ||.) */
  float w = ay + 0x1p23f;
  int big = ay >= 0x1p23f;
  int is_int = big | ((w - 0x1p23f) == ay);
  int odd = is_int & (ay < 0x1p24f) & (int)(mx_f32_bits(big ? ay : w) & 1u);
  double t = (double)y * mx_pow_log2(ax);
  t = t < -160.0 ? -160.0 : t;
  t = t > 130.0 ? 130.0 : t;
  float mag = (float)mx_pow_exp2(t);
  float edge = (ax == 0.0f) == (y < 0.0f) ? inf : 0.0f; /* x = +-0 or +-inf */
  mag = ((ax == 0.0f) | (ax == inf)) ? edge : mag;
  float r = (odd & (int)(mx_f32_bits(x) >> 31)) ? -mag : mag;
  r = ((x < 0.0f) & (ax != inf) & !is_int) ? mx_f32_of_bits(MX_NANF_BITS) : r;
  r = ((x == -1.0f) & (ay == inf)) ? 1.0f : r;
  r = y == 2.0f ? x * x : r; /* the square: one IEEE multiplication, correctly rounded (numpy's x**2) */
  r = y != y ? y + y : r; /* (one NaN at a time: which of two an x + y gives differs between ISAs) */
  r = x != x ? x + x : r;
  return ((x == 1.0f) | (y == 0.0f)) ? 1.0f : r;
}

#endif
