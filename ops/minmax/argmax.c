/* ArgMax and ArgMin: the index of the largest (smallest) element along one
 * axis, as int64. NaN lies beyond every number in both directions (numpy's
 * argmax and argmin select it); ties give the first index, or the last one
 * with select_last_index=1 (since version 12). The kernels' loops are the
 * templates ops/minmax/arg_along_*.c.in (rows: the axis is the last) and
 * arg_across_*.c.in (columns), instantiated by arg.kernels.cmake. */
#include <stddef.h>

#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/minmax/arg.h"
#include "ops/minmax/minmax.h"

/* A small input gains nothing from wide vectors: its run is mostly setup. */
#define AVX2_FROM 4096 /* elements */

/* ---- infer ---- */

static minnx_status argmax_infer(mx_op_ctx *c) {
  const mx_node *n = c->node;
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  int64_t axis = mx_attr_int(n, "axis", 0);
  int64_t keepdims = mx_attr_int(n, "keepdims", 1);
  int64_t last = mx_attr_int(n, "select_last_index", 0);
  c->out_dtype[0] = MINNX_INT64;
  if (keepdims != 0 && keepdims != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute keepdims is %lld; it must be 0 or 1", (long long)keepdims);
  if (last != 0 && last != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute select_last_index is %lld; it must be 0 or 1", (long long)last);
  if (in->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int64_t r = in->rank;
  int64_t lo = (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -r : 0;
  if (axis < lo || axis > r - 1 || r == 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range [%lld, %lld] for an input of rank %lld", (long long)axis,
                      (long long)lo, (long long)(r - 1), (long long)r);
  if (axis < 0) axis += r;
  if (in->dims[axis] == 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld has size 0, so there is no %s", (long long)axis,
                      mx_dir_of(n) == MX_MIN ? "minimum" : "maximum");
  out->rank = 0;
  for (int64_t d = 0; d < r; d++) {
    if (d == axis && !keepdims) continue;
    out->dims[out->rank++] = d == axis ? 1 : in->dims[d];
  }
  return MINNX_OK;
}

/* Tasks (when the session has threads): ranges of the outer dims, or, when
 * they are fewer than the tasks, pieces of the columns of each; every
 * (outer, column) is one search, so the indices are those of one call. Each
 * task has a scratch of its own. A piece reads runs of at least PIECE_BYTES
 * of each row (DRAM serves short runs at a stride slower) and is cut on
 * PIECE_COLS columns (a multiple of every kernel's strip). */
#define ARG_TASKS 16 /* at most, across rows: each takes a scratch */
#define PIECE_BYTES (MX_TASK_BYTES / 16) /* 4 KiB (the fuzz build's small tasks: small pieces) */
#define PIECE_COLS 128

#ifndef MX_SMALL_KERNELS /* else extremum_small.c's reference loops */
typedef struct {
  mx_arg_fn fn;
  int64_t outer, n, inner;
  size_t esize, scratch; /* a task's scratch bytes */
  int64_t tasks, pieces; /* pieces: of each outer's columns (1: tasks take outer ranges) */
} argmax_params;

size_t mx_argmax_params_size(const mx_node *n) {
  (void)n;
  return sizeof(argmax_params);
}

minnx_status mx_argmax_prepare(mx_op_ctx *c, void *params) {
  int64_t count = mx_shape_count(c->in[0]); /* overflow-checked (sessions refuse those anyway) */
  mx_argmax_prepare_isa(c, params, count >= AVX2_FROM ? c->isa : MX_ISA_PORTABLE);
  return MINNX_OK;
}

/* The kernel: the rows' (arg_along_*.c.in) when the axis is the last, else
 * the columns' (arg_across_*.c.in), of the highest level <= isa. A set is
 * its kernels (arg.h). */
static mx_arg_fn argmax_kernel(mx_dtype t, int64_t inner, mx_dir dir, int last, mx_isa isa) {
  const mx_arg_kernels *k = inner == 1 ? mx_kernel_find(mx_arg_along_rows, mx_arg_along_n_rows, t, isa)
                                       : mx_kernel_find(mx_arg_across_rows, mx_arg_across_n_rows, t, isa);
  return k ? (dir == MX_MIN ? k->min : k->max)[last] : NULL;
}

void mx_argmax_prepare_isa(mx_op_ctx *c, void *params, mx_isa isa) {
  argmax_params *p = params;
  const mx_shape *in = c->in[0];
  int64_t axis = mx_attr_int(c->node, "axis", 0);
  if (axis < 0) axis += in->rank;
  p->outer = 1;
  p->inner = 1;
  for (int64_t d = 0; d < axis; d++) p->outer *= in->dims[d];
  for (int64_t d = axis + 1; d < in->rank; d++) p->inner *= in->dims[d];
  p->n = in->dims[axis];
  p->fn = argmax_kernel(c->in_dtype[0], p->inner, mx_dir_of(c->node), mx_attr_int(c->node, "select_last_index", 0) != 0, isa);
  /* across rows, a key per column of a tile and (the wide kernels) its row,
   * after the keys rounded to 64 (kernels keep no large arrays on the
   * stack); keys are as wide as the elements, rows 4 bytes (8 beside 8-byte
   * keys: arg_dtype.h's lane integers), none under 32 columns (no kernel
   * sweeps fewer than a strip, MX_ARG_STRIP) */
  p->esize = mx_dtype_size(c->in_dtype[0]);
  size_t rows = p->inner < 32 ? 0 : (p->esize < 8 ? 4 : 8) * (size_t)p->inner;
  size_t bytes = ((p->esize * (size_t)p->inner + 63) & ~(size_t)63) + rows;
  p->scratch = p->inner == 1 ? 0 : ((bytes < MX_ARG_SCRATCH ? bytes : MX_ARG_SCRATCH) + 63) & ~(size_t)63;
  int64_t tasks = p->outer * p->n * p->inner / (int64_t)(MX_TASK_BYTES / p->esize);
  int64_t most = p->inner == 1 ? MX_MAX_TASKS : ARG_TASKS;
  p->tasks = tasks < 2 ? 1 : tasks > most ? most : tasks;
  p->pieces = 1;
  if (p->outer > 0 && p->tasks > p->outer) { /* few outer slices: cut their columns (none in rows) */
    /* (a row's bytes can pass INT64_MAX where the count does not: prepare
     * runs before the planner refuses such a tensor) */
    int64_t wide = p->inner > INT64_MAX / (int64_t)p->esize ? INT64_MAX / PIECE_BYTES
                                                             : p->inner * (int64_t)p->esize / PIECE_BYTES;
    p->pieces = p->inner == 1 ? 1 : (p->tasks + p->outer - 1) / p->outer;
    if (p->pieces > wide) p->pieces = wide > 1 ? wide : 1;
    p->tasks = p->outer * p->pieces;
  }
  c->scratch = p->scratch * (size_t)(p->inner == 1 ? 1 : p->tasks);
}

typedef struct {
  const argmax_params *p;
  const unsigned char *in;
  int64_t *out;
  unsigned char *scratch;
} argmax_split;

static void argmax_task(void *ctx, size_t task) {
  const argmax_split *s = ctx;
  int64_t i = (int64_t)task;
  const argmax_params *p = s->p;
  void *scratch = s->scratch ? s->scratch + (size_t)i * p->scratch : NULL;
  if (p->pieces == 1) {
    int64_t o0 = p->outer * i / p->tasks, o1 = p->outer * (i + 1) / p->tasks;
    if (o1 > o0)
      p->fn(s->in + (size_t)(o0 * p->n * p->inner) * p->esize, s->out + o0 * p->inner, o1 - o0, p->n, p->inner, 0,
            p->inner, scratch);
    return;
  }
  /* a piece of one outer slice's columns */
  int64_t o = i / p->pieces, j = i % p->pieces;
  int64_t c0 = p->inner * j / p->pieces / PIECE_COLS * PIECE_COLS;
  int64_t c1 = j + 1 == p->pieces ? p->inner : p->inner * (j + 1) / p->pieces / PIECE_COLS * PIECE_COLS;
  if (c1 > c0)
    p->fn(s->in + (size_t)(o * p->n * p->inner) * p->esize, s->out + o * p->inner, 1, p->n, p->inner, c0, c1, scratch);
}

void mx_argmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const argmax_params *p = params;
  if (!x->parallel || p->tasks < 2) {
    p->fn(in[0], out[0], p->outer, p->n, p->inner, 0, p->inner, x->scratch);
    return;
  }
  argmax_split s = {p, in[0], out[0], x->scratch};
  mx_parallel_for(x, argmax_task, &s, (size_t)p->tasks);
}
#endif

/* ---- the rows ---- */

#define ARGMAX_TYPES (MX_FLOATS | MX_INTS)
static const mx_io argmax_in[] = {{.name = "data", .types = ARGMAX_TYPES, .group = 1}, {0}};
static const mx_io argmax13_in[] = {{.name = "data", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_io argmax_out[] = {{.name = "reduced", .types = MX_BIT(MINNX_INT64)}, {0}};
static const mx_attr_spec argmax1_attrs[] = {{"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec argmax12_attrs[] = {
    {"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {"select_last_index", MX_ATTR_INT}, {NULL, 0}};

#define ARGMAX_ROW .out = argmax_out, .infer = argmax_infer, .params_size = mx_argmax_params_size, \
                   .prepare = mx_argmax_prepare, .eval = mx_argmax_eval
static const mx_op_row rows[] = {
    {ARGMAX_ROW, .since = 1, .in = argmax_in, .attrs = argmax1_attrs},
    {ARGMAX_ROW, .since = 11, .in = argmax_in, .attrs = argmax1_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
    {ARGMAX_ROW, .since = 12, .in = argmax_in, .attrs = argmax12_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
    {ARGMAX_ROW, .since = 13, .in = argmax13_in, .attrs = argmax12_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(ArgMax, "", rows);
MX_OP_TABLE(ArgMin, "", rows); /* the same versions; the direction comes from the op's name */
