/* The elementwise kernels' streaming stores (ops/core/kernel.h,
 * MX_CHUNKED_OUT): calls of at least MX_STREAM_BYTES of output, which the
 * conformance cases never make, at every ISA level this CPU has, with the
 * output at every alignment within a line (the plain head and tail around the
 * streamed chunks) and in place, against results computed here element by
 * element: the unary IEEE and integer ops against their reference loop, the
 * arithmetic, Max and Clip against C's own operation (IEEE's correctly
 * rounded result; the integers wrap). The forms that store plainly (both
 * operands stepping, Max of four, and the 1- and 2-byte dtypes, which
 * never stream: ops/core/kernel.h's mx_streams) are checked at the same
 * sizes too. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/math/binary.h"
#include "ops/math/unary.h"
#include "ops/minmax/clip.h"
#include "ops/minmax/extremum_pair.h"

static uint64_t state = 0x2545f4914f6cdd1du;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

/* Floats in [-4, 4) with no zero (Max of -0 and +0 is a rule of its own,
 * tested elsewhere), and any bits for the integers. */
static void fill(mx_dtype t, void *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next();
    if (t == MINNX_FLOAT) ((float *)p)[i] = ((float)(r >> 40) + 0.5f) / (float)(1 << 21) - 4.0f;
    else if (t == MINNX_DOUBLE) ((double *)p)[i] = ((double)(r >> 11) + 0.5) / (double)(1ull << 50) - 4.0;
    else memcpy((unsigned char *)p + (size_t)i * mx_dtype_size(t), &r, mx_dtype_size(t));
  }
}

enum { OFFSETS = 4 };
static const int64_t offsets[OFFSETS] = {0, 1, 3, 15}; /* elements past a 64-byte line */

/* Elements of a call that streams: two thresholds' worth and a ragged tail. */
static int64_t streamed_n(size_t es) { return (int64_t)(2 * MX_STREAM_BYTES / es) + 37; }

static void unary_calls(void) {
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_INT8, MINNX_INT64};
  static const mx_unop ops[] = {MX_RELU, MX_NEG, MX_ABS};
  mx_unary_args a = {0.3f, 0.25f, 1.5f};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
    mx_dtype t = types[ti];
    size_t es = mx_dtype_size(t);
    int64_t n = streamed_n(es);
    unsigned char *in = aligned_alloc(64, (size_t)(n + 64) * es), *got = aligned_alloc(64, (size_t)(n + 64) * es),
                  *want = malloc((size_t)n * es);
    CHECK(in && got && want);
    if (!in || !got || !want) return;
    fill(t, in, n + 64);
    for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
      mx_unary_ref_fn ref = mx_unary_ref(t, ops[oi]);
      if (!ref) continue;
      for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
        mx_unary_fn f = mx_unary_kernel(t, ops[oi], (mx_isa)isa);
        CHECK(f != NULL);
        if (!f) continue;
        for (int k = 0; k < OFFSETS; k++) {
          unsigned char *o = got + (size_t)offsets[k] * es;
          ref(ops[oi], want, in, n, &a);
          f(o, in, n, &a);
          CHECK(memcmp(o, want, (size_t)n * es) == 0);
          /* in place: the output is the input */
          memcpy(o, in, (size_t)n * es);
          f(o, o, n, &a);
          CHECK(memcmp(o, want, (size_t)n * es) == 0);
          checked++;
        }
      }
    }
    free(in), free(got), free(want);
  }
  CHECK(checked >= 5 * 3 * OFFSETS);
}

/* The f32 and i8 arithmetic: both operands stepping, then x op scalar and
 * scalar op x, in rows of n / 3 (a broadcast call of several rows). */
static float f32_op(mx_binop op, float x, float y) {
  return op == MX_ADD ? x + y : op == MX_SUB ? x - y : op == MX_MUL ? x * y : x / y;
}
static int8_t i8_op(mx_binop op, int8_t x, int8_t y) {
  uint8_t u = (uint8_t)x, v = (uint8_t)y;
  return (int8_t)(op == MX_ADD ? (uint8_t)(u + v) : op == MX_SUB ? (uint8_t)(u - v) : (uint8_t)(u * v));
}

static void binary_calls(void) {
  int checked = 0;
  for (int ti = 0; ti < 2; ti++) {
    mx_dtype t = ti ? MINNX_INT8 : MINNX_FLOAT;
    size_t es = mx_dtype_size(t);
    int64_t n = streamed_n(es), rows = 3, row = n / rows;
    unsigned char *a = aligned_alloc(64, (size_t)(n + 64) * es), *b = aligned_alloc(64, (size_t)(n + 64) * es),
                  *got = aligned_alloc(64, (size_t)(n + 64) * es), *want = malloc((size_t)n * es);
    CHECK(a && b && got && want);
    if (!a || !b || !got || !want) return;
    fill(t, a, n + 64), fill(t, b, n + 64);
    static const mx_binop ops[] = {MX_ADD, MX_SUB, MX_MUL, MX_DIV};
    for (int oi = 0; oi < 4; oi++) {
      mx_binop op = ops[oi];
      if (t == MINNX_INT8 && op == MX_DIV) continue; /* integer division's rules: test_compare and the cases */
      for (int form = 0; form < 3; form++) { /* a op b; a op b[0] per row; a[0] op b per row */
        for (int64_t r = 0; r < rows; r++)
          for (int64_t i = 0; i < row; i++) {
            int64_t j = r * row + i, ja = form == 2 ? r * row : j, jb = form == 1 ? r * row : j;
            if (t == MINNX_FLOAT) ((float *)want)[j] = f32_op(op, ((float *)a)[ja], ((float *)b)[jb]);
            else ((int8_t *)want)[j] = i8_op(op, ((int8_t *)a)[ja], ((int8_t *)b)[jb]);
          }
        for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
          mx_binary_fn f = mx_binary_kernel(t, op, (mx_isa)isa);
          CHECK(f != NULL);
          if (!f) continue;
          for (int k = 0; k < OFFSETS; k++) {
            unsigned char *o = got + (size_t)offsets[k] * es;
            f(o, a, form != 2, b, form != 1, row, rows, row, row);
            CHECK(memcmp(o, want, (size_t)(row * rows) * es) == 0);
            checked++;
          }
        }
      }
    }
    free(a), free(b), free(got), free(want);
  }
  CHECK(checked >= 7 * 3 * OFFSETS);
}

/* Max of two float arrays, Max of four, and Clip: no NaN and no zero here,
 * so C's comparisons give them. */
static void minmax_calls(void) {
  int64_t n = streamed_n(4);
  float *a = aligned_alloc(64, (size_t)(n + 64) * 4), *b = aligned_alloc(64, (size_t)(n + 64) * 4),
        *c = aligned_alloc(64, (size_t)(n + 64) * 4), *d = aligned_alloc(64, (size_t)(n + 64) * 4),
        *got = aligned_alloc(64, (size_t)(n + 64) * 4), *w2 = malloc((size_t)n * 4), *w4 = malloc((size_t)n * 4),
        *wc = malloc((size_t)n * 4);
  CHECK(a && b && c && d && got && w2 && w4 && wc);
  if (!a || !b || !c || !d || !got || !w2 || !w4 || !wc) return;
  fill(MINNX_FLOAT, a, n + 64), fill(MINNX_FLOAT, b, n + 64), fill(MINNX_FLOAT, c, n + 64), fill(MINNX_FLOAT, d, n + 64);
  const float lo = -1.5f, hi = 2.25f;
  for (int64_t i = 0; i < n; i++) {
    float ab = a[i] > b[i] ? a[i] : b[i], cd = c[i] > d[i] ? c[i] : d[i];
    w2[i] = ab, w4[i] = ab > cd ? ab : cd, wc[i] = a[i] < lo ? lo : a[i] > hi ? hi : a[i];
  }
  int checked = 0;
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
    const mx_pair_kernels *k = mx_pair_kernels_isa(MINNX_FLOAT, MX_MAX, (mx_isa)isa);
    mx_clip_fn clip = mx_clip_kernel(MINNX_FLOAT, (mx_isa)isa);
    CHECK(k != NULL && clip != NULL);
    if (!k || !clip) continue;
    for (int o = 0; o < OFFSETS; o++) {
      float *out = got + offsets[o];
      k->pair(out, a, 1, b, 1, n, 1, n, n);
      CHECK(memcmp(out, w2, (size_t)n * 4) == 0);
      k->quad(out, a, MX_STREAM, b, MX_STREAM, c, MX_STREAM, d, MX_STREAM, n);
      CHECK(memcmp(out, w4, (size_t)n * 4) == 0);
      clip(out, a, &lo, &hi, n);
      CHECK(memcmp(out, wc, (size_t)n * 4) == 0);
      checked++;
    }
  }
  CHECK(checked >= OFFSETS);
  free(a), free(b), free(c), free(d), free(got), free(w2), free(w4), free(wc);
}

int main(void) {
  unary_calls();
  binary_calls();
  minmax_calls();
  return check_report("test_stream");
}
