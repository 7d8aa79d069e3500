/* A failed bind and the run after it: the run's error keeps the bind's cause
 * (its status, and what the tensor given did not match) instead of a vaguer
 * "not bound", whether or not the caller looked at the bind's status; an input
 * never bound is still "not bound"; a failed bind leaves an earlier binding in
 * place, as minnx.h says. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

static const test_model max24 = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2,
                                 .inputs = {"a", "b"}, .dtype = MINNX_FLOAT, .rank = 2, .dims = {2, 4}, .n_nodes = 1,
                                 .nodes = {{"Max", "", 2, {"a", "b"}, "y", NULL, 0}}, .output = "y"};

static minnx_session *session_on(const test_model *m, minnx_model **model) {
  uint8_t *bytes;
  size_t size = build_model(m, &bytes);
  minnx_error err;
  minnx_session *s = NULL;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, model, &err), MINNX_OK);
  free(bytes);
  if (*model) CHECK_EQ_INT(minnx_session_create(*model, &s, &err), MINNX_OK);
  return s;
}

static float a[8] = {1, 5, 3, 0, -2, 7, 6, 4}, b[8] = {4, 2, 6, 0, -1, 8, 5, 4};
static const float max_ab[8] = {4, 5, 6, 0, -1, 8, 6, 4};

/* Binds `bad` to input a (b correctly), expecting bind_status, then runs: the run must fail with run_status and
 * a message holding both words. */
static void bad_bind_then_run(const test_model *m, const minnx_tensor *bad, minnx_status bind_status,
                              const char *bind_words, minnx_status run_status, const char *w1, const char *w2) {
  minnx_model *model = NULL;
  minnx_session *s = session_on(m, &model);
  if (!s) return;
  minnx_error err;
  minnx_tensor tb = {MINNX_FLOAT, 2, {2, 4}, b, sizeof b};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, bad, &err), bind_status);
  CHECK(strstr(err.message, bind_words) != NULL);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), run_status);
  CHECK(strstr(err.message, w1) != NULL && strstr(err.message, w2) != NULL);
  CHECK_EQ_INT(minnx_session_run(s, &err), run_status); /* again: the cause is kept, not used up */
  CHECK(strstr(err.message, w1) != NULL);
  /* a good bind then clears it */
  minnx_tensor ta = {MINNX_FLOAT, 2, {2, 4}, a, sizeof a};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  minnx_session_free(s);
  minnx_model_free(model);
}

static void check_output(minnx_session *s) {
  minnx_tensor y;
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  CHECK(y.nbytes == sizeof max_ab && memcmp(y.data, max_ab, sizeof max_ab) == 0);
}

int main(void) {
  static float three[3] = {1, 5, 3};
  static int64_t ints[8];
  minnx_tensor shape3 = {MINNX_FLOAT, 1, {3}, three, sizeof three};
  /* the README's old snippet: float [3] given for a [2,4] input */
  bad_bind_then_run(&max24, &shape3, MINNX_E_SHAPE, "declared with shape [2,4] but the tensor given has shape [3]",
                    MINNX_E_SHAPE, "input 'a' is not bound: its bind failed", "declared shape [2,4]");
  minnx_tensor int64s = {MINNX_INT64, 2, {2, 4}, ints, sizeof ints};
  bad_bind_then_run(&max24, &int64s, MINNX_E_TYPE, "declared float but the tensor given is int64", MINNX_E_TYPE,
                    "input 'a' is not bound: its bind failed", "declared dtype float");
  minnx_tensor short_data = {MINNX_FLOAT, 2, {2, 4}, a, sizeof a - 1};
  bad_bind_then_run(&max24, &short_data, MINNX_E_ARG, "the tensor has 31 bytes of data, its shape needs 32",
                    MINNX_E_ARG, "input 'a' is not bound: its bind failed", "not the bytes its shape needs");
  minnx_tensor rank9 = {MINNX_FLOAT, 9, {2, 4}, a, sizeof a};
  bad_bind_then_run(&max24, &rank9, MINNX_E_ARG, "rank 9 is out of range", MINNX_E_ARG, "its bind failed",
                    "a rank out of range");
  test_model symbolic = max24;
  symbolic.dims[0] = -1;
  minnx_tensor huge = {MINNX_FLOAT, 2, {INT64_MAX, 4}, a, sizeof a};
  bad_bind_then_run(&symbolic, &huge, MINNX_E_LIMIT, "overflows", MINNX_E_LIMIT, "its bind failed",
                    "the tensor given has a size that overflows");

  minnx_model *model = NULL;
  minnx_session *s = session_on(&max24, &model);
  if (!s) return check_report("test_bind");
  minnx_error err;
  minnx_tensor ta = {MINNX_FLOAT, 2, {2, 4}, a, sizeof a}, tb = {MINNX_FLOAT, 2, {2, 4}, b, sizeof b};
  /* never bound: "not bound", and nothing more */
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_E_ARG);
  CHECK(strcmp(err.message, "input 'a' is not bound") == 0);
  /* bound, then a failed bind: the binding is unchanged, and the run uses it */
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &shape3, &err), MINNX_E_SHAPE);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  check_output(s);
  /* a failed bind by name records its cause the same way */
  minnx_session_free(s);
  minnx_model_free(model);
  s = session_on(&max24, &model);
  if (!s) return check_report("test_bind");
  CHECK_EQ_INT(minnx_session_bind_input_name(s, "a", &int64s, &err), MINNX_E_TYPE);
  CHECK_EQ_INT(minnx_session_bind_input_name(s, "b", &tb, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_E_TYPE);
  CHECK(strstr(err.message, "input 'a' is not bound: its bind failed") != NULL);
  minnx_session_free(s);
  minnx_model_free(model);
  return check_report("test_bind");
}
