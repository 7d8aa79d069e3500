/* float32's RNN, GRU and LSTM on the matrix products' kernels (ops/rnn/rnn_fast.c)
 * at every instruction-set level of the products this CPU has, against the
 * loop (ops/rnn/rnn_ref.c), bit for bit: each cell, one and two directions
 * and reverse, both layouts, with and without B, initial states, peepholes,
 * clip, GRU's linear_before_reset, LSTM's input_forget, sequence lengths
 * (one out of range: zeros and a fault from both), the activations with
 * alpha and beta, sizes around the kernels' blocks (1, 7, 16, 17, 33) and
 * Silero VAD v5's LSTM (input and hidden 128, batch 1), values with NaN,
 * +-inf and signed zeros now and then. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/rnn/rnn.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static float *fill(int64_t n, int specials, double scale) {
  static const float sp[] = {NAN, -0.0f, 0.0f, INFINITY, -INFINITY};
  float *p = malloc((size_t)(n + 1) * sizeof(float));
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next();
    p[i] = specials && r % 211 == 0 ? sp[(r >> 8) % 5] : (float)((double)((int)(r >> 16) % 20001 - 10000) / 10000.0 * scale);
  }
  return p;
}

static int same(const float *a, const float *b, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (a[i] != a[i] && b[i] != b[i]) continue;
    if (memcmp(a + i, b + i, sizeof(float)) != 0) return 0;
  }
  return 1;
}

typedef struct {
  int cell, dirs, reverse, layout, bias, h0, c0, peep, seq_lens, bad_len, clip, lbr, input_forget, acts, specials;
  int64_t seq, batch, input, hidden;
} spec;

static void run(const spec *s) {
  mx_rnn p;
  memset(&p, 0, sizeof p);
  p.cell = s->cell;
  p.gates = s->cell == MX_RNN_CELL_LSTM ? 4 : s->cell == MX_RNN_CELL_GRU ? 3 : 1;
  p.per = s->cell == MX_RNN_CELL_LSTM ? 3 : s->cell == MX_RNN_CELL_GRU ? 2 : 1;
  p.t = MINNX_FLOAT;
  p.dirs = s->dirs, p.reverse = s->reverse, p.layout = s->layout;
  p.has_clip = s->clip, p.clip = 2.5f, p.lbr = s->lbr, p.input_forget = s->input_forget;
  p.seq = s->seq, p.batch = s->batch, p.input = s->input, p.hidden = s->hidden;
  static const int dflt[3][3] = {{MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH}, {MX_RNN_SIGMOID, MX_RNN_TANH, MX_RNN_TANH}};
  for (int k = 0; k < p.per * p.dirs; k++) {
    p.act[k].kind = s->acts ? (int)(next() % MX_RNN_N_ACTS) : dflt[s->cell][k % p.per];
    p.act[k].alpha = s->acts ? 0.7f : 1.0f;
    p.act[k].beta = s->acts ? 0.3f : 0.0f;
  }
  p.has[MX_RNN_X] = p.has[MX_RNN_W] = p.has[MX_RNN_R] = 1;
  p.has[MX_RNN_B] = s->bias, p.has[MX_RNN_SEQ] = s->seq_lens, p.has[MX_RNN_H0] = s->h0;
  p.has[MX_RNN_C0] = s->c0 && s->cell == MX_RNN_CELL_LSTM, p.has[MX_RNN_P] = s->peep && s->cell == MX_RNN_CELL_LSTM;
  p.out[MX_RNN_Y] = p.out[MX_RNN_YH] = 1, p.out[MX_RNN_YC] = s->cell == MX_RNN_CELL_LSTM;
  p.row_scratch = (size_t)(p.gates + 3) * (size_t)p.hidden * 4;
  p.tasks = 1;
  int64_t rows = p.gates * p.hidden, st = p.dirs * p.batch * p.hidden, ys = p.seq * st;
  double ws = 1.0 / sqrt((double)(p.input + p.hidden + 1));
  float *x = fill(p.seq * p.batch * p.input, s->specials, 2.0), *w = fill(p.dirs * rows * p.input, s->specials, ws),
        *r = fill(p.dirs * rows * p.hidden, s->specials, ws), *b = fill(p.dirs * 2 * rows, 0, 0.5),
        *h0 = fill(st, s->specials, 1.0), *c0 = fill(st, s->specials, 1.0), *pp = fill(p.dirs * 3 * p.hidden, 0, 0.5);
  int32_t *lens = malloc((size_t)p.batch * sizeof(int32_t) + 4);
  for (int64_t i = 0; i < p.batch; i++) lens[i] = (int32_t)(next() % (uint64_t)(p.seq + 1));
  if (s->bad_len) lens[p.batch - 1] = (int32_t)p.seq + 1;
  const void *in[8] = {x, w, r, b, lens, h0, c0, pp};
  float *ref[3], *got[3];
  int64_t sizes[3] = {ys, st, st};
  for (int k = 0; k < 3; k++) {
    ref[k] = malloc((size_t)(sizes[k] + 1) * sizeof(float));
    got[k] = malloc((size_t)(sizes[k] + 1) * sizeof(float));
  }
  void *scratch = malloc(p.row_scratch * (size_t)p.batch + 64);
  int fref = mx_rnn_ref(&p, in, (void *const *)ref, scratch, 0, p.batch);
  free(scratch);
  CHECK_EQ_INT(fref, s->bad_len);
  for (int isa = MX_GEMM_PORTABLE; isa <= mx_gemm_isa_available(); isa++) {
    mx_rnn_fast f;
    mx_rnn_fast_plan(&f, &p, isa);
    scratch = aligned_alloc(64, (mx_rnn_fast_scratch(&f, &p) + 64) / 64 * 64);
    for (int k = 0; k < 3; k++) memset(got[k], 0x7f, (size_t)sizes[k] * sizeof(float));
    mx_rnn_fast_xw(&p, &f, NULL, in, scratch);
    /* the batch rows in two parts, as two tasks would take them */
    int fg = mx_rnn_fast_rows(&p, &f, in, (void *const *)got, scratch, 0, p.batch / 2);
    fg |= mx_rnn_fast_rows(&p, &f, in, (void *const *)got, scratch, p.batch / 2, p.batch);
    CHECK_EQ_INT(fg, s->bad_len);
    for (int k = 0; k < 3; k++) {
      if (!p.out[k]) continue;
      int ok = same(ref[k], got[k], sizes[k]);
      CHECK(ok);
      if (!ok)
        fprintf(stderr, "  cell %d output %d isa %d: dirs %d rev %d layout %d seq %lld batch %lld input %lld hidden %lld "
                "lbr %d if %d clip %d acts %d\n", s->cell, k, isa, s->dirs, s->reverse, s->layout, (long long)s->seq,
                (long long)s->batch, (long long)s->input, (long long)s->hidden, s->lbr, s->input_forget, s->clip, s->acts);
    }
    free(scratch);
  }
  for (int k = 0; k < 3; k++) free(ref[k]), free(got[k]);
  free(x), free(w), free(r), free(b), free(h0), free(c0), free(pp), free(lens);
}

int main(void) {
  static const int64_t sizes[] = {1, 7, 16, 17, 33};
  for (int cell = 0; cell < 3; cell++) {
    /* Silero VAD v5's LSTM: one step of batch 1, input and hidden 128 */
    run(&(spec){.cell = cell, .dirs = 1, .bias = 1, .h0 = 1, .c0 = 1, .seq = 1, .batch = 1, .input = 128, .hidden = 128});
    run(&(spec){.cell = cell, .dirs = 1, .bias = 1, .h0 = 1, .c0 = 1, .seq = 5, .batch = 1, .input = 64, .hidden = 128});
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 5; j++) {
        uint64_t r = next();
        spec s = {.cell = cell, .dirs = 1 + (int)(r & 1), .reverse = (int)(r >> 1 & 1), .layout = (int)(r >> 2 & 1),
                  .bias = (int)(r >> 3 & 1), .h0 = (int)(r >> 4 & 1), .c0 = (int)(r >> 5 & 1), .peep = (int)(r >> 6 & 1),
                  .seq_lens = (int)(r >> 7 & 1), .clip = (int)(r >> 8 & 1), .lbr = (int)(r >> 9 & 1),
                  .input_forget = (int)(r >> 10 & 1), .acts = (r >> 11 & 3) == 0, .specials = (r >> 13 & 3) == 0,
                  .seq = 1 + (int64_t)(r >> 16 & 3), .batch = 1 + (int64_t)(r >> 18 & 3), .input = sizes[i],
                  .hidden = sizes[j]};
        run(&s);
        s.seq_lens = 1, s.bad_len = 1;
        run(&s);
      }
    /* an empty input (input_size 0) and an empty sequence */
    run(&(spec){.cell = cell, .dirs = 2, .bias = 1, .seq = 3, .batch = 2, .input = 0, .hidden = 5});
    run(&(spec){.cell = cell, .dirs = 1, .bias = 1, .seq = 0, .batch = 2, .input = 4, .hidden = 5});
  }
  return check_report("rnn");
}
