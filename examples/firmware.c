/* minnx as firmware uses it: no heap, no file system, no printf. The model is
 * compiled in as bytes; one static buffer holds everything. Its size is known
 * at build time: `minnx info` prints what the load needs, what the model keeps,
 * and what a session needs (the build puts them in firmware_sizes.h). The
 * session goes where the load's temporaries were, after the bytes the model
 * keeps. The exit status says whether the outputs are numpy's. */
#include <stdint.h>
#include <string.h>

#include "firmware_sizes.h" /* MODEL_LOAD_BYTES, MODEL_KEPT_BYTES, SESSION_BYTES */
#include "minnx.h"

extern const unsigned char minnx_example_model[];
extern const size_t minnx_example_model_size;

#define TAIL_BYTES (MODEL_KEPT_BYTES + SESSION_BYTES)
#define MEM_BYTES (MODEL_LOAD_BYTES > TAIL_BYTES ? MODEL_LOAD_BYTES : TAIL_BYTES)
static _Alignas(MINNX_REGION_ALIGN) unsigned char mem[MEM_BYTES];

int main(void) {
  static const float a[2][4] = {{1.0f, -2.0f, 3.5f, 0.0f}, {-1.0f, -5.0f, -0.5f, -3.0f}};
  static const float b[2][4] = {{0.5f, 4.0f, -1.0f, 2.0f}, {-2.0f, -4.0f, -0.25f, -6.0f}};
  /* m = max(a, b) and idx = argmax(m, axis 1), as numpy gives them */
  static const float m_want[8] = {1, 4, 3.5f, 2, -1, -4, -0.25f, -3};
  static const int64_t idx_want[2] = {1, 2};
  minnx_model *model;
  minnx_session *session;
  if (minnx_model_load_in(minnx_example_model, minnx_example_model_size, mem, sizeof mem, NULL, &model, NULL))
    return 1;
  size_t kept = minnx_model_memory_used(model);
  if (minnx_session_create_in(model, mem + kept, sizeof mem - kept, &session, NULL)) return 2;
  minnx_tensor ta = {MINNX_FLOAT, 2, {2, 4}, (void *)a, sizeof a};
  minnx_tensor tb = {MINNX_FLOAT, 2, {2, 4}, (void *)b, sizeof b};
  if (minnx_session_bind_input(session, 0, &ta, NULL) || minnx_session_bind_input(session, 1, &tb, NULL) ||
      minnx_session_run(session, NULL))
    return 3;
  minnx_tensor m, idx;
  if (minnx_session_output(session, 0, &m) || minnx_session_output(session, 1, &idx)) return 4;
  if (m.nbytes != sizeof m_want || memcmp(m.data, m_want, sizeof m_want) != 0) return 5;
  if (idx.nbytes != sizeof idx_want || memcmp(idx.data, idx_want, sizeof idx_want) != 0) return 6;
  return 0;
}
