/* Shape rules. (The shape-inference driver is the ops' side: ops/core/infer.h.) */
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

#endif
