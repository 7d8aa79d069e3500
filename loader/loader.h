/* protobuf -> IR. The only module that sees onnx.pb-c.h. */
#ifndef MX_LOADER_H
#define MX_LOADER_H

#include "graph/err.h"
#include "graph/ir.h"

/* Bounds on what a model may hold, so that load time and memory stay in
 * proportion to what minnx can run. Nodes and values are counted in int32_t
 * ids (and the planner's tree has twice as many leaves): beyond that, memory
 * and max_memory are the bound, as loading and planning grow as n log n. */
#define MX_MAX_NODES (1 << 29)
#define MX_MAX_NODE_IO (1 << 16)   /* inputs or outputs of one node */
#define MX_MAX_VALUES (1 << 29)    /* graph inputs + initializers + node outputs */
#define MX_MAX_NODE_ATTRS 64       /* attributes of one node */
#define MX_MAX_OPSETS 64           /* opset_import entries */

/* Called for every node before anything else of the graph is decoded, so that
 * a model using an operator nobody implements is told apart from a broken
 * one. The loader does not know kernels: the caller decides. */
typedef minnx_status (*mx_op_check_fn)(const char *domain, const char *op_type, mx_err *err);

/* Where initializers with data_location EXTERNAL are read from: `read` has
 * the contract of minnx_load_options.read_external. NULL read: refused. */
typedef struct mx_external {
  minnx_status (*read)(void *user, const char *location, uint64_t offset, uint64_t length, void *dst, mx_err *err);
  void *user;
} mx_external;

/* Decodes a serialized ModelProto into g; everything it keeps is in pool,
 * except, with `in_place`, the initializer bytes it can use where they are in
 * `bytes` (minnx_load_options.weights_in_place). */
minnx_status mx_load_model(const void *bytes, size_t size, mx_op_check_fn check, const mx_external *ext, int in_place,
                           mx_pool *pool, mx_graph *g, mx_err *err);

#endif
