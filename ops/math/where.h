/* Where (ops/math/where.c): the kernels' shape and set, instantiated from
 * ops/math/where.c.in per dtype (ops/math/where.kernels.cmake). */
#ifndef MX_WHERE_H
#define MX_WHERE_H

#include <stdint.h>

#include "graph/dtype.h"

/* For each of `rows` rows of n elements: out[i] = c[i] ? x[i] : y[i], each
 * operand stepping through the row (sc, sx, sy nonzero) or one value for it,
 * then out steps by n and the operands by dc, dx, dy elements. */
typedef void (*mx_where_fn)(void *out, const uint8_t *c, int sc, const void *x, int sx, const void *y, int sy,
                            int64_t n, int64_t rows, int64_t dc, int64_t dx, int64_t dy);

/* The reference loop (the fuzzer's oracle): each output element from its
 * three operands under numpy broadcasting, one at a time. */
struct mx_shape;
typedef void (*mx_where_ref_fn)(const struct mx_shape *sc, const uint8_t *c, const struct mx_shape *sx, const void *x,
                                const struct mx_shape *sy, const void *y, const struct mx_shape *so, void *out);

struct mx_where_set {
  mx_where_fn run;
  mx_where_ref_fn reference;
};

/* NULL for a dtype this build leaves out. */
const struct mx_where_set *mx_where_kernels(mx_dtype t);

#endif
