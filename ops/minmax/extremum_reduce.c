/* ReduceMax/ReduceMin over any set of axes through the row and fold kernels
 * (extremum_kernels.h says how the shape is grouped), and how tasks split
 * them. */
#include <string.h>

#include "ops/minmax/extremum_kernels.h"
#include "ops/core/kernel.h"

/* What a task takes at least, scaled with MX_TASK_BYTES (so that the fuzz
 * build, which splits tiny nodes, reaches every split):
 * - of a row reduction's call, 16 KB (4 pages): every task walks all the
 *   calls, so a thin share of a call costs a call and a strided cache miss
 *   per few rows;
 * - of each row a fold reads, a span of 4 KB: the fold prefetches down the
 *   span's column, but DRAM streams short runs worse;
 * - of one reduced group, pieces of 128 KB. */
#define SHARE_BYTES (MX_TASK_BYTES / 4)
#define SPAN_BYTES (MX_TASK_BYTES / 16)
#define PIECE_BYTES (MX_TASK_BYTES * 2)

/* The kernels: a row of the table extremum_pair.kernels.cmake writes from
 * reduce_rows.c.in's instances. */
extern const mx_kernel_row mx_reduce_rows_rows[];
extern const size_t mx_reduce_rows_n_rows;

const mx_reduce_kernels *mx_reduce_kernels_isa(mx_dtype t, mx_dir dir, mx_isa isa) {
  if (!MX_DTYPE_ON(t)) return NULL;
  const struct mx_reduce_rows_set *s =
      mx_kernel_find(mx_reduce_rows_rows, mx_reduce_rows_n_rows, t == MINNX_BOOL ? MINNX_UINT8 : t, isa);
  const mx_reduce_kernels *k = !s ? NULL : dir == MX_MIN ? &s->min : &s->max;
  return k && k->rows ? k : NULL; /* (NULL: a direction no linked op needs) */
}


static int last_reduced(const mx_reduce_walk *w) { return (int)((w->reduced >> (w->n - 1)) & 1); }

/* The calls, and how tasks split them: by whole calls when the outer groups
 * are all kept (the calls' outputs follow one another) and that gives as
 * many tasks as a share of every call does. */
static void plan(mx_reduce_walk *w) {
  int inner = w->n >= 2 ? 2 : 1;
  w->outer = w->n - inner;
  w->flat = 1;
  for (int g = 0; g < w->outer; g++) w->flat &= !((w->reduced >> g) & 1);
  int64_t first = inner == 2 ? w->dims[w->n - 2] : 1, last = w->dims[w->n - 1];
  w->len = last_reduced(w) ? last : first;
  w->units = last_reduced(w) ? first : last;
  w->calls = w->in_count / (w->len * w->units);
  int64_t esize = (int64_t)w->esize, most = w->in_count / (MX_TASK_BYTES / esize);
  if (most > MX_MAX_TASKS) most = MX_MAX_TASKS;
  /* (the bytes can pass INT64_MAX where the count does not: prepare runs
   * before the planner refuses such a tensor) */
  int64_t pieces = w->in_count > INT64_MAX / esize ? INT64_MAX / PIECE_BYTES : w->in_count * esize / PIECE_BYTES;
  w->chunks = w->n == 1 && last_reduced(w) ? pieces : 1;
  if (w->chunks > MX_MAX_TASKS) w->chunks = MX_MAX_TASKS;
  if (w->chunks > 1) {
    w->tasks = w->chunks;
    return;
  }
  w->chunks = 1;
  int64_t share = last_reduced(w) ? SHARE_BYTES / esize / w->len : SPAN_BYTES / esize; /* units */
  if (share < 16) share = 16;
  int64_t by_units = w->units / share;
  w->by_calls = w->flat && w->calls >= by_units;
  w->tasks = w->by_calls ? w->calls : by_units;
  if (w->tasks > most) w->tasks = most;
  if (w->tasks < 2) w->tasks = 1;
}

void mx_reduce_init(mx_reduce_walk *w, mx_dtype t, mx_dir dir, mx_isa isa, int rank, const int64_t *dims, uint32_t axes) {
  memset(w, 0, sizeof *w);
  w->k = mx_reduce_kernels_isa(t, dir, isa);
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
  plan(w);
}

void mx_reduce_start(const mx_reduce_walk *w, void *out) {
  for (int64_t o = 0; o < w->out_count; o++) memcpy((unsigned char *)out + (size_t)o * w->esize, w->identity, w->esize);
}

int64_t mx_reduce_tasks(const mx_reduce_walk *w) { return w->in_count == 0 ? 1 : w->tasks; }

size_t mx_reduce_scratch(const mx_reduce_walk *w) {
  return w->in_count && w->chunks > 1 ? (size_t)w->chunks * w->esize : 0;
}

/* i of n equal cuts of [0, total), the inner ones on a multiple of `round` */
static int64_t cut(int64_t total, int64_t i, int64_t n, int64_t round) {
  return i == n ? total : total * i / n / round * round;
}

/* Piece c of the one reduced group, reduced into *result (which it starts). */
static void piece(const mx_reduce_walk *w, const unsigned char *in, void *result, int64_t c) {
  int64_t lo = cut(w->in_count, c, w->chunks, 16), hi = cut(w->in_count, c + 1, w->chunks, 16);
  memcpy(result, w->identity, w->esize);
  w->k->rows(result, in + (size_t)lo * w->esize, hi - lo, 1);
}

/* Units [u0, u1) of the call whose input is at x and output at y. */
static void call(const mx_reduce_walk *w, const unsigned char *x, unsigned char *y, int64_t u0, int64_t u1) {
  size_t es = w->esize;
  if (last_reduced(w))
    w->k->rows(y + (size_t)u0 * es, x + (size_t)(u0 * w->len) * es, w->len, u1 - u0);
  else
    w->k->fold(y + (size_t)u0 * es, x + (size_t)u0 * es, u1 - u0, w->len, w->units);
}

void mx_reduce_run(const mx_reduce_walk *w, const void *in, void *out) {
  mx_reduce_start(w, out);
  if (w->in_count && w->chunks > 1) {
    /* as tasks would, but each piece's result folded at once */
    _Alignas(8) unsigned char result[8];
    for (int64_t c = 0; c < w->chunks; c++) {
      piece(w, in, result, c);
      w->k->fold(out, result, 1, 1, 1);
    }
    return;
  }
  mx_reduce_part(w, in, out, NULL, 0, 1);
}

void mx_reduce_finish(const mx_reduce_walk *w, void *out, const void *scratch) {
  if (!w->in_count || w->chunks < 2) return;
  for (int64_t c = 0; c < w->chunks; c++)
    w->k->fold(out, (const unsigned char *)scratch + (size_t)c * w->esize, 1, 1, 1);
}

void mx_reduce_part(const mx_reduce_walk *w, const void *in_, void *out_, void *scratch, int64_t part,
                    int64_t parts) {
  const unsigned char *in = in_;
  unsigned char *out = out_;
  size_t es = w->esize;
  if (w->in_count == 0) return;
  if (w->chunks > 1) {
    for (int64_t c = cut(w->chunks, part, parts, 1); c < cut(w->chunks, part + 1, parts, 1); c++)
      piece(w, in, (unsigned char *)scratch + (size_t)c * es, c);
    return;
  }
  int64_t in_len = w->len * w->units; /* elements a call reads */
  if (w->by_calls) {
    for (int64_t c = cut(w->calls, part, parts, 1); c < cut(w->calls, part + 1, parts, 1); c++)
      call(w, in + (size_t)(c * in_len) * es, out + (size_t)(c * w->units) * es, 0, w->units);
    return;
  }
  /* this part's units of every call, cut on 16 */
  int64_t u0 = cut(w->units, part, parts, 16), u1 = cut(w->units, part + 1, parts, 16);
  if (u1 <= u0) return;
  int64_t span[MX_MAX_RANK]; /* the output's step along kept outer group g */
  int64_t s = w->units;
  for (int g = w->outer - 1; g >= 0; g--) {
    span[g] = s;
    if (!((w->reduced >> g) & 1)) s *= w->dims[g];
  }
  int64_t idx[MX_MAX_RANK] = {0}, in_off = 0, out_off = 0;
  for (;;) {
    call(w, in + (size_t)in_off * es, out + (size_t)out_off * es, u0, u1);
    /* the next position of the outer groups: the input steps by a call's
     * length; the output steps only along kept groups, and goes back to the
     * start of a kept run when a reduced group wraps */
    int g = w->outer - 1;
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
