/* The sums' walk over a shape (sum.h says how it is grouped), its blocks and
 * tasks, for the reductions and for Softmax and LogSoftmax. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/reduction/sum.h"

extern const mx_kernel_row mx_sum_rows[], mx_expsum_rows[];
extern const size_t mx_sum_n_rows, mx_expsum_n_rows;

const struct mx_sum_set *mx_sum_kernels(mx_dtype t, mx_isa isa) {
  return MX_DTYPE_ON(t) ? mx_kernel_find(mx_sum_rows, mx_sum_n_rows, t, isa) : NULL;
}

const struct mx_expsum_set *mx_expsum_kernels(mx_dtype t, mx_isa isa) {
  return MX_DTYPE_ON(t) ? mx_kernel_find(mx_expsum_rows, mx_expsum_n_rows, t, isa) : NULL;
}

/* What a task takes at least (scaled with MX_TASK_BYTES, so that the fuzz
 * build splits small nodes too). */
#define TASK_BYTES (MX_TASK_BYTES / 4)

/* The groups (n of them, g[i] elements, red[i] reduced) split into the main
 * reduced group, the kept elements after it and the outer groups. */
static void split(mx_sum_walk *w, int n, const int64_t *g, const int *red) {
  int64_t step[MX_MAX_RANK + 1]; /* step[i]: the elements of groups i.. (group i - 1's step) */
  step[n] = 1;
  for (int i = n; i-- > 0;) step[i] = step[i + 1] * g[i];
  w->units = 1, w->len = 1, w->stride = 1, w->fold = 0;
  if (n > 0 && !red[n - 1]) w->units = g[--n], w->fold = 1;
  if (n > 0) w->len = g[n - 1], w->stride = step[n], n--; /* (the one before a kept group is reduced) */
  w->count = w->len;
  for (int i = 0; i < n; i++)
    if (red[i]) w->rdims[w->nr] = g[i], w->rsteps[w->nr++] = step[i + 1], w->count *= g[i];
    else w->kdims[w->nk] = g[i], w->ksteps[w->nk++] = step[i + 1];
  w->wide_softmax = w->fold && w->k && w->op == MX_SUM_SOFTMAX && w->e && w->e->exp_fold_store;
  w->w = !w->fold || !w->k ? 1
         : w->op <= MX_SUM_LOGSUM || w->wide_softmax ? w->k->w * (MX_SUM_SPAN_BYTES / 32)
                                                     : w->k->w;
  w->ublocks = (w->units + w->w - 1) / w->w;
  w->blocks = w->ublocks;
  for (int i = 0; i < w->nk; i++) w->blocks *= w->kdims[i];
}

/* Tasks over `units` (blocks, or pieces), each with TASK_BYTES of the input
 * at least; of a fold whose partials are in scratch, as many as FOLD_SCRATCH
 * bytes of partials hold (each task takes a scratch of its own), 2 at least,
 * FOLD_TASKS at most. */
#define FOLD_TASKS 16
#define FOLD_SCRATCH ((size_t)1 << 20)
static void plan_tasks(mx_sum_walk *w, int64_t in_count, int64_t units) {
  int64_t most = in_count / (TASK_BYTES / (int64_t)w->esize);
  if (most > MX_MAX_TASKS) most = MX_MAX_TASKS;
  if (w->acc_bytes && (!MX_SUM_VEC || w->share < 2)) {
    int64_t fit = (int64_t)(FOLD_SCRATCH / w->acc_bytes);
    fit = fit < 2 ? 2 : fit > FOLD_TASKS ? FOLD_TASKS : fit;
    if (most > fit) most = fit;
  }
  w->tasks = units < most ? units : most;
  if (w->tasks < 1) w->tasks = 1;
}

/* a fold block's partials: 16 rows of w accumulators, in scratch when they
 * pass the stack's block */
static void plan_acc(mx_sum_walk *w) {
  int64_t lanes = w->units < w->w ? w->units : w->w;
  size_t bytes = w->fold && w->k ? (size_t)MX_SUM_LANES * (size_t)lanes * (32 / (size_t)w->k->w) : 0;
  w->acc_bytes = bytes > MX_SUM_ACC_BYTES ? (bytes + 63) & ~(size_t)63 : 0;
  if (w->acc_bytes && w->wide_softmax) /* and the block's largest and sums after the partials */
    w->acc_bytes = (bytes + 2 * (bytes / MX_SUM_LANES) + 63) & ~(size_t)63;
}

/* A fold of the sums in fewer than SHARE_UNITS wide blocks (axes [0] of
 * [4096,4096] float32: one) shares each block between tasks by its partial
 * rows: unit g of a block takes the partial rows 16 g / share to
 * 16 (g + 1) / share, so the input rows whose partial is one of them, runs
 * of whole neighbouring rows, and the blocks' partials (all in scratch,
 * FOLD_SCRATCH bytes at most) are combined by the tree after the tasks
 * join (mx_sum_done). A task's neighbouring units of a block go as one (one
 * task: the block's rows in the unshared order). Each partial takes the same
 * rows in the same order as unshared: the same bits. The share is fixed by
 * the size alone (the blocks), never by the threads. */
#define SHARE_UNITS 4
/* (never on a Cortex-M, whose fold blocks are 32 bytes: no code for it there) */
#define SHARED(w) (MX_SUM_VEC && (w)->share > 1)
static void plan_share(mx_sum_walk *w) {
#if MX_SUM_VEC
  if (!w->acc_bytes || w->op > MX_SUM_LOGSUM || !w->k->fold_share[0]) return;
  if ((size_t)w->blocks * w->acc_bytes > FOLD_SCRATCH) return;
  int share = 1;
  while (share < MX_SUM_LANES && w->blocks * share < SHARE_UNITS) share *= 2;
  if (share > 1) w->share = share;
#else
  (void)w;
#endif
}

static void kernels(mx_sum_walk *w, mx_sum_op op, mx_dtype t, mx_isa isa) {
  memset(w, 0, sizeof *w);
  w->op = op;
  w->esize = mx_dtype_size(t);
  w->k = mx_sum_kernels(t, isa);
  if (op >= MX_SUM_LOGSUM) w->e = mx_expsum_kernels(t, isa);
}

void mx_sum_init(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, mx_isa isa) {
  mx_sum_init_pieces(w, op, t, rank, dims, axes, isa, MX_SUM_PIECE);
}

/* Pieces (sum.h): one output, its set the whole input, every element in one
 * contiguous row (no fold, no outer reduced group), at least two pieces. */
static void plan_pieces(mx_sum_walk *w, int64_t piece) {
  if (w->op == MX_SUM_LOGSUMEXP || w->blocks != 1 || w->fold || w->nr || w->len < 2 * piece) return;
  w->piece = piece;
  w->pieces = (w->len + piece - 1) / piece;
  plan_tasks(w, w->len, w->pieces);
}

void mx_sum_init_pieces(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes,
                        mx_isa isa, int64_t piece) {
  kernels(w, op, t, isa);
  int64_t g[MX_MAX_RANK], in_count = 1, out_count = 1;
  int red[MX_MAX_RANK], n = 0;
  for (int d = 0; d < rank; d++) {
    in_count *= dims[d];
    if (!(axes >> d & 1)) out_count *= dims[d];
  }
  if (in_count == 0) { /* each output (maybe none) is the value of an empty set */
    for (int d = 0; d < rank; d++)
      if (!(axes >> d & 1) && dims[d] == 0) out_count = 0;
    g[0] = 0, g[1] = out_count, red[0] = 1, red[1] = 0;
    split(w, out_count ? 2 : 0, g, red);
    w->count = 0, w->len = 0;
    if (!out_count) w->blocks = 0;
    plan_acc(w);
    w->tasks = 1;
    return;
  }
  for (int d = 0; d < rank; d++) {
    int r = axes >> d & 1;
    if (dims[d] == 1) continue;
    if (n > 0 && red[n - 1] == r) g[n - 1] *= dims[d];
    else g[n] = dims[d], red[n++] = r;
  }
  split(w, n, g, red);
  plan_acc(w);
  plan_share(w);
  plan_tasks(w, in_count, SHARED(w) ? w->blocks * w->share : w->blocks);
  if (w->k) plan_pieces(w, piece);
}

void mx_softmax_init(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, int axis, int coerced,
                     mx_isa isa) {
  kernels(w, op, t, isa);
  int64_t g[3] = {1, 1, 1};
  int red[3] = {0, 1, 0};
  for (int d = 0; d < rank; d++) g[d < axis ? 0 : d == axis || coerced ? 1 : 2] *= dims[d];
  if (g[0] * g[1] * g[2] == 0) return; /* nothing to write */
  int n = 0;
  int64_t gg[3];
  int rr[3];
  for (int i = 0; i < 3; i++)
    if (g[i] != 1 || i == 1) gg[n] = g[i], rr[n++] = red[i]; /* the axis stays, even of 1 */
  split(w, n, gg, rr);
  plan_acc(w);
  plan_tasks(w, g[0] * g[1] * g[2], w->blocks);
}

/* Block b: the set of w outputs it takes, their place in the input and output. */
static void block_at(const mx_sum_walk *w, int64_t b, int64_t *in_off, int64_t *out_off, int *lanes) {
  int64_t ub = b % w->ublocks, q = b / w->ublocks, off = 0;
  for (int i = w->nk; i-- > 0;) {
    off += q % w->kdims[i] * w->ksteps[i];
    q /= w->kdims[i];
  }
  int64_t u0 = ub * w->w;
  *in_off = off + u0;
  *out_off = b / w->ublocks * w->units + u0;
  *lanes = (int)(w->units - u0 < w->w ? w->units - u0 : w->w);
}

/* A block: its lanes, the largest of each (m) and the partials (acc). */
typedef struct {
  const mx_sum_walk *w;
  const unsigned char *in;
  int lanes;
  const void *m;
  void *acc;
  int64_t as; /* acc's partial rows, accumulators apart */
  int lo, hi; /* a shared block's partial rows (w->share > 1) */
} block;

/* Each row of a block's set in row-major order (the outer reduced groups as
 * an odometer) through the pass's kernel: 0 the largest, 1 sum.c.in's sums,
 * 2 the sums of exp(x - m); j, the index of the row's first element in the
 * set, gives its partial. */
static void each_row(const block *b, int64_t base, int pass) {
  const mx_sum_walk *w = b->w;
  int64_t idx[MX_MAX_RANK] = {0}, off = 0, j = 0;
  for (;;) {
    /* (an empty set: the input may be NULL, and the kernels read nothing) */
    const unsigned char *x = w->len ? b->in + (size_t)(base + off) * w->esize : b->in;
    int finite = w->op == MX_SUM_LOGSUMEXP;
    if (pass == 0 && w->fold) w->e->max_fold((void *)b->m, x, w->len, w->stride, b->lanes, finite, j == 0);
    else if (pass == 0) w->e->max_rows((void *)b->m, x, w->len, finite, j == 0);
    else if (pass == 2 && w->fold) w->e->exp_fold(b->acc, b->as, x, w->len, w->stride, j, b->lanes, b->m);
    else if (pass == 2) w->e->exp_rows(b->acc, x, w->len, j, b->m);
#if MX_SUM_VEC
    else if (SHARED(w))
      w->k->fold_share[w->op == MX_SUM_LOGSUM ? MX_SUM_SUM : w->op](b->acc, b->as, x, w->len, w->stride, j, b->lanes,
                                                                    b->lo, b->hi);
#endif
    else if (w->fold)
      w->k->fold[w->op == MX_SUM_LOGSUM ? MX_SUM_SUM : w->op](b->acc, b->as, x, w->len, w->stride, j, b->lanes, NULL);
    else w->k->rows[w->op == MX_SUM_LOGSUM ? MX_SUM_SUM : w->op](b->acc, x, w->len, j, NULL);
    j += w->len;
    int g = w->nr - 1;
    for (; g >= 0; g--) {
      off += w->rsteps[g];
      if (++idx[g] < w->rdims[g]) break;
      off -= w->rsteps[g] * w->rdims[g];
      idx[g] = 0;
    }
    if (g < 0) return;
  }
}

/* the bytes of one accumulator (lane 0 of each of the 16 partial rows) */
static size_t acc_size(const mx_sum_walk *w) { return 32 / (size_t)w->k->w; }

size_t mx_sum_scratch(const mx_sum_walk *w) {
  if (SHARED(w)) return w->acc_bytes * (size_t)w->blocks; /* every block's partials till the join */
  if (w->acc_bytes && w->blocks) return w->acc_bytes * (size_t)w->tasks;
  size_t n = w->pieces ? (size_t)w->pieces * MX_SUM_LANES * acc_size(w) : 0;
  return (n + 63) & ~(size_t)63;
}

/* Piece i's 16 partials, saved at scratch + i x 16 accumulators. */
static void piece_sums(const mx_sum_walk *w, const unsigned char *in, unsigned char *scratch, int64_t i) {
  _Alignas(64) unsigned char acc[MX_SUM_ACC_BYTES];
  int64_t j0 = i * w->piece, n = w->len - j0 < w->piece ? w->len - j0 : w->piece;
  mx_sum_op op = w->op == MX_SUM_LOGSUM ? MX_SUM_SUM : w->op;
  size_t as = acc_size(w);
  w->k->start(acc, MX_SUM_LANES * w->k->w, op);
  w->k->rows[op](acc, in + (size_t)j0 * w->esize, n, 0, NULL);
  for (int l = 0; l < MX_SUM_LANES; l++) memcpy(scratch + ((size_t)i * MX_SUM_LANES + (size_t)l) * as, acc + l * 32, as);
}

/* Units u to e - 1 of the shared blocks, each block's in one pass: its
 * partial rows lo to hi - 1, started and filled in the block's scratch. */
static void share_units(const mx_sum_walk *w, const void *in, unsigned char *scratch, int64_t u, int64_t e) {
  mx_sum_op op = w->op == MX_SUM_LOGSUM ? MX_SUM_SUM : w->op;
  while (u < e) {
    int64_t bi = u / w->share, end = (bi + 1) * w->share < e ? (bi + 1) * w->share : e, in_off, out_off;
    block b = {w, in, 0, NULL, NULL, 0, (int)(u % w->share * MX_SUM_LANES / w->share), 0};
    b.hi = b.lo + (int)(end - u) * (MX_SUM_LANES / w->share);
    block_at(w, bi, &in_off, &out_off, &b.lanes);
    b.acc = scratch + (size_t)bi * w->acc_bytes, b.as = b.lanes;
    w->k->start((unsigned char *)b.acc + (size_t)b.lo * (size_t)b.as * acc_size(w), (b.hi - b.lo) * b.as, op);
    if (w->len) each_row(&b, in_off, 1);
    u = end;
  }
}

void mx_sum_done(const mx_sum_walk *w, void *out, const void *scratch) {
  if (SHARED(w)) { /* the shared blocks: the tree over each one's partials, the results */
    for (int64_t bi = 0; bi < w->blocks; bi++) {
      int64_t in_off, out_off;
      int lanes;
      block_at(w, bi, &in_off, &out_off, &lanes);
      void *acc = (unsigned char *)scratch + (size_t)bi * w->acc_bytes;
      unsigned char *y = (unsigned char *)out + (size_t)out_off * w->esize;
      if (w->op == MX_SUM_LOGSUM) w->e->finish_log(y, acc, lanes, lanes, NULL);
      else w->k->finish[w->op](y, acc, lanes, lanes, w->count);
    }
    return;
  }
  if (!w->pieces) return;
  _Alignas(64) unsigned char acc[MX_SUM_ACC_BYTES];
  size_t as = acc_size(w);
  w->k->start(acc, MX_SUM_LANES * w->k->w, w->op);
  for (int64_t i = 0; i < w->pieces; i++)
    w->k->merge(acc, (const unsigned char *)scratch + (size_t)i * MX_SUM_LANES * as, w->op);
  if (w->op == MX_SUM_LOGSUM) w->e->finish_log(out, acc, w->k->w, 1, NULL);
  else w->k->finish[w->op](out, acc, w->k->w, 1, w->count);
}

void mx_sum_part(const mx_sum_walk *w, const void *in, void *out_, int64_t part, int64_t parts, void *scratch) {
  unsigned char *out = out_;
  _Alignas(64) unsigned char acc[MX_SUM_ACC_BYTES];
  _Alignas(32) unsigned char m[32], s[32];
  if (w->pieces) {
    for (int64_t i = w->pieces * part / parts, e = w->pieces * (part + 1) / parts; i < e; i++)
      piece_sums(w, in, scratch, i);
    return;
  }
  if (SHARED(w)) {
    int64_t units = w->blocks * w->share;
    share_units(w, in, scratch, units * part / parts, units * (part + 1) / parts);
    return;
  }
  int64_t b0 = w->blocks * part / parts, b1 = w->blocks * (part + 1) / parts, W = w->k->w;
  for (int64_t bi = b0; bi < b1; bi++) {
    int64_t in_off, out_off;
    block b = {w, in, 0, m, acc, W, 0, 0};
    block_at(w, bi, &in_off, &out_off, &b.lanes);
    unsigned char *y = out + (size_t)out_off * w->esize;
    if (w->op == MX_SUM_SOFTMAX || w->op == MX_SUM_LOGSOFTMAX) {
      const unsigned char *x = (const unsigned char *)in + (size_t)in_off * w->esize;
      y = out + (size_t)in_off * w->esize; /* the output has the input's shape */
      if (w->wide_softmax) { /* the same along a column, blocks as wide as the sums' */
        unsigned char *sa = acc, *sm = m, *ss = s;
        int64_t as = W;
        if (w->acc_bytes) { /* partials, largest and sums in this task's scratch */
          size_t row = (size_t)b.lanes * (32 / (size_t)W);
          sa = (unsigned char *)scratch + (size_t)(part % w->tasks) * w->acc_bytes;
          sm = sa + MX_SUM_LANES * row, ss = sm + row, as = b.lanes;
        }
        b.m = sm;
        each_row(&b, in_off, 0);
        w->e->max_done(sm, b.lanes);
        w->k->start(sa, MX_SUM_LANES * as, MX_SUM_SUM);
        w->e->exp_fold_store(sa, as, y, x, w->len, w->stride, b.lanes, sm);
        w->e->total(ss, sa, as, b.lanes);
        w->e->scale_fold(y, w->len, w->stride, b.lanes, ss);
        continue;
      }
      if (w->op == MX_SUM_SOFTMAX && !w->fold && !w->nr && w->e->exp_rows_store) { /* exp once per element */
        if (w->e->max_rows4 && w->len >= MX_SUM_LANES) w->e->max_rows4(m, x, w->len);
        else each_row(&b, in_off, 0), w->e->max_done(m, b.lanes);
        w->k->start(acc, MX_SUM_LANES * W, MX_SUM_SUM);
        w->e->exp_rows_store(acc, y, x, w->len, m);
        w->e->total(s, acc, W, 1);
        w->e->scale_rows(y, w->len, s);
        continue;
      }
      each_row(&b, in_off, 0);
      w->e->max_done(m, b.lanes);
      w->k->start(acc, MX_SUM_LANES * W, MX_SUM_SUM);
      each_row(&b, in_off, 2);
      w->e->total(s, acc, W, b.lanes);
      if (w->fold) w->e->out_fold[w->op == MX_SUM_LOGSOFTMAX](y, x, w->len, w->stride, b.lanes, m, s);
      else w->e->out_rows[w->op == MX_SUM_LOGSOFTMAX](y, x, w->len, m, s);
      continue;
    }
    if (w->acc_bytes) /* a wide fold block: its partials in this task's scratch, as wide as its lanes */
      b.acc = (unsigned char *)scratch + (size_t)(part % w->tasks) * w->acc_bytes, b.as = b.lanes;
    w->k->start(b.acc, MX_SUM_LANES * b.as, w->op);
    if (w->op == MX_SUM_LOGSUMEXP) {
      each_row(&b, in_off, 0);
      w->e->max_done(m, b.lanes);
      each_row(&b, in_off, 2);
      w->e->finish_log(y, acc, W, b.lanes, m);
      continue;
    }
    if (w->len) each_row(&b, in_off, 1);
    if (w->op == MX_SUM_LOGSUM) w->e->finish_log(y, b.acc, b.as, b.lanes, NULL);
    else w->k->finish[w->op](y, b.acc, b.as, b.lanes, w->count);
  }
}

void mx_sum_run(const mx_sum_walk *w, const void *in, void *out, void *scratch) {
  mx_sum_part(w, in, out, 0, 1, scratch);
  mx_sum_done(w, out, scratch);
}
