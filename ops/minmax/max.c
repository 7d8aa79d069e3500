/* Elementwise maximum or minimum of 1..N inputs: ONNX Max and Min (every
 * version) and, through maximum.c, OpenVINO Maximum-1 and Minimum-1. NaN
 * anywhere gives NaN; +0 and -0 are equal.
 * The kernels are the min/max family's (the template pair.c.in); this file
 * walks the broadcast and folds the inputs with them. */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/core/broadcast.h"
#include "ops/minmax/extremum_kernels.h"
#include "ops/core/kernel.h"
#include "ops/minmax/minmax.h"

/* ---- infer ---- */

static minnx_status max_infer(mx_op_ctx *c) { return mx_elementwise_shape(c, (c->row->rules & MX_RULE_BROADCAST) != 0); }

/* ---- prepare and eval ---- */
#ifndef MX_SMALL_KERNELS /* else extremum_small.c's reference loops */

/* With three or more inputs rows are cut into blocks that stay in L1 while
 * every input is folded in, so that each input is read once and the output
 * written once, whatever N. */
#define MX_MAX_BLOCK 2048

typedef struct {
  const mx_pair_kernels *k;
  size_t esize;
  const unsigned char *const *in;
  unsigned char *out;
  const mx_bplan *bp;
  int stream; /* max_params' */
} max_ctx;

typedef struct {
  const mx_pair_kernels *k;
  size_t esize;
  int whole; /* one or two inputs over one collapsed dim: a single pair call */
  int stream; /* one or two inputs and an output larger than the last-level cache: MX_OUT_STREAM (kernel.h), else 0 */
  mx_bplan bp; /* last: its strides follow */
} max_params;

size_t mx_max_params_size(const mx_node *n) { return offsetof(max_params, bp) + mx_bplan_size(n->n_inputs); }

/* The kernels: pair.c.in's, for the dtype at the CPU's ISA level (extremum_pair.c). */
minnx_status mx_max_prepare(mx_op_ctx *c, void *params) {
  max_params *p = params;
  p->k = mx_pair_kernels_isa(c->in_dtype[0], mx_dir_of(c->node), c->isa);
  p->esize = mx_dtype_size(c->in_dtype[0]);
  mx_bplan_init(&p->bp, c->in, c->node->n_inputs, c->out);
  p->whole = p->bp.rank == 1 && p->bp.n_in <= 2 && p->bp.count > 0;
  p->stream = p->bp.n_in <= 2 && mx_streams_out((double)p->bp.count * (double)p->esize) ? MX_OUT_STREAM : 0;
  return MINNX_OK;
}

/* Input k's first element for element j of row `row` of a tile of `rows`
 * rows, how it steps inside a row, and its elements from a row to the next. */
static const unsigned char *input_at(const max_ctx *m, int32_t k, const int64_t *in_off, int64_t rows, int64_t row,
                                     int64_t j, int *step, int64_t *row_step) {
  const int64_t *s = mx_bplan_strides(m->bp, k);
  int r = m->bp->rank;
  *row_step = r > 1 ? s[r - 2] : 0;
  *step = !s[r - 1] ? MX_SCALAR : rows > 1 && !*row_step ? MX_CACHED : MX_STREAM;
  return m->in[k] + (size_t)(in_off[k] + row * *row_step + j * s[r - 1]) * m->esize;
}

/* Block o (element j of row `row` of a tile, blk elements) from three or
 * more inputs: as many at a time as step, up to four (see the triple and quad kernels). */
static void fold_block(const max_ctx *m, unsigned char *o, const int64_t *in_off, int64_t rows, int64_t row, int64_t j,
                       int64_t blk) {
  const int32_t n = m->bp->n_in;
  const unsigned char *x[4];
  int s[4], got;
  int64_t unused;
  for (int32_t k = 0; k < n; k += got) {
    /* the next inputs that step: four to start with, then three beside o */
    int want = k == 0 ? 4 : 3;
    for (got = 0; got < want && k + got < n; got++) {
      x[got] = input_at(m, k + got, in_off, rows, row, j, &s[got], &unused);
      if (!s[got]) break; /* a value goes alone */
    }
    if (k == 0 && got == 4) {
      m->k->quad(o, x[0], s[0], x[1], s[1], x[2], s[2], x[3], s[3], blk);
    } else if (k == 0) {
      x[0] = input_at(m, 0, in_off, rows, row, j, &s[0], &unused);
      x[1] = input_at(m, 1, in_off, rows, row, j, &s[1], &unused);
      m->k->pair(o, x[0], s[0], x[1], s[1], blk, 1, 0, 0);
      got = 2;
    } else if (got == 3) {
      m->k->quad(o, o, MX_CACHED, x[0], s[0], x[1], s[1], x[2], s[2], blk);
    } else if (got == 2) {
      m->k->triple(o, x[0], s[0], x[1], s[1], blk);
    } else { /* one input that steps, or a value */
      m->k->pair(o, o, MX_CACHED, x[0], s[0], blk, 1, 0, 0);
      got = 1;
    }
  }
}

static void max_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const max_ctx *m = ctx;
  const int32_t n = m->bp->n_in;
  unsigned char *o = m->out + (size_t)out_off * m->esize;
  if (n <= 2) { /* one fused pass over the whole tile */
    int s0, s1;
    int64_t da, db;
    const unsigned char *a = input_at(m, 0, in_off, rows, 0, 0, &s0, &da);
    const unsigned char *b = input_at(m, n - 1, in_off, rows, 0, 0, &s1, &db); /* max(x, x) = x, NaN included */
    m->k->pair(o, a, s0 | m->stream, b, s1, len, rows, da, db);
    return;
  }
  for (int64_t row = 0; row < rows; row++)
    for (int64_t j = 0; j < len; j += MX_MAX_BLOCK)
      fold_block(m, o + (size_t)(row * len + j) * m->esize, in_off, rows, row, j,
                 len - j < MX_MAX_BLOCK ? len - j : MX_MAX_BLOCK);
}

void mx_max_eval(const mx_exec *x, const void *params, const void *const *in, void *const *outs) {
  const max_params *p = params;
  void *out = outs[0];
  /* the common case without the walk: a tiny node's run is mostly fixed cost */
  if (p->whole && (!x->parallel || p->bp.count < 2 * (int64_t)(MX_TASK_BYTES / p->esize))) {
    int32_t b = p->bp.n_in - 1;
    p->k->pair(out, in[0], (mx_bplan_strides(&p->bp, 0)[0] ? MX_STREAM : MX_SCALAR) | p->stream, in[b],
            mx_bplan_strides(&p->bp, b)[0] ? MX_STREAM : MX_SCALAR, p->bp.count, 1, 0, 0);
    return;
  }
  max_ctx m = {p->k, p->esize, (const unsigned char *const *)in, out, &p->bp, p->stream};
  mx_bplan_walk_x(&p->bp, x, p->esize, max_tile, &m); /* in tasks when large and the session has threads */
}
#endif

/* ---- the rows ---- */

static const mx_io max_in[] = {{.name = "data_0", .types = MX_FLOATS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max12_in[] = {{.name = "data_0", .types = MX_FLOATS | MX_INTS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max13_in[] = {{.name = "data_0", .types = MX_NUMERIC, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max_out[] = {{.name = "max", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_io min_out[] = {{.name = "min", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_attr_spec max1_attrs[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};

/* One list of versions for Max and Min (the direction comes from the op's name). */
#define ROW(outputs) .out = outputs, .infer = max_infer, .params_size = mx_max_params_size, .prepare = mx_max_prepare, \
                 .eval = mx_max_eval
#define ROWS(o)                                                                 \
  {{ROW(o), .since = 1, .in = max_in, .attrs = max1_attrs},                   \
   {ROW(o), .since = 6, .in = max_in},                                        \
   {ROW(o), .since = 8, .in = max_in, .rules = MX_RULE_BROADCAST},            \
   {ROW(o), .since = 12, .in = max12_in, .rules = MX_RULE_BROADCAST},         \
   {ROW(o), .since = 13, .in = max13_in, .rules = MX_RULE_BROADCAST}}
static const mx_op_row max_rows[] = ROWS(max_out);
static const mx_op_row min_rows[] = ROWS(min_out);
MX_OP_TABLE(Max, "", max_rows);
MX_OP_TABLE(Min, "", min_rows);
