/* The IR's helpers (graph/ir.h): shapes' sizes and text, a node's attributes and label. */
#include "graph/ir.h"

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

int mx_shape_known(const mx_shape *s) {
  if (s->rank < 0) return 0;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return 0;
  return 1;
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

const mx_attr *mx_node_attr(const mx_node *node, const char *name) {
  for (int32_t i = 0; i < node->n_attrs; i++)
    if (strcmp(node->attrs[i].name, name) == 0) return &node->attrs[i];
  return NULL;
}

const char *mx_node_label(const mx_graph *g, const mx_node *node) {
  if (node->name[0]) return node->name;
  if (node->n_outputs > 0 && node->outputs[0] >= 0) return g->values[node->outputs[0]].name;
  return "(unnamed)";
}
