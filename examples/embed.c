/* Embedding minnx: a model compiled into the program as a byte array, loaded
 * from memory, run on inputs in static arrays, its outputs printed. No file
 * system is touched. */
#include <inttypes.h>
#include <stdio.h>

#include "minnx.h"

extern const unsigned char minnx_example_model[];
extern const size_t minnx_example_model_size;

int main(void) {
  static const float a[2][4] = {{1.0f, -2.0f, 3.5f, 0.0f}, {-1.0f, -5.0f, -0.5f, -3.0f}};
  static const float b[2][4] = {{0.5f, 4.0f, -1.0f, 2.0f}, {-2.0f, -4.0f, -0.25f, -6.0f}};
  minnx_error err;
  minnx_model *model = NULL;
  minnx_session *session = NULL;
  if (minnx_model_load_buffer(minnx_example_model, minnx_example_model_size, NULL, &model, &err) ||
      minnx_session_create(model, &session, &err)) {
    fprintf(stderr, "embed: %s\n", err.message);
    minnx_model_free(model);
    return 1;
  }
  printf("arena: %zu bytes\n", minnx_session_arena_size(session));
  minnx_tensor ta = {MINNX_FLOAT, 2, {2, 4}, (void *)a, sizeof a};
  minnx_tensor tb = {MINNX_FLOAT, 2, {2, 4}, (void *)b, sizeof b};
  int rc = 0;
  if (minnx_session_bind_input_name(session, "a", &ta, &err) || minnx_session_bind_input_name(session, "b", &tb, &err) ||
      minnx_session_run(session, &err)) {
    fprintf(stderr, "embed: %s\n", err.message);
    rc = 1;
  }
  for (size_t k = 0; !rc && k < minnx_model_output_count(model); k++) {
    minnx_tensor t;
    minnx_session_output(session, k, &t);
    printf("%s =", minnx_model_output_name(model, k));
    size_t n = t.nbytes / minnx_dtype_size(t.dtype);
    for (size_t i = 0; i < n; i++) {
      if (t.dtype == MINNX_FLOAT) printf(" %g", ((const float *)t.data)[i]);
      else printf(" %" PRId64, ((const int64_t *)t.data)[i]);
    }
    printf("\n");
  }
  minnx_session_free(session);
  minnx_model_free(model);
  return rc;
}
