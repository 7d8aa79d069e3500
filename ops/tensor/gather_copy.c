/* Gather's copy: one slice per (row, index), split into tasks over them by
 * the data's size alone; a slice of 1, 2, 4 or 8 bytes (a gather along the
 * last axis) is one load and one store. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/tensor/gather.h"

static MX_ALWAYS_INLINE void slices_es(const mx_gather_params *p, const mx_exec *x, const unsigned char *data,
                                       const void *idx, unsigned char *out, int64_t u0, int64_t u1, size_t bytes) {
  for (int64_t u = u0; u < u1; u++) {
    int64_t o = u / p->n_idx, k = mx_gather_index(p, idx, u % p->n_idx);
    if (k < 0) {
      memset(out + (size_t)u * bytes, 0, bytes);
      mx_fault(x, MX_FAULT_INDEX);
    } else {
      memcpy(out + (size_t)u * bytes, data + (size_t)(o * p->dim + k) * bytes, bytes);
    }
  }
}

typedef struct {
  const mx_gather_params *p;
  const mx_exec *x;
  const void *data, *idx;
  void *out;
  int64_t units, tasks;
} gather_task;

static void gather_part(void *ctx, size_t i) {
  const gather_task *t = ctx;
  const mx_gather_params *p = t->p;
  int64_t u0 = t->units * (int64_t)i / t->tasks, u1 = t->units * ((int64_t)i + 1) / t->tasks;
  size_t bytes = (size_t)p->inner * p->elem;
  switch (bytes) {
    case 1: slices_es(p, t->x, t->data, t->idx, t->out, u0, u1, 1); break;
    case 2: slices_es(p, t->x, t->data, t->idx, t->out, u0, u1, 2); break;
    case 4: slices_es(p, t->x, t->data, t->idx, t->out, u0, u1, 4); break;
    case 8: slices_es(p, t->x, t->data, t->idx, t->out, u0, u1, 8); break;
    default: slices_es(p, t->x, t->data, t->idx, t->out, u0, u1, bytes); break;
  }
}

void mx_gather_run(const mx_gather_params *p, const mx_exec *x, const void *data, const void *idx, void *out) {
  gather_task t = {p, x, data, idx, out, p->outer * p->n_idx, 1};
  if (t.units == 0 || p->inner == 0) return;
  int64_t by_size = (int64_t)((size_t)(t.units * p->inner) * p->elem / MX_TASK_BYTES);
  t.tasks = by_size < 1 ? 1 : by_size > MX_MAX_TASKS ? MX_MAX_TASKS : by_size;
  if (t.tasks > t.units) t.tasks = t.units;
  if (t.tasks == 1) gather_part(&t, 0);
  else mx_parallel_for(x, gather_part, &t, (size_t)t.tasks);
}
