/* minnx_load_options.max_isa: each level this build and CPU have gives the
 * portable level's bits (on a shape large enough that the AVX2 and AVX-512
 * loops run, with a tail); a level above minnx_isa_available() is refused
 * as unsupported, a value that is no level as a bad argument. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

enum { N = 1031 };

static const test_model add = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {14}, .n_inputs = 2,
                               .inputs = {"a", "b"}, .dtype = MINNX_FLOAT, .rank = 1, .dims = {N}, .n_nodes = 1,
                               .nodes = {{"Add", "", 2, {"a", "b"}, "y", NULL, 0}}, .output = "y"};

static float a[N], b[N];

/* Runs the model at level isa into y; the load's status. */
static minnx_status run_at(const uint8_t *bytes, size_t size, int isa, float *y, minnx_error *err) {
  minnx_load_options o = {0};
  o.max_isa = isa;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  minnx_status st = minnx_model_load_buffer(bytes, size, &o, &m, err);
  if (st) return st;
  minnx_tensor ta = {MINNX_FLOAT, 1, {N}, a, sizeof a}, tb = {MINNX_FLOAT, 1, {N}, b, sizeof b}, out;
  CHECK_EQ_INT(minnx_session_create(m, &s, err), MINNX_OK);
  if (s) {
    CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, err), MINNX_OK);
    CHECK_EQ_INT(minnx_session_bind_input(s, 1, &tb, err), MINNX_OK);
    CHECK_EQ_INT(minnx_session_run(s, err), MINNX_OK);
    CHECK_EQ_INT(minnx_session_output(s, 0, &out), MINNX_OK);
    CHECK(out.nbytes == sizeof a);
    if (out.nbytes == sizeof a) memcpy(y, out.data, sizeof a);
  }
  minnx_session_free(s);
  minnx_model_free(m);
  return MINNX_OK;
}

int main(void) {
  for (int i = 0; i < N; i++) a[i] = (float)i * 0.37f - 91.0f, b[i] = 1.0f / (float)(i + 3);
  uint8_t *bytes;
  size_t size = build_model(&add, &bytes);
  minnx_error err;
  static float ref[N], y[N];
  CHECK_EQ_INT(run_at(bytes, size, MINNX_ISA_PORTABLE, ref, &err), MINNX_OK);
  for (int i = 0; i < N; i++) CHECK(ref[i] == a[i] + b[i]);
  minnx_isa have = minnx_isa_available();
  CHECK(have >= MINNX_ISA_PORTABLE && have <= MINNX_ISA_AVX512);
  for (int isa = MINNX_ISA_NATIVE; isa <= (int)have; isa++) {
    memset(y, 0, sizeof y);
    CHECK_EQ_INT(run_at(bytes, size, isa, y, &err), MINNX_OK);
    CHECK(memcmp(y, ref, sizeof y) == 0);
  }
  if (have < MINNX_ISA_AVX512) {
    CHECK_EQ_INT(run_at(bytes, size, have + 1, y, &err), MINNX_E_UNSUPPORTED);
    CHECK(strstr(err.message, "this build and CPU have up to") != NULL);
  }
  CHECK_EQ_INT(run_at(bytes, size, MINNX_ISA_AVX512 + 1, y, &err), MINNX_E_ARG);
  CHECK(strstr(err.message, "max_isa 4 is not a minnx_isa") != NULL);
  CHECK_EQ_INT(run_at(bytes, size, -1, y, &err), MINNX_E_ARG);
  free(bytes);
  printf("isa: levels portable to %d compared\n", (int)have);
  return check_report("isa");
}
