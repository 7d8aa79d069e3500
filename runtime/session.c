/* Sessions: concrete shapes, the arena plan, the kernels' params, and the executor
 * loop. Everything a run touches is allocated before it; a run allocates
 * nothing. */
#include <string.h>

#include "graph/shape.h"
#include "ops/core/infer.h"
#include "ops/core/registry.h"
#include "runtime/model.h"
#include "runtime/threads.h"

struct minnx_session {
  const minnx_model *m;
  /* All of a session's memory: this struct and its arrays at the bottom, then
   * the arena; the planner's temporaries at the top while it runs. */
  mx_region r;
  size_t mark;            /* r.lo after the arrays: where the arena starts */
  mx_mem heap;            /* minnx_session_create's hooks and max_memory, this session's count */
  void *block;            /* minnx_session_create: the block r spans */
  void *heap_arena;       /* minnx_session_create: an arena re-planned beyond the block */
  mx_shape *shapes;       /* concrete shapes by value id */
  mx_dtype *dtypes;
  const void **data;      /* where each value's bytes are, once planned/bound; a view's: see mx_bytes_of */
  unsigned char *bound;   /* per graph input: BOUND since creation, 0 never tried, or BIND_FAILED | the status of its
                           * last bind, which failed (none succeeded): the run's error then names that cause */
  int64_t *sym_values;    /* dim_param bindings, checked across inputs */
  mx_node_bufs bufs;      /* one node's infer/prepare context */
  const void **in_ptrs;   /* one node's eval arguments */
  void **out_ptrs;
  void **node_params;      /* each node's params; NULL: the node does not run (mx_prep) */
  unsigned char *params_mem;
  size_t *scratch;        /* per node: the scratch bytes its prepare asked for */
  mx_exec exec;
  int fault;              /* a kernel's report during the run (mx_fault) */
  mx_plan plan;           /* a planned model's (shared offsets), or the session's own */
  unsigned char *arena;
  mx_threads threads;     /* how nodes run the tasks they split into */
  size_t arena_mark;      /* r.lo where the arena starts: after the bind memory of a session in caller memory */
  size_t plans;           /* plans made (minnx_session_plan_count) */
  /* A model whose shapes read graph inputs' bytes (an If's cond from `sr`, a
   * Loop's M): which inputs they read (per graph input: 1), then their bytes
   * at the last plan, sized at create for the inputs' declared shapes; NULL
   * when they are not kept. A run whose read inputs have those bytes again
   * (and the same shapes) keeps the plan. */
  unsigned char *reads;
#if MX_OPS_SHAPES
  /* Values computed when the inputs are bound (MX_VALUE_BIND): in r after
   * the arrays for a session in caller memory; for one on the hooks in a
   * block of their own (the region is sized for the planner's temporaries),
   * grown to bind_want when they outgrow it. */
  mx_region bindr;
  void *bind_block;
  size_t bind_want;
#endif
#ifndef MX_NO_NODE_HOOK
  minnx_node_hook hook; /* minnx_session_set_node_hook's */
  void *hook_user;
#endif
  unsigned char planned;      /* the plan matches the bound input shapes */
  unsigned char ran;
  unsigned char last_read_ok; /* reads holds the current plan's bytes */
};

enum { BOUND = 1, BIND_FAILED = 0x80 };

/* The arena: in the session's region when it fits; else, for a session on
 * the hooks, from them (dims bound larger than the block was sized for). */
static minnx_status place_arena(minnx_session *s, mx_err *err) {
  size_t bytes = s->plan.arena_size;
  mx_region_reset(&s->r, s->arena_mark);
  s->arena = mx_region_alloc_aligned(&s->r, bytes, MX_REGION_ALIGN);
  if (s->arena) {
    mx_mem_free(&s->heap, s->heap_arena);
    s->heap_arena = NULL;
    return MINNX_OK;
  }
  if (!s->block)
    return mx_fail(err, MINNX_E_NOMEM, "the session's memory has %zu bytes left for an arena of %zu bytes",
                   s->r.size - s->arena_mark, bytes);
  /* the old arena goes first, so that max_memory need not hold both */
  mx_mem_free(&s->heap, s->heap_arena);
  s->heap_arena = bytes <= SIZE_MAX - MX_ARENA_ALIGN ? mx_mem_alloc(&s->heap, bytes + MX_ARENA_ALIGN) : NULL;
  if (!s->heap_arena)
    return mx_mem_status(&s->heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for an arena of %zu bytes", bytes), err);
  /* over-allocated by the alignment so that every offset lands on a 64-byte boundary */
  uintptr_t p = (uintptr_t)s->heap_arena;
  s->arena = (unsigned char *)((p + MX_ARENA_ALIGN - 1) & ~(uintptr_t)(MX_ARENA_ALIGN - 1));
  return MINNX_OK;
}

#if MX_OPS_SHAPES
/* Bind memory for a value computed at bind, or a node's scratch while it
 * computes one. */
static void *bind_alloc(minnx_session *s, size_t bytes) {
  mx_region *r = s->block ? &s->bindr : &s->r;
  void *p = bytes <= SIZE_MAX / 4 ? mx_region_alloc_aligned(r, bytes, MX_REGION_ALIGN) : NULL;
  if (!p && s->block && bytes <= SIZE_MAX / 4) {
    size_t want = mx_region_after(r->lo, bytes, MX_REGION_ALIGN);
    if (want > s->bind_want) s->bind_want = want;
  }
  return p;
}

/* mx_prep.bind: node i's outputs computed from shapes and constants, once
 * for the shapes bound, by the node's own kernel (c: its context, prepared
 * into params). What the kernel reads is in c->in_data: constants, or
 * values computed at bind before it. */
static minnx_status bind_node(void *ctx, int32_t i, mx_op_ctx *c, void *params) {
  minnx_session *s = ctx;
  const mx_graph *g = &s->m->g;
  const mx_node *n = &g->nodes[i];
  for (int32_t k = 0; k < n->n_outputs; k++) {
    int32_t v = n->outputs[k];
    s->out_ptrs[k] = NULL;
    if (v < 0 || g->values[v].kind != MX_VALUE_BIND) continue;
    size_t bytes = mx_shape_bytes(&c->out[k], c->out_dtype[k]);
    if (bytes == SIZE_MAX)
      return mx_op_fail(c, MINNX_E_SHAPE, "the shape of output '%s' is not known after binding the inputs", g->values[v].name);
    if (!(s->out_ptrs[k] = bind_alloc(s, bytes)))
      return mx_op_fail(c, MINNX_E_NOMEM, "the session's memory has no room for the %zu bytes of '%s', computed when "
                        "the inputs are bound", bytes, g->values[v].name);
    s->data[v] = s->out_ptrs[k];
  }
  if (!params) return MINNX_OK; /* empty outputs */
  int fault = MX_FAULT_NONE;
  mx_exec x = {NULL, NULL, c->scratch ? bind_alloc(s, c->scratch) : NULL, &fault};
  if (c->scratch && !x.scratch)
    return mx_op_fail(c, MINNX_E_NOMEM, "the session's memory has no room for its %zu bytes of scratch", c->scratch);
  n->row->eval(&x, params, c->in_data, s->out_ptrs);
  if (fault)
    return mx_op_fail(c, MINNX_E_MODEL, "an index in the data is out of range of its axis (computed when the inputs "
                      "were bound)");
  return MINNX_OK;
}
#endif

/* Infers concrete shapes, computes the values known at bind, plans the arena
 * (unless the model planned it) and prepares every kernel. */
static minnx_status plan_once(minnx_session *s, mx_err *err) {
  const mx_graph *g = &s->m->g;
  for (int32_t v = 0; v < g->n_values; v++)
    if (g->values[v].kind == MX_VALUE_NODE || (MX_OPS_SHAPES && g->values[v].kind == MX_VALUE_BIND)) {
      s->shapes[v] = g->values[v].shape; /* declared or load-time inferred; refined below */
      s->dtypes[v] = g->values[v].dtype;
    }
  size_t off = 0;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    s->node_params[i] = s->params_mem + off;
    off += mx_params_size(&g->nodes[i]);
#if MX_OPS_PACKED
    if (!s->m->weights_in_place) off += mx_packed_size(g, &g->nodes[i]); /* the node's packed weights (api.c) */
#endif
  }
  /* Prepare runs in there, node by node; on the same shapes as at load (a
   * planned model) it asks for the same scratch. */
  mx_prep prep = {.params = s->node_params, .scratch = s->scratch, .data = s->data, .isa = (mx_isa)s->m->isa};
#if MX_OPS_PACKED
  prep.packed = !s->m->weights_in_place;
#endif
  mx_region_reset(&s->r, s->mark); /* the old arena's and bind memory's bytes are free again */
#if MX_OPS_SHAPES
  prep.bind = bind_node;
  prep.bind_ctx = s;
  mx_region_reset(&s->bindr, 0);
#endif
  minnx_status st = mx_infer(g, NULL, NULL, s->shapes, s->dtypes, &s->bufs, &prep, err);
  if (st) return st;
  s->arena_mark = s->r.lo;
  for (int32_t v = 0; v < g->n_values; v++) {
    if (!mx_shape_known(&s->shapes[v]))
      return mx_fail(err, MINNX_E_SHAPE, "the shape of value '%s' is not known after binding the inputs", g->values[v].name);
    /* Kernels multiply dims (rows before an axis, after it): with the
     * element count representable, no such product overflows. A graph input
     * is not in the arena, so the planner does not see it: a declared
     * [2, INT64_MAX] would otherwise reach them. */
    if (mx_shape_count(&s->shapes[v]) < 0)
      return mx_fail(err, MINNX_E_LIMIT, "value '%s' is too large: its element count overflows int64", g->values[v].name);
  }
  if (!s->m->planned) {
    minnx_allocator temp = mx_region_temp_allocator(&s->r);
    if ((st = mx_plan_arena(g, s->shapes, s->dtypes, s->scratch, &temp, &s->plan, err))) return st;
  }
  if ((st = place_arena(s, err))) return st;
  for (int32_t v = 0; v < g->n_values; v++) {
    const mx_value *val = &g->values[v];
    if (s->plan.offsets[v] != SIZE_MAX) s->data[v] = s->arena + s->plan.offsets[v];
    else if (val->kind == MX_VALUE_INITIALIZER) s->data[v] = val->data;
  }
  s->planned = 1;
  return MINNX_OK;
}

static minnx_status plan_session(minnx_session *s, mx_err *err) {
  s->plans++;
  if (MX_OPS_DATA) s->last_read_ok = 0;
  minnx_status st = plan_once(s, err);
#if MX_OPS_SHAPES
  /* a session on the hooks: its bind memory grows (new shapes may allocate) */
  while (st == MINNX_E_NOMEM && s->block && s->bindr.exhausted) {
    size_t want = s->bind_want > SIZE_MAX / 2 - MX_REGION_ALIGN ? SIZE_MAX : 2 * s->bind_want + MX_REGION_ALIGN;
    mx_mem_free(&s->heap, s->bind_block);
    s->bind_block = want == SIZE_MAX ? NULL : mx_mem_alloc(&s->heap, want);
    mx_region_init(&s->bindr, s->bind_block, s->bind_block ? want : 0);
    if (!s->bind_block)
      return mx_mem_status(&s->heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for %zu bytes of values computed "
                                             "when the inputs are bound", want), err);
    st = plan_once(s, err);
  }
#endif
  return st;
}

/* The session's arrays, in the order they are carved from its region. */
enum {
  A_SHAPES, A_DTYPES, A_DATA, A_OFFSETS, A_SCRATCH, A_BOUND, A_SYMS, A_BUFS, A_PTRS, A_NODE_PARAMS, A_PARAMS_MEM,
  A_READS, A_COUNT
};

/* The bytes of the graph inputs read when bound, as declared; 0 when the
 * model reads none, or one has a shape not known until bound, or they are
 * large (then each run plans again). */
static size_t read_bytes(const minnx_model *m) {
  const mx_graph *g = &m->g;
  size_t total = 0;
  if (!(MX_OPS_DATA && m->shapes_read_inputs)) return 0;
  for (int32_t i = 0; i < g->n_inputs; i++) {
    const mx_value *v = &g->values[g->inputs[i]];
    if (!mx_input_read_at_bind(g, g->inputs[i])) continue;
    size_t b = mx_shape_known(&v->shape) ? mx_shape_bytes(&v->shape, v->dtype) : SIZE_MAX;
    if (b > 4096 || (total += b) > 4096) return 0;
  }
  return total;
}

static void array_sizes(const minnx_model *m, size_t size[A_COUNT]) {
  const mx_graph *g = &m->g;
  size_t nv = (size_t)g->n_values, nn = (size_t)g->n_nodes;
  size_t ni = (size_t)(m->max_node_inputs ? m->max_node_inputs : 1), no = (size_t)(m->max_node_outputs ? m->max_node_outputs : 1);
  size[A_SHAPES] = nv * sizeof(mx_shape);
  size[A_DTYPES] = nv * sizeof(mx_dtype);
  size[A_DATA] = nv * sizeof(void *);
  size[A_OFFSETS] = m->planned ? 0 : (nv + nn) * sizeof(size_t); /* values', then scratch; a planned model's are shared */
  size[A_SCRATCH] = nn * sizeof(size_t);
  size[A_BOUND] = (size_t)g->n_inputs;
  size[A_SYMS] = (size_t)g->n_syms * sizeof(int64_t);
  size[A_BUFS] = mx_node_bufs_carve(NULL, NULL, m->max_node_inputs, m->max_node_outputs);
  size[A_PTRS] = (ni + no) * sizeof(void *); /* a node's inputs, then its outputs */
  size[A_NODE_PARAMS] = nn * sizeof(void *);
  size[A_PARAMS_MEM] = m->params_bytes;
  size_t rb = read_bytes(m);
  size[A_READS] = rb ? (size_t)g->n_inputs + rb : 0; /* the flags, then the bytes */
}

/* The kernels' params and the arena start on a cache line; the rest needs C alignment. */
static size_t array_align(int i) { return i == A_PARAMS_MEM ? MX_REGION_ALIGN : MX_REGION_TEMP_ALIGN; }

/* The session's region offset after its struct and arrays. */
static size_t arrays_end(const minnx_model *m) {
  size_t size[A_COUNT], lo = mx_region_after(0, sizeof(minnx_session), MX_REGION_TEMP_ALIGN);
  array_sizes(m, size);
  for (int i = 0; i < A_COUNT; i++) lo = mx_region_after(lo, size[i], array_align(i));
  return lo;
}

size_t minnx_session_memory_needed(const minnx_model *m) {
  if (!m) return 0;
  size_t lo = arrays_end(m);
  /* A planned model's arena is known; otherwise the planner's temporaries
   * are, and the arena comes on top once the shapes are bound. */
  if (m->planned) return mx_region_after(lo, m->plan.arena_size, MX_REGION_ALIGN);
  size_t temps = mx_plan_temp_bytes(&m->g);
  return lo > SIZE_MAX - temps ? SIZE_MAX : lo + temps;
}

/* Builds a session in region r; heap and block are set for minnx_session_create. */
static minnx_status create(const minnx_model *m, mx_region *r, const mx_mem *heap, void *block,
                           minnx_session **out, mx_err *err) {
  const mx_graph *g = &m->g;
  size_t size[A_COUNT];
  void *part[A_COUNT];
  array_sizes(m, size);
  minnx_session *s = mx_region_alloc_aligned(r, sizeof *s, MX_REGION_TEMP_ALIGN);
  int ok = s != NULL;
  if (s) {
    s->r = *r;
    for (int i = 0; i < A_COUNT && ok; i++) ok = (part[i] = mx_region_alloc_aligned(&s->r, size[i], array_align(i))) != NULL;
  }
  if (!ok)
    return mx_fail(err, MINNX_E_NOMEM, "the memory given (%zu usable bytes) is too small for a session of this model, "
                   "which needs %zu (minnx_session_memory_needed)", r->size, minnx_session_memory_needed(m));
  s->m = m;
  s->threads.count = 1;
  s->mark = s->arena_mark = s->r.lo;
  if (heap) s->heap = *heap;
  s->block = block;
  s->shapes = part[A_SHAPES];
  s->dtypes = part[A_DTYPES];
  s->data = part[A_DATA];
  s->bound = part[A_BOUND];
  s->sym_values = part[A_SYMS];
  mx_node_bufs_carve(&s->bufs, part[A_BUFS], m->max_node_inputs, m->max_node_outputs);
  s->in_ptrs = part[A_PTRS];
  s->out_ptrs = (void **)s->in_ptrs + (m->max_node_inputs ? m->max_node_inputs : 1);
  s->node_params = part[A_NODE_PARAMS];
  s->scratch = part[A_SCRATCH];
  s->params_mem = part[A_PARAMS_MEM];
#if MX_OPS_DATA /* (a firmware without shape-reading ops keeps none: its core stays as it was) */
  s->reads = size[A_READS] ? part[A_READS] : NULL;
  for (int32_t i = 0; s->reads && i < g->n_inputs; i++) s->reads[i] = (unsigned char)mx_input_read_at_bind(g, g->inputs[i]);
#else
  s->reads = NULL;
#endif
  if (m->planned) {
    s->plan = m->plan;
  } else {
    s->plan.offsets = part[A_OFFSETS];
    s->plan.scratch = s->plan.offsets + g->n_values;
  }
  int known = 1;
  for (int32_t v = 0; v < g->n_values; v++) {
    s->shapes[v] = g->values[v].shape;
    s->dtypes[v] = g->values[v].dtype;
    if (g->values[v].kind == MX_VALUE_INPUT) {
      s->data[v] = g->values[v].data; /* an input with an initializer has a default */
      known &= mx_shape_known(&s->shapes[v]);
    }
  }
  if (known && !(MX_OPS_DATA && m->shapes_read_inputs)) { /* such shapes wait for the inputs' bytes */
    minnx_status st = plan_session(s, err);
    if (st) return st;
  } else if (m->planned) {
    /* shapes that read inputs' bytes but were all known at load (declared)
     * cannot change: the arena is the model's, reserved now so that a region
     * too small is refused here rather than at the first run */
    minnx_status st = place_arena(s, err);
    if (st) return st;
  }
  *out = s;
  return MINNX_OK;
}

minnx_status minnx_session_create_in(const minnx_model *m, void *mem, size_t size, minnx_session **out,
                                     minnx_error *err) {
  if (!m || !out || (!mem && size)) return mx_fail(err, MINNX_E_ARG, "minnx_session_create_in: NULL argument");
  *out = NULL;
  mx_region r;
  mx_region_init(&r, mem, size);
  return create(m, &r, NULL, NULL, out, err);
}

minnx_status minnx_session_create(const minnx_model *m, minnx_session **out, minnx_error *err) {
  if (!m || !out) return mx_fail(err, MINNX_E_ARG, "minnx_session_create: NULL argument");
  *out = NULL;
  mx_mem heap;
  mx_mem_init(&heap, &m->mem.a, m->mem.cap);
  size_t need = minnx_session_memory_needed(m);
  /* the hooks promise alignment for C types only: room to align the region */
  void *block = need <= SIZE_MAX - MX_REGION_ALIGN ? mx_mem_alloc(&heap, need + MX_REGION_ALIGN) : NULL;
  if (!block && m->planned)
    return mx_mem_status(&heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for an arena of %zu bytes (the session needs %zu in all)",
                                        m->plan.arena_size, need), err);
  if (!block)
    return mx_mem_status(&heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for the session (%zu bytes)", need), err);
  mx_region r;
  mx_region_init(&r, block, need + MX_REGION_ALIGN);
  minnx_status st = create(m, &r, &heap, block, out, err);
  if (st) mx_mem_free(&heap, block);
  return st;
}

void minnx_session_free(minnx_session *s) {
  if (!s || !s->block) return; /* caller memory: nothing of minnx's to give back */
  mx_threads_stop(&s->threads, &s->heap);
  mx_mem heap = s->heap;
  void *block = s->block;
  mx_mem_free(&heap, s->heap_arena);
#if MX_OPS_SHAPES
  mx_mem_free(&heap, s->bind_block);
#endif
  mx_mem_free(&heap, block); /* s lives in it */
}

/* bind and check_symbols have two callers: a run's path, and the dry run of
 * minnx_session_memory_needed_for, a host's call that a firmware does not
 * link. Inlined into each, as when they had one, a firmware's core keeps its
 * size (as separate functions they cost it about 100 bytes of calls). */
#if defined(__GNUC__) || defined(__clang__)
#define INLINE_EACH static inline __attribute__((always_inline))
#else
#define INLINE_EACH static
#endif

INLINE_EACH minnx_status bind(minnx_session *s, size_t index, const minnx_tensor *t, minnx_error *err) {
  const mx_graph *g = &s->m->g;
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
  s->bound[index] = BOUND;
  if (memcmp(&s->shapes[id], &sh, sizeof sh) != 0) {
    s->shapes[id] = sh;
    s->planned = 0;
  }
  s->ran = 0;
  return MINNX_OK;
}

minnx_status minnx_session_bind_input(minnx_session *s, size_t index, const minnx_tensor *t, minnx_error *err) {
  if (!s || !t) return mx_fail(err, MINNX_E_ARG, "minnx_session_bind_input: NULL argument");
  if (index >= (size_t)s->m->g.n_inputs)
    return mx_fail(err, MINNX_E_ARG, "input index %zu is out of range: the model has %d inputs", index,
                   (int)s->m->g.n_inputs);
  minnx_status st = bind(s, index, t, err);
  /* A run that finds the input unbound says why, even when the caller did not look at this status (a build
   * without messages has only the bind's status to say it, which the bind gave: its run says "not bound"). */
#ifndef MX_NO_MESSAGES
  if (st && s->bound[index] != BOUND) s->bound[index] = (unsigned char)(BIND_FAILED | st);
#endif
  return st;
}

minnx_status minnx_session_bind_input_name(minnx_session *s, const char *name, const minnx_tensor *t, minnx_error *err) {
  if (!s || !name) return mx_fail(err, MINNX_E_ARG, "minnx_session_bind_input_name: NULL argument");
  const mx_graph *g = &s->m->g;
  for (int32_t i = 0; i < g->n_inputs; i++)
    if (strcmp(g->values[g->inputs[i]].name, name) == 0) return minnx_session_bind_input(s, (size_t)i, t, err);
  return mx_fail(err, MINNX_E_ARG, "the model has no input named '%s'", name);
}

/* Inputs sharing a dim_param must agree on its value. */
INLINE_EACH minnx_status check_symbols(minnx_session *s, mx_err *err) {
  const mx_graph *g = &s->m->g;
  for (int32_t k = 0; k < g->n_syms; k++) s->sym_values[k] = -1;
  for (int32_t i = 0; i < g->n_inputs; i++) {
    const mx_value *v = &g->values[g->inputs[i]];
    const mx_shape *sh = &s->shapes[g->inputs[i]];
    for (int d = 0; d < sh->rank && d < MX_MAX_RANK && v->syms; d++) {
      int32_t sym = g->dim_syms[(size_t)(v->syms - 1) * MX_MAX_RANK + (size_t)d];
      if (sym < 0) continue;
      if (s->sym_values[sym] >= 0 && s->sym_values[sym] != sh->dims[d])
        return mx_fail(err, MINNX_E_SHAPE, "input '%s': dim %d is %lld but the same symbolic dim is %lld in another input",
                       v->name, d, (long long)sh->dims[d], (long long)s->sym_values[sym]);
      s->sym_values[sym] = sh->dims[d];
    }
  }
  return MINNX_OK;
}

/* One dry run of minnx_session_memory_needed_for in a region of `size` bytes from the hooks: its peak. */
static minnx_status dry_run(const minnx_model *m, const minnx_tensor *inputs, mx_mem *heap, size_t size,
                            size_t *peak, int *short_of, mx_err *err) {
  void *mem = mx_mem_alloc(heap, size + MX_REGION_ALIGN);
  *short_of = 0;
  *peak = 0;
  if (!mem) return mx_mem_status(heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for a dry run of %zu bytes", size), err);
  mx_region r;
  mx_region_init(&r, mem, size + MX_REGION_ALIGN);
  minnx_session *s = NULL;
  minnx_status st = create(m, &r, NULL, NULL, &s, err);
  *short_of = st == MINNX_E_NOMEM; /* in a region: it was too small */
  for (int32_t i = 0; i < m->g.n_inputs && !st; i++) {
    minnx_tensor t = inputs[i];
    /* the bytes are not read unless shapes read them: any valid pointer will do */
    if (!t.data && !(MX_OPS_DATA && m->shapes_read_inputs) && t.rank >= 0 && t.rank <= MX_MAX_RANK) {
      mx_shape sh = {.rank = t.rank};
      for (int d = 0; d < t.rank; d++) sh.dims[d] = t.dims[d] < 0 ? 0 : t.dims[d];
      t.data = mem, t.nbytes = mx_shape_bytes(&sh, t.dtype);
    }
    st = bind(s, (size_t)i, &t, err);
  }
  if (!st) st = check_symbols(s, err);
  if (!st) st = plan_session(s, err);
  if (s) *short_of = s->r.exhausted;
  *peak = s ? s->r.peak : 0;
  mx_mem_free(heap, mem);
  return st;
}

minnx_status minnx_session_memory_needed_for(const minnx_model *m, const minnx_tensor *inputs, size_t n, size_t *bytes,
                                             minnx_error *err) {
  if (!m || !bytes || (n && !inputs)) return mx_fail(err, MINNX_E_ARG, "minnx_session_memory_needed_for: NULL argument");
  *bytes = 0;
  if (n != (size_t)m->g.n_inputs)
    return mx_fail(err, MINNX_E_ARG, "%zu tensors given; the model has %d inputs", n, (int)m->g.n_inputs);
  mx_mem heap;
  mx_mem_init(&heap, &m->mem.a, m->mem.cap);
  /* a region large enough, found by doubling, then what the run took of it */
  for (size_t size = minnx_session_memory_needed(m);;) {
    size = size > SIZE_MAX / 4 ? SIZE_MAX : 2 * size + 4096;
    if (size == SIZE_MAX) return mx_fail(err, MINNX_E_LIMIT, "the session would be too large");
    size_t peak;
    int short_of;
    minnx_status st = dry_run(m, inputs, &heap, size, &peak, &short_of, err);
    if (st == MINNX_E_NOMEM && short_of) continue;
    if (!st) *bytes = peak;
    return st;
  }
}

#ifndef MX_NO_MESSAGES
/* What a failed bind's status says of the tensor given (minnx_session_bind_input's checks), for the run's message;
 * TYPE and SHAPE are followed by what was declared. */
static const char *bind_failure(minnx_status st) {
  switch (st) {
  case MINNX_E_TYPE: return "was not of its declared dtype ";
  case MINNX_E_SHAPE: return "did not have its declared shape ";
  case MINNX_E_LIMIT: return "has a size that overflows";
  default: return "had a rank out of range, a negative dim, or not the bytes its shape needs";
  }
}
#endif

/* The error of a run with input i unbound: when it was left so by a failed bind, that bind's status and cause,
 * not a vaguer "not bound". Not inlined where it formats a message: its buffer stays off the run's stack (without
 * messages there is no buffer, and inlined it is smaller). */
#if !defined(MX_NO_MESSAGES) && (defined(__GNUC__) || defined(__clang__))
__attribute__((noinline))
#endif
static minnx_status not_bound(const minnx_session *s, int32_t i, mx_err *err) {
  const mx_value *v = &s->m->g.values[s->m->g.inputs[i]];
#ifdef MX_NO_MESSAGES
  (void)v;
  return mx_fail(err, MINNX_E_ARG, "input '%s' is not bound", v->name);
#else
  if (!s->bound[i]) return mx_fail(err, MINNX_E_ARG, "input '%s' is not bound", v->name);
  minnx_status st = (minnx_status)(s->bound[i] & ~BIND_FAILED);
  char a[96];
  return mx_fail(err, st, "input '%s' is not bound: its bind failed, the tensor given %s%s", v->name, bind_failure(st),
                 st == MINNX_E_TYPE ? mx_dtype_name(v->dtype) : st == MINNX_E_SHAPE ? mx_shape_str(&v->shape, a, sizeof a) : "");
#endif
}

/* A run stopped by node n's fault (mx_fault): the node and what broke. */
static minnx_status run_fault(const minnx_session *s, const mx_node *n, minnx_error *err) {
#if MX_OPS_GRAPHS /* Loop's (only where an op takes a subgraph: a firmware without one is what it was) */
  static const char *const loop[] = {
      "a loop ended by its cond before the M iterations its scan outputs were planned with (minnx plans every "
      "value before a run)",
      "a loop reached minnx's maximum of 1048576 iterations",
      "a loop body's shapes computed from the iteration number differ from those of iteration 0, which minnx "
      "planned (or its values computed from it do not fit)"};
  if (s->fault >= MX_FAULT_LOOP_ROWS && s->fault <= MX_FAULT_LOOP_SHAPE)
    return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d): %s (run stopped)", mx_node_label(&s->m->g, n), n->op_type,
                   n->row->since, loop[s->fault - MX_FAULT_LOOP_ROWS]);
#endif
  return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d): an index in the data is out of range of its axis (run stopped)",
                 mx_node_label(&s->m->g, n), n->op_type, n->row->since);
}

/* Whether the graph inputs read when bound have the bytes the plan was made
 * with (their shapes are the plan's: a new shape unplans at bind). */
static int same_reads(const minnx_session *s) {
  const mx_graph *g = &s->m->g;
  if (!s->reads || !s->last_read_ok) return 0;
  size_t off = (size_t)g->n_inputs;
  for (int32_t i = 0; i < g->n_inputs; i++) {
    if (!s->reads[i]) continue;
    int32_t v = g->inputs[i];
    size_t b = mx_shape_bytes(&s->shapes[v], s->dtypes[v]);
    if (b && memcmp(s->data[v], s->reads + off, b) != 0) return 0;
    off += b;
  }
  return 1;
}

/* Keeps the read inputs' bytes of the plan just made. */
static void keep_reads(minnx_session *s) {
  const mx_graph *g = &s->m->g;
  if (!s->reads) return;
  size_t off = (size_t)g->n_inputs;
  for (int32_t i = 0; i < g->n_inputs; i++) {
    if (!s->reads[i]) continue;
    int32_t v = g->inputs[i];
    size_t b = mx_shape_bytes(&s->shapes[v], s->dtypes[v]);
    if (b) memcpy(s->reads + off, s->data[v], b);
    off += b;
  }
  s->last_read_ok = 1;
}

minnx_status minnx_session_run(minnx_session *s, minnx_error *err) {
  if (!s) return mx_fail(err, MINNX_E_ARG, "minnx_session_run: NULL argument");
  const mx_graph *g = &s->m->g;
  s->ran = 0;
  for (int32_t i = 0; i < g->n_inputs; i++)
    if (s->bound[i] != BOUND && !g->values[g->inputs[i]].data) return not_bound(s, i, err);
  if (!s->planned || (MX_OPS_DATA && s->m->shapes_read_inputs && !same_reads(s))) { /* the bytes shapes depend on changed */
    minnx_status st = check_symbols(s, err);
    if (!st) st = plan_session(s, err);
    if (st) return st;
    if (MX_OPS_DATA) keep_reads(s);
  }
  s->exec.parallel = s->threads.parallel ? mx_threads_run : NULL;
  s->exec.threads = &s->threads;
  s->exec.fault = &s->fault;
  s->fault = MX_FAULT_NONE;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    if (!s->node_params[i]) continue; /* views among them: they share bytes, see s->data */
    for (int32_t k = 0; k < n->n_inputs; k++) s->in_ptrs[k] = n->inputs[k] >= 0 ? s->data[mx_bytes_of(g, n->inputs[k])] : NULL;
    for (int32_t k = 0; k < n->n_outputs; k++) s->out_ptrs[k] = n->outputs[k] >= 0 ? (void *)s->data[n->outputs[k]] : NULL;
    s->exec.scratch = MX_OPS_SCRATCH && s->plan.scratch[i] != SIZE_MAX ? s->arena + s->plan.scratch[i] : NULL;
#ifndef MX_NO_NODE_HOOK
    if (s->hook) s->hook(s->hook_user, (size_t)i);
#endif
    n->row->eval(&s->exec, s->node_params[i], s->in_ptrs, s->out_ptrs);
    if (s->fault) return run_fault(s, n, err);
  }
  s->ran = 1;
#ifndef MX_NO_NODE_HOOK
  if (s->hook) s->hook(s->hook_user, (size_t)g->n_nodes);
#endif
  return MINNX_OK;
}

minnx_status minnx_session_set_node_hook(minnx_session *s, minnx_node_hook hook, void *user, minnx_error *err) {
  if (!s) return mx_fail(err, MINNX_E_ARG, "minnx_session_set_node_hook: NULL session");
#ifndef MX_NO_NODE_HOOK
  s->hook = hook;
  s->hook_user = user;
  return MINNX_OK;
#else
  (void)hook, (void)user;
  return mx_fail(err, MINNX_E_FEATURE, "a build without the node hook (MINNX_NODE_HOOK=OFF)");
#endif
}

minnx_status minnx_session_set_threads(minnx_session *s, size_t threads, minnx_error *err) {
  if (!s) return mx_fail(err, MINNX_E_ARG, "minnx_session_set_threads: NULL argument");
  if (!s->block && threads > 1)
    return mx_fail(err, MINNX_E_ARG, "a session in caller memory allocates nothing, a pool neither: "
                   "give it a parallel-for hook (minnx_session_set_parallel)");
  return mx_threads_start(&s->threads, &s->heap, threads, err);
}

minnx_status minnx_session_set_parallel(minnx_session *s, minnx_parallel_fn parallel, void *workers, size_t threads,
                                        minnx_error *err) {
  if (!s || (parallel && threads == 0))
    return mx_fail(err, MINNX_E_ARG, "minnx_session_set_parallel: NULL session, or a hook for 0 threads");
  mx_threads_stop(&s->threads, &s->heap);
  if (parallel) {
    s->threads.parallel = parallel;
    s->threads.workers = workers;
    s->threads.count = threads;
  }
  return MINNX_OK;
}

minnx_status minnx_session_use_workers(minnx_session *s, const minnx_workers *w, minnx_error *err) {
  if (!s) return mx_fail(err, MINNX_E_ARG, "minnx_session_use_workers: NULL session");
  mx_threads_use(&s->threads, w, &s->heap);
  return MINNX_OK;
}

size_t minnx_session_threads(const minnx_session *s) { return s ? s->threads.count : 0; }

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
  out->data = (void *)s->data[mx_bytes_of(g, id)]; /* a view's are the bytes it shares */
  out->nbytes = mx_shape_bytes(sh, out->dtype);
  return MINNX_OK;
}

size_t minnx_session_arena_size(const minnx_session *s) { return s && s->planned ? s->plan.arena_size : 0; }
size_t minnx_session_values_size(const minnx_session *s) { return s && s->planned ? s->plan.values_size : 0; }
int minnx_session_planned(const minnx_session *s) { return s && s->planned; }
size_t minnx_session_plan_count(const minnx_session *s) { return s ? s->plans : 0; }
