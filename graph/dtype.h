/* The one dtype table every module uses. */
#ifndef MX_DTYPE_H
#define MX_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "minnx.h"

typedef minnx_dtype mx_dtype;

#define MX_DTYPE_COUNT 17 /* one past the largest ONNX DataType number minnx knows */

/* A set of dtypes as a bit mask of (1u << dtype). */
typedef uint32_t mx_dtype_set;
#define MX_BIT(t) ((mx_dtype_set)1u << (t))
#define MX_FLOATS (MX_BIT(MINNX_FLOAT16) | MX_BIT(MINNX_FLOAT) | MX_BIT(MINNX_DOUBLE))
#define MX_INTS                                                                                          \
  (MX_BIT(MINNX_INT8) | MX_BIT(MINNX_INT16) | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64) | MX_BIT(MINNX_UINT8) | \
   MX_BIT(MINNX_UINT16) | MX_BIT(MINNX_UINT32) | MX_BIT(MINNX_UINT64))
#define MX_NUMERIC (MX_FLOATS | MX_INTS | MX_BIT(MINNX_BFLOAT16))
#define MX_ALL_TYPES (MX_NUMERIC | MX_BIT(MINNX_BOOL)) /* every dtype minnx holds */

/* The dtypes this build computes on (MINNX_DTYPES at configure time; all by
 * default). Operators refuse the others at load, and their kernels are left
 * out: MX_IF_DTYPE is a constant, so an unused kernel is never referenced. */
#ifndef MX_DTYPES_ENABLED
#define MX_DTYPES_ENABLED 0xFFFFFFFFu
#endif
#define MX_DTYPE_ON(t) ((((mx_dtype_set)(MX_DTYPES_ENABLED)) >> (t)) & 1u)
#define MX_IF_DTYPE(t, f) (MX_DTYPE_ON(t) ? (f) : NULL)
/* Whether an op's dtype t is d, as far as this build can tell: false when the
 * build leaves d out, true when d is the only dtype it has (no other reaches
 * an op), else t == d. Code that branches on dtypes with it keeps only the
 * branches the build can take. */
#define MX_DTYPE_IS(t, d) (MX_DTYPE_ON(d) && ((mx_dtype_set)(MX_DTYPES_ENABLED) == MX_BIT(d) || (t) == (d)))

/* Bytes per element; 0 for dtypes minnx cannot hold (string, complex, undefined). */
size_t mx_dtype_size(int dtype);
/* The ONNX name ("float", "bfloat16"), or "unknown dtype". */
const char *mx_dtype_name(int dtype);

#endif
