/* The registry: resolving nodes to rows (the infer and prepare drivers, which
 * run the rows, are ops/core/infer.h's). */
#ifndef MX_REGISTRY_H
#define MX_REGISTRY_H

#include "graph/err.h"
#include "graph/ir.h"
#include "ops/core/op.h"

/* MINNX_OK when some version of the operator is linked in (the loader's op check). */
minnx_status mx_op_known(const char *domain, const char *op_type, mx_err *err);

/* The since version of the row a node of op_type resolves to in a model
 * importing domain at `version`; 0 when the op is linked in but has no
 * version at or below it, -1 when it is not linked in (minnx_op_since). */
int mx_op_since(const char *domain, const char *op_type, int64_t version);

/* The features ops/ops.cmake says each op uses (MX_OP's second argument). */
enum {
  MX_OPS_VIEWS_BIT = 1u << 0,
  MX_OPS_DATA_BIT = 1u << 1,
  MX_OPS_SCRATCH_BIT = 1u << 2,
  MX_OPS_SHAPES_BIT = 1u << 3,
  MX_OPS_STRINGS_BIT = 1u << 4,
  MX_OPS_GRAPHS_BIT = 1u << 5,
  MX_OPS_PACKED_BIT = 1u << 6,
};
/* 1 when every linked op uses only the features ops/ops.cmake declares for
 * it (the build leaves out the code of undeclared ones). For the tests. */
int mx_op_features_declared(void);

/* Resolves every node of g to the row of the highest since <= the model's
 * opset for its domain, and marks each view output's view_of (the value whose
 * bytes it shares; g in execution order). */
minnx_status mx_resolve(mx_graph *g, mx_err *err);

/* Whether a shape of g depends on a graph input's bytes (an MX_IO_CONST
 * input that is a graph input): such a graph is planned again at each run. */
int mx_shapes_read_inputs(const mx_graph *g);
/* Whether graph input v is one of those whose bytes shapes (or the values
 * computed at bind) depend on: a session compares its bytes with the last
 * plan's to keep that plan. */
int mx_input_read_at_bind(const mx_graph *g, int32_t v);
#if MX_OPS_GRAPHS
/* Whether node n of g reads graph input v (a small one: bool, int32 or int64,
 * at most 16 elements declared) on its way to an If's cond (its outputs feed the cond, or a node
 * that does, two nodes deep at most), in the main graph: such a node is
 * computed when the inputs are bound (MX_VALUE_BIND), so that the If plans
 * only the branch it takes (ops/controlflow/if.c). */
int mx_reads_cond_input(const mx_graph *g, const mx_node *n, int32_t v);
/* Whether n's outputs reach an If's cond (as above), outside a Loop's body:
 * a node computing one from constants only, which infer does not fold, is
 * computed at bind too (Equal(Squeeze(Gather(shape)), 3) -> If). */
int mx_feeds_cond(const mx_graph *g, const mx_node *n);
#endif

#endif
