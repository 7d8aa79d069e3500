/* The elementwise kernels' streaming stores (ops/core/kernel.h): the call
 * flag MX_OUT_STREAM that a node larger than the last-level cache passes,
 * which the conformance cases never reach. At every ISA level this CPU has,
 * with the output at several alignments within a line (the plain head and
 * tail around the streamed chunks) and in place, each kernel called with the
 * flag must give what it gives without it and what C computes element by
 * element: the unary IEEE ops against their reference loop, the arithmetic
 * and Max against C's own operation (IEEE's correctly rounded result; no NaN
 * and no zero here), Cast float to int32/int64 against the truncation. The
 * kernels that never stream (other dtypes) must ignore the flag. On x86-64
 * the last-level cache's size that decides which nodes stream is known, or
 * guessed where CPUID hides it (a VM: ops/core/cpu.c), never 0: with 0 no
 * node streamed on such a host and Add of [4096,4096] ran 1.3x its time. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/math/binary.h"
#include "ops/math/unary.h"
#include "ops/minmax/extremum_pair.h"
#include "ops/tensor/convert.h"

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

enum { OFFSETS = 4, N = 3 * 1024 + 37 };
static const int64_t offsets[OFFSETS] = {0, 1, 3, 15}; /* elements past a 64-byte line */

static void *buffer(size_t bytes) {
  void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
  CHECK(p != NULL);
  if (!p) exit(1);
  return p;
}

static void unary_calls(void) {
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_INT64};
  static const mx_unop ops[] = {MX_RELU, MX_NEG, MX_ABS, MX_SQRT};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
    mx_dtype t = types[ti];
    size_t es = mx_dtype_size(t);
    unsigned char *in = buffer((N + 64) * es), *got = buffer((N + 64) * es), *want = buffer(N * es);
    fill(t, in, N + 64);
    for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
      mx_unary_ref_fn ref = mx_unary_ref(t, ops[oi]);
      if (!ref || !mx_unary_kernel(t, ops[oi], MX_ISA_PORTABLE)) continue; /* (the integers have no Sqrt) */
      mx_unary_args a = {0.3f, 0.25f, 1.5f, MX_OUT_STREAM};
      ref(ops[oi], want, in, N, &a);
      for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
        mx_unary_fn f = mx_unary_kernel(t, ops[oi], (mx_isa)isa);
        CHECK(f != NULL);
        if (!f) continue;
        for (int k = 0; k < OFFSETS; k++) {
          unsigned char *o = got + (size_t)offsets[k] * es;
          f(o, in, N, &a);
          CHECK(memcmp(o, want, N * es) == 0);
          memcpy(o, in, N * es); /* in place: the output is the input */
          f(o, o, N, &a);
          CHECK(memcmp(o, want, N * es) == 0);
          checked++;
        }
      }
    }
    free(in), free(got), free(want);
  }
  CHECK(checked >= 3 * 3 * OFFSETS);
}

/* float32 (which streams) and int8 (which ignores the flag): both operands
 * stepping, then x op scalar and scalar op x, in rows of N / 3. */
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
    const int64_t rows = 3, row = N / rows;
    unsigned char *a = buffer((N + 64) * es), *b = buffer((N + 64) * es), *got = buffer((N + 64) * es),
                  *want = buffer(N * es);
    fill(t, a, N + 64), fill(t, b, N + 64);
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
            f(o, a, (form != 2) | MX_OUT_STREAM, b, form != 1, row, rows, row, row);
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

/* Max of two float arrays, and of an array and a value per row. */
static void max_calls(void) {
  const int64_t rows = 3, row = N / rows;
  float *a = buffer((N + 64) * 4), *b = buffer((N + 64) * 4), *got = buffer((N + 64) * 4), *w2 = buffer(N * 4),
        *w1 = buffer(N * 4);
  fill(MINNX_FLOAT, a, N + 64), fill(MINNX_FLOAT, b, N + 64);
  for (int64_t i = 0; i < N; i++) {
    float y = b[i / row * row];
    w2[i] = a[i] > b[i] ? a[i] : b[i], w1[i] = a[i] > y ? a[i] : y;
  }
  int checked = 0;
  for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
    const mx_pair_kernels *k = mx_pair_kernels_isa(MINNX_FLOAT, MX_MAX, (mx_isa)isa);
    CHECK(k != NULL);
    if (!k) continue;
    for (int o = 0; o < OFFSETS; o++) {
      float *out = got + offsets[o];
      k->pair(out, a, MX_STREAM | MX_OUT_STREAM, b, MX_STREAM, row, rows, row, row);
      CHECK(memcmp(out, w2, (size_t)(row * rows) * 4) == 0);
      k->pair(out, a, MX_STREAM | MX_OUT_STREAM, b, MX_SCALAR, row, rows, row, row);
      CHECK(memcmp(out, w1, (size_t)(row * rows) * 4) == 0);
      k->pair(out, b, MX_SCALAR | MX_OUT_STREAM, a, MX_STREAM, row, rows, row, row);
      CHECK(memcmp(out, w1, (size_t)(row * rows) * 4) == 0);
      checked++;
    }
  }
  CHECK(checked >= OFFSETS);
  free(a), free(b), free(got), free(w2), free(w1);
}

/* Cast float to int32 and int64: values in [-4, 4) truncate toward zero. */
static void cast_calls(void) {
  float *in = buffer((N + 64) * 4);
  int64_t *got = buffer((N + 64) * 8);
  fill(MINNX_FLOAT, in, N + 64);
  int streamed = 0;
  for (int w = 0; w < 2; w++) {
    mx_dtype to = w ? MINNX_INT64 : MINNX_INT32;
    for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
      mx_convert_params p;
      CHECK(mx_convert_choose_isa(&p, MINNX_FLOAT, to, (mx_isa)isa));
      if (!p.direct_stream) continue;
      p.direct = p.direct_stream;
      streamed++;
      for (int o = 0; o < OFFSETS; o++) {
        int ok = 1;
        if (w) {
          int64_t *out = got + offsets[o];
          mx_convert_run(&p, out, in, N);
          for (int64_t i = 0; i < N; i++) ok &= out[i] == (int64_t)in[i];
        } else {
          int32_t *out = (int32_t *)(void *)got + offsets[o];
          mx_convert_run(&p, out, in, N);
          for (int64_t i = 0; i < N; i++) ok &= out[i] == (int32_t)in[i];
        }
        CHECK(ok);
      }
    }
  }
  CHECK(MX_STREAMS == 0 || mx_cpu_isa() == MX_ISA_PORTABLE || streamed > 0);
  free(in), free(got);
}

int main(void) {
#if MX_X86_GNU
  CHECK(mx_cpu_llc_bytes() >= (1UL << 20));
  CHECK(mx_streams_out((double)(1UL << 30)));
#endif
  unary_calls();
  binary_calls();
  max_calls();
  cast_calls();
  return check_report("test_stream");
}
