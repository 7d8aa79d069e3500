/* Structural checks and execution order. */
#ifndef MX_VALIDATE_H
#define MX_VALIDATE_H

#include "graph/err.h"
#include "graph/ir.h"

/* Puts g's nodes in a topological order (Kahn's, file order among ready nodes),
 * refusing cycles. Temporary memory comes from pool. */
minnx_status mx_graph_order(mx_graph *g, mx_pool *pool, mx_err *err);

#endif
