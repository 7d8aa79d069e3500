/* fma(x, y, z) for double, rounded once (to nearest, ties to even), from
 * integer arithmetic: for targets without a double fused multiply-add
 * instruction, whose C library's may not be fused (newlib's fma for the
 * Cortex-M4 computes x * y + z with two roundings). 32-bit operations only
 * (no 128-bit integer type there). See gemm.h. */
#include <string.h>

#include "ops/math/gemm.h"

typedef struct {
  uint64_t hi, lo;
} u128;

static u128 mul64(uint64_t a, uint64_t b) { /* a, b < 2^53 */
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t mid = a0 * b1 + a1 * b0; /* < 2^54 */
  uint64_t lo = a0 * b0, add = mid << 32;
  u128 r = {a1 * b1 + (mid >> 32), lo + add};
  r.hi += r.lo < lo; /* the carry */
  return r;
}

static int msb(u128 v) { /* v != 0 */
  return v.hi ? 127 - __builtin_clzll(v.hi) : 63 - __builtin_clzll(v.lo);
}

static u128 shl(u128 v, int s) { /* 0 <= s < 128 */
  if (s == 0) return v;
  if (s >= 64) return (u128){v.lo << (s - 64), 0};
  return (u128){v.hi << s | v.lo >> (64 - s), v.lo << s};
}

/* v >> s with every bit shifted out OR-ed into the lowest (jamming: enough
 * guard bits remain below the rounding position for the sticky to count) */
static u128 shr_jam(u128 v, int s) {
  if (s <= 0) return v;
  if (s >= 128) return (u128){0, (v.hi | v.lo) != 0};
  u128 r;
  uint64_t lost;
  if (s >= 64) {
    r = (u128){0, s == 64 ? v.hi : v.hi >> (s - 64)};
    lost = v.lo | (s == 64 ? 0 : v.hi << (128 - s));
  } else {
    r = (u128){v.hi >> s, v.lo >> s | v.hi << (64 - s)};
    lost = v.lo << (64 - s);
  }
  r.lo |= lost != 0;
  return r;
}

static int less(u128 a, u128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

/* |v| = m * 2^e, m with its implicit bit (v finite, nonzero) */
static void split(double v, uint64_t *m, int *e) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int be = (int)(bits >> 52 & 0x7ff);
  *m = bits & ((UINT64_C(1) << 52) - 1);
  if (be) *m |= UINT64_C(1) << 52;
  *e = (be ? be : 1) - 1075;
}

double mx_fma64(double x, double y, double z) {
  uint64_t bx, by, bz;
  memcpy(&bx, &x, 8);
  memcpy(&by, &y, 8);
  memcpy(&bz, &z, 8);
  int fx = (bx >> 52 & 0x7ff) != 0x7ff, fy = (by >> 52 & 0x7ff) != 0x7ff, fz = (bz >> 52 & 0x7ff) != 0x7ff;
  /* an infinite or NaN x or y, or a zero one, makes the product exact */
  if (!fx || !fy || x == 0 || y == 0) return x * y + z;
  if (!fz) return z;        /* finite + inf or NaN */
  if (z == 0) return x * y; /* the product rounded once, with its sign even when it underflows */
  uint64_t mx, my, mz;
  int ex, ey, ez;
  split(x, &mx, &ex);
  split(y, &my, &ey);
  split(z, &mz, &ez);
  int sp = (int)((bx ^ by) >> 63), sz = (int)(bz >> 63);
  /* both as 126-bit magnitudes, the top bit at 125: value = M * 2^e */
  u128 p = mul64(mx, my), q = {0, mz};
  int s = 125 - msb(p), ep = ex + ey - s;
  p = shl(p, s);
  s = 125 - msb(q);
  ez -= s;
  q = shl(q, s);
  /* the larger exponent anchors; the other is shifted down with a sticky bit */
  u128 a = p, b = q;
  int e = ep, sa = sp, sb = sz;
  if (ez > ep) a = q, b = p, e = ez, sa = sz, sb = sp;
  b = shr_jam(b, e - (ez > ep ? ep : ez));
  u128 r;
  int neg = sa;
  if (sa == sb) {
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
  } else {
    if (less(a, b)) {
      u128 t = a;
      a = b, b = t, neg = sb;
    }
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
  }
  if (!r.hi && !r.lo) return 0.0; /* exact cancellation: +0 */
  /* round to 53 bits, or to the subnormal grid (its last bit is 2^-1074) */
  int m = msb(r), top = e + m; /* |result| in [2^top, 2^(top+1)) */
  int shift = top >= -1022 ? m - 52 : -1074 - e;
  uint64_t mant;
  if (shift <= 0) {
    mant = shl(r, -shift).lo; /* exact: fewer than 53 bits */
  } else if (shift > 128) {
    mant = 0; /* below half the smallest subnormal */
  } else { /* kept = r >> shift, rem = the bits shifted out, shift in (0, 128] */
    u128 kept, rem;
    if (shift == 128) {
      kept = (u128){0, 0}, rem = r;
    } else if (shift >= 64) {
      kept = (u128){0, r.hi >> (shift - 64)};
      rem = (u128){shift == 64 ? 0 : r.hi & ((UINT64_C(1) << (shift - 64)) - 1), r.lo};
    } else {
      kept = (u128){r.hi >> shift, r.lo >> shift | r.hi << (64 - shift)};
      rem = (u128){0, r.lo & ((UINT64_C(1) << shift) - 1)};
    }
    u128 half = shl((u128){0, 1}, shift - 1);
    mant = kept.lo; /* < 2^53 */
    if (less(half, rem) || (!less(rem, half) && (mant & 1))) mant++;
  }
  int lsb_exp = e + shift; /* the exponent of mant's last bit */
  uint64_t bits;
  if (mant == 0) {
    bits = 0;
  } else if (mant < UINT64_C(1) << 52) {
    bits = mant; /* subnormal (lsb_exp is -1074) */
  } else {
    if (mant == UINT64_C(1) << 53) mant >>= 1, lsb_exp++;
    int be = lsb_exp + 52 + 1023; /* mant * 2^lsb_exp = 1.f * 2^(lsb_exp + 52) */
    bits = be >= 0x7ff ? UINT64_C(0x7ff) << 52 : (uint64_t)be << 52 | (mant & ((UINT64_C(1) << 52) - 1));
  }
  bits |= (uint64_t)neg << 63;
  double out;
  memcpy(&out, &bits, 8);
  return out;
}
