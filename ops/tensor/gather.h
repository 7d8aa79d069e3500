/* Gather's copy (gather_copy.c) and its reference loop (gather_ref.c). The
 * output is, per row of the dims before the axis, one slice (the dims after
 * it) per index; a slice is moved by bytes, never by dtype. An index out of
 * range (below -dim, or below 0 before Gather-11; dim or above) reads
 * nothing: its slice is zeros and the run's fault is set (mx_fault). */
#ifndef MX_GATHER_H
#define MX_GATHER_H

#include "ops/core/op.h"

typedef struct mx_gather_params {
  int64_t outer;    /* product of the data's dims before the axis */
  int64_t dim;      /* the axis's dim */
  int64_t n_idx;    /* how many indices */
  int64_t inner;    /* elements of one slice: product of the dims after the axis */
  size_t elem;      /* bytes of one element */
  int idx32;        /* indices are int32 (else int64) */
  int negative;     /* indices in [-dim, -1] count from the end (Gather-11) */
} mx_gather_params;

void mx_gather_run(const mx_gather_params *p, const mx_exec *x, const void *data, const void *idx, void *out);
/* Element by element; returns 1 when an index was out of range (its slice zeros). */
int mx_gather_ref(const mx_gather_params *p, const void *data, const void *idx, void *out);
/* Index j, made to count from 0; -1 when out of range. */
static inline int64_t mx_gather_index(const mx_gather_params *p, const void *idx, int64_t j) {
  int64_t k = p->idx32 ? ((const int32_t *)idx)[j] : ((const int64_t *)idx)[j];
  if (k < 0 && p->negative) k += p->dim; /* k >= INT64_MIN + 0: no overflow, dim >= 0 */
  return k >= 0 && k < p->dim ? k : -1;
}

#endif
