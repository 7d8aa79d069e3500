/* ONNX If (1, 11, 13, 16, 19, 21): runs then_branch when cond (a bool of one
 * element) is true, else else_branch, and gives the branch's outputs.
 * - The versions differ only in the types an output may have: every tensor
 *   dtype minnx holds in all of them; 16 adds sequences and optionals, 19
 *   float8, 21 4-bit integers, none of which minnx holds (the loader refuses
 *   such a declared type, naming it).
 * - Both branches must give as many outputs as the node has, of one dtype
 *   each. From 11 ONNX lets the branches give different shapes; minnx plans
 *   every value before a run, so it refuses a node whose branches' shapes
 *   differ (at load, or at the session's plan when they depend on bound
 *   dims), naming the shapes, rather than size an output that a run could
 *   only tell.
 * - A branch reads outer values by name (ops/controlflow/subgraph.h): the
 *   node's inputs after cond are what then_branch and else_branch capture,
 *   in the order of the node's attributes.
 * - Both branches are prepared and planned with the node; the node's scratch
 *   is the larger of their arenas (one runs at a time), so a run allocates
 *   nothing. The output is copied from the branch's value. */
#include <string.h>

#include "ops/controlflow/subgraph.h"
#include "ops/core/op.h"

#ifndef MX_IF_BIND_BYTES
#define MX_IF_BIND_BYTES 1024 /* a branch's values computed at bind (shapes read, nested conds) */
#endif

typedef struct {
  mx_sub *branch[2]; /* then, else */
  int32_t first[2];  /* the node input of each branch's first capture */
  int taken;         /* the branch a cond known before the run picks (0, 1); -1: the run's cond picks */
  int ready;         /* infer prepared the taken branch already (prepare keeps it) */
  size_t arena;      /* the prepared branches' largest arena */
  mx_sub *cur;       /* the branch if_bind computes values of */
  mx_sub_mem bind;  /* MX_IF_BIND_BYTES, when a branch computes values at bind; else mem NULL */
} if_params;

/* The two branches and where each one's captures start among the node's inputs. */
static minnx_status branches(const mx_op_ctx *c, mx_graph *br[2], int32_t first[2]) {
  const mx_node *n = c->node;
  int32_t at = n->n_inputs;
  br[0] = br[1] = NULL;
  for (int32_t k = 0; k < n->n_attrs; k++) at -= mx_attr_graph(&n->attrs[k]) ? n->attrs[k].g->n_captures : 0;
  for (int32_t k = 0; k < n->n_attrs; k++) {
    mx_graph *g = mx_attr_graph(&n->attrs[k]);
    if (!g) continue;
    int b = strcmp(n->attrs[k].name, "then_branch") == 0 ? 0 : 1;
    br[b] = g, first[b] = at;
    at += g->n_captures;
  }
  if (!br[0] || !br[1]) return mx_op_fail(c, MINNX_E_MODEL, "attribute '%s' is required", br[0] ? "else_branch" : "then_branch");
  return MINNX_OK;
}

static const char *const names[2] = {"then_branch", "else_branch"};

static int same_shape(const mx_shape *a, const mx_shape *b) {
  return a->rank == b->rank && !memcmp(a->dims, b->dims, (size_t)(a->rank > 0 ? a->rank : 0) * sizeof a->dims[0]);
}

/* Whether the cond is computed when the inputs are bound (at load: then a
 * session knows it before each run, and plans the branch it picks). */
static int cond_at_bind(const mx_op_ctx *c) {
#if MX_OPS_SHAPES
  mx_value_kind kind = c->g->values[mx_bytes_of(c->g, c->node->inputs[0])].kind;
  return c->g->nested != 2 && (kind == MX_VALUE_BIND || (kind == MX_VALUE_INPUT && !c->g->nested));
#else
  (void)c;
  return 0;
#endif
}

/* The branch a cond known now picks (a constant at load; a value computed at
 * bind, or a graph input, in a session), or -1. */
static int taken_branch(const mx_op_ctx *c) {
  if (!c->in_data[0] || c->in[0]->rank < 0 || mx_shape_count(c->in[0]) != 1) return -1;
  mx_value_kind kind = c->g->values[mx_bytes_of(c->g, c->node->inputs[0])].kind;
  /* at load only a constant; in a session a value computed at bind too, or
   * the main graph's input (a subgraph's inputs are known only when it runs;
   * in a Loop's body, values known before a run change with the iteration) */
  if (kind != MX_VALUE_INITIALIZER && (c->pool || !cond_at_bind(c))) return -1;
  return *(const unsigned char *)c->in_data[0] ? 0 : 1;
}

/* Whether a branch computes values when the inputs are bound (a Shape, a
 * Size, a cond from them): its If keeps MX_IF_BIND_BYTES for them. */
static int binds(const mx_graph *g) {
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    for (const mx_io *e = n->row ? n->row->in : NULL; e && e->name; e++)
      if (e->flags & MX_IO_SHAPE) return 1;
  }
  for (int32_t v = 0; v < g->n_values && MX_OPS_SHAPES; v++)
    if (g->values[v].kind == MX_VALUE_BIND) return 1;
  return 0;
}

static minnx_status infer_load(mx_op_ctx *c, mx_graph *br[2], const int32_t first[2], int taken) {
  char a[96], b[96];
  int tolerant = taken < 0 && cond_at_bind(c), ok[2] = {0, 0};
  minnx_status st = MINNX_OK, last = MINNX_OK;
  for (int k = 0; k < 2; k++) {
    /* a cond known now: the other branch never runs, nor is inferred (ONNX
     * runs only the branch taken: its shapes may be any) */
    if (taken >= 0 && k != taken) continue;
    st = mx_sub_infer_load(c, br[k], first[k], NULL, NULL, 0, 1);
    if (st) st = mx_fail_prefix(c->err, st, "node '%s' (If-%d): %s: ", mx_node_label(c->g, c->node), c->row->since, names[k]);
    if (st && !tolerant) return st;
    /* a cond known at bind: a branch whose inference fails on the shapes
     * known now is inferred again then, if it is the one taken */
    ok[k] = !st;
    if (st) last = st;
  }
  if (tolerant && !ok[0] && !ok[1]) return last;
  for (int32_t k = 0; k < c->n_out; k++) {
    const mx_value *t = &br[0]->values[br[0]->outputs[k]], *e = &br[1]->values[br[1]->outputs[k]];
    if (taken >= 0 || (tolerant && (!ok[0] || !ok[1]))) {
      const mx_value *o = taken >= 0 ? (taken ? e : t) : ok[0] ? t : e;
      if (o->dtype == MINNX_UNDEFINED)
        return mx_op_fail(c, MINNX_E_TYPE, "output %d of %s has no dtype after inference", (int)k, names[o == e]);
      c->out[k] = taken >= 0 ? o->shape : (mx_shape){.rank = -1}; /* which branch runs is known at bind */
      c->out_dtype[k] = o->dtype;
      continue;
    }
    if (t->dtype != e->dtype)
      return mx_op_fail(c, MINNX_E_TYPE, "output %d has dtype %s in then_branch but %s in else_branch; they must agree", (int)k,
                        mx_dtype_name(t->dtype), mx_dtype_name(e->dtype));
    if (!same_shape(&t->shape, &e->shape)) {
      if (!tolerant)
        return mx_op_fail(c, MINNX_E_SHAPE, "output %d has shape %s in then_branch but %s in else_branch; minnx plans every "
                          "value before a run and needs one shape (or a cond known before the run)", (int)k,
                          mx_shape_str(&t->shape, a, sizeof a), mx_shape_str(&e->shape, b, sizeof b));
      c->out[k] = (mx_shape){.rank = -1};
    } else {
      c->out[k] = t->shape;
    }
    c->out_dtype[k] = t->dtype;
  }
  if (tolerant) mx_fail(c->err, MINNX_OK, "%s", ""); /* a branch's refusal above was not final */
  return MINNX_OK;
}

static size_t round16(size_t v) { return (v + 15) & ~(size_t)15; }

/* Lays out p's branches in the params after it. */
static void carve(if_params *p, mx_graph *br[2]) {
  unsigned char *at = (unsigned char *)p + round16(sizeof(if_params));
  for (int k = 0; k < 2; k++) {
    p->branch[k] = mx_sub_carve(at, br[k]);
    at += mx_sub_bytes(br[k]);
  }
  p->bind = (mx_sub_mem){MX_OPS_SHAPES && (binds(br[0]) || binds(br[1])) ? at : NULL, 0};
}

static const mx_sub_bind_words bind_words = {MX_IF_BIND_BYTES, "If", "when the inputs are bound",
                                              "the values its If's branches compute when the inputs are bound",
                                              "after binding the inputs"};

/* mx_sub_bind.fn: a branch's node i's outputs computed from shapes and
 * constants, into the params' MX_IF_BIND_BYTES, by its own kernel. */
static minnx_status if_bind(void *ctx, int32_t i, mx_op_ctx *c, void *params) {
  if_params *p = ctx;
  return mx_sub_bind_node(p->cur, i, c, params, &p->bind, &bind_words);
}

/* Prepares branch k of p with the node's inputs now, and plans its arena. */
static minnx_status prepare_branch(mx_op_ctx *c, if_params *p, int k) {
  size_t arena;
  mx_sub_bind bind = {if_bind, p};
  p->cur = p->branch[k];
  minnx_status st = mx_sub_prepare(c, p->branch[k], p->first[k], NULL, NULL, 0, &bind, &arena);
  if (st) return mx_fail_prefix(c->err, st, "node '%s' (If-%d): %s: ", mx_node_label(c->g, c->node), c->row->since, names[k]);
  if (arena > p->arena) p->arena = arena;
  return MINNX_OK;
}

static minnx_status if_infer(mx_op_ctx *c) {
  mx_graph *br[2];
  int32_t first[2];
  char a[96], b[96];
  minnx_status st = branches(c, br, first);
  if (st) return st;
  if (c->in[0]->rank >= 0 && mx_shape_count(c->in[0]) >= 0 && mx_shape_count(c->in[0]) != 1)
    return mx_op_fail(c, MINNX_E_SHAPE, "cond has shape %s; it must hold one element", mx_shape_str(c->in[0], a, sizeof a));
  for (int k = 0; k < 2; k++) {
    if (br[k]->n_inputs)
      return mx_op_fail(c, MINNX_E_MODEL, "%s declares %d inputs; a branch takes none", names[k], (int)br[k]->n_inputs);
    if (br[k]->n_outputs != c->n_out)
      return mx_op_fail(c, MINNX_E_MODEL, "%s gives %d outputs; the node has %d", names[k], (int)br[k]->n_outputs,
                        (int)c->n_out);
  }
  int taken = taken_branch(c);
  if (c->pool) return infer_load(c, br, first, taken);
#if MX_OPS_GRAPHS
  if (taken >= 0 && c->params) {
    /* a cond known before the run: only its branch is planned, inferred
     * with the shapes known now */
    if_params *p = c->params;
    carve(p, br);
    p->first[0] = first[0], p->first[1] = first[1];
    p->taken = taken, p->arena = 0, p->ready = 0;
    if ((st = prepare_branch(c, p, taken))) return st;
    p->ready = 1;
    const mx_sub *s = p->branch[taken];
    for (int32_t k = 0; k < c->n_out; k++) {
      c->out[k] = s->shapes[br[taken]->outputs[k]];
      c->out_dtype[k] = s->dtypes[br[taken]->outputs[k]];
    }
    return MINNX_OK;
  }
#endif
  for (int k = 0; k < 2; k++)
    if ((taken < 0 || k == taken) && !mx_sub_same_captures(c, br[k], first[k]))
      return mx_op_fail(c, MINNX_E_FEATURE, "%s reads outer values whose shapes are known only once the inputs are bound; "
                        "minnx infers a branch at load unless its cond is known before the run", names[k]);
  for (int32_t k = 0; k < c->n_out; k++) {
    const mx_value *t = &br[0]->values[br[0]->outputs[k]], *e = &br[1]->values[br[1]->outputs[k]];
    const mx_value *o = taken == 1 ? e : t;
    if (taken < 0 && (t->dtype != e->dtype || !same_shape(&t->shape, &e->shape)))
      return mx_op_fail(c, MINNX_E_SHAPE, "output %d has shape %s in then_branch but %s in else_branch; minnx plans every "
                        "value before a run and needs one shape (or a cond known before the run)", (int)k,
                        mx_shape_str(&t->shape, a, sizeof a), mx_shape_str(&e->shape, b, sizeof b));
    c->out[k] = o->shape;
    c->out_dtype[k] = o->dtype;
  }
  return MINNX_OK;
}

static size_t if_params_size(const mx_node *n) {
  size_t size = round16(sizeof(if_params));
  int bind = 0;
  for (int32_t k = 0; k < n->n_attrs; k++)
    if (mx_attr_graph(&n->attrs[k])) size += mx_sub_bytes(n->attrs[k].g), bind |= binds(n->attrs[k].g);
  return size + (MX_OPS_SHAPES && bind ? MX_IF_BIND_BYTES : 0);
}

static minnx_status if_prepare(mx_op_ctx *c, void *params) {
  if_params *p = params;
  mx_graph *br[2];
  int32_t first[2];
  minnx_status st = branches(c, br, first);
  if (st) return st;
  int taken = taken_branch(c);
  if (!(taken >= 0 && p->ready && p->taken == taken)) {
    carve(p, br);
    p->first[0] = first[0], p->first[1] = first[1];
    p->taken = taken, p->arena = 0;
    for (int k = 0; k < 2; k++)
      if ((taken < 0 || k == taken) && (st = prepare_branch(c, p, k))) return st;
  }
  p->ready = 0;
  c->scratch = p->arena;
  return MINNX_OK;
}

static void if_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const if_params *p = params;
  int b = p->taken >= 0 ? p->taken : *(const unsigned char *)in[0] ? 0 : 1;
  mx_sub *s = p->branch[b];
  mx_sub_run(x, s, x->scratch, NULL, in + p->first[b]);
  if (x->fault && *x->fault) return;
  for (int32_t k = 0; k < s->g->n_outputs; k++) {
    size_t nbytes;
    const void *src = mx_sub_output(s, k, &nbytes);
    if (out[k] && nbytes) memcpy(out[k], src, nbytes);
  }
}

static const mx_io if_in[] = {{.name = "cond", .types = MX_BIT(MINNX_BOOL)},
                              /* what the branches read of enclosing scopes (the loader appends them) */
                              {.name = "captured", .types = MX_ALL_TYPES, .flags = MX_IO_OPTIONAL | MX_IO_VARIADIC},
                              {0}};
static const mx_io if_out[] = {{.name = "outputs", .types = MX_ALL_TYPES, .flags = MX_IO_VARIADIC}, {0}};
static const mx_attr_spec if_attrs[] = {{"then_branch", MX_ATTR_GRAPH}, {"else_branch", MX_ATTR_GRAPH}, {NULL, 0}};

#define ROW .in = if_in, .out = if_out, .attrs = if_attrs, .infer = if_infer, .params_size = if_params_size, \
            .prepare = if_prepare, .eval = if_eval
static const mx_op_row rows[] = {
    {.since = 1, ROW}, {.since = 11, ROW}, {.since = 13, ROW}, {.since = 16, ROW}, {.since = 19, ROW}, {.since = 21, ROW},
};
MX_OP_TABLE(If, "", rows);
