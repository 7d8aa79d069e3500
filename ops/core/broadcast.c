#include "ops/core/broadcast.h"

#include <string.h>

#include "graph/shape.h"
#include "ops/core/kernel.h"

size_t mx_bplan_size(int32_t n_in) {
  return sizeof(mx_bplan) + (size_t)n_in * (MX_MAX_RANK + 1) * sizeof(int64_t);
}

static int64_t *offsets(const mx_bplan *p) { return (int64_t *)(p + 1) + (size_t)p->n_in * MX_MAX_RANK; }

/* Whether input k is broadcast along output dim i (its dim is 1, or absent). */
static int is_bcast(const mx_shape *in, const mx_shape *out, int i) {
  int off = out->rank - in->rank;
  return i < off || (in->dims[i - off] == 1 && out->dims[i] != 1);
}

void mx_bplan_init(mx_bplan *p, const mx_shape *const *in, int32_t n, const mx_shape *out) {
  p->n_in = n;
  p->count = 1;
  for (int i = 0; i < out->rank; i++) p->count *= out->dims[i];
  /* Collapse: drop dims of size 1, merge neighbours that every input either
   * spans or broadcasts alike. kept[] holds the first output dim of each group. */
  int kept[MX_MAX_RANK], r = 0;
  int64_t dims[MX_MAX_RANK];
  for (int i = 0; i < out->rank; i++) {
    if (out->dims[i] == 1) continue;
    int merge = r > 0;
    for (int32_t k = 0; k < n && merge; k++)
      if (is_bcast(in[k], out, i) != is_bcast(in[k], out, kept[r - 1])) merge = 0;
    if (merge) {
      dims[r - 1] *= out->dims[i];
    } else {
      kept[r] = i;
      dims[r++] = out->dims[i];
    }
  }
  if (r == 0) { /* a scalar, or all ones */
    kept[0] = 0;
    dims[0] = 1;
    r = 1;
  }
  p->rank = r;
  memcpy(p->dims, dims, sizeof dims);
  memset(offsets(p), 0, (size_t)n * sizeof(int64_t));
  for (int32_t k = 0; k < n; k++) {
    int64_t *s = mx_bplan_strides(p, k);
    int64_t step = 1;
    for (int d = r - 1; d >= 0; d--) {
      int b = out->rank > 0 && dims[d] != 1 ? is_bcast(in[k], out, kept[d]) : 1;
      s[d] = b ? 0 : step;
      if (!b) step *= dims[d];
    }
  }
}

void mx_bplan_walk(const mx_bplan *p, mx_tile_fn tile, void *ctx) {
  if (p->count == 0) return;
  int r = p->rank;
  int64_t len = p->dims[r - 1], rows = r > 1 ? p->dims[r - 2] : 1;
  int64_t *off = offsets(p); /* zero: set so by init, and every walk wraps back to it */
  if (r <= 2) { /* one tile: no odometer */
    tile(ctx, 0, off, rows, len);
    return;
  }
  int64_t idx[MX_MAX_RANK] = {0}, tiles = p->count / (len * rows);
  for (int64_t t = 0; t < tiles; t++) {
    tile(ctx, t * rows * len, off, rows, len);
    /* advance the odometer over the dims outside the tile */
    for (int d = r - 3; d >= 0; d--) {
      for (int32_t k = 0; k < p->n_in; k++) off[k] += mx_bplan_strides(p, k)[d];
      if (++idx[d] < p->dims[d]) break;
      for (int32_t k = 0; k < p->n_in; k++) off[k] -= mx_bplan_strides(p, k)[d] * p->dims[d];
      idx[d] = 0;
    }
  }
}

typedef struct {
  const mx_bplan *p;
  mx_tile_fn tile;
  void *ctx;
  int64_t rows, len, total; /* rows of a tile, elements of a row, rows in all */
  int64_t tasks, pieces;    /* pieces: parts of a row (1: tasks take whole rows) */
  int64_t align;            /* a row piece starts at a multiple of this many elements */
} split;

/* Input offsets at the start of tile t: t counts over the dims outside the tile. */
static void tile_offsets(const mx_bplan *p, int64_t t, int64_t *off) {
  for (int32_t k = 0; k < p->n_in; k++) off[k] = 0;
  for (int d = p->rank - 3; d >= 0; d--) {
    int64_t i = t % p->dims[d];
    t /= p->dims[d];
    for (int32_t k = 0; k < p->n_in; k++) off[k] += i * mx_bplan_strides(p, k)[d];
  }
}

/* Global row g of the output: the offsets of its first element. */
static void row_offsets(const split *s, int64_t g, int64_t *off) {
  const mx_bplan *p = s->p;
  tile_offsets(p, g / s->rows, off);
  if (p->rank > 1)
    for (int32_t k = 0; k < p->n_in; k++) off[k] += (g % s->rows) * mx_bplan_strides(p, k)[p->rank - 2];
}

static void split_task(void *ctx, size_t task) {
  const split *s = ctx;
  int64_t i = (int64_t)task;
  const mx_bplan *p = s->p;
  int64_t off[MX_SPLIT_INPUTS];
  if (s->pieces > 1) { /* a piece of one row */
    int64_t g = i / s->pieces, j = i % s->pieces;
    int64_t c0 = s->len * j / s->pieces / s->align * s->align;
    int64_t c1 = j + 1 == s->pieces ? s->len : s->len * (j + 1) / s->pieces / s->align * s->align;
    if (c1 <= c0) return;
    row_offsets(s, g, off);
    for (int32_t k = 0; k < p->n_in; k++) off[k] += c0 * mx_bplan_strides(p, k)[p->rank - 1];
    s->tile(s->ctx, g * s->len + c0, off, 1, c1 - c0);
    return;
  }
  /* whole rows [g0, g1), one tile() call per tile they cross */
  int64_t g0 = s->total * i / s->tasks, g1 = s->total * (i + 1) / s->tasks;
  while (g0 < g1) {
    int64_t n = s->rows - g0 % s->rows;
    if (n > g1 - g0) n = g1 - g0;
    row_offsets(s, g0, off);
    s->tile(s->ctx, g0 * s->len, off, n, s->len);
    g0 += n;
  }
}

void mx_bplan_walk_x(const mx_bplan *p, const mx_exec *x, size_t esize, mx_tile_fn tile, void *ctx) {
  int64_t tasks = p->count / (int64_t)(MX_TASK_BYTES / esize);
  if (!x->parallel || tasks < 2 || p->n_in > MX_SPLIT_INPUTS) {
    mx_bplan_walk(p, tile, ctx);
    return;
  }
  if (tasks > MX_MAX_TASKS) tasks = MX_MAX_TASKS;
  int r = p->rank;
  split s = {p, tile, ctx, r > 1 ? p->dims[r - 2] : 1, p->dims[r - 1], 0, tasks, 1, 64 / (int64_t)esize};
  s.total = p->count / s.len;
  if (s.total < tasks) { /* few long rows: each is cut in pieces */
    s.pieces = (tasks + s.total - 1) / s.total;
    s.tasks = s.total * s.pieces;
  }
  mx_parallel_for(x, split_task, &s, (size_t)s.tasks);
}

/* Two inputs whose shapes do not fit under `rule`, found in one pass: each
 * dim (counted from the right under numpy) is fixed by the first input that
 * gives it (other than 1 under numpy); a later input giving another value
 * conflicts with that one. Without broadcasting the rank is fixed likewise. */
static void conflicting_pair(const mx_op_ctx *c, int broadcast, int32_t *pi, int32_t *pj) {
  int32_t owner[MX_MAX_RANK + 1]; /* [MX_MAX_RANK]: the rank */
  for (int d = 0; d <= MX_MAX_RANK; d++) owner[d] = -1;
  *pi = 0, *pj = 1;
  for (int32_t k = 0; k < c->node->n_inputs; k++) {
    const mx_shape *s = c->in[k];
    if (s->rank < 0) continue;
    if (!broadcast) {
      if (owner[MX_MAX_RANK] >= 0 && c->in[owner[MX_MAX_RANK]]->rank != s->rank) {
        *pi = owner[MX_MAX_RANK], *pj = k;
        return;
      }
      if (owner[MX_MAX_RANK] < 0) owner[MX_MAX_RANK] = k;
    }
    for (int d = 0; d < s->rank; d++) {
      int at = !broadcast ? d : s->rank - 1 - d; /* the dim of s at position d */
      int64_t v = s->dims[at];
      if (v < 0 || (v == 1 && broadcast)) continue;
      if (owner[d] < 0) {
        owner[d] = k;
        continue;
      }
      const mx_shape *o = c->in[owner[d]];
      if (o->dims[!broadcast ? d : o->rank - 1 - d] != v) {
        *pi = owner[d], *pj = k;
        return;
      }
    }
  }
}

minnx_status mx_elementwise_shape(const mx_op_ctx *c, int broadcast) {
  const mx_node *n = c->node;
  mx_shape *out = &c->out[0];
  int ok = 1;
  if (!broadcast) {
    /* One shape for all: each input may fix dims the others leave unknown. */
    *out = *c->in[0];
    for (int32_t k = 1; k < n->n_inputs && ok; k++) {
      const mx_shape *s = c->in[k];
      ok = mx_shapes_compatible(out, s);
      if (ok && out->rank < 0) *out = *s;
      else if (ok && s->rank >= 0)
        for (int d = 0; d < out->rank; d++)
          if (out->dims[d] < 0) out->dims[d] = s->dims[d];
    }
  } else {
    ok = mx_broadcast_shapes(c->in, n->n_inputs, out);
  }
  if (ok) return MINNX_OK;
  int32_t i, j;
  conflicting_pair(c, broadcast, &i, &j);
  char a[96], b[96];
  return mx_op_fail(c, MINNX_E_SHAPE, "input shapes %s and %s %s", mx_shape_str(c->in[i], a, sizeof a),
                    mx_shape_str(c->in[j], b, sizeof b),
                    !broadcast ? "differ and this version does not broadcast" : "are not broadcast-compatible");
}
