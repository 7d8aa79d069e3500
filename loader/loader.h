/* protobuf -> IR. The only module that sees onnx.pb-c.h. */
#ifndef MX_LOADER_H
#define MX_LOADER_H

#include "graph/err.h"
#include "graph/ir.h"

#define MX_MAX_NODES (1 << 20)
#define MX_MAX_NODE_IO (1 << 20) /* inputs or outputs of one node */

/* Called for every node before anything else of the graph is decoded, so that
 * a model using an operator nobody implements is told apart from a broken
 * one. The loader does not know kernels: the caller decides. */
typedef minnx_status (*mx_op_check_fn)(const char *domain, const char *op_type, mx_err *err);

/* Decodes a serialized ModelProto into g; everything it keeps is in pool. */
minnx_status mx_load_model(const void *bytes, size_t size, mx_op_check_fn check, mx_pool *pool, mx_graph *g,
                           mx_err *err);

#endif
