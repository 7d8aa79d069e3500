/* The infer and prepare drivers (ops/core/infer.c): the stages' side of the op
 * contract (ops/core/op.h), what every row gets checked for before its own
 * infer runs, inference over a graph with constant folding at load, and each
 * node's prepare. */
#ifndef MX_INFER_H
#define MX_INFER_H

#include "graph/err.h"
#include "graph/ir.h"
#include "ops/core/op.h"

/* Work arrays for one node's mx_op_ctx, sized for the graph's largest node. */
typedef struct mx_node_bufs {
  const mx_shape **in;
  mx_dtype *in_dtype;
  const void **in_data;
  mx_shape *out;
  mx_dtype *out_dtype;
  const void **out_data;
} mx_node_bufs;
/* Carves the arrays from mem (aligned for any C type) into b and returns the
 * bytes they take; with b and mem NULL, only the bytes. */
size_t mx_node_bufs_carve(mx_node_bufs *b, void *mem, int32_t max_in, int32_t max_out);

/* Where mx_infer puts what each node's prepare gives. */
typedef struct mx_prep {
  /* per node: its params (mx_params_size bytes); set to NULL for a node that
   * does not run. NULL: every node prepares into `one` (at load: for the
   * scratch sizes and the refusals only). */
  void **params;
  void *one;
  size_t *scratch; /* per node: the arena scratch its eval needs (0 when it does not run) */
  const void *const *data; /* by value id: bound graph inputs' bytes (sessions); NULL at load */
  mx_isa isa;               /* the level of the kernels prepare chooses (mx_op_ctx.isa) */
#if MX_OPS_PACKED
  int packed; /* without weights_in_place: in a session each node's mx_packed_size bytes follow its params (at
               * load: they will, so that prepare asks for the session's scratch) */
#endif
#if MX_OPS_SHAPES
  /* Sessions: computes node i's outputs that are MX_VALUE_BIND into the
   * session's bind memory right after its prepare (params: NULL when the
   * node has nothing to compute, empty outputs), so that the nodes after it
   * read their bytes (runtime/session.c); the node then never runs. NULL at
   * load. */
  minnx_status (*bind)(void *ctx, int32_t i, mx_op_ctx *c, void *params);
  void *bind_ctx;
#endif
} mx_prep;

/* Infers the dtype and shape of every node output of g in execution order,
 * from `shapes` and `dtypes` (by value id: inputs and initializers filled in,
 * node outputs holding their declared type or UNDEFINED / rank -1) into the
 * same arrays; with both NULL (at load, with `fold`), from and into the
 * values' own. With `fold` (g's own values, at load), an output whose bytes
 * infer gives becomes a constant there; infer takes bytes it computes from
 * `pool` (the model's); a node that computes from shapes and constants only
 * (an MX_IO_SHAPE input, constants, values of MX_VALUE_BIND) and is not
 * folded gives values of MX_VALUE_BIND, computed when the inputs are bound
 * (prep->bind). With `prep`, each node whose shapes
 * are then all known (and whose element counts fit in int64) is prepared,
 * if it runs: it computes (has eval), some output is not a constant and has
 * elements. (A kernel's loops may run over dims of an empty tensor: [2^32,0]
 * has 2^32 rows of nothing; work is bounded by elements only if such a node
 * is skipped.) */
minnx_status mx_infer(const mx_graph *g, mx_value *fold, struct mx_pool *pool, mx_shape *shapes, mx_dtype *dtypes, const mx_node_bufs *b,
                      const mx_prep *prep, mx_err *err);

/* Bytes of node n's params, rounded to 16 so that params placed one after
 * another stay aligned. */
size_t mx_params_size(const mx_node *n);
#if MX_OPS_PACKED
/* Bytes of node n's packed constant inputs (its row's packed_size), rounded
 * to 16 likewise; 0: none. */
size_t mx_packed_size(const mx_graph *g, const mx_node *n);
#endif

#endif
