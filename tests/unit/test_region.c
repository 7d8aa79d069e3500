/* Caller memory through the public API: alignment, a too-small region, the
 * hooks never called, the tail of a model's region reused, symbolic dims
 * whose arena is only known at run, and sessions on the hooks that outgrow
 * their block. Outputs are checked against plain loops written here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "counting.h"
#include "minnx.h"

#define COLS 33
#define MAX_ROWS 64
static float a[MAX_ROWS * COLS], b[MAX_ROWS * COLS];

/* y = ArgMax(Max(Max(a, b), a), axis 1): the first column holding the row's maximum. */
static void expected(int rows, int64_t *y) {
  for (int r = 0; r < rows; r++) {
    float best = 0;
    for (int c = 0; c < COLS; c++) {
      float v = a[r * COLS + c] > b[r * COLS + c] ? a[r * COLS + c] : b[r * COLS + c];
      if (c == 0 || v > best) best = v, y[r] = c;
    }
  }
}

/* Binds `rows` rows, runs, and compares with the loops above; the run's status. */
static minnx_status run_rows(minnx_session *s, int rows, minnx_error *err) {
  minnx_tensor ta = {MINNX_FLOAT, 2, {rows, COLS}, a, (size_t)rows * COLS * sizeof(float)};
  minnx_tensor tb = {MINNX_FLOAT, 2, {rows, COLS}, b, (size_t)rows * COLS * sizeof(float)};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, err), MINNX_OK);
  minnx_status st = minnx_session_run(s, err);
  if (st) return st;
  int64_t want[MAX_ROWS];
  expected(rows, want);
  minnx_tensor y;
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  CHECK_EQ_INT(y.dtype, MINNX_INT64);
  CHECK_EQ_INT(y.dims[0], rows);
  CHECK_EQ_INT(y.nbytes, rows * sizeof(int64_t));
  CHECK(memcmp(y.data, want, (size_t)rows * sizeof(int64_t)) == 0);
  return MINNX_OK;
}

static size_t build(int64_t rows, uint8_t **bytes) {
  test_model m = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                  .dtype = MINNX_FLOAT, .rank = 2, .dims = {rows, COLS}, .n_nodes = 3, .output = "y"};
  m.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "y0", NULL, 0};
  m.nodes[1] = (test_node){"Max", "", 2, {"y0", "a"}, "y1", NULL, 0};
  m.nodes[2] = (test_node){"ArgMax", "", 1, {"y1"}, "y", "axis", 1};
  return build_model(&m, bytes);
}

static _Alignas(MINNX_REGION_ALIGN) unsigned char mem[1 << 16], smem[1 << 16];

static void static_shapes(void) {
  uint8_t *bytes;
  size_t size = build(MAX_ROWS, &bytes), needed = 0;
  minnx_load_options hooks = {.allocator = {count_alloc, count_free, NULL}};
  minnx_error err;
  minnx_model *m = NULL;
  allocs = frees = 0;
  CHECK_EQ_INT(minnx_model_memory_needed(bytes, size, &hooks, &needed, &err), MINNX_OK);
  CHECK(allocs > 0 && allocs == frees); /* the dry run used the hooks and gave everything back */
  CHECK(needed > 0 && needed % 16 == 0 && needed < sizeof mem - MINNX_REGION_ALIGN);

  /* An unaligned start loses the bytes up to the next boundary. */
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, mem + 1, needed, &hooks, &m, &err), MINNX_E_NOMEM);
  CHECK(m == NULL);
  CHECK(strstr(err.message, "too small") != NULL);
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, mem + 1, needed + MINNX_REGION_ALIGN - 1, &hooks, &m, &err), MINNX_OK);
  minnx_model_free(m);
  /* No memory at all is a clean refusal; a NULL region with a size is a bad argument. */
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, NULL, 0, NULL, &m, &err), MINNX_E_NOMEM);
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, NULL, 64, NULL, &m, &err), MINNX_E_ARG);

  allocs = frees = 0;
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, mem, needed, &hooks, &m, &err), MINNX_OK);
  size_t used = minnx_model_memory_used(m), sneed = minnx_session_memory_needed(m);
  CHECK(used > 0 && used <= needed && used % MINNX_REGION_ALIGN == 0);
  /* the arena alone: y0 and y1 (64x33 floats, 8448 bytes each) live together, y (512 bytes) takes y0's place */
  CHECK(sneed > 2 * 8448);
  minnx_session *s = NULL;
  CHECK_EQ_INT(minnx_session_create_in(m, smem, sneed - 1, &s, &err), MINNX_E_NOMEM);
  CHECK(s == NULL);
  CHECK_EQ_INT(minnx_session_create_in(m, smem, sneed, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_arena_size(s), 2 * 8448);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);
  minnx_session_free(s);
  /* Several sessions at once, one of them in the tail of the model's region. */
  minnx_session *t = NULL;
  if (needed - used >= sneed) {
    CHECK_EQ_INT(minnx_session_create_in(m, mem + used, needed - used, &t, &err), MINNX_OK);
  } else {
    CHECK_EQ_INT(minnx_session_create_in(m, smem + sneed + MINNX_REGION_ALIGN, sneed, &t, &err), MINNX_OK);
  }
  CHECK_EQ_INT(minnx_session_create_in(m, smem, sneed, &s, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(t, MAX_ROWS, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);
  CHECK_EQ_INT(allocs, 0); /* in caller memory the hooks are never called */
  /* A session on the hooks of a model in caller memory: one block, given back. */
  CHECK_EQ_INT(minnx_session_create(m, &s, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);
  minnx_session_free(s);
  CHECK_EQ_INT(allocs, 1);
  CHECK_EQ_INT(frees, 1);
  minnx_model_free(m);
  free(bytes);
}

static void symbolic_shapes(void) {
  uint8_t *bytes;
  size_t size = build(-1, &bytes), needed = 0;
  minnx_error err;
  minnx_model *m = NULL;
  CHECK_EQ_INT(minnx_model_memory_needed(bytes, size, NULL, &needed, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, mem, needed, NULL, &m, &err), MINNX_OK);
  size_t sneed = minnx_session_memory_needed(m);
  minnx_session *s = NULL;
  /* Everything but the arena: the run that plans it says what it needs. */
  CHECK_EQ_INT(minnx_session_create_in(m, smem, sneed, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_arena_size(s), 0);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_E_NOMEM);
  CHECK(strstr(err.message, "arena of 16896 bytes") != NULL);
  /* With room for the arena it runs, and re-plans other shapes in the same bytes. */
  CHECK_EQ_INT(minnx_session_create_in(m, smem, sneed + 16896, &s, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_arena_size(s), 16896);
  CHECK_EQ_INT(run_rows(s, 5, &err), MINNX_OK); /* re-planned smaller in the same bytes */
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);

  /* On the hooks the arena grows beyond the block, and shrinks back into it. */
  minnx_load_options hooks = {.allocator = {count_alloc, count_free, NULL}};
  minnx_model *hm = NULL;
  allocs = frees = 0;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, &hooks, &hm, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(hm, &s, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, MAX_ROWS, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, 1, &err), MINNX_OK);
  CHECK_EQ_INT(run_rows(s, 7, &err), MINNX_OK);
  minnx_session_free(s);
  minnx_model_free(hm);
  CHECK(allocs > 0 && allocs == frees);
  minnx_model_free(m);
  free(bytes);
}

int main(void) {
  for (int i = 0; i < MAX_ROWS * COLS; i++) a[i] = (float)(i % 7) - 3, b[i] = (float)(i % 5) - 2;
  static_shapes();
  symbolic_shapes();
  return check_report("test_region");
}
