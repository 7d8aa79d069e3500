/* The reference loops' chooser (ops/math/binary.h), in a file of its own so
 * that a build links them only where a test calls it. */
#include "ops/core/kernel.h"
#include "ops/math/binary.h"

extern const mx_kernel_row mx_binary_ref_rows[];
extern const size_t mx_binary_ref_n_rows;

mx_binary_ref_fn mx_binary_ref(mx_dtype t) {
  const struct mx_binary_ref_set *s = mx_kernel_find(mx_binary_ref_rows, mx_binary_ref_n_rows, t, MX_ISA_PORTABLE);
  return s ? s->run : NULL;
}
