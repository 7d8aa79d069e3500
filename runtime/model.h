/* The model and session structures behind the public handles. */
#ifndef MX_MODEL_H
#define MX_MODEL_H

#include "graph/err.h"
#include "graph/ir.h"
#include "graph/region.h"
#include "loader/loader.h"
#include "ops/core/cpu.h"

typedef struct mx_plan {
  size_t *offsets;    /* arena offset of each value; SIZE_MAX when it lives elsewhere */
  size_t *scratch;    /* arena offset of each node's scratch; SIZE_MAX when it has none */
  size_t arena_size;  /* bytes the plan needs */
  size_t values_size; /* sum of the planned values' sizes, as without reuse */
} mx_plan;

/* A model file mapped by minnx_model_load_file for weights in place: the
 * model's initializers point into it, so it goes with the model. */
typedef struct mx_mapping {
  void *addr;
  size_t size;
  void (*unmap)(void *addr, size_t size); /* NULL: nothing mapped */
} mx_mapping;

struct minnx_model {
  mx_mem mem;       /* the caller's hooks and max_memory; sessions take theirs from here */
  mx_region region; /* a model loaded into caller memory: the pool's memory */
  mx_graph g;
  int32_t max_node_inputs, max_node_outputs;
  size_t params_bytes; /* params of all nodes, the same for every session */
  size_t max_params; /* the largest node's params */
  /* When every shape is known at load, the arena is planned once here and
   * sessions share the offsets (read-only). */
  int planned;
  unsigned char shapes_read_inputs; /* a shape depends on a graph input's bytes: sessions plan at each run */
  unsigned char isa; /* the kernels' mx_isa (minnx_load_options.max_isa, within the CPU's): asked once, at load */
  unsigned char weights_in_place; /* initializers are read as they lie: no packed copies (set with MX_OPS_PACKED) */
  mx_plan plan;
  mx_mapping mapping;
  /* Owns everything the model holds. Last: a field it gains moves no other
   * (the Cortex-M4's short loads reach the first 128 bytes). */
  mx_pool pool;
};

/* Places every node output of g (shapes, dtypes by value id; both NULL: the
 * values' own, as at load) that is not a view, and each node's scratch (bytes
 * by node; NULL: none), in one arena:
 * what is alive at once never shares bytes, and a view keeps the bytes it
 * shares alive. Temporary memory comes from `a`; `plan->offsets` must have
 * room for g->n_values entries and `plan->scratch` (unless scratch is NULL)
 * for g->n_nodes. */
minnx_status mx_plan_arena(const mx_graph *g, const mx_shape *shapes, const mx_dtype *dtypes, const size_t *scratch,
                           const minnx_allocator *a, mx_plan *plan, mx_err *err);
/* The temporary bytes mx_plan_arena takes from a region's top for g. */
size_t mx_plan_temp_bytes(const mx_graph *g);

/* Loads a model from bytes into memory from the hooks; both public load
 * functions that use hooks end here. External data comes through ext. `held`
 * bytes the caller holds for the load (the file's contents) count against
 * max_memory until it returns. */
minnx_status mx_model_load(const void *data, size_t size, const minnx_load_options *options, const mx_external *ext,
                           size_t held, minnx_model **out, mx_err *err);

#define MX_ARENA_ALIGN 64

#endif
