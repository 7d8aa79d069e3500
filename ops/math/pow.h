/* Pow (ops/math/pow.c): its kernels' set per base dtype, instantiated from
 * ops/math/pow.c.in (ops/math/pow.kernels.cmake), one kernel per exponent
 * dtype, indexed by that dtype. The operation on one element is
 * ops/math/pow_elem.h's. */
#ifndef MX_POW_H
#define MX_POW_H

#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/math/binary.h"

/* out = a ^ b under numpy broadcasting of the concrete shapes, one element
 * at a time: the fuzzer's and the unit tests' oracle */
typedef void (*mx_pow_ref_fn)(const struct mx_shape *sa, const void *a, const struct mx_shape *sb, const void *b,
                              const struct mx_shape *so, void *out);

struct mx_pow_set {
  mx_binary_fn k[MINNX_BFLOAT16 + 1];
  mx_pow_ref_fn reference[MINNX_BFLOAT16 + 1];
};

/* The kernel for a base of dtype t and an exponent of dtype e at the
 * highest level <= isa this build has, and the reference loop; NULL for a
 * pair minnx or the build leaves out. */
mx_binary_fn mx_pow_kernel(mx_dtype t, mx_dtype e, mx_isa isa);
mx_pow_ref_fn mx_pow_ref(mx_dtype t, mx_dtype e);

#endif
