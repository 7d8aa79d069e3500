/* Resize's one kernel, which is its reference loop too (the rules and the
 * order: resize.h): the taps of each axis, then each output element alone
 * from them, its nested sum in double. */
#include <string.h>

#include "ops/core/bits.h"
#include "ops/core/half.h"
#include "ops/tensor/resize.h"

/* floor of a double within +-2^52 (the caller clamps), without libm. */
static int64_t floor_i64(double v) {
  int64_t i = (int64_t)v; /* toward zero */
  return (double)i > v ? i - 1 : i;
}

static double xo_of(const mx_resize_params *p, int d, int64_t x) {
  double n = (double)p->in_dims[d], s = p->scale[d], L = p->length[d], xd = (double)x;
  int64_t out = p->out_dims[d];
  switch (p->coord) {
    case MX_RESIZE_HALF_PIXEL: return (xd + 0.5) / s - 0.5;
    case MX_RESIZE_HALF_PIXEL_SYMMETRIC: return n / 2 * (1 - (double)out / L) + ((xd + 0.5) / s - 0.5);
    case MX_RESIZE_PYTORCH_HALF_PIXEL: return out > 1 ? (xd + 0.5) / s - 0.5 : 0.0;
    case MX_RESIZE_ALIGN_CORNERS: return out == 1 ? 0.0 : xd * (n - 1) / (L - 1);
    case MX_RESIZE_TF_HALF_PIXEL_FOR_NN: return (xd + 0.5) / s;
    case MX_RESIZE_TF_CROP_AND_RESIZE: {
      double a = p->roi_start[d], b = p->roi_end[d];
      if (out == 1) return (b - a) * (n - 1) / 2 + a * (n - 1);
      return xd * (b - a) * (n - 1) / (L - 1) + a * (n - 1);
    }
    default: return xd / s; /* asymmetric */
  }
}

/* The cubic kernel of the antialias filter at z >= 0. */
static double cubic_h(double a, double z) {
  double z2 = z * z, z3 = z * z2;
  if (z <= 1) return (a + 2) * z3 - (a + 3) * z2 + 1;
  if (z < 2) return a * z3 - 5 * a * z2 + 8 * a * z - 4 * a;
  return 0.0;
}

static int identity_axis(const mx_resize_params *p, int d) {
  if (p->taps[d] == 0) return 1; /* an axis Resize-18's axes does not list */
  return p->scale[d] == 1.0 && p->in_dims[d] == p->out_dims[d] &&
         (p->coord == MX_RESIZE_HALF_PIXEL || p->coord == MX_RESIZE_HALF_PIXEL_SYMMETRIC ||
          p->coord == MX_RESIZE_PYTORCH_HALF_PIXEL || p->coord == MX_RESIZE_ALIGN_CORNERS ||
          p->coord == MX_RESIZE_ASYMMETRIC);
}

static void axis_taps(const mx_resize_params *p, int d, int64_t x, mx_resize_tap *t, int64_t k) {
  int64_t n = p->in_dims[d];
  for (int64_t j = 0; j < k; j++) t[j] = (mx_resize_tap){0, 0.0};
  double xo = xo_of(p, d, x);
  if (p->coord == MX_RESIZE_TF_CROP_AND_RESIZE && !(xo >= 0 && xo <= (double)(n - 1))) {
    t[0].index = -1;
    return;
  }
  const double lim = 4503599627370496.0; /* 2^52: floor fits int64 and taps stay far from overflow */
  xo = xo > lim ? lim : xo < -lim ? -lim : xo == xo ? xo : 0.0;
  int64_t fl = floor_i64(xo);
  int whole = (double)fl == xo;
  if (p->mode == MX_RESIZE_NEAREST) {
    int64_t i = fl;
    double r = xo - (double)fl;
    if (p->nearest == MX_RESIZE_LEGACY) i = p->scale[d] >= 1.0 || whole ? fl : fl + 1;
    else if (!whole)
      switch (p->nearest) {
        case MX_RESIZE_ROUND_PREFER_FLOOR: i = r > 0.5 ? fl + 1 : fl; break;
        case MX_RESIZE_ROUND_PREFER_CEIL: i = r >= 0.5 ? fl + 1 : fl; break;
        case MX_RESIZE_FLOOR: i = fl; break;
        default: i = fl + 1; break;
      }
    t[0] = (mx_resize_tap){i < 0 ? 0 : i > n - 1 ? n - 1 : i, 1.0};
    return;
  }
  int64_t i0 = whole ? fl - 1 : fl;
  double r = xo - (double)i0, a = p->cubic_a;
  int64_t start = 1 - k / 2;
  if (p->antialias) {
    double tt = p->scale[d] < 1.0 ? p->scale[d] : 1.0, sum = 0.0;
    for (int64_t j = 0; j < k; j++) {
      double z = ((double)(start + j) - r) * tt;
      z = z < 0 ? -z : z;
      double w = p->mode == MX_RESIZE_LINEAR ? (1 - z > 0 ? 1 - z : 0.0) : cubic_h(a, z);
      t[j].weight = w;
      sum += w;
    }
    for (int64_t j = 0; j < k; j++) t[j].weight = t[j].weight / sum;
  } else if (p->mode == MX_RESIZE_LINEAR) {
    t[0].weight = 1 - r, t[1].weight = r;
  } else {
    double u = r + 1, v = 1 - r, w = v + 1;
    t[0].weight = ((a * u - 5 * a) * u + 8 * a) * u - 4 * a;
    t[1].weight = ((a + 2) * r - (a + 3)) * r * r + 1;
    t[2].weight = ((a + 2) * v - (a + 3)) * v * v + 1;
    t[3].weight = ((a * w - 5 * a) * w + 8 * a) * w - 4 * a;
  }
  if (p->exclude_outside) {
    double sum = 0.0;
    for (int64_t j = 0; j < k; j++) {
      int64_t i = i0 + start + j;
      if (i < 0 || i >= n) t[j].weight = 0.0;
      sum += t[j].weight;
    }
    for (int64_t j = 0; j < k; j++) t[j].weight = t[j].weight / sum;
  }
  for (int64_t j = 0; j < k; j++) {
    int64_t i = i0 + start + j;
    t[j].index = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
  }
}

int64_t mx_resize_taps(int mode, int antialias, double s) {
  int64_t k = mode == MX_RESIZE_NEAREST ? 1 : mode == MX_RESIZE_LINEAR ? 2 : 4;
  if (antialias && s < 1) {
    double start = mode == MX_RESIZE_LINEAR ? -1 / s : -2 / s;
    int64_t f = (int64_t)start;
    if ((double)f > start) f--; /* floor */
    k = 2 - 2 * (f + 1);
  }
  return k;
}

void mx_resize_tables(const mx_resize_params *p, mx_resize_tap *tabs) {
  for (int d = 0; d < p->rank; d++) {
    mx_resize_tap *t = tabs + p->table[d];
    int64_t k = p->taps[d] ? p->taps[d] : 1;
    if (identity_axis(p, d)) {
      for (int64_t x = 0; x < p->out_dims[d]; x++) {
        for (int64_t j = 0; j < k; j++) t[x * k + j] = (mx_resize_tap){0, 0.0};
        t[x * k] = (mx_resize_tap){x, 1.0};
      }
      continue;
    }
    for (int64_t x = 0; x < p->out_dims[d]; x++) axis_taps(p, d, x, t + x * k, k);
  }
}

static double load(int dtype, const void *in, int64_t i) {
  switch (dtype) {
    case MINNX_FLOAT: return ((const float *)in)[i];
    case MINNX_DOUBLE: return ((const double *)in)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)in)[i]);
    case MINNX_BFLOAT16: return mx_bf16_to_f32(((const uint16_t *)in)[i]);
    case MINNX_INT8: return ((const int8_t *)in)[i];
    case MINNX_UINT8: return ((const uint8_t *)in)[i];
    case MINNX_INT16: return ((const int16_t *)in)[i];
    case MINNX_UINT16: return ((const uint16_t *)in)[i];
    case MINNX_INT32: return ((const int32_t *)in)[i];
    case MINNX_UINT32: return ((const uint32_t *)in)[i];
    case MINNX_INT64: return (double)((const int64_t *)in)[i];
    default: return (double)((const uint64_t *)in)[i]; /* uint64 */
  }
}

/* double to float rounding to odd: then to float16 or bfloat16 by nearest
 * even is the nearest even from the double at once (float keeps more than
 * two bits beyond either). */
static float to_odd_float(double v) {
  float f = (float)v;
  if (!(v == v) || (double)f == v || (f - f) != 0.0f) return f; /* NaN, exact, or beyond float's range */
  uint32_t b = mx_f32_bits(f);
  double af = f < 0 ? -(double)f : f, av = v < 0 ? -v : v;
  if (af > av) b -= 1; /* rounded away from zero: back toward it */
  return mx_f32_of_bits(b | 1u);
}

/* v rounded to the nearest integer, ties to even (|v| < 2^52), no libm. */
static double round_even(double v) {
  const double big = 4503599627370496.0;
  if (!(v < big && v > -big)) return v;
  return v >= 0 ? (v + big) - big : -((-v + big) - big);
}

static void store(int dtype, void *out, int64_t i, double v) {
  if (dtype == MINNX_FLOAT) ((float *)out)[i] = (float)v;
  else if (dtype == MINNX_DOUBLE) ((double *)out)[i] = v;
  else if (dtype == MINNX_FLOAT16) ((uint16_t *)out)[i] = mx_f32_to_f16(to_odd_float(v));
  else if (dtype == MINNX_BFLOAT16) ((uint16_t *)out)[i] = mx_f32_to_bf16(to_odd_float(v));
  else if (dtype == MINNX_BOOL) ((unsigned char *)out)[i] = v != 0.0;
  else {
    double lo, hi;
    switch (dtype) {
      case MINNX_INT8: lo = -128.0, hi = 127.0; break;
      case MINNX_UINT8: lo = 0.0, hi = 255.0; break;
      case MINNX_INT16: lo = -32768.0, hi = 32767.0; break;
      case MINNX_UINT16: lo = 0.0, hi = 65535.0; break;
      case MINNX_INT32: lo = -2147483648.0, hi = 2147483647.0; break;
      case MINNX_UINT32: lo = 0.0, hi = 4294967295.0; break;
      case MINNX_INT64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
      default: lo = 0.0, hi = 18446744073709551615.0; break;
    }
    double r = v == v ? round_even(v) : 0.0;
    int low = !(r > lo), high = !(r < hi); /* at or beyond an end (hi is 2^63 or 2^64 for the 64-bit ones) */
    switch (dtype) {
      case MINNX_INT8: ((int8_t *)out)[i] = (int8_t)(low ? -128 : high ? 127 : (int)r); break;
      case MINNX_UINT8: ((uint8_t *)out)[i] = (uint8_t)(low ? 0 : high ? 255 : (int)r); break;
      case MINNX_INT16: ((int16_t *)out)[i] = (int16_t)(low ? -32768 : high ? 32767 : (int)r); break;
      case MINNX_UINT16: ((uint16_t *)out)[i] = (uint16_t)(low ? 0 : high ? 65535 : (int)r); break;
      case MINNX_INT32: ((int32_t *)out)[i] = low ? INT32_MIN : high ? INT32_MAX : (int32_t)r; break;
      case MINNX_UINT32: ((uint32_t *)out)[i] = low ? 0u : high ? UINT32_MAX : (uint32_t)r; break;
      case MINNX_INT64: ((int64_t *)out)[i] = low ? INT64_MIN : high ? INT64_MAX : (int64_t)r; break;
      default: ((uint64_t *)out)[i] = low ? 0u : high ? UINT64_MAX : (uint64_t)r; break;
    }
  }
}

void mx_resize_ref(const mx_resize_params *p, const mx_resize_tap *tabs, const void *in, void *out, int64_t e0,
                   int64_t e1) {
  int rank = p->rank;
  int64_t stride[MX_MAX_RANK], k[MX_MAX_RANK];
  const mx_resize_tap *tap[MX_MAX_RANK]; /* this element's taps per axis */
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; d--) stride[d] = s, s *= p->in_dims[d], k[d] = p->taps[d] ? p->taps[d] : 1;
  for (int64_t e = e0; e < e1; e++) {
    int64_t rest = e;
    int outside = 0;
    for (int d = rank - 1; d >= 0; d--) {
      int64_t o = rest % p->out_dims[d];
      rest /= p->out_dims[d];
      tap[d] = tabs + p->table[d] + (size_t)(o * k[d]);
      if (tap[d][0].index < 0) outside = 1;
    }
    unsigned char *to = (unsigned char *)out + (size_t)e * p->elem;
    if (outside) { /* extrapolation_value, rounded to the dtype as an interpolated value is */
      store(p->dtype, out, e, p->extrapolation);
      continue;
    }
    if (p->mode == MX_RESIZE_NEAREST) {
      int64_t at = 0;
      for (int d = 0; d < rank; d++) at += tap[d][0].index * stride[d];
      memcpy(to, (const unsigned char *)in + (size_t)at * p->elem, p->elem);
      continue;
    }
    /* the nested sum: level d's partial acc[d] over its taps t[d]; a level
     * done adds its weighted sum into the level above */
    double acc[MX_MAX_RANK];
    int64_t t[MX_MAX_RANK];
    for (int d = 0; d < rank; d++) acc[d] = 0.0, t[d] = 0;
    int d = 0;
    for (;;) {
      /* descend from level d to the innermost, each at its first tap of weight != 0 from t[d] */
      while (t[d] < k[d] && tap[d][t[d]].weight == 0.0) t[d]++;
      if (t[d] < k[d] && d < rank - 1) {
        d++;
        t[d] = 0, acc[d] = 0.0;
        continue;
      }
      if (t[d] < k[d]) { /* the innermost level: one input element */
        int64_t at = 0;
        for (int q = 0; q < rank; q++) at += tap[q][t[q]].index * stride[q];
        acc[d] += tap[d][t[d]].weight * load(p->dtype, in, at);
        t[d]++;
        continue;
      }
      if (d == 0) break; /* level 0 done: acc[0] is the value */
      d--;
      acc[d] += tap[d][t[d]].weight * acc[d + 1];
      t[d]++;
    }
    store(p->dtype, out, e, acc[0]);
  }
}
