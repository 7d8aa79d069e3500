/* Transpose's copy (transpose_copy.c): a plan made at prepare from the
 * input's dims and the permutation, run by eval; and the plain reference loop
 * the tests hold it to (transpose_ref.c). The copy moves elements by their
 * size only (1, 2, 4 or 8 bytes), never by dtype. */
#ifndef MX_TRANSPOSE_H
#define MX_TRANSPOSE_H

#include "ops/core/op.h"

/* How the copy runs, chosen from the merged axes. */
enum { MX_TRANSPOSE_EMPTY, MX_TRANSPOSE_BLOCK, MX_TRANSPOSE_TILES, MX_TRANSPOSE_WALK };

/* The output's axes after dropping dims of 1 and merging output axes that are
 * adjacent in the input too, each with its input stride (elements). */
typedef struct mx_transpose_plan {
  int32_t rank, kind;
  size_t elem; /* bytes of one element */
  int64_t count; /* elements */
  int64_t dims[MX_MAX_RANK], stride[MX_MAX_RANK];
} mx_transpose_plan;

/* in_dims: the input's (rank of them, concrete); perm: a permutation of
 * [0, rank). */
void mx_transpose_plan_init(mx_transpose_plan *p, size_t elem, int rank, const int64_t *in_dims, const int64_t *perm);
/* The copy, split into tasks through x. */
void mx_transpose_run(const mx_transpose_plan *p, const mx_exec *x, const void *src, void *dst);
/* The reference: output element i from the input element its coordinates
 * name, one at a time. */
void mx_transpose_ref(size_t elem, int rank, const int64_t *in_dims, const int64_t *perm, const void *src, void *dst);

#endif
