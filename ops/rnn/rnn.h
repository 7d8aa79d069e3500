/* RNN, GRU and LSTM (ops/rnn/rnn.c): the node's geometry, the activations
 * and the order of the arithmetic, which the loop (rnn_ref.c) follows.
 *
 * The order (README, "Recurrent nets"). The compute type A is float32 for
 * float and float16 (each element converted exactly), double for double;
 * every output element is rounded once from A into the output's dtype. The
 * states (H, and C for LSTM) are carried from step to step in A.
 * Per step, direction and batch row, each gate row j (W's and R's row j of
 * the direction: RNN's i; GRU's z, r, h; LSTM's i, o, f, c, as ONNX orders
 * them) is:
 *   xw = 0; for k = 0 .. input_size-1:  xw = fma(x[k], W[j, k], xw)
 *   hr = 0; for k = 0 .. hidden_size-1: hr = fma(h[k], R[j, k], hr)
 *   a  = ((xw + hr) + Wb[j]) + Rb[j]
 * each fma rounded once (fmaf for float32, a correctly rounded fma for
 * double), each + one IEEE addition in A, an absent B adding +0.0. Then:
 * - LSTM peepholes: the i and f gates a = a + (P[j] * C_prev[j]), the o
 *   gate a = a + (P[j] * C[j]) with the new C (product rounded, then sum);
 * - GRU's hidden gate h with linear_before_reset = 0: hr sums
 *   fma(r[k] * H_prev[k], R[j, k], hr), the product r * H rounded first;
 *   with linear_before_reset != 0: a = (xw + (r[j] * (hr + Rb[j]))) + Wb[j];
 * - clip (when the node has it): a = min(max(a, -clip), clip) before each
 *   gate's activation (not before LSTM's h(C), as ONNX Runtime does);
 * - the activations on A (minnx's own exp, tanh, sigmoid, log1p: mathf.h
 *   for float32, mathd.h for double; below);
 * - LSTM: C = (f * C_prev) + (i * c), H = o * h(C); input_forget != 0
 *   couples the gates as ONNX Runtime does: f = 1 - i (the f gate's
 *   weights are then not used);
 * - GRU: H = ((1 - z) * h) + (z * H_prev);
 * - RNN: H = f(a).
 * No other fused multiply-add. A batch row's steps are whole in one task:
 * threads split batch rows (and float32's product with W its tiles), never
 * a sum, so every thread count gives these bits. */
#ifndef MX_RNN_RNN_H
#define MX_RNN_RNN_H

#include <stdint.h>

#include "graph/ir.h"
#include "ops/math/gemm.h"

enum { MX_RNN_CELL_RNN, MX_RNN_CELL_GRU, MX_RNN_CELL_LSTM };

/* The activation functions ONNX lists for the recurrent ops, with their
 * alpha and beta (defaults as the ops of those names: LeakyRelu 0.01,
 * ThresholdedRelu 1, HardSigmoid 0.2 and 0.5, Elu 1; Affine and ScaledTanh
 * 1 and 0, 1 and 1, as ONNX Runtime takes them):
 *   Relu max(0, x); Tanh; Sigmoid; Affine alpha * x + beta; LeakyRelu x if
 *   x >= 0 else alpha * x; ThresholdedRelu x if x >= alpha else 0 (the
 *   recurrent ops' own wording); ScaledTanh alpha * tanh(beta * x);
 *   HardSigmoid min(max(alpha * x + beta, 0), 1); Elu x if x >= 0 else
 *   alpha * expm1(x); Softsign x / (1 + |x|); Softplus
 *   max(x, 0) + log1p(exp(-|x|)) (the same formula as the Softplus op).
 * Each product, sum and quotient one IEEE operation in A. */
enum {
  MX_RNN_RELU, MX_RNN_TANH, MX_RNN_SIGMOID, MX_RNN_AFFINE, MX_RNN_LEAKY_RELU, MX_RNN_THRESHOLDED_RELU,
  MX_RNN_SCALED_TANH, MX_RNN_HARD_SIGMOID, MX_RNN_ELU, MX_RNN_SOFTSIGN, MX_RNN_SOFTPLUS, MX_RNN_N_ACTS
};

typedef struct mx_rnn_act {
  int kind;
  float alpha, beta;
} mx_rnn_act;

/* Inputs and outputs by index, as the three ops number them. */
enum { MX_RNN_X, MX_RNN_W, MX_RNN_R, MX_RNN_B, MX_RNN_SEQ, MX_RNN_H0, MX_RNN_C0, MX_RNN_P };
enum { MX_RNN_Y, MX_RNN_YH, MX_RNN_YC };

/* A node, as prepare gives it to the loop. */
typedef struct mx_rnn {
  int cell, gates;      /* MX_RNN_CELL_*; gate rows per hidden unit: 1, 3, 4 */
  mx_dtype t;           /* float16, float or double */
  int dirs, reverse;    /* 1 or 2 directions; one direction: 1 when it is reverse */
  int layout;           /* 0: [seq, batch, ...]; 1: [batch, seq, ...] */
  int has_clip, lbr, input_forget;
  float clip;
  int64_t seq, batch, input, hidden;
  mx_rnn_act act[6];    /* direction d's k-th: act[d * per + k], per = 1, 2, 3 */
  int per;
  int has[8];           /* which inputs the node has (MX_RNN_X ...) */
  int out[3];           /* which outputs it asks for */
  size_t row_scratch;   /* bytes of scratch per batch row (A: H, C, gates, r * H) */
  int64_t tasks;
} mx_rnn;

/* Batch rows [b0, b1) of the node, every direction, into the outputs asked
 * for; scratch holds row_scratch bytes per batch row of the whole batch. A
 * sequence length out of [0, seq] gives that row's outputs as zeros and
 * returns 1 (a fault); else 0. */
int mx_rnn_ref(const mx_rnn *p, const void *const *in, void *const *out, void *scratch, int64_t b0, int64_t b1);

/* float32's activations as the loop computes them (rnn_ref.c). */
float mx_rnn_act32(const mx_rnn_act *a, float x);

/* float32's path on the matrix products' kernels (rnn_fast.c), the same
 * order: gemm.h's chain acc = fma(a[i,k], b[k,j], acc) from zero is the
 * gate rows' xw and hr. xw for every step at once, one product per
 * direction X [seq * batch, input] x W[d]^T into scratch; hr per step and
 * batch row a product [1, hidden] x R[d]^T (the GEMV path, R's rows as
 * dots: one chain per row, k in order); GRU's h gate with
 * linear_before_reset = 0 over the vector r * H_prev, each product rounded,
 * formed first. The sums with the biases and the elementwise update as the
 * loop does them, in float32. */
typedef struct mx_rnn_fast {
  mx_sgemm_plan xw;          /* [seq * batch, input] x W[d]^T, batch item d */
  mx_sgemm_plan hr_all;      /* [1, hidden] x R^T over every gate row */
  mx_sgemm_plan hr_zr, hr_h; /* GRU (linear_before_reset = 0): the z and r rows, the h rows */
  size_t xw_scratch;         /* bytes of the product's own scratch (64-byte multiple) */
  size_t xw_bytes;           /* bytes of xw (64-byte multiple) */
} mx_rnn_fast;

/* Plans p (float32) at level isa (gemm.h's MX_GEMM_ levels). */
void mx_rnn_fast_plan(mx_rnn_fast *f, const mx_rnn *p, int isa);
/* Scratch bytes of the fast path: the product's, xw, then p->row_scratch
 * per batch row. */
size_t mx_rnn_fast_scratch(const mx_rnn_fast *f, const mx_rnn *p);
/* xw for every direction and step (through x's parallel-for; NULL: inline). */
void mx_rnn_fast_xw(const mx_rnn *p, const mx_rnn_fast *f, const mx_exec *x, const void *const *in, void *scratch);
/* Batch rows [b0, b1) after mx_rnn_fast_xw, as mx_rnn_ref gives them. */
int mx_rnn_fast_rows(const mx_rnn *p, const mx_rnn_fast *f, const void *const *in, void *const *out, void *scratch,
                     int64_t b0, int64_t b1);

#endif
