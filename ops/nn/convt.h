/* ConvTranspose (ops/nn/convt.c): the transposed convolution's plan, its
 * run on the matrix products' kernels (ops/math/gemm.h) and the reference
 * loop the run is held to. Its geometry is Conv's mx_conv_geom (conv.h), read
 * the other way: in[] the input X's spatial dims, out[] the output Y's, c the
 * input channels, m the output channels; W is [C, M/group, k...]; pad[] is
 * the padding before each dim, which output_shape may make negative (the
 * output then starts before the first computed element). Input element
 * x[n, c, i...] under kernel offset t... lands on output o = i * stride +
 * t * dilation - pad in each dim.
 *
 * The order (README, "ConvTranspose"): every output element y[n, m, o...] is
 *   acc = 0; for each kernel offset t = (td, th, tw), the last fastest, under
 *   which an input element lands on o (i = (o + pad - t * dilation) / stride
 *   whole and in [0, in) in every dim):
 *     s = 0; for c in m's group's input channels: s = fma(w[c, m', t], x[n, c, i], s)
 *     acc = acc + s
 * then y = acc + b[m] with a bias (one more rounding). Offsets under which
 * nothing lands add nothing (not even zeros). float16 computes this in
 * float32 and rounds once into the output; double in double. The inner
 * chains are a matrix product col[(m', t), i] = W^T x X over the group's
 * channels (the product kernels' order: a chain over k from zero), the outer
 * sum col2im's scatter-add, offset by offset in order, each output channel's
 * plane by one task: so threads split outputs, never a sum. */
#ifndef MX_CONVT_H
#define MX_CONVT_H

#include "ops/nn/conv.h"

typedef struct mx_convt_plan {
  mx_conv_geom g;
  mx_dtype t;
  int bias;
  mx_sgemm_plan sg;     /* float, float16 (sg.d: the product's dims for double too) */
  mx_gemm_rows_fn rows; /* double */
  int64_t row_tasks, scatter_tasks;
  mx_convert_params to_f32, from_f32; /* float16 */
  /* scratch: the product's, col [M * window, in plane], then float16's float32 copies of X, W, B, Y */
  size_t off_col, off_x, off_w, off_b, off_y, scratch;
} mx_convt_plan;

/* Plans a transposed convolution of geometry g and dtype t (float16, float,
 * double) at level isa (MX_GEMM_*); 0 when its scratch's bytes overflow or
 * the dtype is not in this build. */
int mx_convt_plan_init(mx_convt_plan *p, const mx_conv_geom *g, mx_dtype t, int bias, int isa);
/* Y = the transposed convolution of X by W (+ B) through x's parallel-for
 * (NULL: inline), in p->scratch bytes of scratch (64-byte aligned). */
void mx_convt_run(const mx_convt_plan *p, const mx_exec *x, const void *xs, const void *w, const void *b, void *y,
                  void *scratch);

/* The reference loop: the order above, one output element at a time. b may be NULL. */
void mx_convt_ref(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, void *y);

#endif
