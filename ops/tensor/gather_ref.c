/* Gather's reference loop (the oracle of tests/unit/test_layout.c and
 * tests/fuzz/fuzz_diff.c): each output element in turn, from its row, index
 * and place in the slice. */
#include <string.h>

#include "ops/tensor/gather.h"

int mx_gather_ref(const mx_gather_params *p, const void *data, const void *idx, void *out) {
  int64_t count = p->outer * p->n_idx * p->inner;
  int bad = 0;
  for (int64_t e = 0; e < count; e++) {
    int64_t i = e % p->inner, j = e / p->inner % p->n_idx, o = e / p->inner / p->n_idx;
    int64_t k = mx_gather_index(p, idx, j);
    unsigned char *to = (unsigned char *)out + (size_t)e * p->elem;
    if (k < 0) {
      memset(to, 0, p->elem);
      bad = 1;
    } else {
      memcpy(to, (const unsigned char *)data + (size_t)((o * p->dim + k) * p->inner + i) * p->elem, p->elem);
    }
  }
  return bad;
}
