/* Transpose's copy. Three loop shapes, by what is left once dims of 1 are
 * dropped and output axes adjacent in the input are merged:
 * - one block (the permutation keeps the order of every dim above 1);
 * - tiles: a 2-D transpose, possibly batched ([P,Q] <- [Q,P] and
 *   [N,P,Q] <- [N,Q,P]: swapping the last two axes, NCHW <-> NHWC), walked in
 *   square tiles so that both the rows read and the rows written stay in
 *   the cache;
 * - the walk: an odometer over the output's outer axes, each output row
 *   copied from its strided input (a block copy when the stride is 1).
 * Tasks split the output's rows (tiles: bands of rows) by the data's size
 * alone; every element is copied once, so any split gives the same bytes. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/tensor/transpose.h"

#define TILE 32 /* elements per tile side: 32 x 32 x 8 bytes read and written fit in L1 */

void mx_transpose_plan_init(mx_transpose_plan *p, size_t elem, int rank, const int64_t *in_dims, const int64_t *perm) {
  int64_t istride[MX_MAX_RANK];
  int r = 0;
  p->elem = elem;
  p->count = 1;
  for (int d = rank - 1; d >= 0; d--) {
    istride[d] = d == rank - 1 ? 1 : istride[d + 1] * in_dims[d + 1];
    p->count *= in_dims[d];
  }
  for (int i = 0; i < rank && p->count > 0; i++) {
    int64_t d = in_dims[perm[i]], s = istride[perm[i]];
    if (d == 1) continue;
    if (r > 0 && p->stride[r - 1] == s * d) { /* the previous output axis is the next one out in the input too */
      p->dims[r - 1] *= d;
      p->stride[r - 1] = s;
    } else {
      p->dims[r] = d, p->stride[r] = s, r++;
    }
  }
  if (r == 0) p->dims[0] = 1, p->stride[0] = 1, r = 1;
  p->rank = r;
  if (p->count == 0) p->kind = MX_TRANSPOSE_EMPTY;
  else if (r == 1) p->kind = MX_TRANSPOSE_BLOCK; /* its stride is 1: the input's order */
  else if (r == 2 && p->stride[0] == 1 && p->stride[1] == p->dims[0]) p->kind = MX_TRANSPOSE_TILES;
  else if (r == 3 && p->stride[1] == 1 && p->stride[2] == p->dims[1] && p->stride[0] == p->dims[1] * p->dims[2])
    p->kind = MX_TRANSPOSE_TILES;
  else p->kind = MX_TRANSPOSE_WALK;
}

/* n elements of es bytes from every stride-th of src: es is a constant in
 * each caller (copy_strided), so each element is one load and one store. */
static MX_ALWAYS_INLINE void strided_es(unsigned char *o, const unsigned char *in, int64_t n, int64_t stride, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * es, in + (size_t)(i * stride) * es, es);
}

static void copy_strided(unsigned char *o, const unsigned char *in, int64_t n, int64_t stride, size_t es) {
  switch (es) {
    case 1: strided_es(o, in, n, stride, 1); break;
    case 2: strided_es(o, in, n, stride, 2); break;
    case 4: strided_es(o, in, n, stride, 4); break;
    case 8: strided_es(o, in, n, stride, 8); break;
    default: strided_es(o, in, n, stride, es); break;
  }
}

/* Output rows [r0, r1) of the walk. */
static void walk_rows(const mx_transpose_plan *p, const unsigned char *src, unsigned char *dst, int64_t r0, int64_t r1) {
  int last = p->rank - 1;
  int64_t idx[MX_MAX_RANK], at = 0, len = p->dims[last], rest = r0;
  size_t es = p->elem;
  for (int d = last - 1; d >= 0; d--) { /* the odometer at row r0 */
    idx[d] = rest % p->dims[d];
    rest /= p->dims[d];
    at += idx[d] * p->stride[d];
  }
  unsigned char *o = dst + (size_t)(r0 * len) * es;
  for (int64_t r = r0; r < r1; r++, o += (size_t)len * es) {
    if (p->stride[last] == 1) memcpy(o, src + (size_t)at * es, (size_t)len * es);
    else copy_strided(o, src + (size_t)at * es, len, p->stride[last], es);
    for (int d = last - 1; d >= 0; d--) {
      at += p->stride[d];
      if (++idx[d] < p->dims[d]) break;
      at -= idx[d] * p->stride[d];
      idx[d] = 0;
    }
  }
}

/* One tile: out[p][q] = in[q][p] for p in [p0, p1), q in [q0, q1); P the
 * output's row count (the input's row length), Q the output's row length. */
static MX_ALWAYS_INLINE void tile_es(unsigned char *out, const unsigned char *in, int64_t P, int64_t Q, int64_t p0,
                                     int64_t p1, int64_t q0, int64_t q1, size_t es) {
  for (int64_t pp = p0; pp < p1; pp++)
    for (int64_t q = q0; q < q1; q++) memcpy(out + (size_t)(pp * Q + q) * es, in + (size_t)(q * P + pp) * es, es);
}

static void tile(unsigned char *out, const unsigned char *in, int64_t P, int64_t Q, int64_t p0, int64_t p1, int64_t q0,
                 int64_t q1, size_t es) {
  switch (es) {
    case 1: tile_es(out, in, P, Q, p0, p1, q0, q1, 1); break;
    case 2: tile_es(out, in, P, Q, p0, p1, q0, q1, 2); break;
    case 4: tile_es(out, in, P, Q, p0, p1, q0, q1, 4); break;
    case 8: tile_es(out, in, P, Q, p0, p1, q0, q1, 8); break;
    default: tile_es(out, in, P, Q, p0, p1, q0, q1, es); break;
  }
}

/* Bands [b0, b1) of TILE output rows, counted over the batch. */
static void tile_bands(const mx_transpose_plan *p, const unsigned char *src, unsigned char *dst, int64_t b0, int64_t b1) {
  int b = p->rank - 2; /* the axes: [batch,] P, Q */
  int64_t P = p->dims[b], Q = p->dims[b + 1], bands = (P + TILE - 1) / TILE;
  size_t es = p->elem, plane = (size_t)(P * Q) * es;
  for (int64_t u = b0; u < b1; u++) {
    int64_t n = u / bands, p0 = u % bands * TILE, p1 = p0 + TILE < P ? p0 + TILE : P;
    for (int64_t q0 = 0; q0 < Q; q0 += TILE)
      tile(dst + n * plane, src + n * plane, P, Q, p0, p1, q0, q0 + TILE < Q ? q0 + TILE : Q, es);
  }
}

typedef struct {
  const mx_transpose_plan *p;
  const unsigned char *src;
  unsigned char *dst;
  int64_t units, tasks;
} transpose_task;

static void transpose_part(void *ctx, size_t i) {
  const transpose_task *t = ctx;
  int64_t u0 = t->units * (int64_t)i / t->tasks, u1 = t->units * ((int64_t)i + 1) / t->tasks;
  if (t->p->kind == MX_TRANSPOSE_TILES) tile_bands(t->p, t->src, t->dst, u0, u1);
  else walk_rows(t->p, t->src, t->dst, u0, u1);
}

void mx_transpose_run(const mx_transpose_plan *p, const mx_exec *x, const void *src, void *dst) {
  if (p->kind == MX_TRANSPOSE_EMPTY) return;
  if (p->kind == MX_TRANSPOSE_BLOCK) {
    memcpy(dst, src, (size_t)p->count * p->elem);
    return;
  }
  transpose_task t = {p, src, dst, 1, 1};
  if (p->kind == MX_TRANSPOSE_TILES) {
    int64_t P = p->dims[p->rank - 2];
    t.units = (p->rank == 3 ? p->dims[0] : 1) * ((P + TILE - 1) / TILE);
  } else {
    t.units = p->count / p->dims[p->rank - 1];
  }
  int64_t by_size = (int64_t)((size_t)p->count * p->elem / MX_TASK_BYTES);
  t.tasks = by_size < 1 ? 1 : by_size > MX_MAX_TASKS ? MX_MAX_TASKS : by_size;
  if (t.tasks > t.units) t.tasks = t.units;
  if (t.tasks == 1) transpose_part(&t, 0);
  else mx_parallel_for(x, transpose_part, &t, (size_t)t.tasks);
}
