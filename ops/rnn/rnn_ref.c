/* The loop of RNN, GRU and LSTM (rnn.h's order, operation for operation):
 * each batch row on its own, its directions one after the other, each step
 * its gate rows as dot products from zero, then the cell's elementwise
 * update. Values are held in double; every operation of float32's A is
 * done in double and rounded once to float32 (for +, -, * and / of float32
 * operands that is the float32 operation's result, double having more than
 * 2 x 24 + 2 bits), the fused multiply-adds are fmaf's and MX_FMA64's, the
 * transcendental functions mathf.h's and mathd.h's. The kernel of float16
 * and double, and the reference float32's path on the products' kernels
 * (rnn_fast.c) is held to, bit for bit (unit/rnn, fuzz_diff). */
#include <math.h>
#include <string.h>

#include "ops/core/half.h"
#include "ops/core/mathd.h"
#include "ops/core/mathf.h"
#include "ops/math/gemm.h"
#include "ops/rnn/rnn.h"

/* Element i of a float16/float/double tensor, exactly, as a double. */
static double get(mx_dtype t, const void *p, int64_t i) {
  switch (t) {
    case MINNX_DOUBLE: return ((const double *)p)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const float *)p)[i];
  }
}

/* Element i of an output from A's value (a float32 held exactly unless t is double). */
static void put(mx_dtype t, void *p, int64_t i, double v) {
  switch (t) {
    case MINNX_DOUBLE: ((double *)p)[i] = v; break;
    case MINNX_FLOAT16: ((uint16_t *)p)[i] = mx_f32_to_f16((float)v); break;
    default: ((float *)p)[i] = (float)v; break;
  }
}

static double rnd(int dbl, double v) { return dbl ? v : (double)(float)v; }

/* sum over k < n of a[k] * b[k], fma by fma from zero, in A; a and b of
 * dtype t, or a in A (a_in_a) and b of t. */
static double dot(mx_dtype t, int a_in_a, const void *a, const void *b, int64_t n) {
  if (t == MINNX_DOUBLE) {
    const double *x = a, *y = b;
    double acc = 0.0;
    for (int64_t k = 0; k < n; k++) acc = MX_FMA64(x[k], y[k], acc);
    return acc;
  }
  float acc = 0.0f;
  if (t == MINNX_FLOAT) {
    const float *x = a, *y = b;
    for (int64_t k = 0; k < n; k++) acc = fmaf(x[k], y[k], acc);
  } else if (a_in_a) {
    const float *x = a;
    const uint16_t *y = b;
    for (int64_t k = 0; k < n; k++) acc = fmaf(x[k], mx_f16_to_f32(y[k]), acc);
  } else {
    const uint16_t *x = a, *y = b;
    for (int64_t k = 0; k < n; k++) acc = fmaf(mx_f16_to_f32(x[k]), mx_f16_to_f32(y[k]), acc);
  }
  return acc;
}

static float act32(const mx_rnn_act *a, float x) {
  switch (a->kind) {
    case MX_RNN_RELU: return x <= 0.0f ? 0.0f : x;
    case MX_RNN_TANH: return mx_tanhf(x);
    case MX_RNN_SIGMOID: return mx_sigmoidf(x);
    case MX_RNN_AFFINE: return a->alpha * x + a->beta;
    case MX_RNN_LEAKY_RELU: return x >= 0.0f ? x : a->alpha * x;
    case MX_RNN_THRESHOLDED_RELU: return x >= a->alpha ? x : 0.0f;
    case MX_RNN_SCALED_TANH: return a->alpha * mx_tanhf(a->beta * x);
    case MX_RNN_HARD_SIGMOID: {
      float v = a->alpha * x + a->beta;
      return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
    case MX_RNN_ELU: return x >= 0.0f ? x : a->alpha * mx_expm1f(x);
    case MX_RNN_SOFTSIGN: return x / (1.0f + (x < 0.0f ? -x : x));
    default: /* MX_RNN_SOFTPLUS */ return (x > 0.0f ? x : 0.0f) + mx_log1pf(mx_expf(x < 0.0f ? x : -x));
  }
}

float mx_rnn_act32(const mx_rnn_act *a, float x) { return act32(a, x); }

static double act64(const mx_rnn_act *a, double x) {
  double al = a->alpha, be = a->beta;
  switch (a->kind) {
    case MX_RNN_RELU: return x <= 0.0 ? 0.0 : x;
    case MX_RNN_TANH: return mx_tanh64(x);
    case MX_RNN_SIGMOID: return mx_sigmoid64(x);
    case MX_RNN_AFFINE: return al * x + be;
    case MX_RNN_LEAKY_RELU: return x >= 0.0 ? x : al * x;
    case MX_RNN_THRESHOLDED_RELU: return x >= al ? x : 0.0;
    case MX_RNN_SCALED_TANH: return al * mx_tanh64(be * x);
    case MX_RNN_HARD_SIGMOID: {
      double v = al * x + be;
      return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    }
    case MX_RNN_ELU: return x >= 0.0 ? x : al * mx_expm1_64(x);
    case MX_RNN_SOFTSIGN: return x / (1.0 + mx_abs64(x));
    default: /* MX_RNN_SOFTPLUS */ return (x > 0.0 ? x : 0.0) + mx_log1p64(mx_exp64(-mx_abs64(x)));
  }
}

/* A gate's activation: clip (when the node has it), then the function. */
static double gate(const mx_rnn *p, const mx_rnn_act *a, double x) {
  int dbl = p->t == MINNX_DOUBLE;
  if (p->has_clip) {
    double c = rnd(dbl, p->clip);
    x = x < -c ? -c : x > c ? c : x;
  }
  return dbl ? act64(a, x) : act32(a, (float)x);
}

/* The scratch of one batch row: H and C, the gates' values, GRU's r * H. */
typedef struct {
  void *h, *c, *g, *rh;
} row_state;

static double aget(int dbl, const void *s, int64_t i) { return dbl ? ((const double *)s)[i] : ((const float *)s)[i]; }
static void aset(int dbl, void *s, int64_t i, double v) {
  if (dbl) ((double *)s)[i] = v;
  else ((float *)s)[i] = (float)v;
}

/* Offsets (in elements) of the layouts' rows. */
static int64_t x_at(const mx_rnn *p, int64_t t, int64_t b) {
  return (p->layout ? b * p->seq + t : t * p->batch + b) * p->input;
}
static int64_t state_at(const mx_rnn *p, int64_t d, int64_t b) {
  return (p->layout ? b * p->dirs + d : d * p->batch + b) * p->hidden;
}
static int64_t y_at(const mx_rnn *p, int64_t t, int64_t d, int64_t b) {
  return (p->layout ? (b * p->seq + t) * p->dirs + d : (t * p->dirs + d) * p->batch + b) * p->hidden;
}

/* Gate row j's ((xw + hr) + Wb) + Rb for direction d, hr over `hv` (A). */
static double pre(const mx_rnn *p, const void *const *in, int64_t d, int64_t j, const void *xrow, const void *hv) {
  int dbl = p->t == MINNX_DOUBLE;
  size_t es = mx_dtype_size(p->t);
  int64_t rows = p->gates * p->hidden;
  const char *w = (const char *)in[MX_RNN_W] + (size_t)((d * rows + j) * p->input) * es;
  const char *r = (const char *)in[MX_RNN_R] + (size_t)((d * rows + j) * p->hidden) * es;
  double a = rnd(dbl, dot(p->t, 0, xrow, w, p->input) + dot(p->t, 1, hv, r, p->hidden));
  double wb = 0.0, rb = 0.0;
  if (p->has[MX_RNN_B]) wb = get(p->t, in[MX_RNN_B], d * 2 * rows + j), rb = get(p->t, in[MX_RNN_B], d * 2 * rows + rows + j);
  return rnd(dbl, rnd(dbl, a + wb) + rb);
}

/* One step of direction d for a batch row: s's H (and C) updated. */
static void step(const mx_rnn *p, const void *const *in, int64_t d, const void *xrow, const row_state *s) {
  int dbl = p->t == MINNX_DOUBLE;
  int64_t h = p->hidden, rows = p->gates * h;
  const mx_rnn_act *act = p->act + d * p->per;
  if (p->cell == MX_RNN_CELL_RNN) {
    for (int64_t j = 0; j < h; j++) aset(dbl, s->g, j, pre(p, in, d, j, xrow, s->h));
    for (int64_t j = 0; j < h; j++) aset(dbl, s->h, j, gate(p, &act[0], aget(dbl, s->g, j)));
    return;
  }
  if (p->cell == MX_RNN_CELL_GRU) {
    for (int64_t j = 0; j < 2 * h; j++) aset(dbl, s->g, j, gate(p, &act[0], pre(p, in, d, j, xrow, s->h)));
    for (int64_t j = 0; j < h; j++) aset(dbl, s->rh, j, rnd(dbl, aget(dbl, s->g, h + j) * aget(dbl, s->h, j)));
    size_t es = mx_dtype_size(p->t);
    for (int64_t j = 0; j < h; j++) {
      int64_t row = 2 * h + j;
      double a;
      if (!p->lbr) {
        a = pre(p, in, d, row, xrow, s->rh);
      } else {
        const char *w = (const char *)in[MX_RNN_W] + (size_t)((d * rows + row) * p->input) * es;
        const char *r = (const char *)in[MX_RNN_R] + (size_t)((d * rows + row) * h) * es;
        double xw = dot(p->t, 0, xrow, w, p->input), hr = dot(p->t, 1, s->h, r, h), wb = 0.0, rb = 0.0;
        if (p->has[MX_RNN_B])
          wb = get(p->t, in[MX_RNN_B], d * 2 * rows + row), rb = get(p->t, in[MX_RNN_B], d * 2 * rows + rows + row);
        double rr = rnd(dbl, aget(dbl, s->g, h + j) * rnd(dbl, hr + rb));
        a = rnd(dbl, rnd(dbl, xw + rr) + wb);
      }
      aset(dbl, s->g, row, gate(p, &act[1], a));
    }
    for (int64_t j = 0; j < h; j++) {
      double z = aget(dbl, s->g, j), hh = aget(dbl, s->g, 2 * h + j), hp = aget(dbl, s->h, j);
      aset(dbl, s->h, j, rnd(dbl, rnd(dbl, rnd(dbl, 1.0 - z) * hh) + rnd(dbl, z * hp)));
    }
    return;
  }
  /* LSTM: rows i [0, h), o [h, 2h), f [2h, 3h), c [3h, 4h) */
  for (int64_t j = 0; j < rows; j++)
    if (!(p->input_forget && j >= 2 * h && j < 3 * h)) aset(dbl, s->g, j, pre(p, in, d, j, xrow, s->h));
  const void *pp = in[MX_RNN_P];
  for (int64_t j = 0; j < h; j++) {
    double cp = aget(dbl, s->c, j), ai = aget(dbl, s->g, j), ao = aget(dbl, s->g, h + j);
    double ac = aget(dbl, s->g, 3 * h + j);
    if (p->has[MX_RNN_P]) ai = rnd(dbl, ai + rnd(dbl, get(p->t, pp, d * 3 * h + j) * cp));
    double i = gate(p, &act[0], ai), f;
    if (p->input_forget) {
      f = rnd(dbl, 1.0 - i);
    } else {
      double af = aget(dbl, s->g, 2 * h + j);
      if (p->has[MX_RNN_P]) af = rnd(dbl, af + rnd(dbl, get(p->t, pp, d * 3 * h + 2 * h + j) * cp));
      f = gate(p, &act[0], af);
    }
    double cc = gate(p, &act[1], ac);
    double cn = rnd(dbl, rnd(dbl, f * cp) + rnd(dbl, i * cc));
    if (p->has[MX_RNN_P]) ao = rnd(dbl, ao + rnd(dbl, get(p->t, pp, d * 3 * h + h + j) * cn));
    double o = gate(p, &act[0], ao);
    double hc = dbl ? act64(&act[2], cn) : act32(&act[2], (float)cn);
    aset(dbl, s->c, j, cn);
    aset(dbl, s->h, j, rnd(dbl, o * hc));
  }
}

/* Batch row b's outputs all zero (a sequence length out of range). */
static void zero_row(const mx_rnn *p, void *const *out, int64_t b) {
  for (int64_t d = 0; d < p->dirs; d++) {
    for (int64_t t = 0; p->out[MX_RNN_Y] && t < p->seq; t++)
      for (int64_t j = 0; j < p->hidden; j++) put(p->t, out[MX_RNN_Y], y_at(p, t, d, b) + j, 0.0);
    for (int k = MX_RNN_YH; k <= MX_RNN_YC; k++)
      for (int64_t j = 0; p->out[k] && j < p->hidden; j++) put(p->t, out[k], state_at(p, d, b) + j, 0.0);
  }
}

int mx_rnn_ref(const mx_rnn *p, const void *const *in, void *const *out, void *scratch, int64_t b0, int64_t b1) {
  int dbl = p->t == MINNX_DOUBLE, fault = 0;
  size_t es = mx_dtype_size(p->t), as = dbl ? 8 : 4;
  int64_t h = p->hidden;
  for (int64_t b = b0; b < b1; b++) {
    char *base = (char *)scratch + (size_t)b * p->row_scratch;
    row_state s = {base, base + (size_t)h * as, base + 2 * (size_t)h * as, base + (size_t)(2 + p->gates) * (size_t)h * as};
    int64_t len = p->seq;
    if (p->has[MX_RNN_SEQ]) {
      int32_t l = ((const int32_t *)in[MX_RNN_SEQ])[b];
      if (l < 0 || l > p->seq) {
        zero_row(p, out, b);
        fault = 1;
        continue;
      }
      len = l;
    }
    for (int64_t d = 0; d < p->dirs; d++) {
      int rev = p->dirs == 2 ? d == 1 : p->reverse;
      int64_t at = state_at(p, d, b);
      for (int64_t j = 0; j < h; j++) {
        aset(dbl, s.h, j, p->has[MX_RNN_H0] ? get(p->t, in[MX_RNN_H0], at + j) : 0.0);
        aset(dbl, s.c, j, p->has[MX_RNN_C0] ? get(p->t, in[MX_RNN_C0], at + j) : 0.0);
      }
      for (int64_t k = 0; k < len; k++) {
        int64_t t = rev ? len - 1 - k : k;
        step(p, in, d, (const char *)in[MX_RNN_X] + (size_t)x_at(p, t, b) * es, &s);
        for (int64_t j = 0; p->out[MX_RNN_Y] && j < h; j++) put(p->t, out[MX_RNN_Y], y_at(p, t, d, b) + j, aget(dbl, s.h, j));
      }
      for (int64_t t = len; p->out[MX_RNN_Y] && t < p->seq; t++)
        for (int64_t j = 0; j < h; j++) put(p->t, out[MX_RNN_Y], y_at(p, t, d, b) + j, 0.0);
      for (int64_t j = 0; j < h; j++) {
        if (p->out[MX_RNN_YH]) put(p->t, out[MX_RNN_YH], at + j, aget(dbl, s.h, j));
        if (p->out[MX_RNN_YC]) put(p->t, out[MX_RNN_YC], at + j, aget(dbl, s.c, j));
      }
    }
  }
  return fault;
}
