#include "loader/loader.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "graph/prefetch.h"
#include "graph/validate.h"
#include "loader/tensor.h"
#include "loader/unpack.h"
#include "loader/wire.h"
#include "onnx.pb-c.h"

/* ---- value-name interning: open addressing over xxHash ---- */

typedef struct {
  const char *name; /* pool copy */
  int32_t id;
  uint32_t tag; /* the hash's high half: most probes end without a strcmp */
} slot;

typedef struct {
  slot *slots;
  size_t mask;
  uint64_t seed;
} names;

/* The hash is seeded with the table's address: a model crafted so that its
 * names collide under a known seed (making interning quadratic) cannot
 * know this one where addresses are randomized. The table is a temporary:
 * nothing needs it once the IR holds value ids. */
static int names_init(names *t, mx_pool *pool, size_t count) {
  size_t cap = 16;
  while (cap < count * 2) cap *= 2;
  t->slots = mx_pool_temp(pool, cap * sizeof(slot));
  t->mask = cap - 1;
  t->seed = (uint64_t)(uintptr_t)t->slots;
  return t->slots != NULL;
}

static uint64_t names_hash(const names *t, const char *name) { return XXH3_64bits_withSeed(name, strlen(name), t->seed); }

/* Asks for the cache line of `name`'s first slot, a few nodes before the
 * lookup: a graph of a million values has a table of 32 MB, so each probe is
 * otherwise a wait on DRAM (most of the loader's time at that size). Hashing
 * twice costs less than the wait. */
static void names_prefetch(const names *t, const char *name) {
  if (name && name[0]) mx_prefetch(&t->slots[(size_t)names_hash(t, name) & t->mask], 0);
}

/* The slot of `name`: the one holding it, or the empty one where it belongs. */
static slot *names_find(const names *t, const char *name, uint32_t *tag) {
  uint64_t h = names_hash(t, name);
  size_t i = (size_t)h & t->mask;
  *tag = (uint32_t)(h >> 32);
  while (t->slots[i].name && (t->slots[i].tag != *tag || strcmp(t->slots[i].name, name) != 0)) i = (i + 1) & t->mask;
  return &t->slots[i];
}

/* ---- the loader's state ---- */

typedef struct loader {
  mx_pool *pool;
  mx_graph *g;
  const mx_external *ext;
  int in_place; /* initializer bytes used where they are */
  mx_err *err;
  names values;
  names syms;      /* dim_param names; id = symbol number */
  size_t max_syms; /* dims of declared types: a bound on the symbols */
#if MX_OPS_GRAPHS
  /* A subgraph's: the scope enclosing it (NULL for the main graph), its
   * depth, the outer ids of its captures (mx_graph.captures) and their room. */
  struct loader *outer;
  int depth;
  int32_t *outer_ids;
  size_t capture_room;
  mx_op_check_fn check;
  int *named; /* a refusal inside a subgraph named its node already: outer levels add nothing */
#endif
} loader;

/* How deep subgraphs may nest (an If in an If's branch is depth 2). Each
 * level is decoded, inferred and prepared recursively: the bound keeps the
 * C stack in proportion. (The wire check's bound of 32 nested messages
 * stops a model near 9 levels anyway: each level is three messages.) */
#define MX_MAX_GRAPH_DEPTH 6

static minnx_status nomem(loader *L) { return mx_fail(L->err, MINNX_E_NOMEM, "out of memory while loading the model"); }

static const char *normalize_domain(const char *d) {
  return (!d || strcmp(d, "ai.onnx") == 0) ? "" : d;
}

static const char *dup(loader *L, const char *s) {
  if (!s || !s[0]) return ""; /* most node names and domains: no copy each */
  return mx_pool_strndup(L->pool, s, strlen(s));
}

/* An op_type or domain: the previous node's copy when they are the same, as
 * they mostly are (memory per node counts in graphs of a million nodes). */
static const char *dup_like(loader *L, const char *s, const char *prev) {
  return prev && strcmp(prev, s ? s : "") == 0 ? prev : dup(L, s);
}

/* Defines a new value in the empty slot s that names_find gave for name. */
static minnx_status define_at(loader *L, slot *s, uint32_t tag, const char *name, mx_value_kind kind, int32_t *id) {
  mx_graph *g = L->g;
  mx_value *v = &g->values[g->n_values];
  v->name = dup(L, name);
  if (!v->name) return nomem(L);
  v->kind = kind;
  v->shape.rank = -1;
  v->producer = -1;
  v->syms = 0;
  s->name = v->name;
  s->tag = tag;
  s->id = g->n_values;
  *id = g->n_values++;
  return MINNX_OK;
}

/* Defines a graph input or initializer; duplicate names are an error (SSA form). */
static minnx_status define(loader *L, const char *name, mx_value_kind kind, int32_t *id) {
  if (!name || !name[0]) return mx_fail(L->err, MINNX_E_MODEL, "a graph input or initializer has an empty name");
  uint32_t tag;
  slot *s = names_find(&L->values, name, &tag);
  if (s->name) return mx_fail(L->err, MINNX_E_MODEL, "value name '%s' is defined more than once", name);
  return define_at(L, s, tag, name, kind, id);
}

static int32_t lookup(loader *L, const char *name) {
  uint32_t tag;
  slot *s = names_find(&L->values, name, &tag);
  return s->name ? s->id : -1;
}

/* The symbol number of a dim_param, interned on first sight; -1 when out of memory. */
static int32_t symbol(loader *L, const char *param) {
  uint32_t tag;
  slot *s = names_find(&L->syms, param, &tag);
  if (s->name) return s->id;
  /* made on the first symbol, so that models without one keep no bytes for it */
  if (!L->g->sym_names && !(L->g->sym_names = mx_pool_alloc(L->pool, L->max_syms * sizeof(char *)))) return -1;
  if (!(s->name = dup(L, param))) return -1;
  L->g->sym_names[L->g->n_syms] = s->name;
  s->tag = tag;
  s->id = L->g->n_syms;
  return L->g->n_syms++;
}

/* The block of v's dim_params, made on its first; NULL when out of memory. */
static int32_t *sym_block(loader *L, mx_value *v) {
  mx_graph *g = L->g;
  if (!v->syms) {
    /* a value's first dim_param makes its block: there are at most as many as dims declared */
    if (!g->dim_syms && (L->max_syms > SIZE_MAX / (MX_MAX_RANK * sizeof(int32_t)) ||
                         !(g->dim_syms = mx_pool_alloc(L->pool, L->max_syms * MX_MAX_RANK * sizeof(int32_t)))))
      return NULL;
    for (int i = 0; i < MX_MAX_RANK; i++) g->dim_syms[(size_t)g->n_dim_syms * MX_MAX_RANK + (size_t)i] = -1;
    v->syms = ++g->n_dim_syms;
  }
  return &g->dim_syms[(size_t)(v->syms - 1) * MX_MAX_RANK];
}

/* Reads a ValueInfoProto's tensor type into v, dim_params as symbols: a
 * graph input's are bound at run time; elsewhere (outputs, value_info) they
 * are unknown dims whose names tools show. */
static minnx_status read_type(loader *L, const Onnx__ValueInfoProto *vi, mx_value *v, const char *role) {
  const Onnx__TypeProto *tp = vi->type;
  if (tp && tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->value_case != ONNX__TYPE_PROTO__VALUE__NOT_SET)
    return mx_fail(L->err, MINNX_E_FEATURE, "graph %s '%s' has no tensor type but %s, which minnx does not support "
                   "(tensors only)", role, v->name,
                   tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE   ? "a sequence"
                   : tp->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE ? "an optional"
                   : tp->value_case == ONNX__TYPE_PROTO__VALUE_MAP_TYPE      ? "a map"
                                                                             : "a sparse tensor");
#if MX_OPS_GRAPHS
  /* a subgraph's input may leave its type to its node (a Loop body's in ONNX's
   * function expansions): the node's infer gives it; and its output to the
   * inference of the subgraph (exporters leave nested If branches' outputs
   * untyped, as in Silero VAD) */
  if (L->outer && (!tp || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET) &&
      (strcmp(role, "input") == 0 || strcmp(role, "output") == 0))
    return MINNX_OK;
#endif
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
    return mx_fail(L->err, MINNX_E_MODEL, "graph %s '%s' has no tensor type", role, v->name);
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (!tt->has_elem_type || tt->elem_type == MINNX_UNDEFINED)
    return mx_fail(L->err, MINNX_E_MODEL, "graph %s '%s' has no element type", role, v->name);
  if (mx_dtype_size(tt->elem_type) == 0) /* string, complex: a dtype minnx does not implement, as an op it lacks */
    return mx_fail(L->err, MINNX_E_UNSUPPORTED, "graph %s '%s' has dtype %s (%d), which minnx does not support", role,
                   v->name, mx_dtype_name(tt->elem_type), (int)tt->elem_type);
  v->dtype = (mx_dtype)tt->elem_type;
  if (!tt->shape) return MINNX_OK; /* rank unknown */
  if (tt->shape->n_dim > MX_MAX_RANK)
    return mx_fail(L->err, MINNX_E_LIMIT, "graph %s '%s' has rank %zu, above minnx's maximum %d", role, v->name,
                   tt->shape->n_dim, MX_MAX_RANK);
  v->shape.rank = (int)tt->shape->n_dim;
  for (size_t i = 0; i < tt->shape->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    v->shape.dims[i] = MX_DIM_UNKNOWN;
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
      if (d->dim_value < 0)
        return mx_fail(L->err, MINNX_E_MODEL, "graph %s '%s' has negative dim %lld", role, v->name, (long long)d->dim_value);
      v->shape.dims[i] = d->dim_value;
    } else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && d->dim_param && d->dim_param[0]) {
      int32_t *syms = sym_block(L, v);
      if (!syms || (syms[i] = symbol(L, d->dim_param)) < 0) return nomem(L);
    }
  }
  return MINNX_OK;
}

static void *pool_alloc_fn(void *ctx, size_t size) { return mx_pool_alloc(ctx, size); }

/* A tensor attribute's value, decoded (a sparse one densified) into the pool.
 * A refusal names the node and the attribute around the tensor's message. */
static minnx_status read_tensor_attr(loader *L, const Onnx__AttributeProto *ap, mx_attr *a, const char *node) {
  mx_tensor_data td;
  minnx_status st = a->type == MX_ATTR_TENSOR
                        ? mx_tensor_from_proto(ap->t, ap->name, pool_alloc_fn, L->pool, L->ext, L->in_place, &td, L->err)
                        : mx_sparse_from_proto(ap->sparse_tensor, ap->name, pool_alloc_fn, L->pool, L->ext, &td, L->err);
  if (st) return mx_fail_prefix(L->err, st, "node '%s': attribute '%s': ", node, ap->name);
  mx_const *t = mx_pool_alloc(L->pool, sizeof *t);
  if (!t) return nomem(L);
  *t = (mx_const){td.dtype, td.shape, td.data, td.nbytes};
  a->t = t;
  return MINNX_OK;
}

/* A list of strings (the recurrent ops' activations) in one block: each string and its NUL, one after
 * another. */
static minnx_status read_strings(loader *L, const Onnx__AttributeProto *ap, mx_attr *a, const char *node) {
  size_t len = 1;
  for (size_t k = 0; k < ap->n_strings; k++) {
    const ProtobufCBinaryData *b = &ap->strings[k];
    if (b->len && memchr(b->data, 0, b->len))
      return mx_fail(L->err, MINNX_E_MODEL, "node '%s': attribute '%s' holds a NUL byte", node, ap->name);
    len += b->len + 1;
  }
  char *s = mx_pool_alloc(L->pool, len);
  if (!s) return nomem(L);
  a->s = s;
  for (size_t k = 0; k < ap->n_strings; k++) {
    if (ap->strings[k].len) memcpy(s, ap->strings[k].data, ap->strings[k].len);
    s += ap->strings[k].len;
    *s++ = 0;
  }
  *s = 0;
  return MINNX_OK;
}

static minnx_status read_attr(loader *L, const Onnx__AttributeProto *ap, mx_attr *a, const char *node) {
  if (!ap->name || !ap->name[0]) return mx_fail(L->err, MINNX_E_MODEL, "node '%s' has an attribute without a name", node);
  if (ap->ref_attr_name && ap->ref_attr_name[0])
    return mx_fail(L->err, MINNX_E_FEATURE, "node '%s': attribute '%s' refers to a function attribute, which minnx does not support", node, ap->name);
  a->name = dup(L, ap->name);
  if (!a->name) return nomem(L);
  int type = ap->has_type ? (int)ap->type : 0;
  if (!type) { /* IR version 1 models carry no type: take it from the field that is set */
    type = ap->has_f ? MX_ATTR_FLOAT : ap->has_i ? MX_ATTR_INT : ap->has_s ? MX_ATTR_STRING
         : ap->t ? MX_ATTR_TENSOR : ap->g ? MX_ATTR_GRAPH : ap->n_floats ? MX_ATTR_FLOATS
         : ap->n_ints ? MX_ATTR_INTS : ap->n_strings ? MX_ATTR_STRINGS : ap->sparse_tensor ? MX_ATTR_SPARSE_TENSOR : 0;
  }
  if ((type == MX_ATTR_TENSOR && !ap->t) || (type == MX_ATTR_SPARSE_TENSOR && !ap->sparse_tensor))
    return mx_fail(L->err, MINNX_E_FEATURE, "node '%s': attribute '%s' holds no tensor, though its type says so: a type "
                   "minnx does not support without its value", node, ap->name);
  if ((type < MX_ATTR_FLOAT || type > MX_ATTR_STRINGS) && type != MX_ATTR_SPARSE_TENSOR)
    return mx_fail(L->err, MINNX_E_FEATURE, "node '%s': attribute '%s' has a type minnx does not support", node, ap->name);
  a->type = (mx_attr_type)type;
  a->i = ap->i;
  a->f = ap->f;
  if (type == MX_ATTR_STRING) {
    a->s = mx_pool_strndup(L->pool, ap->s.data ? (const char *)ap->s.data : "", ap->s.len);
    if (!a->s) return nomem(L);
    if (strlen(a->s) != ap->s.len)
      return mx_fail(L->err, MINNX_E_MODEL, "node '%s': attribute '%s' holds a NUL byte", node, ap->name);
  } else if (type == MX_ATTR_INTS) {
    int64_t *v = mx_pool_alloc(L->pool, ap->n_ints * sizeof *v);
    if (!v) return nomem(L);
    if (ap->n_ints) memcpy(v, ap->ints, ap->n_ints * sizeof *v);
    a->ints = v;
    a->n = ap->n_ints;
  } else if (type == MX_ATTR_FLOATS) {
    float *v = mx_pool_alloc(L->pool, ap->n_floats * sizeof *v);
    if (!v) return nomem(L);
    if (ap->n_floats) memcpy(v, ap->floats, ap->n_floats * sizeof *v);
    a->floats = v;
    a->n = ap->n_floats;
  } else if (type == MX_ATTR_TENSOR || type == MX_ATTR_SPARSE_TENSOR) {
    return read_tensor_attr(L, ap, a, node);
  } else if (type == MX_ATTR_STRINGS) {
    a->n = ap->n_strings;
    if (MX_OPS_STRINGS) return read_strings(L, ap, a, node);
  }
#if MX_OPS_GRAPHS
  else if (type == MX_ATTR_GRAPH && !ap->g) /* decoded once the graph's names are all known (read_subgraphs) */
    return mx_fail(L->err, MINNX_E_MODEL, "node '%s': attribute '%s' holds no graph, though its type says so", node, ap->name);
#endif
  return MINNX_OK;
}

/* The dims a list of declared types holds (each capped at the maximum rank). */
static size_t declared_dims(Onnx__ValueInfoProto *const *vis, size_t n) {
  size_t dims = 0;
  for (size_t i = 0; i < n; i++) {
    const Onnx__TypeProto *tp = vis[i]->type;
    if (tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && tp->tensor_type && tp->tensor_type->shape)
      dims += tp->tensor_type->shape->n_dim < MX_MAX_RANK ? tp->tensor_type->shape->n_dim : MX_MAX_RANK;
  }
  return dims;
}

/* A graph output's or value_info's declared type: a node output takes it, to
 * be checked against inference (graph/shape.c); an input or initializer must
 * have the dtype declared. */
static minnx_status read_declared(loader *L, const Onnx__ValueInfoProto *vi, int32_t id, const char *role) {
  mx_value *v = &L->g->values[id];
  mx_value declared = *v;
  declared.dtype = MINNX_UNDEFINED;
  declared.shape.rank = -1;
  declared.syms = 0; /* a block of its own, not v's */
  minnx_status st;
  if (vi->type && (st = read_type(L, vi, &declared, role))) return st;
#if MX_OPS_GRAPHS
  if (v->kind == MX_VALUE_INPUT && v->dtype == MINNX_UNDEFINED) return MINNX_OK; /* a capture: typed by its node's infer */
#endif
  if (v->kind == MX_VALUE_NODE && v->dtype == MINNX_UNDEFINED) {
    v->dtype = declared.dtype;
    v->shape = declared.shape;
    v->syms = declared.syms;
  } else if (declared.dtype != MINNX_UNDEFINED && declared.dtype != v->dtype) {
    return mx_fail(L->err, MINNX_E_TYPE, "graph %s '%s' is declared %s but is %s", role, v->name,
                   mx_dtype_name(declared.dtype), mx_dtype_name(v->dtype));
  }
  return MINNX_OK;
}

#if MX_OPS_GRAPHS
/* Names a graph and the subgraphs inside it read (node inputs, graph
 * outputs): a bound on the values it can capture from enclosing scopes. The
 * depth is checked by read_subgraphs; here it only stops the walk. */
static uint64_t count_refs(const Onnx__GraphProto *gp, int depth) {
  uint64_t n = gp->n_output;
  for (size_t i = 0; i < gp->n_node && depth <= MX_MAX_GRAPH_DEPTH; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    n += np->n_input;
    for (size_t k = 0; k < np->n_attribute; k++)
      if (np->attribute[k]->g) n += count_refs(np->attribute[k]->g, depth + 1);
  }
  return n;
}
#endif

/* Bounds every count the graph's arrays are sized by before it sizes an
 * allocation or an int32_t id; gives the values' and the nodes' ids' counts. */
static minnx_status check_counts(loader *L, const Onnx__GraphProto *gp, size_t *values, uint64_t *ids) {
  if (gp->n_node > MX_MAX_NODES)
    return mx_fail(L->err, MINNX_E_LIMIT, "the graph has %zu nodes, above minnx's maximum %d", gp->n_node, MX_MAX_NODES);
  if (gp->n_sparse_initializer)
    return mx_fail(L->err, MINNX_E_FEATURE, "sparse initializers are not supported");
  size_t n_values = gp->n_input + gp->n_initializer;
  uint64_t n_ids = 0; /* every node's outputs and inputs */
  for (size_t i = 0; i < gp->n_node && n_values <= MX_MAX_VALUES; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    if (np->n_output > MX_MAX_NODE_IO || np->n_input > MX_MAX_NODE_IO)
      return mx_fail(L->err, MINNX_E_LIMIT, "node %zu has more than %d inputs or outputs", i, MX_MAX_NODE_IO);
    if (np->n_attribute > MX_MAX_NODE_ATTRS)
      return mx_fail(L->err, MINNX_E_LIMIT, "node %zu has %zu attributes, above minnx's maximum %d", i,
                     np->n_attribute, MX_MAX_NODE_ATTRS);
    n_values += np->n_output;
    n_ids += (uint64_t)np->n_output + np->n_input;
  }
  if (n_values > MX_MAX_VALUES || gp->n_output > MX_MAX_VALUES)
    return mx_fail(L->err, MINNX_E_LIMIT, "the graph has more than %d values or outputs", MX_MAX_VALUES);
  if (gp->n_value_info > MX_MAX_VALUES)
    return mx_fail(L->err, MINNX_E_LIMIT, "the graph has more than %d value_info entries", MX_MAX_VALUES);
  if (n_values > SIZE_MAX / sizeof(mx_value) || gp->n_node > SIZE_MAX / sizeof(mx_node) ||
      n_ids > SIZE_MAX / sizeof(int32_t))
    return nomem(L); /* a 32-bit target: the arrays could not be addressed */
#if MX_OPS_GRAPHS
  if (L->outer) { /* room for the captures: at most one per name the subgraph and those inside it read */
    uint64_t refs = count_refs(gp, 0);
    if (refs > MX_MAX_VALUES || n_values + refs > MX_MAX_VALUES)
      return mx_fail(L->err, MINNX_E_LIMIT, "the subgraph and those inside it read more than %d names", MX_MAX_VALUES);
    L->capture_room = (size_t)refs;
    n_values += (size_t)refs;
  }
#endif
  *values = n_values;
  *ids = n_ids;
  return MINNX_OK;
}

/* The graph's arrays and the name tables, sized by check_counts' figures;
 * *ids: the nodes' id lists, one after the other in one array, so that the
 * passes over every node's inputs (ordering, inference, the planner) read 12
 * bytes a Max node there, not a 16-byte block between two names. */
static minnx_status make_arrays(loader *L, const Onnx__GraphProto *gp, size_t n_values, uint64_t n_ids, int32_t **ids) {
  mx_graph *g = L->g;
  size_t n_dims = declared_dims(gp->input, gp->n_input) + declared_dims(gp->output, gp->n_output) +
                  declared_dims(gp->value_info, gp->n_value_info);
  *ids = mx_pool_alloc(L->pool, (n_ids ? (size_t)n_ids : 1) * sizeof(int32_t));
  g->values = mx_pool_alloc(L->pool, (n_values ? n_values : 1) * sizeof(mx_value));
  g->nodes = mx_pool_alloc(L->pool, (gp->n_node ? gp->n_node : 1) * sizeof(mx_node));
  size_t room = gp->n_input;
#if MX_OPS_GRAPHS
  room += L->capture_room; /* a subgraph's captures follow its inputs */
#endif
  g->inputs = mx_pool_alloc(L->pool, (room ? room : 1) * sizeof(int32_t));
  g->outputs = mx_pool_alloc(L->pool, (gp->n_output ? gp->n_output : 1) * sizeof(int32_t));
  if (!*ids || !g->values || !g->nodes || !g->inputs || !g->outputs || !names_init(&L->values, L->pool, n_values) ||
      !names_init(&L->syms, L->pool, n_dims))
    return nomem(L);
  L->max_syms = n_dims;
#if MX_OPS_GRAPHS
  if (L->outer) {
    L->outer_ids = mx_pool_alloc(L->pool, (L->capture_room ? L->capture_room : 1) * sizeof(int32_t));
    if (!L->outer_ids) return nomem(L);
  }
#endif
  return MINNX_OK;
}

static minnx_status read_initializers(loader *L, const Onnx__GraphProto *gp) {
  for (size_t i = 0; i < gp->n_initializer; i++) {
    const Onnx__TensorProto *t = gp->initializer[i];
    int32_t id;
    mx_tensor_data td;
    minnx_status st = define(L, t->name, MX_VALUE_INITIALIZER, &id);
    if (!st) st = mx_tensor_from_proto(t, t->name, pool_alloc_fn, L->pool, L->ext, L->in_place, &td, L->err);
    if (st) return st;
    mx_value *v = &L->g->values[id];
    v->dtype = td.dtype;
    v->shape = td.shape;
    v->data = td.data;
    v->nbytes = td.nbytes;
  }
  return MINNX_OK;
}

/* A graph input that names an initializer (older IR versions list them as
 * inputs too) becomes an input with a default: its declared dtype must be
 * the initializer's. */
static minnx_status input_with_default(loader *L, const Onnx__ValueInfoProto *vi, mx_value *v) {
  mx_value probe = *v;
  minnx_status st = read_type(L, vi, &probe, "input");
  if (st) return st;
  if (probe.dtype != v->dtype)
    return mx_fail(L->err, MINNX_E_TYPE, "graph input '%s' is declared %s but its initializer is %s", vi->name,
                   mx_dtype_name(probe.dtype), mx_dtype_name(v->dtype));
  v->kind = MX_VALUE_INPUT;
  v->syms = probe.syms;
  return MINNX_OK;
}

/* After the initializers, so that an input of the same name takes their data. */
static minnx_status read_inputs(loader *L, const Onnx__GraphProto *gp) {
  mx_graph *g = L->g;
  for (size_t i = 0; i < gp->n_input; i++) {
    const Onnx__ValueInfoProto *vi = gp->input[i];
    int32_t id = vi->name ? lookup(L, vi->name) : -1;
    minnx_status st;
    if (id >= 0 && g->values[id].kind == MX_VALUE_INPUT)
      return mx_fail(L->err, MINNX_E_MODEL, "graph input '%s' is listed twice", vi->name);
    if (id >= 0) st = input_with_default(L, vi, &g->values[id]);
    else if ((st = define(L, vi->name, MX_VALUE_INPUT, &id)) == MINNX_OK) st = read_type(L, vi, &g->values[id], "input");
    if (st) return st;
    g->inputs[g->n_inputs++] = id;
  }
  return MINNX_OK;
}

/* How far ahead the node loops ask for their names' slots: enough nodes to
 * cover a DRAM latency, few enough that the lines are still there. */
enum { PREFETCH_NODES = 8 };

/* Node i's outputs, each a new value it produces (-1: an omitted optional one). */
static minnx_status define_outputs(loader *L, const Onnx__NodeProto *np, mx_node *n, int32_t i) {
  for (size_t k = 0; k < np->n_output; k++) {
    n->outputs[k] = -1;
    if (!np->output[k] || !np->output[k][0]) continue; /* an omitted optional output */
    uint32_t tag;
    slot *s = names_find(&L->values, np->output[k], &tag);
    if (s->name)
      return mx_fail(L->err, MINNX_E_MODEL, "node '%s' (%s): output '%s' is already defined", n->name, n->op_type, np->output[k]);
    minnx_status st = define_at(L, s, tag, np->output[k], MX_VALUE_NODE, &n->outputs[k]);
    if (st) return st;
    L->g->values[n->outputs[k]].producer = i;
  }
  return MINNX_OK;
}

static minnx_status read_attrs(loader *L, const Onnx__NodeProto *np, mx_node *n) {
  for (size_t k = 0; k < np->n_attribute; k++) {
    minnx_status st = read_attr(L, np->attribute[k], &n->attrs[k], n->name[0] ? n->name : n->op_type);
    if (st) return st;
    for (size_t j = 0; j < k; j++)
      if (strcmp(n->attrs[j].name, n->attrs[k].name) == 0)
        return mx_fail(L->err, MINNX_E_MODEL, "node '%s' (%s) has attribute '%s' twice", n->name, n->op_type, n->attrs[k].name);
  }
  return MINNX_OK;
}

/* Node i, its outputs and attributes; its id lists (outputs then inputs)
 * are the next in *ids, its inputs resolved later (resolve_inputs). */
static minnx_status read_node(loader *L, const Onnx__NodeProto *np, int32_t i, int32_t **ids) {
  mx_node *n = &L->g->nodes[i];
  const mx_node *prev = i ? n - 1 : NULL;
  n->name = dup(L, np->name);
  n->op_type = dup_like(L, np->op_type, prev ? prev->op_type : NULL);
  n->domain = dup_like(L, normalize_domain(np->domain), prev ? prev->domain : NULL);
  n->outputs = *ids;
  n->inputs = *ids + np->n_output;
  *ids += np->n_output + np->n_input;
  n->attrs = np->n_attribute ? mx_pool_alloc(L->pool, np->n_attribute * sizeof(mx_attr)) : NULL; /* none: no block */
  if (!n->name || !n->op_type || !n->domain || (np->n_attribute && !n->attrs)) return nomem(L);
  if (!n->op_type[0]) return mx_fail(L->err, MINNX_E_MODEL, "node %d ('%s') has no op_type", (int)i, n->name);
  n->n_outputs = (int32_t)np->n_output;
  n->n_inputs = (int32_t)np->n_input;
  n->n_attrs = (int32_t)np->n_attribute;
  L->g->n_nodes++;
  minnx_status st = define_outputs(L, np, n, i);
  return st ? st : read_attrs(L, np, n);
}

/* Every node's outputs are defined before any node input is resolved, so
 * that the file's node order does not matter; validation orders them afterwards. */
static minnx_status read_nodes(loader *L, const Onnx__GraphProto *gp, int32_t *ids) {
  for (size_t i = 0; i < gp->n_node; i++) {
    if (i + PREFETCH_NODES < gp->n_node) {
      const Onnx__NodeProto *ahead = gp->node[i + PREFETCH_NODES];
      for (size_t k = 0; k < ahead->n_output; k++) names_prefetch(&L->values, ahead->output[k]);
    }
    minnx_status st = read_node(L, gp->node[i], (int32_t)i, &ids);
    if (st) return st;
  }
  return MINNX_OK;
}

/* A name a node or an output of the graph reads: the graph's own value, or
 * (a subgraph) one of an enclosing scope, the nearest first (lexical scope:
 * inner names shadow outer ones), captured as an input of the graph. -1: not
 * defined anywhere; -2: refused (L->err says why). */
static int32_t resolve(loader *L, const char *name, minnx_status *st) {
  int32_t id = lookup(L, name);
  (void)st;
#if MX_OPS_GRAPHS
  if (id >= 0 || !L->outer) return id;
  int32_t outer = resolve(L->outer, name, st);
  if (outer < 0) return outer;
  if ((size_t)L->g->n_captures >= L->capture_room) { /* count_refs bounds them: never */
    *st = mx_fail(L->err, MINNX_E_LIMIT, "subgraph reads more outer names than counted");
    return -2;
  }
  if ((*st = define(L, name, MX_VALUE_INPUT, &id))) return -2;
  L->outer_ids[L->g->n_captures] = outer;
  L->g->inputs[L->g->n_inputs + L->g->n_captures++] = id; /* the declared inputs are all read by now */
#endif
  return id;
}

static minnx_status resolve_inputs(loader *L, const Onnx__GraphProto *gp) {
  for (size_t i = 0; i < gp->n_node; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    mx_node *n = &L->g->nodes[i];
    if (i + PREFETCH_NODES < gp->n_node) {
      const Onnx__NodeProto *ahead = gp->node[i + PREFETCH_NODES];
      for (size_t k = 0; k < ahead->n_input; k++) names_prefetch(&L->values, ahead->input[k]);
    }
    for (size_t k = 0; k < np->n_input; k++) {
      n->inputs[k] = -1;
      if (!np->input[k] || !np->input[k][0]) continue; /* an omitted optional input */
      minnx_status st = MINNX_OK;
      n->inputs[k] = resolve(L, np->input[k], &st);
      if (st) return st;
      if (n->inputs[k] < 0)
        return mx_fail(L->err, MINNX_E_MODEL, "node '%s' (%s): input '%s' is not defined in the graph", n->name,
                       n->op_type, np->input[k]);
    }
  }
  return MINNX_OK;
}

static minnx_status read_outputs(loader *L, const Onnx__GraphProto *gp) {
  for (size_t i = 0; i < gp->n_output; i++) {
    const Onnx__ValueInfoProto *vi = gp->output[i];
    minnx_status st = MINNX_OK;
    int32_t id = (vi->name && vi->name[0]) ? resolve(L, vi->name, &st) : -1;
    if (st) return st;
    if (id < 0)
      return mx_fail(L->err, MINNX_E_MODEL, "graph output '%s' is not produced by the graph", vi->name ? vi->name : "");
    st = read_declared(L, vi, id, "output");
    if (st) return st;
    L->g->outputs[L->g->n_outputs++] = id;
  }
  return MINNX_OK;
}

/* value_info: types of values inside the graph, checked like the outputs'.
 * One naming a value the graph does not have describes nothing: ignored. */
static minnx_status read_value_info(loader *L, const Onnx__GraphProto *gp) {
  for (size_t i = 0; i < gp->n_value_info; i++) {
    const Onnx__ValueInfoProto *vi = gp->value_info[i];
    int32_t id = (vi->name && vi->name[0]) ? lookup(L, vi->name) : -1;
    minnx_status st = id >= 0 ? read_declared(L, vi, id, "value_info") : MINNX_OK;
    if (st) return st;
  }
  return MINNX_OK;
}

static minnx_status read_graph(loader *L, const Onnx__GraphProto *gp);

#if MX_OPS_GRAPHS
static minnx_status check_ops(const Onnx__GraphProto *gp, mx_op_check_fn check, mx_err *err);

/* Subgraph `gp` of node n's attribute a, decoded into a graph of its own in
 * the scope of L, ordered; n takes its captures' outer values as inputs. */
static minnx_status read_subgraph(loader *L, mx_node *n, mx_attr *a, const Onnx__GraphProto *gp) {
  const char *label = mx_node_label(L->g, n);
  if (L->depth + 1 > MX_MAX_GRAPH_DEPTH)
    return mx_fail(L->err, MINNX_E_LIMIT, "node '%s' (%s): attribute '%s': subgraphs nest deeper than minnx's maximum %d",
                   label, n->op_type, a->name, MX_MAX_GRAPH_DEPTH);
  mx_graph *sub = mx_pool_alloc(L->pool, sizeof *sub);
  if (!sub) return nomem(L);
  memset(sub, 0, sizeof *sub);
  sub->nested = 1;
  sub->opsets = L->g->opsets, sub->n_opsets = L->g->n_opsets;
  loader S = {.pool = L->pool, .g = sub, .ext = L->ext, .in_place = L->in_place, .err = L->err,
              .outer = L, .depth = L->depth + 1, .check = L->check, .named = L->named};
  minnx_status st = check_ops(gp, L->check, L->err);
  if (!st) st = read_graph(&S, gp);
  mx_pool_temp_free(L->pool, S.syms.slots);
  mx_pool_temp_free(L->pool, S.values.slots);
  if (!st) st = mx_graph_order(sub, L->pool, L->err);
  if (st && *L->named) return st;
  if (st) {
    *L->named = 1;
    return mx_fail_prefix(L->err, st, "node '%s' (%s): attribute '%s': ", label, n->op_type, a->name);
  }
  if (sub->n_captures) {
    if ((size_t)n->n_inputs + (size_t)sub->n_captures > MX_MAX_NODE_IO)
      return mx_fail(L->err, MINNX_E_LIMIT, "node '%s' (%s): its subgraphs read more than %d outer values", label,
                     n->op_type, MX_MAX_NODE_IO);
    int32_t *inputs = mx_pool_alloc(L->pool, ((size_t)n->n_inputs + (size_t)sub->n_captures) * sizeof *inputs);
    if (!inputs) return nomem(L);
    memcpy(inputs, n->inputs, (size_t)n->n_inputs * sizeof *inputs);
    memcpy(inputs + n->n_inputs, S.outer_ids, (size_t)sub->n_captures * sizeof *inputs);
    n->inputs = inputs;
    n->n_inputs += sub->n_captures;
  }
  a->g = sub;
  return MINNX_OK;
}

/* After every name of the graph is defined: a subgraph may read any of them. */
static minnx_status read_subgraphs(loader *L, const Onnx__GraphProto *gp) {
  for (size_t i = 0; i < gp->n_node; i++)
    for (size_t k = 0; k < gp->node[i]->n_attribute; k++) {
      mx_attr *a = &L->g->nodes[i].attrs[k];
      if (a->type != MX_ATTR_GRAPH) continue;
      minnx_status st = read_subgraph(L, &L->g->nodes[i], a, gp->node[i]->attribute[k]->g);
      if (st) return st;
    }
  return MINNX_OK;
}
#endif

static minnx_status read_graph(loader *L, const Onnx__GraphProto *gp) {
  size_t n_values = 0;
  uint64_t n_ids = 0;
  int32_t *ids = NULL;
  minnx_status st = check_counts(L, gp, &n_values, &n_ids);
  if (!st) st = make_arrays(L, gp, n_values, n_ids, &ids);
  if (!st) st = read_initializers(L, gp);
  if (!st) st = read_inputs(L, gp);
  if (!st) st = read_nodes(L, gp, ids);
  if (!st) st = resolve_inputs(L, gp);
  if (!st) st = read_outputs(L, gp);
  if (!st) st = read_value_info(L, gp);
#if MX_OPS_GRAPHS
  if (!st) st = read_subgraphs(L, gp);
#endif
  return st;
}

static minnx_status read_opsets(loader *L, const Onnx__ModelProto *m) {
  mx_graph *g = L->g;
  if (m->n_opset_import > MX_MAX_OPSETS)
    return mx_fail(L->err, MINNX_E_LIMIT, "the model imports %zu opsets, above minnx's maximum %d", m->n_opset_import,
                   MX_MAX_OPSETS);
  g->opsets = mx_pool_alloc(L->pool, (m->n_opset_import ? m->n_opset_import : 1) * sizeof(mx_opset));
  if (!g->opsets) return nomem(L);
  for (size_t i = 0; i < m->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = m->opset_import[i];
    const char *d = normalize_domain(o->domain);
    if (!o->has_version || o->version < 1)
      return mx_fail(L->err, MINNX_E_MODEL, "opset_import of domain '%s' has no valid version", d[0] ? d : "ai.onnx");
    for (int32_t k = 0; k < g->n_opsets; k++)
      if (strcmp(g->opsets[k].domain, d) == 0)
        return mx_fail(L->err, MINNX_E_MODEL, "domain '%s' is imported twice", d[0] ? d : "ai.onnx");
    g->opsets[g->n_opsets].domain = dup(L, d);
    if (!g->opsets[g->n_opsets].domain) return nomem(L);
    g->opsets[g->n_opsets++].version = o->version;
  }
  return MINNX_OK;
}

static int same_op(const Onnx__NodeProto *a, const Onnx__NodeProto *b) {
  return strcmp(a->op_type ? a->op_type : "", b->op_type ? b->op_type : "") == 0 &&
         strcmp(normalize_domain(a->domain), normalize_domain(b->domain)) == 0;
}

static minnx_status check_ops(const Onnx__GraphProto *gp, mx_op_check_fn check, mx_err *err) {
  for (size_t i = 0; i < gp->n_node && check; i++) {
    const Onnx__NodeProto *np = gp->node[i];
    if (i && same_op(np, gp->node[i - 1])) continue; /* checked just before */
    minnx_status st = check(normalize_domain(np->domain), np->op_type ? np->op_type : "", err);
    if (st) return st;
  }
  return MINNX_OK;
}

minnx_status mx_load_model(const void *bytes, size_t size, mx_op_check_fn check, const mx_external *ext, int in_place,
                           mx_pool *pool, mx_graph *g, mx_err *err) {
  memset(g, 0, sizeof *g);
  minnx_status st = mx_wire_check(bytes, size, &onnx__model_proto__descriptor, "ONNX model", err);
  if (st) return st;
  /* The message is a temporary that goes all at once, made of many small
   * blocks (each node's struct, strings and id lists): they come from a pool
   * of its own, released at the end. Over a caller's region it sits at the
   * region's top while the IR grows from the bottom, and is gone before
   * anything else. */
  mx_pool msg;
  mx_pool_init(&msg, pool->mem);
  mx_pb_mem pm = {pool->region ? mx_pool_temp_allocator(pool) : mx_pool_allocator(&msg), 0};
  ProtobufCAllocator pa = mx_protobuf_allocator(&pm);
  int nomem;
  Onnx__ModelProto *m = (Onnx__ModelProto *)mx_pb_unpack(&onnx__model_proto__descriptor, bytes, size, &pa, &nomem);
  if (!m) {
    mx_pool_release(&msg);
    return nomem ? mx_fail(err, MINNX_E_NOMEM, "out of memory decoding the model's protobuf")
                 : mx_fail(err, MINNX_E_PARSE, "not a valid ONNX model: the protobuf could not be decoded (%zu bytes)", size);
  }
  loader L = {.pool = pool, .g = g, .ext = ext, .in_place = in_place, .err = err};
#if MX_OPS_GRAPHS
  int named = 0;
  L.check = check;
  L.named = &named;
#endif
  if (!m->graph) st = mx_fail(err, MINNX_E_MODEL, "the model has no graph");
  else if ((st = check_ops(m->graph, check, err)) == MINNX_OK && (st = read_opsets(&L, m)) == MINNX_OK)
    st = read_graph(&L, m->graph);
  mx_pool_temp_free(pool, L.syms.slots);
  mx_pool_temp_free(pool, L.values.slots);
  if (pool->region) mx_pb_free(&m->base, &pa);
  mx_pool_release(&msg);
  return st;
}
