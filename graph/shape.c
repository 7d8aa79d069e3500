#include "graph/shape.h"

int mx_broadcast_shapes(const mx_shape *const *in, int32_t n, mx_shape *out) {
  int rank = 0;
  for (int32_t k = 0; k < n; k++) {
    if (in[k]->rank < 0) {
      out->rank = -1;
      return 1; /* nothing can be said until the rank is known */
    }
    if (in[k]->rank > rank) rank = in[k]->rank;
  }
  out->rank = rank;
  for (int i = 0; i < rank; i++) {
    int64_t fixed = -1; /* the known dim other than 1, if any */
    int unknown = 0;
    for (int32_t k = 0; k < n; k++) {
      int off = rank - in[k]->rank;
      if (i < off) continue;
      int64_t d = in[k]->dims[i - off];
      if (d < 0) unknown = 1;
      else if (d != 1) {
        if (fixed >= 0 && fixed != d) return 0;
        fixed = d;
      }
    }
    out->dims[i] = fixed >= 0 ? fixed : unknown ? MX_DIM_UNKNOWN : 1;
  }
  return 1;
}

int mx_shapes_compatible(const mx_shape *a, const mx_shape *b) {
  if (a->rank < 0 || b->rank < 0) return 1;
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) return 0;
  return 1;
}
