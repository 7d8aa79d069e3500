#include "graph/shape.h"

#include <stdio.h>
#include <string.h>


int64_t mx_shape_count(const mx_shape *s) {
  if (s->rank < 0) return -1;
  /* A 0 anywhere makes the count 0, whatever the other dims: looked for
   * first, so that [2^62,4,0] is empty as [0,2^62,4] is, not an overflow. */
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] == 0) return 0;
  int64_t n = 1;
  int unknown = 0;
  for (int i = 0; i < s->rank; i++) {
    int64_t d = s->dims[i];
    if (d < 0) {
      unknown = 1;
      continue;
    }
    if (n > INT64_MAX / d) return -2;
    n *= d;
  }
  return unknown ? -1 : n;
}

size_t mx_shape_bytes(const mx_shape *s, mx_dtype t) {
  int64_t n = mx_shape_count(s);
  size_t e = mx_dtype_size(t);
  if (n < 0 || e == 0 || (uint64_t)n > SIZE_MAX / e) return SIZE_MAX;
  return (size_t)n * e;
}

const char *mx_shape_str(const mx_shape *s, char *buf, size_t size) {
  if (s->rank < 0) {
    snprintf(buf, size, "[?]");
    return buf;
  }
  size_t k = 0;
  k += (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < s->rank && k < size; i++) {
    if (s->dims[i] < 0) k += (size_t)snprintf(buf + k, size - k, "%s?", i ? "," : "");
    else k += (size_t)snprintf(buf + k, size - k, "%s%lld", i ? "," : "", (long long)s->dims[i]);
  }
  if (k < size) snprintf(buf + k, size - k, "]");
  return buf;
}

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
