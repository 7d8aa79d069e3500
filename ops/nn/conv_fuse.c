/* Conv + Relu / Clip fusion (conv.h, mx_conv_fuse): at load, once inference
 * has folded the constants, a float32 Conv whose output is read by one node
 * only, a Relu or a Clip with constant bounds, and is not a graph output,
 * takes that node's work into its own stores (ops/math/act.h: the same bits
 * as the node). The node's output becomes a view of the Conv's, so it runs
 * nothing and takes no arena bytes; the Conv's output holds the activated
 * values, which no one else reads. */
#include <float.h>
#include <string.h>

#include "ops/nn/conv.h"

#if MX_OPS_VIEWS
/* Whether node n, reading value v as its only input that is tensor data, is an activation a Conv can take:
 * Relu (every version), Clip (every version) with bounds from attributes (1, 6) or constant float32 scalars
 * (11 on; omitted ones are no bound). */
static int fusable_act(const mx_graph *g, const mx_node *n, int32_t v) {
  if (n->domain[0] || n->n_outputs != 1 || n->outputs[0] < 0 || n->n_inputs < 1 || n->inputs[0] != v) return 0;
  if (g->values[n->outputs[0]].view_of || g->values[n->outputs[0]].kind != MX_VALUE_NODE) return 0;
  if (strcmp(n->op_type, "Relu") == 0) return n->n_inputs == 1;
  if (strcmp(n->op_type, "Clip") != 0) return 0;
  if (n->row->since < 11) return n->n_inputs == 1;
  for (int32_t k = 1; k < n->n_inputs; k++) {
    if (n->inputs[k] < 0) continue;
    if (n->inputs[k] == v) return 0;
    const mx_value *b = &g->values[mx_bytes_of(g, n->inputs[k])];
    if (b->kind != MX_VALUE_INITIALIZER || b->dtype != MINNX_FLOAT || !b->data || b->nbytes != sizeof(float) ||
        b->shape.rank != 0)
      return 0;
  }
  return 1;
}

minnx_status mx_conv_fuse(mx_graph *g, mx_pool *pool, size_t *scratch, mx_err *err) {
  int convs = 0;
  for (int32_t i = 0; i < g->n_nodes && !convs; i++) convs = !g->nodes[i].domain[0] && strcmp(g->nodes[i].op_type, "Conv") == 0;
  if (!convs) return MINNX_OK; /* (no temporary: a model without a Conv loads in the bytes it did) */
  /* each value's one reader (a node index), -1 for none, -2 for more than one or a graph output */
  int32_t *reader = mx_pool_temp_raw(pool, (size_t)g->n_values * sizeof *reader);
  if (!reader) return mx_fail(err, MINNX_E_NOMEM, "out of memory while fusing nodes");
  for (int32_t v = 0; v < g->n_values; v++) reader[v] = -1;
  for (int32_t i = 0; i < g->n_nodes; i++)
    for (int32_t k = 0; k < g->nodes[i].n_inputs; k++) {
      int32_t v = g->nodes[i].inputs[k];
      if (v >= 0) reader[v] = reader[v] == -1 ? i : -2;
    }
  for (int32_t k = 0; k < g->n_outputs; k++) reader[g->outputs[k]] = -2;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    if (n->domain[0] || strcmp(n->op_type, "Conv") != 0 || n->n_outputs != 1 || n->outputs[0] < 0) continue;
    int32_t v = n->outputs[0], j = reader[v];
    const mx_value *y = &g->values[v];
    if (j <= i || y->kind != MX_VALUE_NODE || y->view_of || y->dtype != MINNX_FLOAT || !fusable_act(g, &g->nodes[j], v))
      continue;
    g->nodes[i].fused = 1 + j;
    g->nodes[j].fused = -(1 + i);
    g->values[g->nodes[j].outputs[0]].view_of = 1 + v; /* the activation's output: the Conv's bytes */
    if (scratch) scratch[j] = 0;                       /* (it no longer runs) */
  }
  mx_pool_temp_free(pool, reader);
  return MINNX_OK;
}
#endif

/* Clip-1 and -6's attribute bound as float32 (clip.c's attr_bound for float: the float itself). */
static float attr_bound(const mx_node *n, const char *name, float dflt) {
  const mx_attr *a = mx_node_attr(n, name);
  return a ? a->f : dflt;
}

void mx_conv_fused_act(const mx_graph *g, const mx_node *conv, mx_act *act) {
  memset(act, 0, sizeof *act);
  if (!MX_OPS_VIEWS || conv->fused <= 0 || conv->fused > g->n_nodes) return;
  const mx_node *n = &g->nodes[conv->fused - 1];
  if (n->op_type[0] == 'R') { /* Relu */
    act->kind = MX_ACT_RELU;
    return;
  }
  act->kind = MX_ACT_CLIP;
  if (n->row->since < 11) {
    act->lo_on = act->hi_on = 1;
    act->lo = attr_bound(n, "min", -FLT_MAX);
    act->hi = attr_bound(n, "max", FLT_MAX);
    return;
  }
  for (int32_t k = 1; k < n->n_inputs && k < 3; k++) {
    if (n->inputs[k] < 0) continue;
    float f;
    memcpy(&f, g->values[mx_bytes_of(g, n->inputs[k])].data, sizeof f);
    if (k == 1) act->lo_on = 1, act->lo = f;
    else act->hi_on = 1, act->hi = f;
  }
}
