/* Shape rules and the shape-inference driver. */
#ifndef MX_SHAPE_H
#define MX_SHAPE_H

#include "graph/err.h"
#include "graph/ir.h"

/* Multidirectional (numpy) broadcast of n shapes into out. Dims of -1 are
 * unknown and stay unknown unless another input fixes them. Returns 0 when
 * two known dims conflict. */
int mx_broadcast_shapes(const mx_shape *const *in, int32_t n, mx_shape *out);

/* True when the shapes can be equal (unknown dims match anything). */
int mx_shapes_compatible(const mx_shape *a, const mx_shape *b);

/* Infers the dtype and shape of every node output of g in execution order,
 * from `shapes` and `dtypes` (indexed by value id; inputs and initializers
 * filled in, node outputs holding their declared type or UNDEFINED / rank -1)
 * into the same arrays. `scratch` has room for the largest node's input count. */
minnx_status mx_infer(const mx_graph *g, mx_shape *shapes, mx_dtype *dtypes, const mx_shape **scratch, mx_err *err);

#endif
