/* The registry: the list of op tables linked into this build, and how a node
 * finds its row. Each op's rows live in its own file (ops/core/op.h); the list
 * comes from CMake (MINNX_OPS, ops/ops.cmake) as mx_op_list.h, one
 * MX_OP(name) per op. */
#include <string.h>

#include "ops/core/registry.h"

#define MX_OP(name, features) extern const mx_op_table mx_op_##name;
#include "mx_op_list.h"
#undef MX_OP

static const mx_op_table *const tables[] = {
#define MX_OP(name, features) &mx_op_##name,
#include "mx_op_list.h"
#undef MX_OP
};
#define N_TABLES (sizeof tables / sizeof tables[0])

static const char *domain_label(const char *d) { return d[0] ? d : "ai.onnx"; }

/* The table of op_type in domain, or NULL. */
static const mx_op_table *table_of(const char *domain, const char *op_type) {
  for (size_t t = 0; t < N_TABLES; t++)
    if (strcmp(tables[t]->domain, domain) == 0 && strcmp(tables[t]->op, op_type) == 0) return tables[t];
  return NULL;
}

/* mx_resolve's choice of row, for a tool: mx_resolve keeps its own loop,
 * which a firmware links (a shared helper made it 8 bytes longer on the
 * Cortex-M4), while this is left out by --gc-sections there. */
int mx_op_since(const char *domain, const char *op_type, int64_t version) {
  const mx_op_table *t = table_of(domain, op_type);
  if (!t) return -1;
  int since = 0;
  for (size_t k = 0; k < t->n_rows; k++)
    if (t->rows[k].since <= version && t->rows[k].since > since) since = t->rows[k].since;
  return since;
}

minnx_status mx_op_known(const char *domain, const char *op_type, mx_err *err) {
  if (table_of(domain, op_type)) return MINNX_OK;
  return mx_fail(err, MINNX_E_UNSUPPORTED, "operator '%s' of domain '%s' is not implemented by minnx", op_type,
                 domain_label(domain));
}

/* Marks the view outputs of n: each shares the bytes of the value its input
 * views, or of the input itself (g in execution order: inputs are marked first). */
static void mark_views(mx_graph *g, const mx_node *n) {
  const mx_io *e = n->row->out;
  if (n->row->views_if && !n->row->views_if(g, n)) return;
  for (int32_t k = 0; k < n->n_outputs && e->name; k++, e += !(e->flags & MX_IO_VARIADIC)) {
    int32_t out = n->outputs[k];
    if (!e->view || out < 0 || e->view - 1 >= n->n_inputs) continue;
    int32_t in = n->inputs[e->view - 1];
    if (in < 0) continue; /* refused by the arity checks */
    g->values[out].view_of = 1 + mx_bytes_of(g, in);
  }
}

#if MX_OPS_GRAPHS
/* Whether an output of n is the cond of an If in g, or an input of a node
 * whose outputs are, `depth` nodes more at most. */
static int feeds_cond(const mx_graph *g, const mx_node *n, int depth) {
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *m = &g->nodes[i];
    for (int32_t k = 0; k < m->n_inputs; k++)
      for (int32_t o = 0; o < n->n_outputs; o++) {
        if (n->outputs[o] < 0 || m->inputs[k] != n->outputs[o]) continue;
        if (k == 0 && !m->domain[0] && strcmp(m->op_type, "If") == 0) return 1;
        if (depth > 0 && feeds_cond(g, m, depth - 1)) return 1;
      }
  }
  return 0;
}

int mx_feeds_cond(const mx_graph *g, const mx_node *n) { return g->nested != 2 && feeds_cond(g, n, 2); }

int mx_reads_cond_input(const mx_graph *g, const mx_node *n, int32_t v) {
  const mx_value *val = &g->values[v];
  int64_t count = mx_shape_count(&val->shape);
  /* integers and bools (a sample rate, a flag): a float input compared into a
   * cond stays data read by the run */
  int integral = val->dtype == MINNX_BOOL || val->dtype == MINNX_INT64 || val->dtype == MINNX_INT32;
  return !g->nested && integral && val->kind == MX_VALUE_INPUT && count >= 0 && count <= 16 && feeds_cond(g, n, 2);
}
#endif

/* Whether a node of g reads graph input `want`'s bytes when the inputs are
 * bound (any graph input's: want < 0). */
static int reads_input(const mx_graph *g, int32_t want) {
  for (int32_t i = 0; i < g->n_nodes && MX_OPS_DATA; i++) {
    const mx_node *n = &g->nodes[i];
    const mx_io *e = n->row->in;
    for (int32_t k = 0; k < n->n_inputs && e->name; k++, e += !(e->flags & MX_IO_VARIADIC)) {
      int32_t v = n->inputs[k] >= 0 ? mx_bytes_of(g, n->inputs[k]) : -1;
      if (want >= 0 && v != want) continue;
      if (v >= 0 && (e->flags & MX_IO_CONST) && g->values[v].kind == MX_VALUE_INPUT) return 1;
#if MX_OPS_GRAPHS && MX_OPS_SHAPES
      /* an If's cond read when bound, or what it is computed from */
      if (v >= 0 && (mx_reads_cond_input(g, n, v) || (k == 0 && !g->nested && g->values[v].kind == MX_VALUE_INPUT &&
                                                      !n->domain[0] && strcmp(n->op_type, "If") == 0)))
        return 1;
#endif
    }
  }
  return 0;
}

int mx_shapes_read_inputs(const mx_graph *g) { return reads_input(g, -1); }

int mx_input_read_at_bind(const mx_graph *g, int32_t v) { return v >= 0 && reads_input(g, v); }

minnx_status mx_resolve(mx_graph *g, mx_err *err) {
  for (int32_t i = 0; i < g->n_nodes; i++) {
    mx_node *n = &g->nodes[i];
    const mx_op_table *t = table_of(n->domain, n->op_type);
    if (!t) return mx_op_known(n->domain, n->op_type, err);
    const mx_opset *imp = NULL;
    for (int32_t k = 0; k < g->n_opsets && !imp; k++)
      if (strcmp(g->opsets[k].domain, n->domain) == 0) imp = &g->opsets[k];
    if (!imp)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s): domain '%s' is not imported by the model (opset_import)",
                     mx_node_label(g, n), n->op_type, domain_label(n->domain));
    n->row = NULL;
    for (size_t k = 0; k < t->n_rows; k++) {
      const mx_op_row *r = &t->rows[k];
      if (r->since <= imp->version && (!n->row || r->since > n->row->since)) n->row = r;
    }
    if (!n->row)
      return mx_fail(err, MINNX_E_MODEL, "node '%s': operator %s has no version in opset %lld of domain '%s'",
                     mx_node_label(g, n), n->op_type, (long long)imp->version, domain_label(n->domain));
    if (MX_OPS_VIEWS) mark_views(g, n);
#if MX_OPS_GRAPHS
    for (int32_t k = 0; k < n->n_attrs; k++) { /* a subgraph's nodes: the model's opsets too (the loader set them) */
      minnx_status st = mx_attr_graph(&n->attrs[k]) ? mx_resolve(n->attrs[k].g, err) : MINNX_OK;
      if (st) return st;
    }
#endif
  }
  return MINNX_OK;
}

int mx_op_features_declared(void) {
  static const unsigned declared[] = {
#define MX_OP(name, features) features,
#include "mx_op_list.h"
#undef MX_OP
  };
  for (size_t t = 0; t < N_TABLES; t++)
    for (size_t k = 0; k < tables[t]->n_rows; k++) {
      const mx_op_row *r = &tables[t]->rows[k];
      unsigned uses = r->eval ? 0 : MX_OPS_VIEWS_BIT;
      for (const mx_io *e = r->in; e->name; e++)
        uses |= (e->flags & MX_IO_CONST ? MX_OPS_DATA_BIT : 0) | (e->flags & MX_IO_SHAPE ? MX_OPS_SHAPES_BIT : 0);
      for (const mx_io *e = r->out; e->name; e++) uses |= e->view ? MX_OPS_VIEWS_BIT : 0;
#if MX_OPS_PACKED
      uses |= r->packed_size ? MX_OPS_PACKED_BIT : 0;
#endif
      if (uses & ~declared[t]) return 0;
    }
  return 1;
}
