#include "graph/validate.h"

#include <string.h>

/* The temporaries of the ordering. pending[i]: inputs of node i still
 * waiting for their producer; users: for each node, the nodes consuming its
 * outputs (CSR layout: first[p] to first[p + 1]); order: Kahn's queue, then
 * the order found. */
typedef struct {
  int32_t *producer, *pending, *first, *users, *fill, *order;
  mx_node *sorted;
} order_work;

/* Counts each node's pending inputs and each producer's users, into the
 * prefix sums `first`; returns the edges. */
static size_t count_edges(const mx_graph *g, order_work *w) {
  size_t edges = 0;
  for (int32_t i = 0; i < g->n_nodes; i++)
    for (int32_t k = 0; k < g->nodes[i].n_inputs; k++) {
      int32_t v = g->nodes[i].inputs[k];
      if (v >= 0 && w->producer[v] >= 0) {
        w->pending[i]++;
        w->first[w->producer[v] + 1]++;
        edges++;
      }
    }
  for (int32_t i = 0; i < g->n_nodes; i++) w->first[i + 1] += w->first[i];
  return edges;
}

static void fill_users(const mx_graph *g, order_work *w) {
  for (int32_t i = 0; i < g->n_nodes; i++)
    for (int32_t k = 0; k < g->nodes[i].n_inputs; k++) {
      int32_t v = g->nodes[i].inputs[k];
      if (v >= 0 && w->producer[v] >= 0) {
        int32_t p = w->producer[v];
        w->users[w->first[p] + w->fill[p]++] = i;
      }
    }
}

/* Kahn's algorithm, file order among ready nodes; the queue is `order`
 * itself. Returns the nodes ordered: fewer than all when there is a cycle. */
static int32_t kahn(int32_t n, order_work *w) {
  int32_t head = 0, tail = 0;
  for (int32_t i = 0; i < n; i++)
    if (w->pending[i] == 0) w->order[tail++] = i;
  while (head < tail) {
    int32_t p = w->order[head++];
    for (int32_t e = w->first[p]; e < w->first[p + 1]; e++)
      if (--w->pending[w->users[e]] == 0) w->order[tail++] = w->users[e];
  }
  return tail;
}

/* Puts the nodes in the order found. Most files list their nodes in that
 * order (ONNX asks for a topological one): then nothing moves, and `sorted`
 * is never written (untouched, its pages cost nothing), in a graph of a
 * million nodes two passes over 72 bytes a node and one over the values
 * saved. */
static void reorder(mx_graph *g, order_work *w) {
  int32_t n = g->n_nodes, same = 0;
  while (same < n && w->order[same] == same) same++;
  if (same >= n) return;
  for (int32_t i = 0; i < n; i++) w->sorted[i] = g->nodes[w->order[i]];
  memcpy(g->nodes, w->sorted, (size_t)n * sizeof *w->sorted);
  for (int32_t i = 0; i < n; i++)
    for (int32_t k = 0; k < w->sorted[i].n_outputs; k++)
      if (w->sorted[i].outputs[k] >= 0) g->values[w->sorted[i].outputs[k]].producer = i;
}

static minnx_status nomem(mx_err *err) { return mx_fail(err, MINNX_E_NOMEM, "out of memory while ordering the graph"); }

static minnx_status order_with(mx_graph *g, mx_pool *pool, order_work *w, mx_err *err) {
  int32_t n = g->n_nodes;
  if (!w->pending || !w->first || !w->order || !w->sorted || !w->producer) return nomem(err);
  /* Each value's producer, copied out of the values in one pass in order:
   * the two passes over the edges then read 4 bytes a value, not a line of
   * 120 bytes a value each (from L3 or DRAM in a graph of 10^5 nodes or
   * more, where those reads were three quarters of the ordering). */
  for (int32_t v = 0; v < g->n_values; v++) w->producer[v] = g->values[v].producer;
  size_t edges = count_edges(g, w);
  w->users = mx_pool_temp_raw(pool, (edges ? edges : 1) * sizeof(int32_t));
  w->fill = mx_pool_temp(pool, (size_t)n * sizeof(int32_t));
  if (!w->users || !w->fill) return nomem(err);
  fill_users(g, w);
  if (kahn(n, w) != n) {
    int32_t i = 0;
    while (!w->pending[i]) i++;
    return mx_fail(err, MINNX_E_MODEL, "the graph has a cycle through node '%s' (%s)", mx_node_label(g, &g->nodes[i]),
                   g->nodes[i].op_type);
  }
  reorder(g, w);
  return MINNX_OK;
}

minnx_status mx_graph_order(mx_graph *g, mx_pool *pool, mx_err *err) {
  size_t n = (size_t)g->n_nodes;
  if (n == 0) return MINNX_OK;
  order_work w = {0};
  w.sorted = mx_pool_temp_raw(pool, n * sizeof(mx_node)); /* copied back: no second array kept */
  w.pending = mx_pool_temp(pool, n * sizeof(int32_t));
  w.first = mx_pool_temp(pool, (n + 1) * sizeof(int32_t));
  w.order = mx_pool_temp_raw(pool, n * sizeof(int32_t));
  w.producer = mx_pool_temp_raw(pool, (g->n_values ? (size_t)g->n_values : 1) * sizeof(int32_t));
  minnx_status st = order_with(g, pool, &w, err);
  mx_pool_temp_free(pool, w.sorted);
  mx_pool_temp_free(pool, w.fill);
  mx_pool_temp_free(pool, w.users);
  mx_pool_temp_free(pool, w.order);
  mx_pool_temp_free(pool, w.first);
  mx_pool_temp_free(pool, w.pending);
  mx_pool_temp_free(pool, w.producer);
  return st;
}
