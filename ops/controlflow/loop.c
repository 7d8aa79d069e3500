/* ONNX Loop (1, 11, 13, 16, 19, 21): runs `body` while the iteration number
 * i < M (input 0, an int64 of one element; empty: no bound) and cond (input
 * 1, a bool of one element, then the body's first output; empty: true).
 * The body takes (i, cond, v_1..v_N) and gives (cond', v_1'..v_N', s_1..s_K):
 * the N loop-carried values go round, the node gives their last values and
 * the K scan outputs stacked along a new first axis, one row per iteration.
 * - Versions: 1 and 11 differ in the words about the body's shapes (from 11
 *   ONNX's inference lets a carried value change shape from one iteration
 *   to the next); 13 allows sequences, 16 optionals and bfloat16, 19 float8,
 *   21 4-bit integers. minnx holds tensors: the loader refuses sequences and
 *   optionals, naming the value, and a dtype it has no such type for; the
 *   carried values and scan outputs take every dtype minnx holds, bfloat16
 *   from 16.
 * - Planning (minnx plans every value before a run): a carried value keeps
 *   one shape (the initial value's; a body giving another is refused at
 *   load, or when the session plans). Scan outputs need M known before a
 *   run: an initializer, a Constant, a value computed from shapes, or a
 *   graph input (then read when bound: each run plans with it); their first
 *   dim is max(M, 0). A loop with scan outputs but no M is refused at load;
 *   one whose cond ends it before M iterations fails that run naming the
 *   node (its outputs were planned with M rows). A loop with neither M nor
 *   cond is endless by ONNX's words: refused at load. No loop runs more than
 *   MX_LOOP_MAX_ITERATIONS iterations: reaching it fails the run.
 * - The body's values computed from the iteration number and constants only
 *   (a Slice of a constant starting at i) are computed before each
 *   iteration, as values known at bind are (MX_VALUE_BIND in the body), in
 *   MX_LOOP_ITER_BYTES of the node's params; the body's nodes are then
 *   prepared again with them, and a shape differing from the planned one
 *   (iteration 0's) fails the run naming the node.
 * - Memory: the node's scratch holds the body's arena and two sets of the
 *   carried values (read one, write the other: a body may swap them); a run
 *   allocates nothing. Copies only: the result is exact. */
#include <stdint.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/controlflow/subgraph.h"
#include "ops/core/op.h"

/* At most this many iterations a run (2^20): a loop without M, or an M above
 * it, whose cond does not end it sooner fails the run instead of hanging.
 * (The fuzz build sets 2^10, CMakeLists.txt: a loop of 2^20 iterations of a
 * few nodes took 33 s under its sanitizers, past libFuzzer's timeout.) */
#ifndef MX_LOOP_MAX_ITERATIONS
#define MX_LOOP_MAX_ITERATIONS ((int64_t)1 << 20)
#endif
/* Bytes of the values a body computes from its iteration number (and their
 * nodes' scratch), kept in the node's params. */
#define MX_LOOP_ITER_BYTES 1024

typedef struct {
  mx_sub *body;
  int32_t n_carried, n_scan, first; /* first: the node input of the body's first capture */
  int per_iteration;                /* the body has values computed from the iteration number */
  int64_t rows;                     /* the scan outputs' first dim (M), -1 without scan outputs */
  size_t arena, set_bytes;          /* scratch: the body's arena, then two sets of carried values */
  const void **formal;              /* the body's declared inputs' bytes: i, cond, the carried values */
  size_t *planned_scratch, *iter_scratch; /* per body node */
  mx_sub_mem iter;                  /* MX_LOOP_ITER_BYTES (mem NULL when the body reads no iteration number) */
  int64_t iteration;
  unsigned char cond;
  mx_err err;
} loop_params;

static size_t r16(size_t v) { return (v + 15) & ~(size_t)15; }
static size_t r64(size_t v) { return (v + 63) & ~(size_t)63; }

static mx_graph *body_of(const mx_node *n) {
  for (int32_t k = 0; k < n->n_attrs; k++)
    if (mx_attr_graph(&n->attrs[k]) && strcmp(n->attrs[k].name, "body") == 0) return n->attrs[k].g;
  return NULL;
}

/* Whether body's values may be computed before each iteration: a node reads
 * the iteration number, or an input's shape only (Shape, Size). */
static int reads_iteration(const mx_graph *g) {
  for (int32_t i = 0; i < g->n_nodes && g->n_inputs > 0; i++) {
    const mx_node *n = &g->nodes[i];
    const mx_io *e = n->row ? n->row->in : NULL;
    for (int32_t k = 0; k < n->n_inputs; k++) {
      if (n->inputs[k] == g->inputs[0]) return 1;
      if (e && e->name && (e->flags & MX_IO_SHAPE)) return 1;
      if (e && e->name && !(e->flags & MX_IO_VARIADIC)) e++;
    }
  }
  return 0;
}

static const mx_dtype_set v_types_1 = MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16);

static minnx_status dtype_ok(const mx_op_ctx *c, mx_dtype t, const char *what, int k) {
  mx_dtype_set allowed = c->row->since >= 16 ? MX_ALL_TYPES : v_types_1;
  if (!(allowed & MX_BIT(t)))
    return mx_op_fail(c, MINNX_E_TYPE, "%s %d has dtype %s, which this version does not allow", what, k, mx_dtype_name(t));
  return MINNX_OK;
}

static int same_shape(const mx_shape *a, const mx_shape *b) {
  return a->rank == b->rank && !memcmp(a->dims, b->dims, (size_t)(a->rank > 0 ? a->rank : 0) * sizeof a->dims[0]);
}

/* The body, its counts, and the checks that need no shapes. */
static minnx_status signature(const mx_op_ctx *c, mx_graph **body, int32_t *n_carried, int32_t *n_scan, int32_t *first) {
  mx_graph *g = body_of(c->node);
  if (!g) return mx_op_fail(c, MINNX_E_MODEL, "attribute 'body' is required");
  *body = g;
  *first = c->n_in - g->n_captures;
  *n_carried = *first - 2;
  if (*n_carried < 0)
    return mx_op_fail(c, MINNX_E_MODEL, "it has %d inputs; it takes M and cond (either may be empty) before the "
                      "loop-carried values", (int)*first);
  *n_scan = c->n_out - *n_carried;
  if (*n_scan < 0)
    return mx_op_fail(c, MINNX_E_MODEL, "it has %d outputs for %d loop-carried values; it must give each carried "
                      "value's final one, then the scan outputs", (int)c->n_out, (int)*n_carried);
  if (!c->in[0] && !c->in[1])
    return mx_op_fail(c, MINNX_E_MODEL, "it has neither M nor cond: the loop would never end (infinite loop)");
  if (g->n_inputs != 2 + *n_carried)
    return mx_op_fail(c, MINNX_E_MODEL, "body has %d inputs; with %d loop-carried values it must take %d (iteration "
                      "number, cond, the carried values)", (int)g->n_inputs, (int)*n_carried, (int)(2 + *n_carried));
  if (g->n_outputs != 1 + c->n_out)
    return mx_op_fail(c, MINNX_E_MODEL, "body gives %d outputs; the node's %d outputs need %d (cond, the carried "
                      "values, the scan outputs)", (int)g->n_outputs, (int)c->n_out, (int)(1 + c->n_out));
  char a[96];
  for (int k = 0; k < 2; k++)
    if (c->in[k] && mx_shape_count(c->in[k]) >= 0 && mx_shape_count(c->in[k]) != 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "%s has shape %s; it must hold one element", k ? "cond" : "M",
                        mx_shape_str(c->in[k], a, sizeof a));
  for (int32_t k = 0; k < *n_carried; k++) {
    if (!c->in[2 + k]) return mx_op_fail(c, MINNX_E_MODEL, "loop-carried value %d is empty", (int)k);
    minnx_status st = dtype_ok(c, c->in_dtype[2 + k], "loop-carried value", (int)k);
    if (st) return st;
  }
  return MINNX_OK;
}

/* A body node reading constant data (MX_IO_CONST: Slice's starts, Reshape's
 * shape...) reads it before each iteration, when only constants and the
 * values computed from the iteration number are known: not a loop-carried
 * value, cond, or an outer value the body reads. */
static minnx_status const_inputs(const mx_op_ctx *c, const mx_graph *g) {
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    const mx_io *e = n->row->in;
    for (int32_t k = 0; k < n->n_inputs && e->name; k++, e += !(e->flags & MX_IO_VARIADIC))
      if ((e->flags & MX_IO_CONST) && n->inputs[k] >= 0 && g->values[mx_bytes_of(g, n->inputs[k])].kind == MX_VALUE_INPUT)
        return mx_op_fail(c, MINNX_E_FEATURE, "body: node '%s' (%s) reads '%s' as constant data, but it is an input of "
                          "the body (cond, a loop-carried value or an outer value); minnx needs it constant or computed "
                          "from the iteration number and constants, so that shapes are known before a run",
                          mx_node_label(g, n), n->op_type, g->values[n->inputs[k]].name);
  }
  return MINNX_OK;
}

static minnx_status loop_infer(mx_op_ctx *c) {
  mx_graph *g;
  int32_t n_carried, n_scan, first;
  char a[96], b[96];
  minnx_status st = signature(c, &g, &n_carried, &n_scan, &first);
  if (st) return st;
  if (c->pool) {
    /* the body's declared input types, where given, must be what the node
     * passes; they become what it passes (the iteration number and cond are
     * scalars) */
    for (int32_t k = 0; k < 2 + n_carried; k++) {
      mx_value *v = &g->values[g->inputs[k]];
      mx_dtype want = k == 0 ? MINNX_INT64 : k == 1 ? MINNX_BOOL : c->in_dtype[k];
      if (v->dtype != MINNX_UNDEFINED && v->dtype != want)
        return mx_op_fail(c, MINNX_E_TYPE, "body's input %d ('%s') is declared with dtype %s; the loop passes %s", (int)k, v->name,
                          mx_dtype_name(v->dtype), mx_dtype_name(want));
      if (k >= 2 && !mx_shapes_compatible(&v->shape, c->in[k]))
        return mx_op_fail(c, MINNX_E_SHAPE, "body's input %d ('%s') is declared with shape %s; the loop passes %s", (int)k,
                          v->name, mx_shape_str(&v->shape, a, sizeof a), mx_shape_str(c->in[k], b, sizeof b));
      v->dtype = want;
      v->shape = k < 2 ? (mx_shape){.rank = 0} : *c->in[k];
    }
#if MX_OPS_SHAPES
    /* the iteration number is known before each iteration: what the body
     * computes from it and constants alone is computed then (loop_bind) */
    g->values[g->inputs[0]].kind = MX_VALUE_BIND;
#endif
    g->nested = 2;
    if ((st = mx_sub_infer_load(c, g, first, NULL, NULL, 0, 1)))
      return mx_fail_prefix(c->err, st, "node '%s' (Loop-%d): body: ", mx_node_label(c->g, c->node), c->row->since);
    if ((st = const_inputs(c, g))) return st;
  } else {
    if (!mx_sub_same_captures(c, g, first))
      return mx_op_fail(c, MINNX_E_FEATURE, "body reads outer values whose shapes are known only once the inputs are "
                        "bound; minnx infers a body at load");
    for (int32_t k = 0; k < n_carried; k++)
      if (!same_shape(&g->values[g->inputs[2 + k]].shape, c->in[2 + k]))
        return mx_op_fail(c, MINNX_E_FEATURE, "loop-carried value %d has a shape known only once the inputs are bound "
                          "(%s at load); minnx infers a body at load", (int)k,
                          mx_shape_str(&g->values[g->inputs[2 + k]].shape, a, sizeof a));
  }
  const mx_value *cv = &g->values[g->outputs[0]];
  if (cv->dtype != MINNX_BOOL)
    return mx_op_fail(c, MINNX_E_TYPE, "body's output 0 (cond) has dtype %s; it must be bool", mx_dtype_name(cv->dtype));
  if (cv->shape.rank > 1 || (mx_shape_count(&cv->shape) >= 0 && mx_shape_count(&cv->shape) != 1))
    return mx_op_fail(c, MINNX_E_SHAPE, "body's output 0 (cond) has shape %s; it must hold one element",
                      mx_shape_str(&cv->shape, a, sizeof a));
  for (int32_t k = 0; k < n_carried; k++) {
    const mx_value *o = &g->values[g->outputs[1 + k]];
    if (o->dtype != c->in_dtype[2 + k])
      return mx_op_fail(c, MINNX_E_TYPE, "body gives loop-carried value %d dtype %s; it comes in as %s", (int)k,
                        mx_dtype_name(o->dtype), mx_dtype_name(c->in_dtype[2 + k]));
    if (!mx_shapes_compatible(&o->shape, c->in[2 + k]))
      return mx_op_fail(c, MINNX_E_SHAPE, "body gives loop-carried value %d shape %s; it comes in as %s, and minnx "
                        "plans every value before a run: a carried value keeps one shape across iterations", (int)k,
                        mx_shape_str(&o->shape, a, sizeof a), mx_shape_str(c->in[2 + k], b, sizeof b));
    c->out[k] = *c->in[2 + k];
    c->out_dtype[k] = c->in_dtype[2 + k];
  }
  int64_t rows = -1;
  if (n_scan && !c->in[0])
    return mx_op_fail(c, MINNX_E_FEATURE, "it has scan outputs but no M: minnx plans every value before a run and "
                      "needs the trip count M to size them");
  if (n_scan && c->in_data[0]) {
    int64_t m;
    memcpy(&m, c->in_data[0], sizeof m);
    if (m > MX_LOOP_MAX_ITERATIONS)
      return mx_op_fail(c, MINNX_E_LIMIT, "M is %lld; a loop with scan outputs runs at most minnx's maximum %lld "
                        "iterations", (long long)m, (long long)MX_LOOP_MAX_ITERATIONS);
    rows = m > 0 ? m : 0;
  }
  for (int32_t k = 0; k < n_scan; k++) {
    const mx_value *o = &g->values[g->outputs[1 + n_carried + k]];
    if ((st = dtype_ok(c, o->dtype, "scan output", (int)k))) return st;
    if (o->shape.rank < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "body's scan output %d has no known rank", (int)k);
    if (o->shape.rank + 1 > MX_MAX_RANK)
      return mx_op_fail(c, MINNX_E_SHAPE, "scan output %d would have rank %d, above minnx's maximum %d", (int)k,
                        o->shape.rank + 1, MX_MAX_RANK);
    mx_shape *out = &c->out[n_carried + k];
    out->rank = o->shape.rank + 1;
    out->dims[0] = rows;
    for (int d = 0; d < o->shape.rank; d++) out->dims[d + 1] = o->shape.dims[d];
    c->out_dtype[n_carried + k] = o->dtype;
  }
  return MINNX_OK;
}

static size_t loop_params_size(const mx_node *n) {
  const mx_graph *g = body_of(n);
  if (!g) return sizeof(loop_params);
  size_t nn = (size_t)(g->n_nodes ? g->n_nodes : 1), nf = (size_t)(g->n_inputs > 0 ? g->n_inputs : 1);
  return r16(sizeof(loop_params)) + mx_sub_bytes(g) + r16(nf * sizeof(void *)) + 2 * r16(nn * sizeof(size_t)) +
         (reads_iteration(g) ? MX_LOOP_ITER_BYTES : 0);
}

static const mx_sub_bind_words iter_words = {MX_LOOP_ITER_BYTES, "Loop", "from the iteration number",
                                             "the values its Loop's body computes from the iteration number",
                                             "before the body runs"};

/* mx_sub_bind.fn: body node i's outputs computed from the iteration number
 * and constants, into the params' MX_LOOP_ITER_BYTES, by its own kernel. */
static minnx_status loop_bind(void *ctx, int32_t i, mx_op_ctx *c, void *params) {
  loop_params *p = ctx;
  return mx_sub_bind_node(p->body, i, c, params, &p->iter, &iter_words);
}

static minnx_status loop_prepare(mx_op_ctx *c, void *params) {
  loop_params *p = params;
  mx_graph *g;
  int32_t n_carried, n_scan, first;
  char a[96], b[96];
  minnx_status st = signature(c, &g, &n_carried, &n_scan, &first);
  if (st) return st;
  memset(p, 0, sizeof *p);
  unsigned char *at = (unsigned char *)params + r16(sizeof(loop_params));
  size_t nn = (size_t)(g->n_nodes ? g->n_nodes : 1);
  p->body = mx_sub_carve(at, g);
  at += mx_sub_bytes(g);
  p->formal = (const void **)(void *)at;
  at += r16((size_t)g->n_inputs * sizeof(void *));
  p->planned_scratch = (size_t *)(void *)at;
  at += r16(nn * sizeof(size_t));
  p->iter_scratch = (size_t *)(void *)at;
  at += r16(nn * sizeof(size_t));
  p->iter = (mx_sub_mem){reads_iteration(g) ? at : NULL, 0};
  p->n_carried = n_carried, p->n_scan = n_scan, p->first = first;
  p->iteration = 0, p->cond = 1;
  p->formal[0] = &p->iteration, p->formal[1] = &p->cond;
  for (int32_t k = 0; k < n_carried; k++) p->formal[2 + k] = NULL;
  mx_sub_bind bind = {loop_bind, p};
  /* the body's inputs hold the shapes inferred at load, which loop_infer
   * found the node's inputs have now */
  if ((st = mx_sub_prepare(c, p->body, first, NULL, p->formal, 2 + n_carried, &bind, &p->arena)))
    return mx_fail_prefix(c->err, st, "node '%s' (Loop-%d): body: ", mx_node_label(c->g, c->node), c->row->since);
  mx_sub *s = p->body;
  for (int32_t v = 0; v < g->n_values && MX_OPS_SHAPES; v++)
    p->per_iteration |= v != g->inputs[0] && g->values[v].kind == MX_VALUE_BIND;
  memcpy(p->planned_scratch, s->scratch, (size_t)g->n_nodes * sizeof(size_t));
  if (mx_shape_count(&s->shapes[g->outputs[0]]) != 1)
    return mx_op_fail(c, MINNX_E_SHAPE, "body's output 0 (cond) has shape %s; it must hold one element",
                      mx_shape_str(&s->shapes[g->outputs[0]], a, sizeof a));
  for (int32_t k = 0; k < n_carried; k++) {
    const mx_shape *o = &s->shapes[g->outputs[1 + k]];
    if (!same_shape(o, c->in[2 + k]))
      return mx_op_fail(c, MINNX_E_SHAPE, "body gives loop-carried value %d shape %s; it comes in as %s, and minnx "
                        "plans every value before a run: a carried value keeps one shape across iterations", (int)k,
                        mx_shape_str(o, a, sizeof a), mx_shape_str(c->in[2 + k], b, sizeof b));
    p->set_bytes += r64(mx_shape_bytes(c->in[2 + k], c->in_dtype[2 + k]));
  }
  p->rows = -1;
  if (n_scan) {
    int64_t m = c->out[n_carried].dims[0]; /* at load, M a graph input: the rows declared (known, or no prepare) */
    if (c->in_data[0]) memcpy(&m, c->in_data[0], sizeof m);
    else if (!c->pool)
      return mx_op_fail(c, MINNX_E_FEATURE, "it has scan outputs, and M is not known before a run (minnx needs it "
                        "constant, computed from shapes, or a graph input to size them)");
    p->rows = m > 0 ? m : 0;
    for (int32_t k = 0; k < n_scan; k++)
      if (c->out[n_carried + k].dims[0] != p->rows)
        return mx_op_fail(c, MINNX_E_SHAPE, "scan output %d has %lld rows planned for M = %lld", (int)k,
                          (long long)c->out[n_carried + k].dims[0], (long long)p->rows);
  }
  size_t arena = r64(p->arena);
  if (p->set_bytes > (SIZE_MAX - arena) / 2)
    return mx_op_fail(c, MINNX_E_LIMIT, "its loop-carried values and body need more bytes than the machine addresses");
  c->scratch = arena + 2 * p->set_bytes;
  if (!c->scratch) c->scratch = 64; /* eval's pointers into it are then never arithmetic on NULL */
  return MINNX_OK;
}

static void loop_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  loop_params *p = (loop_params *)(uintptr_t)params; /* the session's own: the iteration's state lives here */
  mx_sub *s = p->body;
  const mx_graph *g = s->g;
  unsigned char *scratch = x->scratch;
  unsigned char *set[2] = {scratch + r64(p->arena), scratch + r64(p->arena) + p->set_bytes};
  int64_t m = INT64_MAX;
  if (in[0]) memcpy(&m, in[0], sizeof m);
  if (p->n_scan && m > p->rows) m = p->rows;
  int cond = in[1] ? *(const unsigned char *)in[1] != 0 : 1;
  size_t off = 0;
  for (int32_t k = 0; k < p->n_carried; k++) {
    size_t nbytes = mx_shape_bytes(&s->shapes[g->inputs[2 + k]], s->dtypes[g->inputs[2 + k]]);
    if (nbytes) memcpy(set[0] + off, in[2 + k], nbytes);
    off += r64(nbytes);
  }
  int cur = 0;
  int64_t i = 0;
  mx_sub_bind bind = {loop_bind, p};
  for (; i < m && cond; i++) {
    if (i == MX_LOOP_MAX_ITERATIONS) {
      mx_fault(x, MX_FAULT_LOOP_ENDLESS);
      return;
    }
    p->iteration = i, p->cond = (unsigned char)cond;
    off = 0;
    for (int32_t k = 0; k < p->n_carried; k++) {
      p->formal[2 + k] = set[cur] + off;
      off += r64(mx_shape_bytes(&s->shapes[g->inputs[2 + k]], s->dtypes[g->inputs[2 + k]]));
    }
    if (p->per_iteration) {
      p->iter.used = 0;
      int bad = mx_sub_reinfer(s, p->formal, 2 + p->n_carried, &bind, p->iter_scratch, &p->err) != MINNX_OK;
      for (int32_t n = 0; n < g->n_nodes && !bad; n++) bad = p->iter_scratch[n] > p->planned_scratch[n];
      if (bad) {
        mx_fault(x, MX_FAULT_LOOP_SHAPE);
        return;
      }
    }
    mx_sub_run(x, s, scratch, p->formal, in + p->first);
    if (x->fault && *x->fault) return;
    size_t nbytes;
    cond = *(const unsigned char *)mx_sub_output(s, 0, &nbytes) != 0;
    off = 0;
    for (int32_t k = 0; k < p->n_carried; k++) {
      const void *src = mx_sub_output(s, 1 + k, &nbytes);
      if (nbytes) memcpy(set[!cur] + off, src, nbytes);
      off += r64(nbytes);
    }
    for (int32_t k = 0; k < p->n_scan; k++) {
      const void *src = mx_sub_output(s, 1 + p->n_carried + k, &nbytes);
      if (nbytes && out[p->n_carried + k]) memcpy((unsigned char *)out[p->n_carried + k] + (size_t)i * nbytes, src, nbytes);
    }
    cur = !cur;
  }
  if (p->n_scan && i < p->rows) { /* cond ended it: fewer rows than planned */
    mx_fault(x, MX_FAULT_LOOP_ROWS);
    return;
  }
  off = 0;
  for (int32_t k = 0; k < p->n_carried; k++) {
    size_t nbytes = mx_shape_bytes(&s->shapes[g->inputs[2 + k]], s->dtypes[g->inputs[2 + k]]);
    if (nbytes && out[k]) memcpy(out[k], set[cur] + off, nbytes);
    off += r64(nbytes);
  }
}

static const mx_io loop_in[] = {{.name = "M", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_OPTIONAL | MX_IO_CONST},
                                {.name = "cond", .types = MX_BIT(MINNX_BOOL), .flags = MX_IO_OPTIONAL},
                                /* v_initial, then what the body reads of enclosing scopes (the loader appends
                                 * them); the carried values' dtypes are checked per version by infer */
                                {.name = "v_initial", .types = MX_ALL_TYPES, .flags = MX_IO_OPTIONAL | MX_IO_VARIADIC},
                                {0}};
static const mx_io loop_out[] = {{.name = "v_final_and_scan_outputs", .types = MX_ALL_TYPES, .flags = MX_IO_VARIADIC}, {0}};
static const mx_attr_spec loop_attrs[] = {{"body", MX_ATTR_GRAPH}, {NULL, 0}};

#define ROW .in = loop_in, .out = loop_out, .attrs = loop_attrs, .infer = loop_infer, .params_size = loop_params_size, \
            .prepare = loop_prepare, .eval = loop_eval
static const mx_op_row rows[] = {
    {.since = 1, ROW}, {.since = 11, ROW}, {.since = 13, ROW}, {.since = 16, ROW}, {.since = 19, ROW}, {.since = 21, ROW},
};
MX_OP_TABLE(Loop, "", rows);
