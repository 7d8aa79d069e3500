/* Plain reference loops of every min/max-family operator (TFLM's reference
 * kernels: outer x axis x inner and one comparator), written from the rules
 * alone and meant to be read: the oracle of the kernel tests and the
 * differential fuzzer, and a size-first build's kernels. They follow the
 * fast kernels' contract: shapes are concrete and were checked at load. */
#ifndef MX_EXTREMUM_REF_H
#define MX_EXTREMUM_REF_H

#include "graph/ir.h"
#include "ops/minmax/extremum.h"

/* Max/Min/Maximum/Minimum: out = the extreme of the n inputs at each
 * position under numpy broadcasting (shapes out, in[k]); NaN anywhere gives
 * NaN. */
void mx_ref_elementwise(mx_dtype t, mx_dir dir, int32_t n, const mx_shape *const *shapes, const void *const *in,
                        const mx_shape *out_shape, void *out);

/* ArgMax/ArgMin: the index along `axis` (in [0, rank)) of the extreme, NaN
 * beyond every number; ties give the first index, or the last if `last`. */
void mx_ref_arg(mx_dtype t, mx_dir dir, int last, const mx_shape *shape, int axis, const void *in, int64_t *out);

/* ReduceMax/ReduceMin over the axes whose bit is set in `axes` (bit d: axis
 * d); out has the kept dims in order. NaN anywhere in a set gives NaN; an
 * empty set gives mx_extremum_identity. */
void mx_ref_reduce(mx_dtype t, mx_dir dir, const mx_shape *shape, uint32_t axes, const void *in, void *out);

#endif
