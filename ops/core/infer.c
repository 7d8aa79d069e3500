/* The stages' side of the op contract: what every row gets checked for
 * before its own infer runs (arity, dtypes and their groups, constant
 * inputs, attributes), the infer driver over the graph (with constant
 * folding at load) and the prepare driver. */
#include <string.h>

#include "graph/pool.h"
#include "graph/shape.h"
#include "ops/core/infer.h"
#if MX_OPS_GRAPHS
#include "ops/core/registry.h"
#endif

#include <stdio.h>

#ifndef MX_NO_MESSAGES
#include <stdarg.h>

minnx_status mx_op_fail(const mx_op_ctx *c, minnx_status st, const char *fmt, ...) {
  if (c->err) {
    /* The node's prefix, then the op's words after it in the same buffer:
     * no second message-sized buffer on the stack (small targets). */
    mx_fail(c->err, st, "node '%s' (%s-%d): ", mx_node_label(c->g, c->node), c->node->op_type, c->row->since);
    size_t used = strlen(c->err->message);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err->message + used, sizeof c->err->message - used, fmt, ap);
    va_end(ap);
  }
  return st;
}
#endif

int64_t mx_attr_int(const mx_node *n, const char *name, int64_t dflt) {
  const mx_attr *a = mx_node_attr(n, name);
  return a ? a->i : dflt;
}

int64_t mx_axis(const mx_op_ctx *c, int64_t axis, int64_t rank) {
  if (axis < 0 && (c->row->rules & MX_RULE_NEGATIVE_AXIS)) axis += rank;
  return axis >= 0 && axis < rank ? axis : -1;
}

minnx_status mx_int_list(const mx_op_ctx *c, const char *name, int since_input, int required, const int64_t **v,
                         int64_t *n) {
  *v = NULL, *n = -1;
  if (c->row->since < since_input) {
    const mx_attr *a = mx_node_attr(c->node, name);
    if (a) *v = a->ints, *n = (int64_t)a->n;
  } else if (c->n_in > 1 && c->in[1]) {
    if (c->in[1]->rank >= 0 && c->in[1]->rank != 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "input '%s' has rank %d; it must be 1-D", name, c->in[1]->rank);
    if (!c->in_data[1]) { /* a graph input: known once bound */
      *n = -2;
      return MINNX_OK;
    }
    *v = c->in_data[1], *n = c->in[1]->dims[0];
  }
  if (*n < 0 && required) return mx_op_fail(c, MINNX_E_MODEL, "'%s' is required", name);
  return MINNX_OK;
}

/* The refusal of an output whose declared shape inference contradicts. */
static minnx_status declared_shape_fail(const mx_op_ctx *c, int32_t id, const mx_shape *declared, const mx_shape *out) {
  char x[96], y[96];
  return mx_op_fail(c, MINNX_E_SHAPE, "output '%s' is declared with shape %s but the node gives %s", c->g->values[id].name,
                    mx_shape_str(declared, x, sizeof x), mx_shape_str(out, y, sizeof y));
}

/* At load (c->pool set) the values hold the declared shapes: a folded
 * output is checked against its declared shape before its bytes are made,
 * so that a model declaring [4,4] for a Tile that would give 92 MB is
 * refused before the 92 MB are computed. mx_infer checks it again, and
 * the dtype, after the version's dtypes (whose message comes first). */
static minnx_status fold_check(mx_op_ctx *c, int32_t k) {
  int32_t id = c->node->outputs[k];
  if (id >= 0 && !mx_shapes_compatible(&c->g->values[id].shape, &c->out[k]))
    return declared_shape_fail(c, id, &c->g->values[id].shape, &c->out[k]);
  return MINNX_OK;
}

minnx_status mx_fold_output(mx_op_ctx *c, int32_t k, void **bytes) {
  *bytes = NULL;
  if (!MX_OPS_VIEWS || !c->pool) return MINNX_OK;
  minnx_status st = fold_check(c, k);
  if (st) return st;
  size_t size = mx_shape_bytes(&c->out[k], c->out_dtype[k]);
  *bytes = mx_pool_alloc(c->pool, size ? size : 1); /* an empty one: any valid pointer */
  if (!*bytes) return mx_op_fail(c, MINNX_E_NOMEM, "out of memory for the %zu bytes of its folded output", size);
  c->out_data[k] = *bytes;
  return MINNX_OK;
}

minnx_status mx_fold_within(mx_op_ctx *c, int32_t k, const void *bytes) {
  if (!MX_OPS_VIEWS || !c->pool) return MINNX_OK;
  minnx_status st = fold_check(c, k);
  if (!st) c->out_data[k] = bytes;
  return st;
}

/* How many entries a node may give for a row's list, for messages: "exactly
 * 1", "at least 1", "at most 2" (n: how many it gave). */
static const char *arity(const mx_io *list, int32_t n, char *buf, size_t size) {
  int32_t lo = 0, hi = 0;
  for (const mx_io *e = list; e->name; e++) {
    hi = hi == INT32_MAX ? hi : hi + 1;
    if (!(e->flags & MX_IO_OPTIONAL)) lo = hi;
    if (e->flags & MX_IO_VARIADIC) hi = INT32_MAX;
  }
  snprintf(buf, size, "%s %d", lo == hi ? "exactly" : n < lo ? "at least" : "at most", (int)(n < lo ? lo : hi));
  return buf;
}

/* Whether entries from e on, but `used` (a variadic one given already), may
 * be left out. */
static int rest_optional(const mx_io *e, const mx_io *used) {
  for (; e->name; e++)
    if (e != used && !(e->flags & MX_IO_OPTIONAL)) return 0;
  return 1;
}

size_t mx_node_bufs_carve(mx_node_bufs *b, void *mem, int32_t max_in, int32_t max_out) {
  size_t ni = (size_t)(max_in > 0 ? max_in : 1), no = (size_t)(max_out > 0 ? max_out : 1);
  uintptr_t start = (uintptr_t)mem, p = start; /* an integer: no arithmetic on a NULL pointer */
  mx_node_bufs unused;
  b = b ? b : &unused;
  /* widest alignment first */
  b->out = (mx_shape *)p, p += no * sizeof(mx_shape);
  b->in = (const mx_shape **)p, p += ni * sizeof(mx_shape *);
  b->in_data = (const void **)p, p += ni * sizeof(void *);
  b->out_data = (const void **)p, p += no * sizeof(void *);
  b->in_dtype = (mx_dtype *)p, p += ni * sizeof(mx_dtype);
  b->out_dtype = (mx_dtype *)p, p += no * sizeof(mx_dtype);
  return (size_t)(p - start);
}

/* Value v's shape and dtype: in the arrays, or with the arrays NULL (at
 * load) in the value itself. */
static const mx_shape *shape_in(const mx_graph *g, const mx_shape *shapes, int32_t v) {
  return shapes ? &shapes[v] : &g->values[v].shape;
}

static mx_dtype dtype_in(const mx_graph *g, const mx_dtype *dtypes, int32_t v) {
  return dtypes ? dtypes[v] : g->values[v].dtype;
}

/* A value's bytes when infer may read them: a constant's, a bound graph
 * input's in a session (`data`), or a view's of one of these. */
static const void *const_data(const mx_graph *g, int32_t v, const void *const *data) {
  if (!MX_OPS_DATA) return NULL;
  v = mx_bytes_of(g, v);
  const mx_value *val = &g->values[v];
  /* a graph input's and a value computed at bind (MX_VALUE_BIND) are in a
   * session's `data` once bound: never NULL there, even empty */
  int bound = val->kind == MX_VALUE_INPUT || (MX_OPS_SHAPES && val->kind == MX_VALUE_BIND);
  const void *p = val->kind == MX_VALUE_INITIALIZER ? val->data : data && bound ? data[v] : NULL;
  /* no bytes (an empty tensor): known all the same */
  return p || val->kind == MX_VALUE_NODE || (bound && !data) ? p : (const void *)val;
}

/* Fills c for node n, checking the node against its row on the way: its
 * arity, each input's dtype (in its entry's set, the same as its group's),
 * constant inputs, attribute names and types. Presets each output's dtype to
 * its group's (UNDEFINED when it has none: infer sets it). */
/* *known: whether every input's shape is known, its element count in int64. */
static minnx_status fill_ctx(mx_op_ctx *c, const mx_graph *g, const mx_node *n, const mx_shape *shapes,
                             const mx_dtype *dtypes, const mx_node_bufs *b, const void *const *data, int *known,
                             mx_err *err) {
  const mx_op_row *r = n->row;
  mx_dtype group[MX_GROUPS + 1] = {0};
  char text[32];
  memset(c, 0, sizeof *c);
  c->g = g, c->node = n, c->row = r, c->err = err;
  c->n_in = n->n_inputs, c->n_out = n->n_outputs;
  c->in = b->in, c->in_dtype = b->in_dtype, c->in_data = b->in_data;
  c->out = b->out, c->out_dtype = b->out_dtype, c->out_data = b->out_data;
  const mx_io *e = r->in, *used = NULL;
  for (int32_t k = 0; k <= n->n_inputs; k++, used = e, e += !(e->flags & MX_IO_VARIADIC)) {
    if (k == n->n_inputs ? !rest_optional(e, used) : !e->name)
      return mx_op_fail(c, MINNX_E_MODEL, "it has %d inputs; it takes %s", (int)n->n_inputs,
                        arity(r->in, n->n_inputs, text, sizeof text));
    if (k == n->n_inputs) break;
    int32_t v = n->inputs[k];
    mx_dtype t = v >= 0 ? dtype_in(g, dtypes, v) : MINNX_UNDEFINED;
    b->in[k] = v >= 0 ? shape_in(g, shapes, v) : NULL;
    b->in_dtype[k] = t;
    b->in_data[k] = v >= 0 ? const_data(g, v, data) : NULL;
    if (v < 0 && !(e->flags & MX_IO_OPTIONAL))
      return mx_op_fail(c, MINNX_E_MODEL, "input %d is empty; %s is required", (int)k, e->name);
    if (v < 0) continue;
    *known &= mx_shape_count(b->in[k]) >= 0;
    /* MINNX_DTYPES leaves out kernels: what no kernel reads (a view's data,
     * constant inputs read at load) may have any dtype the row allows */
    if (!(e->types & MX_BIT(t)) || (!MX_DTYPE_ON(t) && r->eval && !(e->flags & MX_IO_CONST)))
      return mx_op_fail(c, MINNX_E_TYPE, "input %d has dtype %s, which %s", (int)k, mx_dtype_name(t),
                        (e->types & MX_BIT(t)) ? "this build of minnx leaves out (MINNX_DTYPES)" : "this version does not allow");
    if (e->group && group[e->group] && group[e->group] != t)
      return mx_op_fail(c, MINNX_E_TYPE, "inputs mix dtypes %s and %s; they must share one", mx_dtype_name(group[e->group]),
                        mx_dtype_name(t));
    if (MX_OPS_DATA && (e->flags & MX_IO_CONST) && g->values[mx_bytes_of(g, v)].kind == MX_VALUE_NODE)
      return mx_op_fail(c, MINNX_E_FEATURE, "input %d (%s) is computed at run time from tensor data; minnx needs it "
                        "constant (an initializer or a Constant), a graph input, or computed from shapes and constants "
                        "only, so that shapes are known before a run", (int)k, e->name);
    group[e->group] = t;
  }
  e = r->out, used = NULL;
  for (int32_t k = 0; k <= n->n_outputs; k++, used = e, e += !(e->flags & MX_IO_VARIADIC)) {
    int32_t v = k < n->n_outputs ? n->outputs[k] : -1;
    if (k == n->n_outputs ? !rest_optional(e, used) : !e->name || (v < 0 && !(e->flags & MX_IO_OPTIONAL)))
      return mx_op_fail(c, MINNX_E_MODEL, "it must have %s named output%s", r->out[0].name && !r->out[1].name &&
                        !r->out[0].flags ? "exactly one" : arity(r->out, n->n_outputs, text, sizeof text),
                        r->out[0].name && !r->out[1].name && !r->out[0].flags ? "" : "s");
    if (k == n->n_outputs) break;
    b->out[k] = v >= 0 ? *shape_in(g, shapes, v) : (mx_shape){.rank = -1};
    b->out_data[k] = NULL;
    b->out_dtype[k] = group[e->group];
  }
  for (int32_t i = 0; i < n->n_attrs; i++) {
    const mx_attr *a = &n->attrs[i];
    const mx_attr_spec *s = r->attrs;
    while (s && s->name && strcmp(s->name, a->name) != 0) s++;
    if (!s || !s->name) return mx_op_fail(c, MINNX_E_MODEL, "attribute '%s' is not allowed in this version", a->name);
    /* a sparse tensor arrives densified: a row asks for a tensor */
    if (s->type != a->type && !(s->type == MX_ATTR_TENSOR && a->type == MX_ATTR_SPARSE_TENSOR))
      return mx_op_fail(c, MINNX_E_MODEL, "attribute '%s' has the wrong type", a->name);
  }
  return MINNX_OK;
}

#if MX_OPS_SHAPES
/* At load: whether node n computes from shapes and constants only, one of
 * them not known yet (an MX_IO_SHAPE input, or a value computed at bind): a
 * shape computed from a symbolic dim (Shape -> Gather -> Concat -> Reshape),
 * which a session computes once its inputs are bound. Any op with a kernel
 * may take part (Mul, Equal, Where, Cast over int64 shapes). */
static int from_shapes(const mx_graph *g, const mx_node *n) {
  int any = 0;
  const mx_io *e = n->row->in;
  if (!n->row->eval) return 0; /* views of such values are views */
  for (int32_t k = 0; k < n->n_inputs && e->name; k++, e += !(e->flags & MX_IO_VARIADIC)) {
    int32_t v = n->inputs[k];
    if (v < 0) continue;
    mx_value_kind kind = g->values[mx_bytes_of(g, v)].kind;
    if ((e->flags & MX_IO_SHAPE) || kind == MX_VALUE_BIND) any = 1;
#if MX_OPS_GRAPHS
    else if (kind == MX_VALUE_INPUT && mx_reads_cond_input(g, n, mx_bytes_of(g, v))) any = 1;
#endif
    else if (kind != MX_VALUE_INITIALIZER) return 0;
  }
#if MX_OPS_GRAPHS
  if (!any && n->n_inputs && mx_feeds_cond(g, n)) any = 1; /* constants only, not folded by its infer */
#endif
  return any;
}

/* Whether node n's outputs are computed at bind (marked by from_shapes at load). */
static int at_bind(const mx_graph *g, const mx_node *n) {
  for (int32_t k = 0; k < n->n_outputs; k++)
    if (n->outputs[k] >= 0 && g->values[n->outputs[k]].kind == MX_VALUE_BIND) return 1;
  return 0;
}
#endif

minnx_status mx_infer(const mx_graph *g, mx_value *fold, mx_pool *pool, mx_shape *shapes, mx_dtype *dtypes, const mx_node_bufs *b,
                      const mx_prep *prep, mx_err *err) {
  const mx_isa isa = prep ? prep->isa : MX_ISA_PORTABLE;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    mx_op_ctx c;
    int known = 1; /* every shape the node reads and gives: then it may be prepared */
#if MX_OPS_SHAPES
    int bind = fold ? from_shapes(g, n) : prep && prep->bind && at_bind(g, n);
#endif
    minnx_status st = fill_ctx(&c, g, n, shapes, dtypes, b, prep ? prep->data : NULL, &known, err);
    c.pool = fold ? pool : NULL;
    c.isa = isa;
#if MX_OPS_GRAPHS
    c.params = prep ? (prep->params ? prep->params[i] : prep->one) : NULL;
#endif
    if (!st) st = n->row->infer(&c);
    if (st) return st;
    int computes = 0, elements = 0;
    const mx_io *e = n->row->out;
    for (int32_t k = 0; k < n->n_outputs; k++, e += !(e->flags & MX_IO_VARIADIC)) {
      int32_t id = n->outputs[k];
      mx_shape *out = &c.out[k];
      mx_dtype t = c.out_dtype[k];
      if (id < 0) continue;
      if (!(e->types & MX_BIT(t)))
        return mx_op_fail(&c, MINNX_E_TYPE, "output %d would have dtype %s, which this version does not allow", (int)k,
                          mx_dtype_name(t));
      /* An output with a declared type (a graph output) must agree with inference. */
      mx_shape *declared = shapes ? &shapes[id] : &fold[id].shape;
      mx_dtype *declared_t = dtypes ? &dtypes[id] : &fold[id].dtype;
      if (*declared_t != MINNX_UNDEFINED && *declared_t != t)
        return mx_op_fail(&c, MINNX_E_TYPE, "output '%s' is declared %s but the node gives %s", g->values[id].name,
                          mx_dtype_name(*declared_t), mx_dtype_name(t));
      if (!mx_shapes_compatible(declared, out)) return declared_shape_fail(&c, id, declared, out);
      /* Keep the declared dims where inference left them unknown. */
      if (declared->rank == out->rank)
        for (int d = 0; d < out->rank; d++)
          if (out->dims[d] < 0) out->dims[d] = declared->dims[d];
      *declared = *out;
      *declared_t = t;
      if (MX_OPS_VIEWS && fold && c.out_data[k]) {
        fold[id].kind = MX_VALUE_INITIALIZER;
        fold[id].data = c.out_data[k];
        fold[id].nbytes = mx_shape_bytes(out, t); /* infer gave the bytes: no overflow */
      }
#if MX_OPS_SHAPES
      else if (fold && bind && !g->values[id].view_of)
        fold[id].kind = MX_VALUE_BIND;
#endif
      computes |= !MX_OPS_VIEWS || ((g->values[id].kind == MX_VALUE_NODE || (MX_OPS_SHAPES && g->values[id].kind == MX_VALUE_BIND)) &&
                                    !g->values[id].view_of);
      int64_t count = mx_shape_count(out);
      elements |= count != 0;
      known &= count >= 0;
    }
    if (!prep) continue;
    int runs = n->row->eval && computes && elements && known;
    void *params = prep->params ? prep->params[i] : prep->one;
    prep->scratch[i] = 0;
#if MX_OPS_PACKED
    c.packs = runs && prep->packed && mx_packed_size(g, n);
    c.packed = c.packs && prep->params ? (unsigned char *)params + mx_params_size(n) : NULL;
#endif
    if (runs && n->row->prepare && (st = n->row->prepare(&c, params))) return st;
    if (!MX_OPS_SCRATCH && c.scratch) /* the build left the planner's scratch out */
      return mx_op_fail(&c, MINNX_E_LIMIT, "prepare asks for scratch, but ops/ops.cmake does not say SCRATCH for %s",
                        n->op_type);
    if (runs) prep->scratch[i] = c.scratch;
    if (!runs && prep->params) prep->params[i] = NULL;
#if MX_OPS_SHAPES
    if (bind && !fold) { /* computed now, in the session's bind memory: it never runs */
      if ((st = prep->bind(prep->bind_ctx, i, &c, runs ? params : NULL))) return st;
      prep->scratch[i] = 0;
      if (prep->params) prep->params[i] = NULL;
    }
#endif
  }
  return MINNX_OK;
}

size_t mx_params_size(const mx_node *n) {
  return n->row->params_size ? (n->row->params_size(n) + 15) & ~(size_t)15 : 0;
}

#if MX_OPS_PACKED
size_t mx_packed_size(const mx_graph *g, const mx_node *n) {
  return n->row->packed_size ? (n->row->packed_size(g, n) + 15) & ~(size_t)15 : 0;
}
#endif
