/* A build without malloc (MINNX_MALLOC=OFF), on the host: the library's
 * graph/pool.c is compiled here with MX_NO_MALLOC (its symbols then come from
 * this program, not from libminnx.a), so every call that leaves the allocator
 * NULL must fail with MINNX_E_FEATURE and say why, never reach malloc, and
 * the same calls must work with hooks or caller memory. */
#define MX_NO_MALLOC 1
#include "graph/pool.c"

#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "counting.h"
#include "minnx.h"

static int says_no_malloc(const minnx_error *e) {
#ifdef MX_NO_MESSAGES
  (void)e;
  return 1;
#else
  return strstr(e->message, "MINNX_MALLOC=OFF") != NULL;
#endif
}

int main(void) {
  test_model m = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                  .dtype = MINNX_FLOAT, .rank = 1, .dims = {4}, .n_nodes = 1, .output = "y"};
  m.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "y", NULL, 0};
  uint8_t *bytes;
  size_t size = build_model(&m, &bytes);
  minnx_model *model = NULL;
  minnx_error err;

  /* No allocator: refused, naming the option. */
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, &model, &err), MINNX_E_FEATURE);
  CHECK(says_no_malloc(&err));
  CHECK(model == NULL);
  float one = 1.0f;
  minnx_tensor t = {MINNX_FLOAT, 1, {1}, &one, sizeof one};
  void *enc = NULL;
  size_t enc_size = 0;
  CHECK_EQ_INT(minnx_tensor_encode(&t, "t", NULL, &enc, &enc_size, &err), MINNX_E_FEATURE);
  CHECK(says_no_malloc(&err));

  /* Hooks given: the same calls work, and the hooks saw every allocation. */
  minnx_allocator hooks = {count_alloc, count_free, NULL};
  minnx_load_options opts = {.allocator = hooks};
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, &opts, &model, &err), MINNX_OK);
  CHECK(allocs > 0);
  minnx_session *s = NULL;
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_OK);
  float a[4] = {1, 5, -2, 0}, b[4] = {3, 4, -1, -0.5f};
  minnx_tensor ta = {MINNX_FLOAT, 1, {4}, a, sizeof a}, tb = {MINNX_FLOAT, 1, {4}, b, sizeof b};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  minnx_tensor y;
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  const float want[4] = {3, 5, -1, 0};
  CHECK(y.nbytes == sizeof want && memcmp(y.data, want, sizeof want) == 0);
  minnx_session_free(s);
  minnx_model_free(model);
  CHECK_EQ_INT(minnx_tensor_encode(&t, "t", &hooks, &enc, &enc_size, &err), MINNX_OK);
  minnx_tensor back;
  CHECK_EQ_INT(minnx_tensor_decode(enc, enc_size, NULL, &back, NULL, &err), MINNX_E_FEATURE);
  CHECK(says_no_malloc(&err));
  CHECK_EQ_INT(minnx_tensor_decode(enc, enc_size, &hooks, &back, NULL, &err), MINNX_OK);
  CHECK(back.nbytes == sizeof one && memcmp(back.data, &one, sizeof one) == 0);
  minnx_tensor_free(&hooks, back.data);
  minnx_tensor_free(&hooks, enc);

  /* Caller memory alone: a region for the model, a buffer for the session. */
  static _Alignas(64) unsigned char mem[1 << 16];
  CHECK_EQ_INT(minnx_model_load_in(bytes, size, mem, sizeof mem, NULL, &model, &err), MINNX_OK);
  size_t kept = minnx_model_memory_used(model);
  CHECK_EQ_INT(minnx_session_create_in(model, mem + kept, sizeof mem - kept, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  CHECK(y.nbytes == sizeof want && memcmp(y.data, want, sizeof want) == 0);
  minnx_session_free(s);
  minnx_model_free(model);
  CHECK_EQ_INT(allocs, frees);
  free(bytes);
  return check_report("nomalloc");
}
