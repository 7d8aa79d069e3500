/* The elementwise ops of two operands: Add, Sub, Mul, Div, PRelu, the
 * comparisons and And, Or, Xor. The kernels' shape and their sets, instantiated from
 * ops/math/binary.c.in and logic.c.in per dtype and ISA level
 * (ops/math/binary.kernels.cmake). */
#ifndef MX_BINARY_H
#define MX_BINARY_H

#include <stdint.h>

#include "graph/dtype.h"
#include "ops/core/cpu.h"

typedef enum mx_binop {
  MX_ADD, MX_SUB, MX_MUL, MX_DIV,    /* the output is of the operands' dtype */
  MX_PRELU,                          /* a < 0 ? b * a : a (b: PRelu's slope) */
  MX_EQ, MX_GT, MX_LT, MX_GE, MX_LE, /* bool */
  MX_AND, MX_OR, MX_XOR,             /* bool, of bool operands */
  MX_BINOPS
} mx_binop;

/* For each of `rows` rows of n elements: out[i] = a[i or 0] op b[i or 0]
 * (sa, sb nonzero: the operand steps through the row; zero: one value for
 * the row), then out steps by n, a by da and b by db elements. out may be a
 * or b. MX_OUT_STREAM or-ed into sa (ops/core/kernel.h): the node's output
 * is larger than the last-level cache, store it with streaming stores (the
 * float32 arithmetic's x86 kernels do; the others ignore it). */
typedef void (*mx_binary_fn)(void *out, const void *a, int sa, const void *b, int sb, int64_t n, int64_t rows,
                             int64_t da, int64_t db);

/* The reference loop, the fuzzer's and the unit tests' oracle: out[i] =
 * a[i] op b[i] under numpy broadcasting of the concrete shapes, one element
 * at a time, with the same per-element operation (ops/math/binary_ref.h). */
struct mx_shape;
typedef void (*mx_binary_ref_fn)(mx_binop op, const struct mx_shape *sa, const void *a, const struct mx_shape *sb,
                                 const void *b, const struct mx_shape *so, void *out);

/* An instance's kernels (NULL where the dtype has no such op) and its
 * reference loop. */
struct mx_binary_set {
  mx_binary_fn op[MX_BINOPS];
  mx_binary_ref_fn reference;
};
struct mx_logic_set {
  mx_binary_fn op[MX_BINOPS];
  mx_binary_ref_fn reference;
};

/* The kernel of op for dtype t at the highest level <= isa this build has,
 * and the reference loop; NULL for a dtype it leaves out. */
mx_binary_fn mx_binary_kernel(mx_dtype t, mx_binop op, mx_isa isa);
mx_binary_ref_fn mx_binary_ref(mx_dtype t, mx_binop op);

#endif
