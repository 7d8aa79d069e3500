/* ReduceMax/ReduceMin over any set of axes through the elementwise and row
 * kernels (extremum_kernels.h says how the shape is grouped). */
#include <string.h>

#include "ops/extremum_kernels.h"
#include "ops/kernel.h"

void mx_reduce_init(mx_reduce_walk *w, mx_dtype t, mx_dir dir, int rank, const int64_t *dims, uint32_t axes) {
  memset(w, 0, sizeof *w);
  w->k = mx_pair_kernels_for(t, dir);
  w->esize = mx_dtype_size(t);
  mx_extremum_identity(t, dir, w->identity);
  w->in_count = w->out_count = 1;
  for (int d = 0; d < rank; d++)
    if (dims[d] == 0) { /* empty: the output is all identities (prepare runs when it is not empty) */
      /* The grouped dims are not bounded by a count then: [2, 0, 2, 2^40, 2^40]
       * over axes 1, 3, 4 merges 2^40 * 2^40; the kept dims' product is the
       * output's count, which fits. */
      int kept_zero = 0;
      for (int k = 0; k < rank; k++) kept_zero |= !((axes >> k) & 1) && dims[k] == 0;
      for (int k = 0; k < rank && !kept_zero; k++)
        if (!((axes >> k) & 1)) w->out_count *= dims[k];
      w->in_count = 0;
      w->out_count *= !kept_zero;
      w->n = 1;
      w->dims[0] = 0;
      w->reduced = 1;
      return;
    }
  for (int d = 0; d < rank; d++) {
    int red = (axes >> d) & 1;
    w->in_count *= dims[d];
    if (!red) w->out_count *= dims[d];
    if (dims[d] == 1) continue;
    if (w->n > 0 && (int)((w->reduced >> (w->n - 1)) & 1) == red) {
      w->dims[w->n - 1] *= dims[d];
      continue;
    }
    w->dims[w->n] = dims[d];
    w->reduced |= (uint32_t)red << w->n;
    w->n++;
  }
  if (w->n == 0) { /* one element: a set of one */
    w->n = 1;
    w->dims[0] = 1;
    w->reduced = 1;
  }
}

void mx_reduce_start(const mx_reduce_walk *w, void *out) {
  for (int64_t o = 0; o < w->out_count; o++) memcpy((unsigned char *)out + (size_t)o * w->esize, w->identity, w->esize);
}

void mx_reduce_run(const mx_reduce_walk *w, const void *in, void *out) {
  mx_reduce_start(w, out);
  mx_reduce_part(w, in, out, 0, 1);
}

/* A call's units: rows of a row reduction, or output elements of a fold. */
static int64_t call_units(const mx_reduce_walk *w) {
  int last_reduced = (int)((w->reduced >> (w->n - 1)) & 1);
  int64_t units = 1;
  for (int g = w->n - (last_reduced && w->n >= 2 ? 2 : 1); g < w->n; g++)
    if (!((w->reduced >> g) & 1)) units *= w->dims[g];
  return units;
}

/* A task's share of one kernel call, at least: every task walks all the
 * calls, so a thin share (a few output elements of a fold over a long
 * reduced extent) costs a call and a strided cache miss per few elements,
 * and two threads ran 3-15x slower than one. 16 KB (4 pages) per call and
 * task: at 4 and 8 KB, ReduceMax of [4096,4096] over axis 0 still ran 2-3x
 * slower on 2 threads than on 1 (the prefetcher restarts at each page). */
#define MX_REDUCE_SHARE_BYTES 16384

int64_t mx_reduce_tasks(const mx_reduce_walk *w) {
  if (w->in_count == 0) return 1;
  int64_t row = (w->reduced >> (w->n - 1)) & 1 ? w->dims[w->n - 1] : 1; /* input elements per unit */
  int64_t share = MX_REDUCE_SHARE_BYTES / (int64_t)w->esize / row; /* units */
  if (share < 16) share = 16;
  int64_t tasks = w->in_count / (int64_t)(MX_TASK_BYTES / w->esize), most = call_units(w) / share;
  if (tasks > most) tasks = most;
  if (tasks > MX_MAX_TASKS) tasks = MX_MAX_TASKS;
  return tasks < 2 ? 1 : tasks;
}

void mx_reduce_part(const mx_reduce_walk *w, const void *in_, void *out_, int64_t part, int64_t parts) {
  const unsigned char *in = in_;
  unsigned char *out = out_;
  if (w->in_count == 0) return;
  /* the last group (and, when it is reduced, the kept group before it) goes
   * to one kernel call; the groups before it are walked like an odometer */
  int last_reduced = (int)((w->reduced >> (w->n - 1)) & 1);
  int inner = last_reduced && w->n >= 2 ? 2 : 1; /* groups a call covers */
  int outer = w->n - inner;
  int64_t in_len = 1, out_len = 1; /* elements a call reads and writes */
  for (int g = outer; g < w->n; g++) {
    in_len *= w->dims[g];
    if (!((w->reduced >> g) & 1)) out_len *= w->dims[g];
  }
  int64_t span[MX_MAX_RANK]; /* the output's step along kept outer group g */
  int64_t s = out_len;
  for (int g = outer - 1; g >= 0; g--) {
    span[g] = s;
    if (!((w->reduced >> g) & 1)) s *= w->dims[g];
  }
  /* this part's units of every call, cut on 16 */
  int64_t u0 = out_len * part / parts / 16 * 16;
  int64_t u1 = part + 1 == parts ? out_len : out_len * (part + 1) / parts / 16 * 16;
  if (u1 <= u0) return;
  int64_t row = last_reduced ? w->dims[w->n - 1] : 1; /* input elements per unit */
  int64_t idx[MX_MAX_RANK] = {0}, in_off = 0, out_off = 0;
  for (;;) {
    const unsigned char *x = in + (size_t)(in_off + u0 * row) * w->esize;
    unsigned char *y = out + (size_t)(out_off + u0) * w->esize;
    if (last_reduced)
      w->k->rows(y, x, w->dims[w->n - 1], u1 - u0);
    else
      w->k->pair(y, y, MX_CACHED, x, MX_STREAM, u1 - u0, 1, 0, 0);
    /* the next position of the outer groups: the input steps by a call's
     * length; the output steps only along kept groups, and goes back to the
     * start of a kept run when a reduced group wraps */
    int g = outer - 1;
    in_off += in_len;
    for (; g >= 0; g--) {
      int red = (int)((w->reduced >> g) & 1);
      if (!red) out_off += span[g];
      if (++idx[g] < w->dims[g]) break;
      idx[g] = 0;
      if (!red) out_off -= span[g] * w->dims[g];
    }
    if (g < 0) return;
  }
}
