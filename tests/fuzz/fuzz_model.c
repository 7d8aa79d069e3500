/* Fuzz target (a): any bytes as a model file -> load -> session -> run. */
#include "exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_model_bytes(data, size);
  return 0;
}
