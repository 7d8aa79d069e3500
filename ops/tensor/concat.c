/* Concat: the inputs joined along `axis`; every other dim must agree.
 * Version 1 takes float types and defaults axis to 1; from 4 axis is
 * required and any type is allowed; from 11 axis may be negative; 13 adds
 * bfloat16. The copy is one block per input per row of the dims before the
 * axis; inputs that are all constants are folded at load by the same copy
 * (or share an earlier fold's bytes: concat_folded_before).
 * A large one is cut into tasks, each a contiguous range of the output's
 * bytes (concat_range): the copies of rows that two cores' products wrote
 * then use both cores (SqueezeNet's joins took 140 us a run at 1 thread and
 * 254 us at 2, one core pulling the other's halves). */
#include <string.h>

#include "graph/pool.h"
#include "ops/core/kernel.h"
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))
#define CONCAT_SPLIT_TASKS 4

typedef struct concat_params {
  int64_t rows;   /* product of the dims before the axis */
  int64_t out_block; /* bytes of one output row */
  int32_t n;
  int64_t tasks;     /* of the eval's copy (1: whole, on the calling thread) */
  int64_t block[]; /* per input: bytes of one of its rows */
} concat_params;

/* The axis as an index into the inputs' rank, or a refusal. */
static minnx_status concat_axis(const mx_op_ctx *c, int rank, int64_t *axis) {
  const mx_attr *a = mx_node_attr(c->node, "axis");
  if (!a && c->row->since >= 4) return mx_op_fail(c, MINNX_E_MODEL, "attribute axis is required");
  int64_t given = a ? a->i : 1;
  *axis = mx_axis(c, given, rank);
  if (*axis < 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for inputs of rank %d", (long long)given, rank);
  return MINNX_OK;
}

/* Bytes of one row of a shape: the dims from the axis on times the element
 * size, or -1 when that does not fit in int64 (an element count that fits
 * can still overflow as bytes, and a row's bytes count even with no rows). */
static int64_t concat_block(const mx_shape *s, int64_t axis, size_t elem) {
  for (int d = (int)axis; d < s->rank; d++)
    if (s->dims[d] == 0) return 0;
  int64_t b = (int64_t)elem;
  for (int d = (int)axis; d < s->rank; d++) {
    if (s->dims[d] > INT64_MAX / b) return -1;
    b *= s->dims[d];
  }
  return b;
}

/* Input src's rows into their place in each output row. */
static void concat_one(int64_t rows, int64_t out_block, int64_t at, int64_t block, const void *src, void *dst) {
  if (block == 0) return;
  for (int64_t r = 0; r < rows; r++)
    memcpy((unsigned char *)dst + r * out_block + at, (const unsigned char *)src + r * block, (size_t)block);
}

/* A Concat folded at load, for a later one of the same inputs to share:
 * Silero VAD's export has both branches of an If slice the same outer LSTM
 * weights into gates and concatenate them in ONNX's order; the Slices point
 * into the weights (mx_fold_within), so the two Concats read the same bytes
 * and the second needs no copy of its own. Kept in the model's pool (outputs
 * of CONCAT_SHARE_BYTES or more only: a few per model). */
typedef struct concat_fold {
  struct concat_fold *next;
  const void *bytes; /* the folded output */
  mx_shape out;
  mx_dtype dtype;
  int64_t axis;
  int32_t n;
  struct {
    const void *data; /* a constant's bytes: the same pointer, the same bytes */
    int64_t dim;      /* its dim along the axis */
  } in[];
} concat_fold;

#define CONCAT_SHARE_BYTES 1024

static int concat_same(const concat_fold *f, const mx_op_ctx *c, int64_t axis) {
  if (f->dtype != c->out_dtype[0] || f->axis != axis || f->n != c->n_in || f->out.rank != c->out[0].rank) return 0;
  for (int d = 0; d < f->out.rank; d++)
    if (f->out.dims[d] != c->out[0].dims[d]) return 0;
  for (int32_t k = 0; k < f->n; k++)
    if (f->in[k].data != c->in_data[k] || f->in[k].dim != c->in[k]->dims[axis]) return 0;
  return 1;
}

/* The bytes of an earlier folded Concat of the same inputs, or NULL. */
static const void *concat_folded_before(const mx_op_ctx *c, int64_t axis) {
  if (!c->pool) return NULL;
  for (const concat_fold *f = c->pool->folds; f; f = f->next)
    if (concat_same(f, c, axis)) return f->bytes;
  return NULL;
}

/* Records a folded output (a record that cannot be had is left out: a later
 * fold of the same inputs then copies, as before). */
static void concat_remember(mx_op_ctx *c, int64_t axis, const void *bytes) {
  if (mx_shape_bytes(&c->out[0], c->out_dtype[0]) < CONCAT_SHARE_BYTES) return;
  concat_fold *f = mx_pool_alloc(c->pool, sizeof *f + (size_t)c->n_in * sizeof f->in[0]);
  if (!f) return;
  f->next = c->pool->folds, f->bytes = bytes, f->out = c->out[0], f->dtype = c->out_dtype[0], f->axis = axis;
  f->n = c->n_in;
  for (int32_t k = 0; k < c->n_in; k++) f->in[k].data = c->in_data[k], f->in[k].dim = c->in[k]->dims[axis];
  c->pool->folds = f;
}

static minnx_status concat_infer(mx_op_ctx *c) {
  mx_shape *out = &c->out[0];
  int rank = -1;
  for (int32_t k = 0; k < c->n_in; k++)
    if (c->in[k]->rank >= 0) {
      if (rank >= 0 && c->in[k]->rank != rank)
        return mx_op_fail(c, MINNX_E_SHAPE, "input %d's shape has rank %d where an earlier input's has %d; they must agree", (int)k, c->in[k]->rank, rank);
      rank = c->in[k]->rank;
    }
  *out = (mx_shape){.rank = rank};
  if (rank < 0) return MINNX_OK; /* known once an input's rank is */
  int64_t axis = 0, sum = 0;
  minnx_status st = concat_axis(c, rank, &axis);
  if (st) return st;
  for (int d = 0; d < rank; d++) out->dims[d] = -1;
  for (int32_t k = 0; k < c->n_in; k++) {
    const mx_shape *s = c->in[k];
    if (s->rank < 0) {
      sum = -1;
      continue;
    }
    for (int d = 0; d < rank; d++) {
      if (d == axis || s->dims[d] < 0) continue;
      if (out->dims[d] >= 0 && out->dims[d] != s->dims[d])
        return mx_op_fail(c, MINNX_E_SHAPE, "input %d's shape has dim %d of %lld where an earlier input's has %lld; only axis %lld may differ",
                          (int)k, d, (long long)s->dims[d], (long long)out->dims[d], (long long)axis);
      out->dims[d] = s->dims[d];
    }
    if (s->dims[axis] < 0 || sum < 0) sum = -1;
    else if (s->dims[axis] > INT64_MAX - sum) return mx_op_fail(c, MINNX_E_LIMIT, "the output's dim %lld overflows int64", (long long)axis);
    else sum += s->dims[axis];
  }
  out->dims[axis] = sum;
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  if (mx_shape_count(out) < 0) return MINNX_OK;
  /* Every input's row is at most the output's, so this bounds them all. */
  if (concat_block(out, axis, mx_dtype_size(c->out_dtype[0])) < 0)
    return mx_op_fail(c, MINNX_E_LIMIT, "a row of the output along axis %lld has more bytes than int64 holds", (long long)axis);
  for (int32_t k = 0; k < c->n_in; k++)
    if (!c->in_data[k]) return MINNX_OK; /* runs */
  const void *same = concat_folded_before(c, axis);
  if (same) return mx_fold_within(c, 0, same);
  void *bytes; /* every input constant: folded */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  size_t elem = mx_dtype_size(c->out_dtype[0]);
  int64_t rows = 1, out_block = concat_block(out, axis, elem), at = 0;
  for (int d = 0; d < axis; d++) rows *= out->dims[d];
  for (int32_t k = 0; k < c->n_in; k++) {
    int64_t block = concat_block(c->in[k], axis, elem);
    concat_one(rows, out_block, at, block, c->in_data[k], bytes);
    at += block;
  }
  concat_remember(c, axis, bytes);
  return MINNX_OK;
}

static size_t concat_params_size(const mx_node *n) {
  return sizeof(concat_params) + (size_t)n->n_inputs * sizeof(int64_t);
}

static minnx_status concat_prepare(mx_op_ctx *c, void *params) {
  concat_params *p = params;
  int64_t axis = 0;
  minnx_status st = concat_axis(c, c->out[0].rank, &axis);
  if (st) return st;
  size_t elem = mx_dtype_size(c->out_dtype[0]);
  p->n = c->n_in;
  p->rows = 1;
  for (int d = 0; d < axis; d++) p->rows *= c->out[0].dims[d];
  p->out_block = concat_block(&c->out[0], axis, elem);
  for (int32_t k = 0; k < c->n_in; k++) p->block[k] = concat_block(c->in[k], axis, elem);
  /* tasks of at least MX_TASK_BYTES, none below CONCAT_SPLIT_TASKS of them: a copy does little per byte,
   * and a small one's bytes are in the caller's cache */
  p->tasks = mx_task_count((double)p->rows * (double)p->out_block, CONCAT_SPLIT_TASKS);
  return MINNX_OK;
}

/* Output bytes [o0, o1): each row's part of each input that lies there, in order. */
static void concat_range(const concat_params *p, const void *const *in, void *out, int64_t o0, int64_t o1) {
  while (o0 < o1) {
    int64_t r = o0 / p->out_block, j = o0 % p->out_block, at = 0, k = 0;
    while (j >= at + p->block[k]) at += p->block[k++]; /* (j < out_block: some input's block holds it) */
    int64_t n = at + p->block[k] - j;
    if (n > o1 - o0) n = o1 - o0;
    memcpy((unsigned char *)out + o0, (const unsigned char *)in[k] + r * p->block[k] + (j - at), (size_t)n);
    o0 += n;
  }
}

typedef struct {
  const concat_params *p;
  const void *const *in;
  void *out;
} concat_run;

static void concat_task(void *ctx, size_t t) {
  const concat_run *r = ctx;
  int64_t total = r->p->rows * r->p->out_block, n = r->p->tasks;
  concat_range(r->p, r->in, r->out, total / n * (int64_t)t + total % n * (int64_t)t / n,
               total / n * ((int64_t)t + 1) + total % n * ((int64_t)t + 1) / n);
}

static void concat_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const concat_params *p = params;
  int64_t at = 0;
  if (p->tasks > 1) {
    concat_run r = {p, in, out[0]};
    mx_parallel_for(x, concat_task, &r, (size_t)p->tasks);
    return;
  }
  for (int32_t k = 0; k < p->n; k++) {
    concat_one(p->rows, p->out_block, at, p->block[k], in[k], out[0]);
    at += p->block[k];
  }
}

static const mx_io in1[] = {{.name = "inputs", .types = MX_FLOATS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io out1[] = {{.name = "concat_result", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io in4[] = {{.name = "inputs", .types = NO_BF16, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io out4[] = {{.name = "concat_result", .types = NO_BF16, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "inputs", .types = MX_ALL_TYPES, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io out13[] = {{.name = "concat_result", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_attr_spec attrs[] = {{"axis", MX_ATTR_INT}, {NULL, 0}};

#define CONCAT_ROW(v, ins, outs, r)                                                                                  \
  {.since = v, .in = ins, .out = outs, .attrs = attrs, .rules = r, .infer = concat_infer,                         \
   .params_size = concat_params_size, .prepare = concat_prepare, .eval = concat_eval}
static const mx_op_row rows[] = {
    CONCAT_ROW(1, in1, out1, 0),
    CONCAT_ROW(4, in4, out4, 0),
    CONCAT_ROW(11, in4, out4, MX_RULE_NEGATIVE_AXIS),
    CONCAT_ROW(13, in13, out13, MX_RULE_NEGATIVE_AXIS),
};
MX_OP_TABLE(Concat, "", rows);
