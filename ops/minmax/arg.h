/* The arg-reduction kernels (ArgMax, ArgMin): what argmax.c calls, and the
 * sets the templates' instances fill (ops/README.md, "The kernel scheme";
 * arg.kernels.cmake instantiates them). */
#ifndef MX_ARG_H
#define MX_ARG_H

#include <stddef.h>
#include <stdint.h>

#include "ops/core/kernel.h"

/* The input as outer x n x inner (n > 0): out[o * inner + j] is the index
 * along n of the extreme of (o, j), for the columns j in [c0, c1) (the
 * columns of a task; 0 and inner for all; ignored when inner is 1).
 * scratch: MX_ARG_SCRATCH bytes, aligned for any element type, that the call
 * may overwrite (the column kernels' running keys: kernels keep no large
 * arrays on the stack). */
typedef void (*mx_arg_fn)(const void *in, int64_t *out, int64_t outer, int64_t n, int64_t inner, int64_t c0,
                          int64_t c1, void *scratch);
#define MX_ARG_SCRATCH 16384

/* An instance's kernels, [0] giving the first index among ties, [1] the
 * last; NULL for a direction no linked op needs (MINNX_OPS). */
typedef struct mx_arg_kernels {
  mx_arg_fn max[2], min[2];
} mx_arg_kernels;

/* The two tables: kernels along the axis when it is the last one (inner ==
 * 1: rows, arg_along_*.c.in) and across rows (inner > 1: columns,
 * arg_across_*.c.in). A set is its kernels, so a row's set is an
 * mx_arg_kernels. */
struct mx_arg_along_set {
  mx_arg_kernels k;
};
struct mx_arg_across_set {
  mx_arg_kernels k;
};
extern const mx_kernel_row mx_arg_along_rows[], mx_arg_across_rows[];
extern const size_t mx_arg_along_n_rows, mx_arg_across_n_rows;

#endif
