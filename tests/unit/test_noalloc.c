/* Running a planned session allocates nothing: counted through the hooks. */
#include <stdlib.h>

#include "builder.h"
#include "check.h"
#include "counting.h"
#include "minnx.h"

int main(void) {
  /* Max(a, b) -> y0; Max(y0, a) -> y1; ArgMax(y1) -> y */
  test_model m = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                  .dtype = MINNX_FLOAT, .rank = 2, .dims = {64, 33}, .n_nodes = 3, .output = "y"};
  m.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "y0", NULL, 0};
  m.nodes[1] = (test_node){"Max", "", 2, {"y0", "a"}, "y1", NULL, 0};
  m.nodes[2] = (test_node){"ArgMax", "", 1, {"y1"}, "y", "axis", 1};
  uint8_t *bytes;
  size_t size = build_model(&m, &bytes);
  minnx_load_options hooks = {.allocator = {count_alloc, count_free, NULL}};
  minnx_model *model;
  minnx_session *s;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, &hooks, &model, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_OK);
  static float a[64 * 33], b[64 * 33];
  for (int i = 0; i < 64 * 33; i++) a[i] = (float)(i % 7) - 3, b[i] = (float)(i % 5) - 2;
  minnx_tensor ta = {MINNX_FLOAT, 2, {64, 33}, a, sizeof a}, tb = {MINNX_FLOAT, 2, {64, 33}, b, sizeof b};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, &err), MINNX_OK);
  long before = allocs;
  for (int r = 0; r < 5; r++) CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  /* rebinding the same shapes keeps the plan */
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  CHECK_EQ_INT(allocs - before, 0);
  CHECK(allocs > 0); /* the hooks were really in use */
  minnx_tensor y;
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  CHECK_EQ_INT(y.dtype, MINNX_INT64);
  CHECK_EQ_INT(y.rank, 2);
  CHECK_EQ_INT(y.dims[1], 1);
  minnx_session_free(s);
  minnx_model_free(model);
  free(bytes);
  CHECK_EQ_INT(allocs, frees); /* and everything was given back */
  return check_report("test_noalloc");
}
