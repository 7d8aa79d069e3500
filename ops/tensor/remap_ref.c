/* The reference loop of Pad, Tile and Expand (the oracle of
 * tests/fuzz/fuzz_diff.c): each output element in turn, its input element
 * found dim by dim through mx_remap_coord. */
#include <string.h>

#include "ops/tensor/remap.h"

void mx_remap_ref(const mx_remap_params *p, const void *in, const void *value, void *out) {
  int64_t count = 1;
  for (int d = 0; d < p->rank; d++) count *= p->out_dims[d];
  for (int64_t e = 0; e < count; e++) {
    int64_t rest = e, at = 0, stride = 1;
    int constant = 0;
    for (int d = p->rank - 1; d >= 0; d--) {
      int64_t s = mx_remap_coord(p, d, rest % p->out_dims[d]);
      rest /= p->out_dims[d];
      if (s < 0) constant = 1;
      else at += s * stride;
      stride *= p->in_dims[d];
    }
    unsigned char *to = (unsigned char *)out + (size_t)e * p->elem;
    if (constant) memcpy(to, value, p->elem);
    else memcpy(to, (const unsigned char *)in + (size_t)at * p->elem, p->elem);
  }
}
