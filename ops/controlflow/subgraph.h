/* A subgraph (If's branches, Loop's body) inside its node: inferred at load,
 * prepared and planned with the node, run by the node's eval.
 *
 * - Scopes: the loader gives each subgraph a graph of its own; a name it
 *   reads from an enclosing scope becomes one of its inputs (mx_graph.n_captures),
 *   and the node takes the outer value as an extra input (ONNX's lexical
 *   scope: the subgraph's own names first, then each enclosing graph's,
 *   nearest first). The enclosing graph therefore orders, keeps alive and
 *   plans what a subgraph reads as it does any node input; a capture whose
 *   outer value is a constant becomes a constant of the subgraph at load
 *   (its nodes fold on it).
 * - Load: the node's infer infers the subgraph's values in place (with
 *   folding), from the node's inputs' dtypes and shapes.
 * - Prepare: the node's params hold, per subgraph, its nodes' params, the
 *   shapes of its values, their bytes' pointers, and its arena plan; the
 *   subgraph's values and its nodes' scratch live in the node's scratch (its
 *   arena, part of the session's), so running it allocates nothing. All of it
 *   is sized at load from the subgraph alone (mx_sub_bytes).
 * - Eval: mx_sub_run points the subgraph's inputs at the bytes given and runs
 *   its nodes in order, as the session runs the main graph. */
#ifndef MX_SUBGRAPH_H
#define MX_SUBGRAPH_H

#include "ops/core/infer.h"
#include "runtime/model.h"

typedef struct mx_sub {
  const mx_graph *g;
  void **params;       /* per node: its params, NULL when it does not run */
  void **params_mem;   /* per node: where its params are (params[i] is reset to it at each prepare) */
  size_t *scratch;     /* per node: the scratch bytes its prepare asks for */
  mx_plan plan;        /* offsets in the node's scratch */
  mx_shape *shapes;    /* per value, concrete once prepared */
  mx_dtype *dtypes;
  const void **data;   /* per value: its bytes while the subgraph runs */
  const void **in_ptrs;
  void **out_ptrs;
  mx_node_bufs bufs;
  unsigned char *temp; /* the planner's work memory */
  size_t temp_size, temp_used;
  int32_t max_in, max_out;
  mx_isa isa; /* the prepare's, for mx_sub_reinfer */
} mx_sub;

/* Values of a subgraph computed before each of its runs (Loop's body: what it
 * computes from the iteration number and constants only, MX_VALUE_BIND in
 * the body): fn computes node i's such outputs (as mx_prep.bind does). */
typedef struct mx_sub_bind {
  minnx_status (*fn)(void *ctx, int32_t i, mx_op_ctx *c, void *params);
  void *ctx;
} mx_sub_bind;

/* Memory a node keeps in its params for the values its subgraphs compute
 * before a run (If: when the inputs are bound; Loop: from the iteration
 * number): bytes at `mem` (NULL: none), `used` of them taken; how many it
 * has is its op's constant (mx_sub_bind_words.cap), so that the params keep
 * their size. */
typedef struct mx_sub_mem {
  unsigned char *mem;
  size_t used;
} mx_sub_mem;

/* An op's memory for such values: `cap` bytes, and what mx_sub_bind_node's
 * refusals say: which op keeps it ("If"), what the values are computed from
 * ("when the inputs are bound"), what they are ("the values its If's branches
 * compute when the inputs are bound"), and when their shapes should be known
 * ("after binding the inputs"). */
typedef struct mx_sub_bind_words {
  size_t cap;
  const char *op, *from, *values, *known;
} mx_sub_bind_words;

/* `bytes` (at least 1, rounded up to 16) of m's `cap`, or NULL when they do not fit. */
void *mx_sub_mem_alloc(mx_sub_mem *m, size_t cap, size_t bytes);

/* An mx_sub_bind.fn's work: node i of s's outputs computed before a run
 * (MX_VALUE_BIND) get their bytes from m; with params, the node's scratch too
 * and its kernel runs. Refusals name the node (c) in w's words. */
minnx_status mx_sub_bind_node(mx_sub *s, int32_t i, mx_op_ctx *c, void *params, mx_sub_mem *m,
                              const mx_sub_bind_words *w);

/* Bytes mx_sub_carve takes for g (a multiple of 16). */
size_t mx_sub_bytes(const mx_graph *g);
/* Lays out an mx_sub for g in mem (mx_sub_bytes(g) bytes, 16-byte aligned); returns it. */
mx_sub *mx_sub_carve(void *mem, const mx_graph *g);

/* At load (c->pool set), from node c's infer: sets the subgraph's inputs
 * given (dtypes and shapes: `n_formal` declared ones first, from `formal`,
 * NULL to keep the declared types, then the captures from c's inputs
 * starting at `first`) and infers its values in place, folding constants.
 * Values computed at bind (MX_VALUE_BIND) are refused unless `per_run`
 * (Loop's body, whose iteration number its caller made such a value: they
 * are then computed before each run of the body, mx_sub_reinfer). */
minnx_status mx_sub_infer_load(mx_op_ctx *c, mx_graph *g, int32_t first, const mx_shape *formal, const mx_dtype *formal_t,
                               int32_t n_formal, int per_run);
/* Whether the subgraph's capture shapes at load are those c's inputs have
 * now (from `first`): its load inference then holds for this session. */
int mx_sub_same_captures(const mx_op_ctx *c, const mx_graph *g, int32_t first);

/* Prepares every node of s with concrete shapes (declared inputs from
 * `formal`, or NULL: those the graph holds; captures from c's inputs from
 * `first`) and plans its arena: the
 * bytes its run needs in *arena. With `bind` (NULL: none), the values
 * computed before a run are computed by it from the declared inputs' bytes
 * in formal_data (NULL entries: not known). */
minnx_status mx_sub_prepare(mx_op_ctx *c, mx_sub *s, int32_t first, const mx_shape *formal, const void *const *formal_data,
                            int32_t n_formal, const mx_sub_bind *bind, size_t *arena);
/* Before a run of a prepared s whose values computed before a run (bind)
 * depend on the declared inputs' bytes (formal_data): infers and prepares
 * its nodes again and computes those values. Fails (err) when a shape
 * differs from the planned one; each node's scratch bytes go to scratch. */
minnx_status mx_sub_reinfer(mx_sub *s, const void *const *formal_data, int32_t n_formal, const mx_sub_bind *bind,
                            size_t *scratch, mx_err *err);

/* Runs s in `arena` (its plan's bytes): declared inputs' bytes from formal,
 * captures' from caps. A fault stops it (x->fault). */
void mx_sub_run(const mx_exec *x, mx_sub *s, unsigned char *arena, const void *const *formal, const void *const *caps);

/* The bytes of subgraph output k after a run, and their count. */
static inline const void *mx_sub_output(const mx_sub *s, int32_t k, size_t *nbytes) {
  int32_t v = s->g->outputs[k];
  *nbytes = mx_shape_bytes(&s->shapes[v], s->dtypes[v]);
  return s->data[mx_bytes_of(s->g, v)];
}

#endif
