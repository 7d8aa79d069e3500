/* Sessions: concrete shapes, the arena plan, kernel plans, and the executor
 * loop. Everything a run touches is allocated before it; a run allocates
 * nothing. */
#include <string.h>

#include "graph/shape.h"
#include "ops/registry.h"
#include "runtime/model.h"

struct minnx_session {
  const minnx_model *m;
  mx_mem mem; /* the model's hooks and max_memory; this session's own count */
  mx_shape *shapes; /* concrete shapes by value id */
  mx_dtype *dtypes;
  const void **data; /* where each value's bytes are, once planned/bound */
  unsigned char *bound; /* per graph input: bound since creation */
  int64_t *sym_values;  /* dim_param bindings, checked across inputs */
  const mx_shape **scratch;
  const void **in_ptrs;
  void **node_plans;
  unsigned char *plan_mem;
  unsigned char *empty; /* per node: its output has no elements, so it does not run */
  mx_plan plan;
  unsigned char *arena;
  size_t arena_cap;
  int planned; /* the plan matches the bound input shapes */
  int ran;
};

static minnx_status nomem(mx_err *err) { return mx_fail(err, MINNX_E_NOMEM, "out of memory for the session"); }

static void *zalloc(minnx_session *s, size_t size) {
  void *p = mx_mem_alloc(&s->mem, size ? size : 1);
  if (p) memset(p, 0, size ? size : 1);
  return p;
}

static void release(minnx_session *s, void *p) { mx_mem_free(&s->mem, p); }

/* The arena is over-allocated by the alignment so that every offset lands on
 * a 64-byte boundary whatever the hooks return. */
static unsigned char *arena_base(const minnx_session *s) {
  uintptr_t p = (uintptr_t)s->arena;
  return (unsigned char *)((p + MX_ARENA_ALIGN - 1) & ~(uintptr_t)(MX_ARENA_ALIGN - 1));
}

static int all_known(const mx_shape *sh) {
  if (sh->rank < 0) return 0;
  for (int i = 0; i < sh->rank; i++)
    if (sh->dims[i] < 0) return 0;
  return 1;
}

/* Infers concrete shapes, plans the arena (growing it if needed) and prepares every kernel. */
static minnx_status plan_session(minnx_session *s, mx_err *err) {
  const mx_graph *g = &s->m->g;
  for (int32_t v = 0; v < g->n_values; v++)
    if (g->values[v].kind == MX_VALUE_NODE) {
      s->shapes[v] = g->values[v].shape; /* declared or load-time inferred; refined below */
      s->dtypes[v] = g->values[v].dtype;
    }
  minnx_status st = mx_infer(g, s->shapes, s->dtypes, s->scratch, err);
  if (st) return st;
  for (int32_t v = 0; v < g->n_values; v++)
    if (!all_known(&s->shapes[v]))
      return mx_fail(err, MINNX_E_SHAPE, "the shape of value '%s' is not known after binding the inputs", g->values[v].name);
  if ((st = mx_plan_arena(g, s->shapes, s->dtypes, &s->mem, &s->plan, err))) return st;
  if (s->plan.arena_size + MX_ARENA_ALIGN > s->arena_cap || !s->arena) {
    size_t cap = s->plan.arena_size + MX_ARENA_ALIGN;
    /* the old arena goes first, so that max_memory need not hold both */
    release(s, s->arena);
    s->arena = NULL;
    s->arena_cap = 0;
    unsigned char *arena = mx_mem_alloc(&s->mem, cap);
    if (!arena) return mx_fail(err, MINNX_E_NOMEM, "out of memory for an arena of %zu bytes", s->plan.arena_size);
    s->arena = arena;
    s->arena_cap = cap;
  }
  for (int32_t v = 0; v < g->n_values; v++) {
    const mx_value *val = &g->values[v];
    if (s->plan.offsets[v] != SIZE_MAX) s->data[v] = arena_base(s) + s->plan.offsets[v];
    else if (val->kind == MX_VALUE_INITIALIZER) s->data[v] = val->data;
  }
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    for (int32_t k = 0; k < n->n_inputs; k++) s->scratch[k] = &s->shapes[n->inputs[k]];
    mx_prepare_ctx c = {n, n->schema, s->scratch, &s->shapes[n->outputs[0]], s->dtypes[n->inputs[0]]};
    /* A kernel's loops may run over dims of an empty tensor ([2^32,0] has
     * 2^32 rows of nothing): work is bounded by elements only if it is skipped. */
    s->empty[i] = mx_shape_count(&s->shapes[n->outputs[0]]) == 0;
    if (!s->empty[i]) n->schema->prepare(&c, s->node_plans[i]);
  }
  s->planned = 1;
  return MINNX_OK;
}

minnx_status minnx_session_create(const minnx_model *m, minnx_session **out, minnx_error *err) {
  if (!m || !out) return mx_fail(err, MINNX_E_ARG, "minnx_session_create: NULL argument");
  *out = NULL;
  const mx_graph *g = &m->g;
  mx_mem mem;
  mx_mem_init(&mem, &m->mem.a, m->mem.cap);
  minnx_session *s = mx_mem_alloc(&mem, sizeof *s);
  if (!s) return mx_mem_status(&mem, nomem(err), err);
  memset(s, 0, sizeof *s);
  s->m = m;
  s->mem = mem;
  size_t nv = (size_t)g->n_values, ni = (size_t)(m->max_node_inputs ? m->max_node_inputs : 1);
  s->shapes = zalloc(s, nv * sizeof *s->shapes);
  s->dtypes = zalloc(s, nv * sizeof *s->dtypes);
  s->data = zalloc(s, nv * sizeof *s->data);
  s->plan.offsets = zalloc(s, nv * sizeof *s->plan.offsets);
  s->bound = zalloc(s, (size_t)g->n_inputs);
  s->sym_values = zalloc(s, (size_t)g->n_syms * sizeof *s->sym_values);
  s->scratch = zalloc(s, ni * sizeof *s->scratch);
  s->in_ptrs = zalloc(s, ni * sizeof *s->in_ptrs);
  s->node_plans = zalloc(s, (size_t)g->n_nodes * sizeof *s->node_plans);
  s->plan_mem = zalloc(s, m->plan_bytes);
  s->empty = zalloc(s, (size_t)g->n_nodes);
  if (!s->shapes || !s->dtypes || !s->data || !s->plan.offsets || !s->bound || !s->sym_values || !s->scratch ||
      !s->in_ptrs || !s->node_plans || !s->plan_mem || !s->empty) {
    minnx_status st = mx_mem_status(&s->mem, nomem(err), err);
    minnx_session_free(s);
    return st;
  }
  size_t off = 0;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    s->node_plans[i] = s->plan_mem + off;
    off += (g->nodes[i].schema->plan_size(g->nodes[i].n_inputs) + 15) & ~(size_t)15;
  }
  int known = 1;
  for (int32_t v = 0; v < g->n_values; v++) {
    s->shapes[v] = g->values[v].shape;
    s->dtypes[v] = g->values[v].dtype;
    if (g->values[v].kind == MX_VALUE_INPUT) {
      s->data[v] = g->values[v].data; /* an input with an initializer has a default */
      known &= all_known(&s->shapes[v]);
    }
  }
  if (known) {
    minnx_status st = mx_mem_status(&s->mem, plan_session(s, err), err);
    if (st) {
      minnx_session_free(s);
      return st;
    }
  }
  *out = s;
  return MINNX_OK;
}

void minnx_session_free(minnx_session *s) {
  if (!s) return;
  release(s, s->shapes);
  release(s, s->dtypes);
  release(s, s->data);
  release(s, s->plan.offsets);
  release(s, s->bound);
  release(s, s->sym_values);
  release(s, s->scratch);
  release(s, s->in_ptrs);
  release(s, s->node_plans);
  release(s, s->plan_mem);
  release(s, s->empty);
  release(s, s->arena);
  mx_mem mem = s->mem;
  mx_mem_free(&mem, s);
}

minnx_status minnx_session_bind_input(minnx_session *s, size_t index, const minnx_tensor *t, minnx_error *err) {
  if (!s || !t) return mx_fail(err, MINNX_E_ARG, "minnx_session_bind_input: NULL argument");
  const mx_graph *g = &s->m->g;
  if (index >= (size_t)g->n_inputs)
    return mx_fail(err, MINNX_E_ARG, "input index %zu is out of range: the model has %d inputs", index, (int)g->n_inputs);
  int32_t id = g->inputs[index];
  const mx_value *v = &g->values[id];
  char a[96], b[96];
  mx_shape sh = {.rank = t->rank};
  if (t->rank < 0 || t->rank > MX_MAX_RANK)
    return mx_fail(err, MINNX_E_ARG, "input '%s': rank %d is out of range", v->name, t->rank);
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] < 0) return mx_fail(err, MINNX_E_ARG, "input '%s': dim %d is negative", v->name, i);
    sh.dims[i] = t->dims[i];
  }
  if (t->dtype != v->dtype)
    return mx_fail(err, MINNX_E_TYPE, "input '%s' is declared %s but the tensor given is %s", v->name,
                   mx_dtype_name(v->dtype), mx_dtype_name(t->dtype));
  if (!mx_shapes_compatible(&v->shape, &sh))
    return mx_fail(err, MINNX_E_SHAPE, "input '%s' is declared with shape %s but the tensor given has shape %s", v->name,
                   mx_shape_str(&v->shape, a, sizeof a), mx_shape_str(&sh, b, sizeof b));
  size_t bytes = mx_shape_bytes(&sh, t->dtype);
  if (bytes == SIZE_MAX) return mx_fail(err, MINNX_E_LIMIT, "input '%s': its size overflows", v->name);
  if (t->nbytes != bytes || (bytes && !t->data))
    return mx_fail(err, MINNX_E_ARG, "input '%s': the tensor has %zu bytes of data, its shape needs %zu", v->name,
                   t->nbytes, bytes);
  s->data[id] = t->data;
  s->bound[index] = 1;
  if (memcmp(&s->shapes[id], &sh, sizeof sh) != 0) {
    s->shapes[id] = sh;
    s->planned = 0;
  }
  s->ran = 0;
  return MINNX_OK;
}

minnx_status minnx_session_bind_input_name(minnx_session *s, const char *name, const minnx_tensor *t, minnx_error *err) {
  if (!s || !name) return mx_fail(err, MINNX_E_ARG, "minnx_session_bind_input_name: NULL argument");
  const mx_graph *g = &s->m->g;
  for (int32_t i = 0; i < g->n_inputs; i++)
    if (strcmp(g->values[g->inputs[i]].name, name) == 0) return minnx_session_bind_input(s, (size_t)i, t, err);
  return mx_fail(err, MINNX_E_ARG, "the model has no input named '%s'", name);
}

/* Inputs sharing a dim_param must agree on its value. */
static minnx_status check_symbols(minnx_session *s, mx_err *err) {
  const mx_graph *g = &s->m->g;
  for (int32_t k = 0; k < g->n_syms; k++) s->sym_values[k] = -1;
  for (int32_t i = 0; i < g->n_inputs; i++) {
    const mx_value *v = &g->values[g->inputs[i]];
    const mx_shape *sh = &s->shapes[g->inputs[i]];
    for (int d = 0; d < sh->rank && d < MX_MAX_RANK; d++) {
      int32_t sym = v->dim_sym[d];
      if (sym < 0) continue;
      if (s->sym_values[sym] >= 0 && s->sym_values[sym] != sh->dims[d])
        return mx_fail(err, MINNX_E_SHAPE, "input '%s': dim %d is %lld but the same symbolic dim is %lld in another input",
                       v->name, d, (long long)sh->dims[d], (long long)s->sym_values[sym]);
      s->sym_values[sym] = sh->dims[d];
    }
  }
  return MINNX_OK;
}

minnx_status minnx_session_run(minnx_session *s, minnx_error *err) {
  if (!s) return mx_fail(err, MINNX_E_ARG, "minnx_session_run: NULL argument");
  const mx_graph *g = &s->m->g;
  s->ran = 0;
  for (int32_t i = 0; i < g->n_inputs; i++)
    if (!s->bound[i] && !g->values[g->inputs[i]].data)
      return mx_fail(err, MINNX_E_ARG, "input '%s' is not bound", g->values[g->inputs[i]].name);
  if (!s->planned) {
    minnx_status st = check_symbols(s, err);
    if (!st) st = mx_mem_status(&s->mem, plan_session(s, err), err);
    if (st) return st;
  }
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    if (s->empty[i]) continue;
    for (int32_t k = 0; k < n->n_inputs; k++) s->in_ptrs[k] = s->data[n->inputs[k]];
    n->schema->eval(s->node_plans[i], s->in_ptrs, (void *)s->data[n->outputs[0]]);
  }
  s->ran = 1;
  return MINNX_OK;
}

minnx_status minnx_session_output(const minnx_session *s, size_t index, minnx_tensor *out) {
  if (!s || !out) return MINNX_E_ARG;
  const mx_graph *g = &s->m->g;
  if (index >= (size_t)g->n_outputs || !s->ran) return MINNX_E_ARG;
  int32_t id = g->outputs[index];
  const mx_shape *sh = &s->shapes[id];
  memset(out, 0, sizeof *out);
  out->dtype = s->dtypes[id];
  out->rank = sh->rank;
  memcpy(out->dims, sh->dims, sizeof out->dims);
  out->data = (void *)s->data[id];
  out->nbytes = mx_shape_bytes(sh, out->dtype);
  return MINNX_OK;
}

size_t minnx_session_arena_size(const minnx_session *s) { return s && s->planned ? s->plan.arena_size : 0; }
size_t minnx_session_values_size(const minnx_session *s) { return s && s->planned ? s->plan.values_size : 0; }
