/* The registry and the stages' side of the op contract (ops/core/op.h): resolving
 * nodes to rows, the checks every row gets, and the infer and prepare drivers. */
#ifndef MX_REGISTRY_H
#define MX_REGISTRY_H

#include "graph/err.h"
#include "graph/ir.h"
#include "ops/core/op.h"

/* MINNX_OK when some version of the operator is linked in (the loader's op check). */
minnx_status mx_op_known(const char *domain, const char *op_type, mx_err *err);

/* The features ops/ops.cmake says each op uses (MX_OP's second argument). */
enum { MX_OPS_VIEWS_BIT = 1u << 0, MX_OPS_DATA_BIT = 1u << 1, MX_OPS_SCRATCH_BIT = 1u << 2 };
/* 1 when every linked op uses only the features ops/ops.cmake declares for
 * it (the build leaves out the code of undeclared ones). For the tests. */
int mx_op_features_declared(void);

/* Resolves every node of g to the row of the highest since <= the model's
 * opset for its domain, and marks each view output's view_of (the value whose
 * bytes it shares; g in execution order). */
minnx_status mx_resolve(mx_graph *g, mx_err *err);

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
} mx_prep;

/* Whether a shape of g depends on a graph input's bytes (an MX_IO_CONST
 * input that is a graph input): such a graph is planned again at each run. */
int mx_shapes_read_inputs(const mx_graph *g);

/* Infers the dtype and shape of every node output of g in execution order,
 * from `shapes` and `dtypes` (by value id: inputs and initializers filled in,
 * node outputs holding their declared type or UNDEFINED / rank -1) into the
 * same arrays; with both NULL (at load, with `fold`), from and into the
 * values' own. With `fold` (g's own values, at load), an output whose bytes
 * infer gives becomes a constant there; infer takes bytes it computes from
 * `pool` (the model's). With `prep`, each node whose shapes
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

#endif
