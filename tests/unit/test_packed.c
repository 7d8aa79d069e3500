/* Packed weights (mx_op_row.packed_size): Gemm with transB=1 and W [N, K] a
 * float32 initializer (nn.Linear) has W' packed once, at prepare, into the
 * session's memory. For shapes of the GEMV path (batch 1: one and several
 * tasks, a column count off the kernels' blocks) and of the tiled path:
 *   - the session's memory grows by W's bytes (to the rounding of the
 *     session's parts to cache lines) over a model loaded with
 *     weights_in_place, which reads W as it lies;
 *   - at every ISA level and 1, 2 and 3 threads, the output is bit for bit a
 *     plain loop's here (each element acc = fma(x[s], W[j][s], acc) from
 *     zero over s in order, then 1 * acc + 1 * bias[j], gemm.h's order), and
 *     the same for both sessions and for a second run (the packed copy is
 *     not changed by a run). Inputs are random floats, so a packed layout
 *     that changed any sum's order would show. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

static float *w_data, *bias_data;
static int64_t w_dims[2], bias_dims[1];

static void add_weights(Onnx__ModelProto *m, void *ctx) {
  (void)ctx;
  static Onnx__TensorProto w = ONNX__TENSOR_PROTO__INIT, b = ONNX__TENSOR_PROTO__INIT;
  static Onnx__TensorProto *inits[2];
  build_float_init(&w, "W", w_dims, 2, w_data);
  build_float_init(&b, "bias", bias_dims, 1, bias_data);
  inits[0] = &w, inits[1] = &b;
  m->graph->n_initializer = 2;
  m->graph->initializer = inits;
}

static uint32_t rng_state = 12345;
static float rnd(void) { /* a float in [-1, 1) with a full mantissa */
  rng_state = rng_state * 1664525u + 1013904223u;
  return (float)(int32_t)(rng_state & 0xffffff) / (float)(1 << 23) - 1.0f;
}

static int ok(minnx_status st, const minnx_error *err) {
  CHECK(st == MINNX_OK);
  if (st) fprintf(stderr, "  %s\n", err->message);
  return st == MINNX_OK;
}

/* Runs the model (options o) at level isa with `threads`, twice; the second
 * run's output must equal the first's, and is copied to y. */
static int run(const uint8_t *bytes, size_t size, int in_place, int isa, size_t threads, const float *x, int64_t k,
               float *y, int64_t n, size_t *session_bytes) {
  minnx_load_options o = {.weights_in_place = in_place, .max_isa = isa};
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  int good = ok(minnx_model_load_buffer(bytes, size, &o, &m, &err), &err);
  if (good) *session_bytes = minnx_session_memory_needed(m);
  good = good && ok(minnx_session_create(m, &s, &err), &err);
  good = good && (threads == 1 || ok(minnx_session_set_threads(s, threads, &err), &err));
  minnx_tensor in = {.dtype = MINNX_FLOAT, .rank = 2, .dims = {1, k}, .data = (void *)x, .nbytes = (size_t)k * 4};
  good = good && ok(minnx_session_bind_input(s, 0, &in, &err), &err);
  for (int r = 0; r < 2 && good; r++) {
    minnx_tensor out;
    good = ok(minnx_session_run(s, &err), &err) && ok(minnx_session_output(s, 0, &out), &err);
    CHECK(good && out.nbytes == (size_t)n * 4);
    if (!good || out.nbytes != (size_t)n * 4) break;
    if (r == 1) CHECK(memcmp(y, out.data, out.nbytes) == 0);
    memcpy(y, out.data, out.nbytes);
  }
  minnx_session_free(s);
  minnx_model_free(m);
  return good;
}

static void linear(int64_t n, int64_t k) {
  w_dims[0] = n, w_dims[1] = k, bias_dims[0] = n;
  w_data = malloc((size_t)(n * k) * sizeof(float));
  bias_data = malloc((size_t)n * sizeof(float));
  float *x = malloc((size_t)k * sizeof(float)), *want = malloc((size_t)n * sizeof(float));
  float *y = malloc((size_t)n * sizeof(float)), *y2 = malloc((size_t)n * sizeof(float));
  for (int64_t i = 0; i < n * k; i++) w_data[i] = rnd();
  for (int64_t i = 0; i < n; i++) bias_data[i] = rnd();
  for (int64_t i = 0; i < k; i++) x[i] = rnd();
  for (int64_t j = 0; j < n; j++) {
    float acc = 0.0f;
    for (int64_t s = 0; s < k; s++) acc = fmaf(x[s], w_data[j * k + s], acc);
    float t = 1.0f * acc, u = 1.0f * bias_data[j];
    want[j] = t + u;
  }
  test_model tm = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 1, .inputs = {"x"},
                   .dtype = MINNX_FLOAT, .rank = 2, .dims = {1, k}, .n_nodes = 1,
                   .nodes = {{"Gemm", NULL, 3, {"x", "W", "bias"}, "y", "transB", 1}}, .output = "y"};
  uint8_t *bytes = NULL;
  size_t size = build_model_edit(&tm, add_weights, NULL, &bytes);
  CHECK(bytes != NULL);
  int top = (int)minnx_isa_available();
#ifdef MX_TEST_THREADS
  const size_t max_threads = 3;
#else
  const size_t max_threads = 1; /* no thread pool in this build */
#endif
  for (int isa = 1; isa <= top && bytes; isa++)
    for (size_t threads = 1; threads <= max_threads; threads++) {
      size_t packed_bytes = 0, in_place_bytes = 0;
      memset(y, 0, (size_t)n * 4);
      memset(y2, 0xff, (size_t)n * 4);
      if (!run(bytes, size, 0, isa, threads, x, k, y, n, &packed_bytes)) continue;
      if (!run(bytes, size, 1, isa, threads, x, k, y2, n, &in_place_bytes)) continue;
      /* the session's parts start on cache lines: W's bytes, give or take the rounding */
      size_t w_bytes = ((size_t)(n * k) * 4 + 15) & ~(size_t)15;
      CHECK(packed_bytes > in_place_bytes && packed_bytes - in_place_bytes + 64 > w_bytes &&
            packed_bytes - in_place_bytes < w_bytes + 64);
      CHECK(memcmp(y, want, (size_t)n * 4) == 0);
      CHECK(memcmp(y2, want, (size_t)n * 4) == 0);
    }
  free(bytes);
  free(w_data), free(bias_data), free(x), free(want), free(y), free(y2);
}

int main(void) {
  linear(1000, 512); /* nn.Linear 512 -> 1000 at batch 1: GEMV, two tasks */
  linear(128, 784);  /* 784 -> 128 */
  linear(17, 33);    /* columns off every block */
  linear(1100, 20);  /* several GEMV stretches */
  return check_report("test_packed");
}
