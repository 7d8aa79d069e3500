/* The chooser of the elementwise kernels (extremum_pair.h): a row of the
 * table extremum_pair.kernels.cmake writes from pair.c.in's instances. */
#include <stddef.h>

#include "ops/core/kernel.h"
#include "ops/minmax/extremum_pair.h"

extern const mx_kernel_row mx_pair_rows[];
extern const size_t mx_pair_n_rows;

const mx_pair_kernels *mx_pair_kernels_isa(mx_dtype t, mx_dir dir, mx_isa isa) {
  if (!MX_DTYPE_ON(t)) return NULL;
  const struct mx_pair_set *s = mx_kernel_find(mx_pair_rows, mx_pair_n_rows, t == MINNX_BOOL ? MINNX_UINT8 : t, isa);
  const mx_pair_kernels *k = !s ? NULL : dir == MX_MIN ? &s->min : &s->max;
  return k && k->pair ? k : NULL; /* (NULL: a direction no linked op needs) */
}

