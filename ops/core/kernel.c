/* See kernel.h. */
#include "ops/core/kernel.h"

const void *mx_kernel_find(const mx_kernel_row *rows, size_t n_rows, mx_dtype dtype, mx_isa isa) {
  const mx_kernel_row *best = NULL;
  for (size_t i = 0; i < n_rows; i++)
    if (rows[i].dtype == dtype && rows[i].isa <= isa && (!best || rows[i].isa > best->isa)) best = &rows[i];
  return best ? best->set : NULL;
}
