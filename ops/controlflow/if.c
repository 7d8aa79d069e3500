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

typedef struct {
  mx_sub *branch[2]; /* then, else */
  int32_t first[2];  /* the node input of each branch's first capture */
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
    if (c->pool && (st = mx_sub_infer_load(c, br[k], first[k], NULL, NULL, 0, 0)))
      return mx_fail_prefix(c->err, st, "node '%s' (If-%d): %s: ", mx_node_label(c->g, c->node), c->row->since, names[k]);
    if (!c->pool && !mx_sub_same_captures(c, br[k], first[k]))
      return mx_op_fail(c, MINNX_E_FEATURE, "%s reads outer values whose shapes are known only once the inputs are bound; "
                        "minnx infers a branch at load", names[k]);
    if (br[k]->n_outputs != c->n_out)
      return mx_op_fail(c, MINNX_E_MODEL, "%s gives %d outputs; the node has %d", names[k], (int)br[k]->n_outputs,
                        (int)c->n_out);
  }
  for (int32_t k = 0; k < c->n_out; k++) {
    const mx_value *t = &br[0]->values[br[0]->outputs[k]], *e = &br[1]->values[br[1]->outputs[k]];
    if (t->dtype != e->dtype)
      return mx_op_fail(c, MINNX_E_TYPE, "output %d has dtype %s in then_branch but %s in else_branch; they must agree", (int)k,
                        mx_dtype_name(t->dtype), mx_dtype_name(e->dtype));
    if (t->shape.rank != e->shape.rank ||
        memcmp(t->shape.dims, e->shape.dims, (size_t)(t->shape.rank > 0 ? t->shape.rank : 0) * sizeof t->shape.dims[0]))
      return mx_op_fail(c, MINNX_E_SHAPE, "output %d has shape %s in then_branch but %s in else_branch; minnx plans every "
                        "value before a run and needs one shape", (int)k, mx_shape_str(&t->shape, a, sizeof a),
                        mx_shape_str(&e->shape, b, sizeof b));
    c->out[k] = t->shape;
    c->out_dtype[k] = t->dtype;
  }
  return MINNX_OK;
}

static size_t if_params_size(const mx_node *n) {
  size_t size = (sizeof(if_params) + 15) & ~(size_t)15;
  for (int32_t k = 0; k < n->n_attrs; k++)
    if (mx_attr_graph(&n->attrs[k])) size += mx_sub_bytes(n->attrs[k].g);
  return size;
}

static minnx_status if_prepare(mx_op_ctx *c, void *params) {
  if_params *p = params;
  mx_graph *br[2];
  minnx_status st = branches(c, br, p->first);
  if (st) return st;
  unsigned char *at = (unsigned char *)params + ((sizeof(if_params) + 15) & ~(size_t)15);
  size_t arena[2];
  for (int k = 0; k < 2; k++) {
    p->branch[k] = mx_sub_carve(at, br[k]);
    at += mx_sub_bytes(br[k]);
    if ((st = mx_sub_prepare(c, p->branch[k], p->first[k], NULL, NULL, 0, NULL, &arena[k])))
      return mx_fail_prefix(c->err, st, "node '%s' (If-%d): %s: ", mx_node_label(c->g, c->node), c->row->since, names[k]);
  }
  c->scratch = arena[0] > arena[1] ? arena[0] : arena[1];
  return MINNX_OK;
}

static void if_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const if_params *p = params;
  int b = *(const unsigned char *)in[0] ? 0 : 1;
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
