/* Fuzz target (b): any bytes as a TensorProto (.pb file) -> decoded tensor.
 * What decodes must encode and decode again to the same tensor. */
#include "exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  minnx_tensor t, back;
  char *name = NULL, *name2 = NULL;
  minnx_error err;
  minnx_status st = minnx_tensor_decode(data, size, NULL, &t, &name, &err);
  fuzz_check_error(st, &err);
  if (st) return 0;
  int64_t n = fuzz_elements(&t);
  if (t.rank < 0 || t.rank > MINNX_MAX_RANK || n < 0 || (size_t)n * minnx_dtype_size(t.dtype) != t.nbytes ||
      (t.nbytes && !t.data) || (name && !name[0]))
    abort();
  void *buf;
  size_t len;
  st = minnx_tensor_encode(&t, name, NULL, &buf, &len, &err);
  fuzz_check_error(st, &err);
  if (st == MINNX_OK) {
    st = minnx_tensor_decode(buf, len, NULL, &back, &name2, &err);
    if (st || back.dtype != t.dtype || back.rank != t.rank || back.nbytes != t.nbytes ||
        memcmp(back.dims, t.dims, (size_t)t.rank * sizeof *t.dims) != 0 ||
        (t.nbytes && memcmp(back.data, t.data, t.nbytes) != 0) || (!name != !name2) || (name && strcmp(name, name2)))
      abort();
    minnx_tensor_free(NULL, back.data);
    minnx_tensor_free(NULL, name2);
    minnx_tensor_free(NULL, buf);
  }
  minnx_tensor_free(NULL, t.data);
  minnx_tensor_free(NULL, name);
  return 0;
}
