/* Weights in place (minnx_load_options.weights_in_place): y = Max(x, W) with
 * W a 1 MiB float32 initializer in raw_data, placed at a 64-byte boundary of
 * the model's bytes.
 *   - loaded into caller memory, the region is <= 16 KiB with the option and
 *     more than W without it;
 *   - the outputs are right (a plain loop here is the reference), and follow a
 *     change of W's bytes in the buffer after the load: they are read there;
 *   - W one byte off its alignment is copied as without the option;
 *   - minnx_model_load_buffer and minnx_model_load_file (which maps the file)
 *     do the same under a max_memory cap that a copy of W (or of the file)
 *     would break. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

#define N (1 << 18) /* floats: 1 MiB */

/* Whether a call succeeded; its message when not. */
static int ok(minnx_status st, const minnx_error *err) {
  CHECK(st == MINNX_OK);
  if (st) fprintf(stderr, "  %s\n", err->message);
  return st == MINNX_OK;
}

static float *weights;

static void add_initializer(Onnx__ModelProto *m, void *ctx) {
  static Onnx__TensorProto w = ONNX__TENSOR_PROTO__INIT;
  static Onnx__TensorProto *wp = &w;
  static int64_t dims[1] = {N};
  static char *doc;
  size_t pad = *(size_t *)ctx;
  build_float_init(&w, "W", dims, 1, weights);
  m->graph->n_initializer = 1;
  m->graph->initializer = &wp;
  free(doc);
  doc = calloc(pad + 1, 1);
  memset(doc, 'p', pad);
  m->doc_string = doc; /* before the graph on the wire: it moves raw_data */
}

/* The model, with raw_data starting at a multiple of 64 in the bytes. */
static size_t build(uint8_t **out, size_t *raw_at) {
  test_model tm = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 1, .inputs = {"x"},
                   .dtype = MINNX_FLOAT, .rank = 1, .dims = {N}, .n_nodes = 1,
                   .nodes = {{"Max", NULL, 2, {"x", "W"}, "y", NULL, 0}}, .output = "y"};
  for (size_t pad = 0;; pad++) {
    size_t size = build_model_edit(&tm, add_initializer, &pad, out);
    CHECK(*out != NULL);
    for (size_t at = 0; at + 64 <= size; at++)
      if (memcmp(*out + at, weights, 64) == 0) {
        *raw_at = at;
        if (at % 64 == 0) return size;
        break;
      }
    free(*out);
    CHECK(pad < 256);
  }
}

static size_t needed(const uint8_t *bytes, size_t size, const minnx_load_options *o) {
  size_t n = 0;
  minnx_error err;
  ok(minnx_model_memory_needed(bytes, size, o, &n, &err), &err);
  return n;
}

/* Runs m on x and checks y = max(x, w); the session in memory of its own, so
 * that a model's max_memory cap is the model's alone. */
static void check_run(const minnx_model *m, const float *x, const float *w) {
  minnx_error err;
  minnx_session *s = NULL;
  minnx_tensor tx = {MINNX_FLOAT, 1, {N}, (void *)x, N * sizeof(float)}, y = {0};
  size_t sn = minnx_session_memory_needed(m);
  void *smem = aligned_alloc(MINNX_REGION_ALIGN, (sn + MINNX_REGION_ALIGN - 1) & ~(size_t)(MINNX_REGION_ALIGN - 1));
  if (smem && ok(minnx_session_create_in(m, smem, sn, &s, &err), &err) && ok(minnx_session_bind_input(s, 0, &tx, &err), &err) &&
      ok(minnx_session_run(s, &err), &err) && minnx_session_output(s, 0, &y) == MINNX_OK) {
    CHECK(y.nbytes == N * sizeof(float));
    const float *py = y.data;
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++) wrong += py[i] != (x[i] > w[i] ? x[i] : w[i]);
    CHECK(wrong == 0);
  }
  free(smem);
}

int main(void) {
  weights = malloc(N * sizeof(float));
  float *x = malloc(N * sizeof(float));
  CHECK(weights && x);
  for (size_t i = 0; i < N; i++) {
    weights[i] = (float)((i * 7919u) % 1000u) - 500.0f;
    x[i] = (float)((i * 104729u) % 1000u) - 500.0f;
  }
  uint8_t *packed;
  size_t raw_at, size = build(&packed, &raw_at);
  /* the model's bytes, as flash would hold them: 64-aligned, then one byte off */
  uint8_t *buf = aligned_alloc(64, (size + 64 + 63) & ~(size_t)63);
  CHECK(buf != NULL);
  memcpy(buf, packed, size);
  float *w_in_buf = (float *)(void *)(buf + raw_at);

  minnx_load_options in_place = {.weights_in_place = 1};
  size_t copied = needed(buf, size, NULL), kept_in_place = needed(buf, size, &in_place);
  printf("region for a 1 MiB float32 initializer: %zu bytes copied, %zu bytes in place\n", copied, kept_in_place);
  CHECK(copied > N * sizeof(float));
  CHECK(kept_in_place <= 16 * 1024);

  minnx_error err;
  minnx_model *m;
  uint8_t *region = aligned_alloc(MINNX_REGION_ALIGN, (kept_in_place + 63) & ~(size_t)63);
  CHECK(region != NULL);
  if (!ok(minnx_model_load_in(buf, size, region, kept_in_place, &in_place, &m, &err), &err))
    return check_report("in_place");
  check_run(m, x, weights);
  w_in_buf[5] = 1e9f; /* the model reads W where it is */
  float *changed = malloc(N * sizeof(float));
  CHECK(changed != NULL);
  memcpy(changed, weights, N * sizeof(float));
  changed[5] = 1e9f;
  check_run(m, x, changed);
  memcpy(w_in_buf, weights, N * sizeof(float));
  minnx_model_free(m);

  /* hooks: in place too, under a cap that a copy of W (or of the model) breaks */
  minnx_load_options capped = {.weights_in_place = 1, .max_memory = 256 * 1024} /* the pool takes 64 KiB chunks */;
  if (ok(minnx_model_load_buffer(buf, size, &capped, &m, &err), &err)) check_run(m, x, weights);
  minnx_model_free(m);
  capped.weights_in_place = 0;
  CHECK(minnx_model_load_buffer(buf, size, &capped, &m, &err) == MINNX_E_LIMIT && !m);

  /* misaligned by one byte: copied, and still right */
  memmove(buf + 1, buf, size);
  CHECK(needed(buf + 1, size, &in_place) == copied);
  if (ok(minnx_model_load_buffer(buf + 1, size, &in_place, &m, &err), &err)) check_run(m, x, weights);
  minnx_model_free(m);

  /* a file: mapped, never read into memory from the hooks */
  char path[] = "/tmp/minnx_in_place_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  CHECK(f && fwrite(packed, 1, size, f) == size && fclose(f) == 0);
  capped.weights_in_place = 1;
  if (ok(minnx_model_load_file(path, &capped, &m, &err), &err)) check_run(m, x, weights);
  minnx_model_free(m);
  capped.weights_in_place = 0;
  CHECK(minnx_model_load_file(path, &capped, &m, &err) == MINNX_E_LIMIT && !m);
  remove(path);

  free(changed);
  free(region);
  free(buf);
  free(packed);
  free(x);
  free(weights);
  return check_report("in_place");
}
