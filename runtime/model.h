/* The model and session structures behind the public handles. */
#ifndef MX_MODEL_H
#define MX_MODEL_H

#include "graph/err.h"
#include "graph/ir.h"
#include "loader/loader.h"

struct minnx_model {
  mx_mem mem;   /* the caller's hooks and max_memory; sessions take theirs from here */
  mx_pool pool; /* owns everything below */
  mx_graph g;
  int32_t max_node_inputs;
  size_t plan_bytes; /* kernel plans of all nodes, the same for every session */
};

typedef struct mx_plan {
  size_t *offsets;    /* arena offset of each value; SIZE_MAX when it lives elsewhere */
  size_t arena_size;  /* bytes the plan needs */
  size_t values_size; /* sum of the planned values' sizes, as without reuse */
} mx_plan;

/* Places every node output of g (shapes, dtypes by value id) in one arena:
 * values whose lifetimes overlap never share bytes. Temporary memory comes
 * from `mem`; `plan->offsets` must have room for g->n_values entries. */
minnx_status mx_plan_arena(const mx_graph *g, const mx_shape *shapes, const mx_dtype *dtypes, mx_mem *mem,
                           mx_plan *plan, mx_err *err);

/* Loads a model from bytes; both public load functions end here. External
 * data comes through ext. `held` bytes the caller holds for the load (the
 * file's contents) count against max_memory until it returns. */
minnx_status mx_model_load(const void *data, size_t size, const minnx_load_options *options, const mx_external *ext,
                           size_t held, minnx_model **out, mx_err *err);

#define MX_ARENA_ALIGN 64

#endif
