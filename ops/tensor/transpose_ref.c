/* Transpose's reference loop (the oracle of tests/unit/test_layout.c and
 * tests/fuzz/fuzz_diff.c): each output element in turn, from the input
 * element its coordinates, permuted, name. */
#include <string.h>

#include "ops/tensor/transpose.h"

void mx_transpose_ref(size_t elem, int rank, const int64_t *in_dims, const int64_t *perm, const void *src, void *dst) {
  int64_t count = 1, istride[MX_MAX_RANK];
  for (int d = rank - 1; d >= 0; d--) {
    istride[d] = d == rank - 1 ? 1 : istride[d + 1] * in_dims[d + 1];
    count *= in_dims[d];
  }
  for (int64_t i = 0; i < count; i++) {
    int64_t rest = i, at = 0;
    for (int d = rank - 1; d >= 0; d--) { /* output dim d is input dim perm[d] */
      at += rest % in_dims[perm[d]] * istride[perm[d]];
      rest /= in_dims[perm[d]];
    }
    memcpy((unsigned char *)dst + (size_t)i * elem, (const unsigned char *)src + (size_t)at * elem, elem);
  }
}
