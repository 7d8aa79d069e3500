/* Resize and Upsample (resize.c): the rules, the order of the arithmetic,
 * and the one kernel (resize_ref.c), which is also the reference loop: there
 * is no separate optimized kernel, so the fuzzer has nothing to hold to it.
 *
 * Per resized axis d (input length n = in_dims[d], scale s, output length
 * out_dims[d]), everything in double:
 *   L, the real resized length: in x s (scales given, or sizes with the
 *   scale they imply: s = out / n, or Resize-18's keep_aspect_ratio_policy
 *   min/max of those); tf_crop_and_resize with scales: n x (end - start) x s.
 *   The output dim is floor(L) (scales), the size given (sizes, stretch), or
 *   (int64)(L + 0.5) (sizes, not_larger / not_smaller).
 *   x_original of output coordinate x, by coordinate_transformation_mode:
 *     half_pixel            (x + 0.5) / s - 0.5
 *     half_pixel_symmetric  n / 2 x (1 - out / L) + ((x + 0.5) / s - 0.5)
 *     pytorch_half_pixel    out > 1 ? (x + 0.5) / s - 0.5 : 0
 *     align_corners         out == 1 ? 0 : x x (n - 1) / (L - 1)   (ONNX's data: L, not out)
 *     asymmetric            x / s
 *     tf_half_pixel_for_nn  (x + 0.5) / s
 *     tf_crop_and_resize    out == 1 ? (end - start) x (n - 1) / 2 + start x (n - 1)
 *                           : x x (end - start) x (n - 1) / (L - 1) + start x (n - 1);
 *                           outside [0, n - 1] on any axis: the element is extrapolation_value
 *   (each formula evaluated left to right as written: a product before the
 *   division that follows it). Resize-10 and Upsample: asymmetric.
 *   nearest: i = floor(xo); a whole xo picks xo; else r = xo - i picks i or
 *     i + 1 by nearest_mode (round_prefer_floor: i + 1 when r > 0.5;
 *     round_prefer_ceil: r >= 0.5; floor: i; ceil: i + 1); Resize-10 and
 *     Upsample: floor(xo) when s >= 1, else ceil(xo) (ONNX Runtime's and
 *     ONNX's old data's rule). Clamped to [0, n - 1]; the element is copied.
 *   linear and cubic: i0 = floor(xo), or xo - 1 when xo is whole; r = xo - i0
 *     in (0, 1]; taps at i0 + j, j = 1 - k/2 ... k/2, k taps: linear 2, weights
 *     1 - r, r; cubic 4 (A = cubic_coeff_a, weights in j order, u = r + 1,
 *     v = 1 - r, w = v + 1): ((A u - 5A) u + 8A) u - 4A, ((A + 2) r - (A + 3)) r r + 1,
 *     ((A + 2) v - (A + 3)) v v + 1, ((A w - 5A) w + 8A) w - 4A.
 *     antialias (18) with t = min(s, 1): linear start = floor(-1/t) + 1,
 *     cubic floor(-2/t) + 1, k = 2 - 2 start taps j = start ... 1 - start of
 *     weight h(|(j - r) t|), h(z) = max(0, 1 - z) (linear) or, with z2 = z z,
 *     z3 = z z2, (A + 2) z3 - (A + 3) z2 + 1 for z <= 1, A z3 - 5A z2 + 8A z - 4A
 *     for z < 2, else 0 (cubic); each divided by their sum (in j order).
 *     exclude_outside: taps outside [0, n) weigh 0 and the others are divided
 *     by their sum (in j order). Then each tap's index is clamped to [0, n - 1].
 * Per output element: its value is the nested sum over the axes in order,
 *   v = sum_{t0} w0[t0] x (sum_{t1} w1[t1] x (... sum_{tk} wk[tk] x x[i0, i1, ..., ik])),
 *   every sum from +0.0 over its taps in j order, a product then an addition
 *   (never fused), taps of weight 0 skipped, every input element converted
 *   to double first (int64 and uint64 beyond 2^53 round); the result is
 *   rounded once to the output dtype (float16 and bfloat16 from double
 *   directly; integers to the nearest, ties to even, saturated, NaN to 0).
 * An axis Resize-18's `axes` does not list, and one of scale exactly 1 and
 * output length n under half_pixel, half_pixel_symmetric,
 * pytorch_half_pixel, align_corners or asymmetric (x_original = x there),
 * is one tap of weight 1 at x: not cubic's weights of about 0 beside it.
 * Threads split the output elements; each element is computed alone, so the
 * bits are the same for every thread count, ISA level and architecture. */
#ifndef MX_RESIZE_H
#define MX_RESIZE_H

#include "ops/core/op.h"

enum { MX_RESIZE_NEAREST, MX_RESIZE_LINEAR, MX_RESIZE_CUBIC };
enum {
  MX_RESIZE_HALF_PIXEL,
  MX_RESIZE_HALF_PIXEL_SYMMETRIC,
  MX_RESIZE_PYTORCH_HALF_PIXEL,
  MX_RESIZE_ALIGN_CORNERS,
  MX_RESIZE_ASYMMETRIC,
  MX_RESIZE_TF_HALF_PIXEL_FOR_NN,
  MX_RESIZE_TF_CROP_AND_RESIZE
};
enum { MX_RESIZE_ROUND_PREFER_FLOOR, MX_RESIZE_ROUND_PREFER_CEIL, MX_RESIZE_FLOOR, MX_RESIZE_CEIL, MX_RESIZE_LEGACY };

/* One tap of an output coordinate: the input index and its weight; index -1
 * on a coordinate's first tap: outside the crop (extrapolation_value). */
typedef struct mx_resize_tap {
  int64_t index;
  double weight;
} mx_resize_tap;

typedef struct mx_resize_params {
  int rank, mode, coord, nearest, antialias, exclude_outside;
  int dtype;
  size_t elem;
  double cubic_a, extrapolation;
  int64_t in_dims[MX_MAX_RANK], out_dims[MX_MAX_RANK];
  double scale[MX_MAX_RANK], length[MX_MAX_RANK]; /* s and L above */
  double roi_start[MX_MAX_RANK], roi_end[MX_MAX_RANK];
  int64_t taps[MX_MAX_RANK];   /* taps per output coordinate on each axis */
  size_t table[MX_MAX_RANK];   /* where axis d's taps start in the scratch (in taps) */
  size_t n_taps;               /* all axes' taps: the scratch holds that many */
} mx_resize_params;

/* Taps per output coordinate of an axis at scale s: 1 (nearest), 2 (linear),
 * 4 (cubic), or with antialias below scale 1 the widened window's. */
int64_t mx_resize_taps(int mode, int antialias, double s);
/* Fills the taps of every axis (p->n_taps of them) into `tabs`. */
void mx_resize_tables(const mx_resize_params *p, mx_resize_tap *tabs);
/* Output elements [e0, e1), each from the tables by the order above. */
void mx_resize_ref(const mx_resize_params *p, const mx_resize_tap *tabs, const void *in, void *out, int64_t e0,
                   int64_t e1);
/* The tables into x->scratch, then the elements in tasks. */
void mx_resize_run(const mx_resize_params *p, const mx_exec *x, const void *in, void *out);

#endif
