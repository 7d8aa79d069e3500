/* The elementwise ops of one operand (ops/math/unary.c): which operation,
 * its attributes, the kernels' shape and their sets, instantiated from
 * ops/math/unary.c.in, unary_math.c.in and unary_int.c.in per dtype and ISA
 * level (ops/math/unary.kernels.cmake). The operation on one element is
 * ops/math/unary_elem.h's. */
#ifndef MX_UNARY_H
#define MX_UNARY_H

#include <stdint.h>

#include "graph/dtype.h"
#include "ops/core/cpu.h"

typedef enum mx_unop {
  /* floats, and the integers the rows allow (unary_int.c.in) */
  MX_NEG, MX_ABS, MX_SIGN, MX_RELU,
  /* floats, double too: IEEE operations and selects (unary.c.in) */
  MX_RECIPROCAL, MX_FLOOR, MX_CEIL, MX_SQRT, MX_ROUND, MX_LEAKY_RELU, MX_HARD_SIGMOID, MX_HARD_SWISH,
  /* float, float16, bfloat16: through ops/core/mathf.h's float32 functions (unary_math.c.in) */
  MX_EXP, MX_LOG, MX_ERF, MX_SIGMOID, MX_TANH, MX_ELU, MX_SELU, MX_SOFTPLUS, MX_GELU, MX_GELU_TANH,
  MX_UNOPS
} mx_unop;

/* The float attributes an op reads (LeakyRelu, HardSigmoid, Elu: alpha;
 * HardSigmoid: beta; Selu: alpha, gamma), as float32, the attribute's type;
 * and the call flag `stream`: MX_OUT_STREAM when the node's output is larger
 * than the last-level cache (ops/core/kernel.h), which float32's IEEE ops
 * at the x86 levels take to stream their stores (the others ignore it). */
typedef struct mx_unary_args {
  float alpha, beta, gamma;
  int stream;
} mx_unary_args;

/* out[i] = op(in[i]) for i < n; out may be in. */
typedef void (*mx_unary_fn)(void *out, const void *in, int64_t n, const mx_unary_args *a);

/* The reference loop, the fuzzer's and the unit tests' oracle: the same
 * per-element operation, one element at a time (ops/math/unary_loops.h). */
typedef void (*mx_unary_ref_fn)(mx_unop op, void *out, const void *in, int64_t n, const mx_unary_args *a);

/* An instance's kernels (NULL where its dtype has no such op) and its
 * reference loop; the three templates' sets have this one layout, each its
 * table's name (ops/core/kernels.cmake). */
struct mx_unary_set {
  mx_unary_fn op[MX_UNOPS];
  mx_unary_ref_fn reference;
};
struct mx_unary_math_set {
  mx_unary_fn op[MX_UNOPS];
  mx_unary_ref_fn reference;
};
struct mx_unary_int_set {
  mx_unary_fn op[MX_UNOPS];
  mx_unary_ref_fn reference;
};

/* The kernel of op for dtype t at the highest level <= isa this build has,
 * and the reference loop; NULL for a dtype minnx or the build leaves out. */
mx_unary_fn mx_unary_kernel(mx_dtype t, mx_unop op, mx_isa isa);
mx_unary_ref_fn mx_unary_ref(mx_dtype t, mx_unop op);

#endif
