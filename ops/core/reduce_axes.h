/* What every reduction over a set of axes shares (ReduceMax and ReduceMin,
 * ReduceSum and the other sums): the axes, given as an attribute (1-17;
 * negative ones from 11) or as an optional constant input (ReduceSum from 13,
 * the others from 18), keepdims, noop_with_empty_axes, the output's shape,
 * and the identity view that noop_with_empty_axes with no axes makes. */
#ifndef MX_REDUCE_AXES_H
#define MX_REDUCE_AXES_H

#include "ops/core/op.h"

/* The reduced axes of an input of rank r as a mask (bit d: axis d), after
 * the checks: each in range (negative ones from 11), none twice. *noop: no
 * axes and noop_with_empty_axes=1. No axes otherwise reduces them all. */
minnx_status mx_reduced_axes(const mx_op_ctx *c, int r, uint32_t *mask, int *noop);
/* infer of such a node: keepdims and noop_with_empty_axes checked, the
 * output's shape (unknown until the rank and the axes are). */
minnx_status mx_reduce_infer(mx_op_ctx *c);
/* views_if: with noop_with_empty_axes=1 and axes absent or an empty constant
 * (known at load), the node is an identity, a view of its input. Empty axes
 * fed at run time still give the input, as a copy (the op's eval). */
int mx_reduce_is_noop(const mx_graph *g, const mx_node *n);

/* The attributes: with axes (before axes became an input), and from then on. */
extern const mx_attr_spec mx_reduce_attrs_axes[];
extern const mx_attr_spec mx_reduce_attrs_noop[];
#define MX_REDUCE_AXES_INPUT {.name = "axes", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_OPTIONAL | MX_IO_CONST}

#endif
