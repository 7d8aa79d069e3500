/* Subgraphs inside a node: inferred at load, prepared and planned with the
 * node, run by its eval (subgraph.h). */
#include "ops/controlflow/subgraph.h"

#include <string.h>

static size_t round16(size_t v) { return (v + 15) & ~(size_t)15; }

static void io_counts(const mx_graph *g, int32_t *max_in, int32_t *max_out) {
  *max_in = 1, *max_out = 1;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    if (g->nodes[i].n_inputs > *max_in) *max_in = g->nodes[i].n_inputs;
    if (g->nodes[i].n_outputs > *max_out) *max_out = g->nodes[i].n_outputs;
  }
}

/* The planner's work arrays come from a bump allocator over the params:
 * sized at load by mx_plan_temp_bytes, plus each array's rounding. */
enum { PLAN_ARRAYS = 16 };

/* The pieces of an mx_sub after the struct, in order; with base 0 their sizes only. */
static size_t layout(const mx_graph *g, mx_sub *s, uintptr_t base) {
  size_t nv = (size_t)(g->n_values ? g->n_values : 1), nn = (size_t)(g->n_nodes ? g->n_nodes : 1), at = round16(sizeof(mx_sub));
  int32_t max_in, max_out;
  io_counts(g, &max_in, &max_out);
  mx_sub unused;
  s = s ? s : &unused;
#define TAKE(field, bytes) (s->field = (void *)(base + at), at += round16(bytes))
  TAKE(params, nn * sizeof(void *));
  TAKE(params_mem, nn * sizeof(void *));
  TAKE(scratch, nn * sizeof(size_t));
  TAKE(plan.offsets, nv * sizeof(size_t));
  TAKE(plan.scratch, nn * sizeof(size_t));
  TAKE(shapes, nv * sizeof(mx_shape));
  TAKE(dtypes, nv * sizeof(mx_dtype));
  TAKE(data, nv * sizeof(void *));
  TAKE(in_ptrs, (size_t)max_in * sizeof(void *));
  TAKE(out_ptrs, (size_t)max_out * sizeof(void *));
  size_t bufs = mx_node_bufs_carve(NULL, NULL, max_in, max_out);
  if (base) mx_node_bufs_carve(&s->bufs, (void *)(base + at), max_in, max_out);
  at += round16(bufs);
  s->temp_size = round16(mx_plan_temp_bytes(g) + PLAN_ARRAYS * 16);
  TAKE(temp, s->temp_size);
#undef TAKE
  for (int32_t i = 0; i < g->n_nodes; i++) {
    if (base) s->params_mem[i] = (void *)(base + at);
    at += mx_params_size(&g->nodes[i]);
  }
  s->max_in = max_in, s->max_out = max_out;
  return at;
}

size_t mx_sub_bytes(const mx_graph *g) { return round16(layout(g, NULL, 0)); }

mx_sub *mx_sub_carve(void *mem, const mx_graph *g) {
  mx_sub *s = mem;
  memset(s, 0, sizeof *s);
  layout(g, s, (uintptr_t)mem);
  s->g = g;
  return s;
}

minnx_status mx_sub_infer_load(mx_op_ctx *c, mx_graph *g, int32_t first, const mx_shape *formal, const mx_dtype *formal_t,
                               int32_t n_formal, int per_run) {
  for (int32_t k = 0; k < n_formal && formal; k++) {
    g->values[g->inputs[k]].shape = formal[k];
    g->values[g->inputs[k]].dtype = formal_t[k];
  }
  for (int32_t k = 0; k < g->n_captures; k++) {
    mx_value *v = &g->values[g->inputs[g->n_inputs + k]];
    const mx_value *outer = &c->g->values[mx_bytes_of(c->g, c->node->inputs[first + k])];
    v->dtype = c->in_dtype[first + k];
    v->shape = *c->in[first + k];
    if (outer->kind == MX_VALUE_INITIALIZER) { /* a constant in here too: nodes fold on it */
      v->kind = MX_VALUE_INITIALIZER;
      v->data = outer->data;
      v->nbytes = outer->nbytes;
    }
  }
  int32_t max_in, max_out;
  io_counts(g, &max_in, &max_out);
  void *mem = mx_pool_temp(c->pool, mx_node_bufs_carve(NULL, NULL, max_in, max_out));
  if (!mem) return mx_op_fail(c, MINNX_E_NOMEM, "out of memory inferring a subgraph");
  mx_node_bufs bufs;
  mx_node_bufs_carve(&bufs, mem, max_in, max_out);
  minnx_status st = mx_infer(g, g->values, c->pool, NULL, NULL, &bufs, NULL, c->err);
  mx_pool_temp_free(c->pool, mem);
  if (st) return st;
  for (int32_t v = 0; v < g->n_values && MX_OPS_SHAPES && !per_run; v++)
    if (g->values[v].kind == MX_VALUE_BIND)
      return mx_op_fail(c, MINNX_E_FEATURE, "its subgraph computes value '%s' from a shape known only once the inputs are "
                        "bound, which minnx does not support in a subgraph", g->values[v].name);
  return MINNX_OK;
}

int mx_sub_same_captures(const mx_op_ctx *c, const mx_graph *g, int32_t first) {
  for (int32_t k = 0; k < g->n_captures; k++) {
    const mx_shape *a = &g->values[g->inputs[g->n_inputs + k]].shape, *b = c->in[first + k];
    if (a->rank != b->rank || memcmp(a->dims, b->dims, (size_t)(a->rank > 0 ? a->rank : 0) * sizeof a->dims[0]))
      return 0;
  }
  return 1;
}

void *mx_sub_mem_alloc(mx_sub_mem *m, size_t cap, size_t bytes) {
  bytes = round16(bytes ? bytes : 1);
  if (!m->mem || bytes > cap - m->used) return NULL;
  void *at = m->mem + m->used;
  m->used += bytes;
  return at;
}

minnx_status mx_sub_bind_node(mx_sub *s, int32_t i, mx_op_ctx *c, void *params, mx_sub_mem *m,
                              const mx_sub_bind_words *w) {
  const mx_graph *g = s->g;
  const mx_node *n = &g->nodes[i];
  for (int32_t k = 0; k < n->n_outputs; k++) {
    int32_t v = n->outputs[k];
    s->out_ptrs[k] = NULL;
    if (v < 0 || g->values[v].kind != MX_VALUE_BIND) continue;
    size_t bytes = mx_shape_bytes(&c->out[k], c->out_dtype[k]);
    if (bytes == SIZE_MAX)
      return mx_op_fail(c, MINNX_E_SHAPE, "the shape of '%s' is not known %s", g->values[v].name, w->known);
    if (!(s->out_ptrs[k] = mx_sub_mem_alloc(m, w->cap, bytes)))
      return mx_op_fail(c, MINNX_E_LIMIT, "%s take more than minnx's %d bytes", w->values, (int)w->cap);
    s->data[v] = s->out_ptrs[k];
  }
  if (!params) return MINNX_OK;
  int fault = MX_FAULT_NONE;
  mx_exec x = {NULL, NULL, c->scratch ? mx_sub_mem_alloc(m, w->cap, c->scratch) : NULL, &fault};
  if (c->scratch && !x.scratch)
    return mx_op_fail(c, MINNX_E_LIMIT, "its scratch does not fit in its %s's %d bytes for values computed %s", w->op,
                      (int)w->cap, w->from);
  n->row->eval(&x, params, c->in_data, s->out_ptrs);
  if (fault) return mx_op_fail(c, MINNX_E_MODEL, "an index in the data is out of range of its axis");
  return MINNX_OK;
}

static void *bump_alloc(void *user, size_t size) {
  mx_sub *s = user;
  size = round16(size ? size : 1);
  if (size > s->temp_size - s->temp_used) return NULL;
  void *p = s->temp + s->temp_used;
  s->temp_used += size;
  return p;
}

static void bump_free(void *user, void *ptr) { (void)user, (void)ptr; }

minnx_status mx_sub_prepare(mx_op_ctx *c, mx_sub *s, int32_t first, const mx_shape *formal, const void *const *formal_data,
                            int32_t n_formal, const mx_sub_bind *bind, size_t *arena) {
  const mx_graph *g = s->g;
  char text[96];
  for (int32_t v = 0; v < g->n_values; v++) {
    s->shapes[v] = g->values[v].shape;
    s->dtypes[v] = g->values[v].dtype;
    s->data[v] = g->values[v].kind == MX_VALUE_INITIALIZER ? g->values[v].data : NULL;
  }
  for (int32_t k = 0; k < n_formal && formal; k++) s->shapes[g->inputs[k]] = formal[k];
  for (int32_t k = 0; k < n_formal && formal_data; k++) s->data[g->inputs[k]] = formal_data[k];
  for (int32_t k = 0; k < g->n_captures; k++) s->shapes[g->inputs[g->n_inputs + k]] = *c->in[first + k];
  for (int32_t i = 0; i < g->n_nodes; i++) s->params[i] = s->params_mem[i];
  s->isa = c->isa;
  mx_prep prep = {.params = s->params, .scratch = s->scratch, .isa = c->isa};
#if MX_OPS_SHAPES
  if (bind) prep.data = s->data, prep.bind = bind->fn, prep.bind_ctx = bind->ctx;
#else
  (void)bind;
#endif
  minnx_status st = mx_infer(g, NULL, NULL, s->shapes, s->dtypes, &s->bufs, &prep, c->err);
  if (st) return st;
  for (int32_t v = 0; v < g->n_values; v++)
    if (mx_shape_count(&s->shapes[v]) < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "its subgraph's value '%s' has shape %s, not known before a run", g->values[v].name,
                        mx_shape_str(&s->shapes[v], text, sizeof text));
  s->temp_used = 0;
  minnx_allocator a = {bump_alloc, bump_free, s};
  if ((st = mx_plan_arena(g, s->shapes, s->dtypes, s->scratch, &a, &s->plan, c->err))) return st;
  *arena = s->plan.arena_size;
  return MINNX_OK;
}

minnx_status mx_sub_reinfer(mx_sub *s, const void *const *formal_data, int32_t n_formal, const mx_sub_bind *bind,
                            size_t *scratch, mx_err *err) {
  const mx_graph *g = s->g;
  for (int32_t k = 0; k < n_formal; k++) s->data[g->inputs[k]] = formal_data[k];
  for (int32_t i = 0; i < g->n_nodes; i++) s->params[i] = s->params_mem[i];
  mx_prep prep = {.params = s->params, .scratch = scratch, .data = s->data, .isa = s->isa};
#if MX_OPS_SHAPES
  prep.bind = bind->fn, prep.bind_ctx = bind->ctx;
#else
  (void)bind;
#endif
  /* the shapes hold the planned ones: mx_infer refuses a node giving others */
  return mx_infer(g, NULL, NULL, s->shapes, s->dtypes, &s->bufs, &prep, err);
}

void mx_sub_run(const mx_exec *x, mx_sub *s, unsigned char *arena, const void *const *formal, const void *const *caps) {
  const mx_graph *g = s->g;
  for (int32_t v = 0; v < g->n_values; v++)
    if (s->plan.offsets[v] != SIZE_MAX) s->data[v] = arena + s->plan.offsets[v];
  for (int32_t k = 0; k < g->n_inputs && formal; k++) s->data[g->inputs[k]] = formal[k];
  for (int32_t k = 0; k < g->n_captures; k++)
    if (g->values[g->inputs[g->n_inputs + k]].kind == MX_VALUE_INPUT) s->data[g->inputs[g->n_inputs + k]] = caps[k];
  mx_exec sx = *x;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    if (!s->params[i]) continue; /* views and folded nodes: nothing runs */
    for (int32_t k = 0; k < n->n_inputs; k++) s->in_ptrs[k] = n->inputs[k] >= 0 ? s->data[mx_bytes_of(g, n->inputs[k])] : NULL;
    for (int32_t k = 0; k < n->n_outputs; k++) s->out_ptrs[k] = n->outputs[k] >= 0 ? (void *)s->data[n->outputs[k]] : NULL;
    sx.scratch = s->plan.scratch[i] != SIZE_MAX ? arena + s->plan.scratch[i] : NULL;
    n->row->eval(&sx, s->params[i], s->in_ptrs, s->out_ptrs);
    if (x->fault && *x->fault) return;
  }
}
