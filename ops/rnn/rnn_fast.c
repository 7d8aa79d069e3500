/* float32's RNN, GRU and LSTM on the matrix products' kernels (rnn.h: the
 * order, and why the products give the loop's bits). Each step's sums and
 * elementwise update are rnn_ref.c's, written in float32: there every
 * operation is done in double and rounded once to float32, which for +, -
 * and * of float32 operands is the float32 operation itself. */
#include <string.h>

#include "ops/rnn/rnn.h"

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

/* [1, k] x R^T for n gate rows of k = hidden: row j of R a dot with H. */
static void hr_plan(mx_sgemm_plan *pl, int64_t n, int64_t hidden, int isa) {
  mx_gemm_dims d;
  memset(&d, 0, sizeof d);
  d.m = 1, d.n = n, d.k = hidden;
  d.rsa = hidden, d.csa = 1, d.rsb = 1, d.csb = hidden;
  d.batch = 1;
  mx_sgemm_plan_init(pl, &d, isa);
}

void mx_rnn_fast_plan(mx_rnn_fast *f, const mx_rnn *p, int isa) {
  memset(f, 0, sizeof *f);
  int64_t rows = p->gates * p->hidden;
  mx_gemm_dims d;
  memset(&d, 0, sizeof d);
  /* X's rows (either layout: [seq * batch, input] row-major) times W[d]^T */
  d.m = p->seq * p->batch, d.n = rows, d.k = p->input;
  d.rsa = p->input, d.csa = 1, d.rsb = 1, d.csb = p->input;
  d.batch = p->dirs, d.brank = 1, d.bdims[0] = p->dirs, d.bsa[0] = 0, d.bsb[0] = rows * p->input;
  mx_sgemm_plan_init(&f->xw, &d, isa);
  f->xw_scratch = round64(mx_sgemm_scratch(&f->xw));
  f->xw_bytes = round64((size_t)(p->dirs * p->seq * p->batch * rows) * sizeof(float));
  hr_plan(&f->hr_all, rows, p->hidden, isa);
  hr_plan(&f->hr_zr, 2 * p->hidden, p->hidden, isa);
  hr_plan(&f->hr_h, p->hidden, p->hidden, isa);
}

size_t mx_rnn_fast_scratch(const mx_rnn_fast *f, const mx_rnn *p) {
  return f->xw_scratch + f->xw_bytes + p->row_scratch * (size_t)p->batch;
}

void mx_rnn_fast_xw(const mx_rnn *p, const mx_rnn_fast *f, const mx_exec *x, const void *const *in, void *scratch) {
  if (p->seq * p->batch == 0) return;
  mx_sgemm_run(&f->xw, x, in[MX_RNN_X], in[MX_RNN_W], NULL, (float *)((char *)scratch + f->xw_scratch), scratch);
}

static float clip_act(const mx_rnn *p, const mx_rnn_act *a, float x) {
  if (p->has_clip) {
    float c = p->clip;
    x = x < -c ? -c : x > c ? c : x;
  }
  return mx_rnn_act32(a, x);
}

/* Offsets (in elements) of the layouts' rows (rnn_ref.c's). */
static int64_t x_row(const mx_rnn *p, int64_t t, int64_t b) { return p->layout ? b * p->seq + t : t * p->batch + b; }
static int64_t state_at(const mx_rnn *p, int64_t d, int64_t b) {
  return (p->layout ? b * p->dirs + d : d * p->batch + b) * p->hidden;
}
static int64_t y_at(const mx_rnn *p, int64_t t, int64_t d, int64_t b) {
  return (p->layout ? (b * p->seq + t) * p->dirs + d : (t * p->dirs + d) * p->batch + b) * p->hidden;
}

/* One step of direction d: xw the step's products with W (every gate row),
 * h and c the state, g room for the gate rows, rh GRU's r * H. */
static void step(const mx_rnn *p, const mx_rnn_fast *f, const void *const *in, int64_t d, const float *xw, float *h,
                 float *c, float *g, float *rh) {
  int64_t n = p->hidden, rows = p->gates * n;
  const mx_rnn_act *act = p->act + d * p->per;
  const float *r = (const float *)in[MX_RNN_R] + d * rows * n;
  const float *wb = p->has[MX_RNN_B] ? (const float *)in[MX_RNN_B] + d * 2 * rows : NULL, *rb = wb ? wb + rows : NULL;
  if (p->cell == MX_RNN_CELL_GRU && !p->lbr) {
    mx_sgemm_run(&f->hr_zr, NULL, h, r, NULL, g, NULL);
    for (int64_t j = 0; j < 2 * n; j++) {
      float a = xw[j] + g[j];
      a = (a + (wb ? wb[j] : 0.0f)) + (rb ? rb[j] : 0.0f);
      g[j] = clip_act(p, &act[0], a);
    }
    for (int64_t j = 0; j < n; j++) rh[j] = g[n + j] * h[j];
    mx_sgemm_run(&f->hr_h, NULL, rh, r + 2 * n * n, NULL, g + 2 * n, NULL);
    for (int64_t j = 2 * n; j < 3 * n; j++) {
      float a = xw[j] + g[j];
      a = (a + (wb ? wb[j] : 0.0f)) + (rb ? rb[j] : 0.0f);
      g[j] = clip_act(p, &act[1], a);
    }
  } else {
    mx_sgemm_run(&f->hr_all, NULL, h, r, NULL, g, NULL);
    int64_t plain = p->cell == MX_RNN_CELL_GRU ? 2 * n : rows; /* GRU lbr's h rows below */
    for (int64_t j = 0; j < plain; j++) {
      float a = xw[j] + g[j];
      g[j] = (a + (wb ? wb[j] : 0.0f)) + (rb ? rb[j] : 0.0f);
    }
    if (p->cell == MX_RNN_CELL_GRU) {
      for (int64_t j = 0; j < 2 * n; j++) g[j] = clip_act(p, &act[0], g[j]);
      for (int64_t j = 2 * n; j < 3 * n; j++) {
        float rr = g[j - n] * (g[j] + (rb ? rb[j] : 0.0f));
        g[j] = clip_act(p, &act[1], (xw[j] + rr) + (wb ? wb[j] : 0.0f));
      }
    }
  }
  if (p->cell == MX_RNN_CELL_RNN) {
    for (int64_t j = 0; j < n; j++) h[j] = clip_act(p, &act[0], g[j]);
    return;
  }
  if (p->cell == MX_RNN_CELL_GRU) {
    for (int64_t j = 0; j < n; j++) {
      float z = g[j], hh = g[2 * n + j];
      h[j] = ((1.0f - z) * hh) + (z * h[j]);
    }
    return;
  }
  /* LSTM: rows i [0, n), o [n, 2n), f [2n, 3n), c [3n, 4n) */
  const float *pp = p->has[MX_RNN_P] ? (const float *)in[MX_RNN_P] + d * 3 * n : NULL;
  for (int64_t j = 0; j < n; j++) {
    float cp = c[j], ai = g[j], ao = g[n + j], ac = g[3 * n + j];
    if (pp) ai = ai + (pp[j] * cp);
    float i = clip_act(p, &act[0], ai), fg;
    if (p->input_forget) {
      fg = 1.0f - i;
    } else {
      float af = g[2 * n + j];
      if (pp) af = af + (pp[2 * n + j] * cp);
      fg = clip_act(p, &act[0], af);
    }
    float cc = clip_act(p, &act[1], ac);
    float cn = (fg * cp) + (i * cc);
    if (pp) ao = ao + (pp[n + j] * cn);
    float o = clip_act(p, &act[0], ao);
    c[j] = cn;
    h[j] = o * mx_rnn_act32(&act[2], cn);
  }
}

int mx_rnn_fast_rows(const mx_rnn *p, const mx_rnn_fast *f, const void *const *in, void *const *out, void *scratch,
                     int64_t b0, int64_t b1) {
  int fault = 0;
  int64_t n = p->hidden, rows = p->gates * n;
  const float *xw_all = (const float *)((const char *)scratch + f->xw_scratch);
  float *y = p->out[MX_RNN_Y] ? out[MX_RNN_Y] : NULL;
  for (int64_t b = b0; b < b1; b++) {
    float *h = (float *)((char *)scratch + f->xw_scratch + f->xw_bytes + (size_t)b * p->row_scratch);
    float *c = h + n, *g = c + n, *rh = g + rows;
    int64_t len = p->seq;
    if (p->has[MX_RNN_SEQ]) {
      int32_t l = ((const int32_t *)in[MX_RNN_SEQ])[b];
      if (l < 0 || l > p->seq) {
        for (int64_t d = 0; d < p->dirs; d++) {
          for (int64_t t = 0; y && t < p->seq; t++) memset(y + y_at(p, t, d, b), 0, (size_t)n * sizeof(float));
          for (int k = MX_RNN_YH; k <= MX_RNN_YC; k++)
            if (p->out[k]) memset((float *)out[k] + state_at(p, d, b), 0, (size_t)n * sizeof(float));
        }
        fault = 1;
        continue;
      }
      len = l;
    }
    for (int64_t d = 0; d < p->dirs; d++) {
      int rev = p->dirs == 2 ? d == 1 : p->reverse;
      int64_t at = state_at(p, d, b);
      for (int64_t j = 0; j < n; j++) {
        h[j] = p->has[MX_RNN_H0] ? ((const float *)in[MX_RNN_H0])[at + j] : 0.0f;
        c[j] = p->has[MX_RNN_C0] ? ((const float *)in[MX_RNN_C0])[at + j] : 0.0f;
      }
      for (int64_t k = 0; k < len; k++) {
        int64_t t = rev ? len - 1 - k : k;
        step(p, f, in, d, xw_all + (d * p->seq * p->batch + x_row(p, t, b)) * rows, h, c, g, rh);
        if (y) memcpy(y + y_at(p, t, d, b), h, (size_t)n * sizeof(float));
      }
      for (int64_t t = len; y && t < p->seq; t++) memset(y + y_at(p, t, d, b), 0, (size_t)n * sizeof(float));
      if (p->out[MX_RNN_YH]) memcpy((float *)out[MX_RNN_YH] + at, h, (size_t)n * sizeof(float));
      if (p->out[MX_RNN_YC]) memcpy((float *)out[MX_RNN_YC] + at, c, (size_t)n * sizeof(float));
    }
  }
  return fault;
}
