/* Cast's kernel sets (ops/README.md, "The kernel scheme"): the types of the
 * sets that convert.kernels.cmake's templates define, one per dtype and ISA
 * level, and their tables, which mx_convert_choose_isa (convert.c) searches
 * once, at prepare. Three tables:
 *   convert_wide_float.c.in  every dtype, portable: the two-stage path's
 *   convert_wide_int.c.in    loads into wide values and stores from them,
 *                            for the floats and for the integers and bool;
 *   convert_to_float.c.in    float16, bfloat16, int32, int64 to float, and
 *   convert_from_float.c.in  float to them: the frequent pairs' direct loops,
 *                            portable, AVX2 and (int64 to float) AVX-512. */
#ifndef MX_CONVERT_KERNELS_H
#define MX_CONVERT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "ops/core/kernel.h"

/* Converts n elements from in to out (which do not overlap). */
typedef void (*mx_convert_fn)(void *out, const void *in, int64_t n);

/* The two-stage path's wide value, exact for every source: a float's value
 * as a double, an integer's (or bool's 0 or 1) modulo 2^64. */
typedef union mx_wide {
  double f;
  uint64_t u;
} mx_wide;

/* How a target's store reads a wide value: the double of a float; the
 * integer of a signed source (unsigned ones narrower than 64 bits are
 * non-negative int64 values, and bool 0 or 1, so they count as signed); of
 * uint64, whose values from 2^63 are not int64 values. */
typedef enum mx_wide_kind { MX_WIDE_DOUBLE, MX_WIDE_INT, MX_WIDE_UINT, MX_WIDE_KINDS } mx_wide_kind;

struct mx_convert_wide_set {
  mx_convert_fn load;                 /* the dtype to mx_wide (out), exactly */
  mx_convert_fn store[MX_WIDE_KINDS]; /* mx_wide (in) of each kind to the dtype, rounded once */
};
struct mx_convert_to_float_set {
  mx_convert_fn loop; /* the dtype to float */
};
struct mx_convert_from_float_set {
  mx_convert_fn loop;   /* float to the dtype */
  mx_convert_fn stream; /* the same with streaming stores (ops/core/kernel.h), or NULL */
};

extern const mx_kernel_row mx_convert_wide_rows[], mx_convert_to_float_rows[], mx_convert_from_float_rows[];
extern const size_t mx_convert_wide_n_rows, mx_convert_to_float_n_rows, mx_convert_from_float_n_rows;

#endif
