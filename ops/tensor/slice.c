/* Slice: along each listed axis, the elements start, start+step, ... before
 * end. Version 1 takes starts, ends and axes as attributes; from 10 they are
 * inputs (int32 or int64, constants or graph inputs: the output's shape
 * depends on them) with steps; from 11 axes may be negative; 13 adds
 * bfloat16. As ONNX says: a negative start or end counts from the end of its
 * axis; then with a positive step both are clamped to [0, dim], with a
 * negative one start to [0, dim-1] and end to [-1, dim-1]; a step of 0 and a
 * repeated axis are refused. Slices of constants are folded at load: one run
 * of the input's bytes points into them (slice_run), any other by the same
 * copy that runs at eval. */
#include <string.h>

#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

/* Everything the copy needs: per axis, the first index, the step and the
 * count taken, and the input's strides (elements). */
typedef struct slice_params {
  int32_t rank;
  size_t elem; /* bytes of one element */
  int64_t start[MX_MAX_RANK], step[MX_MAX_RANK], count[MX_MAX_RANK], stride[MX_MAX_RANK];
} slice_params;

/* One of starts/ends/axes/steps: the attribute's int64s (version 1) or
 * input k's int32s or int64s, read in place (no copy on the stack, which a
 * microcontroller task has little of); n = -1 when absent, -2 when it is a
 * graph input not bound yet. */
typedef struct {
  const void *v;
  int is32;
  int64_t n;
} slice_list;

static int64_t slice_at(const slice_list *l, int64_t i) {
  return l->is32 ? ((const int32_t *)l->v)[i] : ((const int64_t *)l->v)[i];
}

static minnx_status slice_get(const mx_op_ctx *c, const char *name, int k, slice_list *l) {
  *l = (slice_list){.n = -1};
  if (c->row->since < 10) {
    const mx_attr *a = mx_node_attr(c->node, name);
    if (!a) return MINNX_OK;
    if (a->n > MX_MAX_RANK) return mx_op_fail(c, MINNX_E_SHAPE, "'%s' has %lld entries, more than minnx's maximum rank %d", name, (long long)a->n, MX_MAX_RANK);
    *l = (slice_list){.v = a->ints, .n = (int64_t)a->n};
    return MINNX_OK;
  }
  if (k >= c->n_in || !c->in[k]) return MINNX_OK;
  const mx_shape *s = c->in[k];
  if (s->rank >= 0 && s->rank != 1) return mx_op_fail(c, MINNX_E_SHAPE, "input '%s' has rank %d; its shape must be 1-D", name, s->rank);
  if (!c->in_data[k]) {
    l->n = -2;
    return MINNX_OK;
  }
  if (s->dims[0] > MX_MAX_RANK)
    return mx_op_fail(c, MINNX_E_SHAPE, "'%s' has %lld entries, more than minnx's maximum rank %d", name, (long long)s->dims[0], MX_MAX_RANK);
  *l = (slice_list){.v = c->in_data[k], .is32 = c->in_dtype[k] == MINNX_INT32, .n = s->dims[0]};
  return MINNX_OK;
}

/* How many of start, start+step, ... lie before end, both already clamped. */
static int64_t slice_count(int64_t start, int64_t end, int64_t step) {
  /* distances fit: start and end are in [-1, dim]; |step| as uint64 does too */
  uint64_t span = step > 0 ? (uint64_t)(end - start) : (uint64_t)(start - end);
  uint64_t by = step > 0 ? (uint64_t)step : (uint64_t)0 - (uint64_t)step;
  if ((step > 0 && end <= start) || (step < 0 && start <= end)) return 0;
  return (int64_t)(span / by + (span % by != 0));
}

/* Fills the output's shape from the input's (dims may be unknown, -1) and,
 * unless p is NULL, p. *ready: 0 when a list is a graph input not bound yet
 * (the shape then has the input's rank and unknown dims). */
static minnx_status slice_resolve(mx_op_ctx *c, slice_params *p, int *ready) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  slice_list starts, ends, axes, steps;
  minnx_status st;
  *ready = 0;
  *out = (mx_shape){.rank = in->rank};
  for (int d = 0; d < in->rank; d++) out->dims[d] = -1;
  if ((st = slice_get(c, "starts", 1, &starts)) || (st = slice_get(c, "ends", 2, &ends)) ||
      (st = slice_get(c, "axes", 3, &axes)) || (st = slice_get(c, "steps", 4, &steps)))
    return st;
  int64_t ns = starts.n, ne = ends.n, na = axes.n, nt = steps.n;
  if (ns == -2 || ne == -2 || na == -2 || nt == -2 || in->rank < 0) return MINNX_OK;
  if (ns < 0 || ne < 0) return mx_op_fail(c, MINNX_E_MODEL, "attributes 'starts' and 'ends' are required"); /* inputs: checked before */
  if (ne != ns || (na >= 0 && na != ns) || (nt >= 0 && nt != ns))
    return mx_op_fail(c, MINNX_E_SHAPE, "starts, ends, axes and steps have %lld, %lld, %lld and %lld entries; they must agree",
                      (long long)ns, (long long)ne, (long long)na, (long long)nt);
  /* A non-empty count bounds every product of trailing dims; an empty one
   * does not ([0, 2^32, 2^32, 2^32], folded at load), and its copy reads
   * no stride. */
  int known = mx_shape_count(in) > 0;
  for (int d = in->rank - 1; d >= 0; d--) {
    out->dims[d] = in->dims[d];
    if (p) {
      p->start[d] = 0, p->step[d] = 1;
      p->stride[d] = d == in->rank - 1 ? 1 : known ? p->stride[d + 1] * in->dims[d + 1] : -1;
    }
  }
  uint64_t taken = 0; /* bit per axis: a repeated one is refused */
  for (int64_t i = 0; i < ns; i++) {
    int64_t a = mx_axis(c, na >= 0 ? slice_at(&axes, i) : i, in->rank), step = nt >= 0 ? slice_at(&steps, i) : 1;
    if (a < 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for the input's rank %d", (long long)(na >= 0 ? slice_at(&axes, i) : i), in->rank);
    if (taken & ((uint64_t)1 << a)) return mx_op_fail(c, MINNX_E_MODEL, "axis %lld is listed twice", (long long)a);
    if (step == 0) return mx_op_fail(c, MINNX_E_MODEL, "steps[%lld] is 0; a step must not be 0", (long long)i);
    taken |= (uint64_t)1 << a;
    int64_t dim = in->dims[a], s = slice_at(&starts, i), e = slice_at(&ends, i);
    if (p) p->step[a] = step;
    if (dim < 0) continue; /* its count is known once the input's dim is */
    if (s < 0) s += dim; /* a negative index plus dim >= 0: no overflow */
    if (e < 0) e += dim;
    int64_t lo = step > 0 ? 0 : -1;
    s = s < 0 ? 0 : s > dim + lo ? dim + lo : s;
    e = e < lo ? lo : e > dim + lo ? dim + lo : e;
    if (p) p->start[a] = s;
    out->dims[a] = dim == 0 ? 0 : slice_count(s, e, step);
  }
  if (p) {
    p->rank = in->rank;
    p->elem = mx_dtype_size(c->in_dtype[0]);
    for (int d = 0; d < in->rank; d++) p->count[d] = out->dims[d];
  }
  *ready = 1;
  return MINNX_OK;
}

/* The copy: runs of the last axis (a block copy when its step is 1). */
static void slice_copy(const slice_params *p, const void *src, void *dst) {
  int r = p->rank > 0 ? p->rank : 1;
  int64_t rows = 1, idx[MX_MAX_RANK] = {0};
  for (int d = 0; d < p->rank; d++)
    if (p->count[d] == 0) return;
  for (int d = 0; d + 1 < p->rank; d++) rows *= p->count[d];
  int64_t inner = p->rank > 0 ? p->count[r - 1] : 1, step = p->rank > 0 ? p->step[r - 1] : 1;
  size_t elem = p->elem;
  unsigned char *o = dst;
  const unsigned char *in = src;
  for (int64_t row = 0; row < rows; row++) {
    int64_t at = p->rank > 0 ? p->start[r - 1] : 0;
    for (int d = 0; d + 1 < p->rank; d++) at += (p->start[d] + idx[d] * p->step[d]) * p->stride[d];
    if (step == 1) {
      memcpy(o, in + (size_t)at * elem, (size_t)inner * elem);
      o += (size_t)inner * elem;
    } else {
      for (int64_t i = 0; i < inner; i++, o += elem) memcpy(o, in + (size_t)(at + i * step) * elem, elem);
    }
    for (int d = p->rank - 2; d >= 0 && ++idx[d] == p->count[d]; d--) idx[d] = 0;
  }
}

/* Where the slice is one run of the input's elements, its first element's
 * index: the axes after some axis taken whole and in order, that axis by
 * step 1 (or one element), the axes before it one element each (a gate's
 * rows cut from an LSTM's weights); else -1. The output then points into
 * the input's bytes when folded, no copy. */
static int64_t slice_run(const slice_params *p, const mx_shape *in) {
  int d = p->rank - 1;
  while (d >= 0 && p->count[d] == in->dims[d] && (p->step[d] == 1 || p->count[d] == 1)) d--;
  if (d >= 0 && p->step[d] != 1 && p->count[d] != 1) return -1;
  for (int e = d - 1; e >= 0; e--)
    if (p->count[e] != 1) return -1;
  int64_t at = 0;
  for (int e = 0; e < p->rank; e++) at += p->start[e] * p->stride[e];
  return at;
}

/* Constant data and lists: folded, the params made again (the checks passed).
 * Not inlined: the params are then on the stack only while the copy runs, not
 * under the checks' messages (the deepest load path on a microcontroller). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static minnx_status slice_fold(mx_op_ctx *c) {
  slice_params p;
  int ready;
  void *bytes;
  minnx_status st = slice_resolve(c, &p, &ready);
  int64_t run = st || mx_shape_count(&c->out[0]) <= 0 ? -1 : slice_run(&p, c->in[0]);
  if (run >= 0) return mx_fold_within(c, 0, (const unsigned char *)c->in_data[0] + (size_t)run * p.elem);
  if (st || (st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  slice_copy(&p, c->in_data[0], bytes);
  return MINNX_OK;
}

static minnx_status slice_infer(mx_op_ctx *c) {
  int ready;
  minnx_status st = slice_resolve(c, NULL, &ready);
  if (st || !ready || !c->in_data[0] || mx_shape_count(&c->out[0]) < 0) return st;
  return slice_fold(c);
}

static size_t slice_params_size(const mx_node *n) {
  (void)n;
  return sizeof(slice_params);
}

static minnx_status slice_prepare(mx_op_ctx *c, void *params) {
  int ready;
  return slice_resolve(c, params, &ready); /* shapes concrete, lists bound: ready */
}

static void slice_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  (void)x;
  slice_copy(params, in[0], out[0]);
}

#define TIND (MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = NO_BF16, .group = 1}, {0}};
static const mx_io in10[] = {{.name = "data", .types = NO_BF16, .group = 1},
                             {.name = "starts", .types = TIND, .group = 2, .flags = MX_IO_CONST},
                             {.name = "ends", .types = TIND, .group = 2, .flags = MX_IO_CONST},
                             {.name = "axes", .types = TIND, .group = 2, .flags = MX_IO_CONST | MX_IO_OPTIONAL},
                             {.name = "steps", .types = TIND, .group = 2, .flags = MX_IO_CONST | MX_IO_OPTIONAL},
                             {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "starts", .types = TIND, .group = 2, .flags = MX_IO_CONST},
                             {.name = "ends", .types = TIND, .group = 2, .flags = MX_IO_CONST},
                             {.name = "axes", .types = TIND, .group = 2, .flags = MX_IO_CONST | MX_IO_OPTIONAL},
                             {.name = "steps", .types = TIND, .group = 2, .flags = MX_IO_CONST | MX_IO_OPTIONAL},
                             {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_attr_spec attrs1[] = {{"starts", MX_ATTR_INTS}, {"ends", MX_ATTR_INTS}, {"axes", MX_ATTR_INTS}, {NULL, 0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = in1, .out = out1, .attrs = attrs1, .infer = slice_infer, .params_size = slice_params_size,
     .prepare = slice_prepare, .eval = slice_eval},
    {.since = 10, .in = in10, .out = out1, .infer = slice_infer, .params_size = slice_params_size,
     .prepare = slice_prepare, .eval = slice_eval},
    {.since = 11, .in = in10, .out = out1, .rules = MX_RULE_NEGATIVE_AXIS, .infer = slice_infer,
     .params_size = slice_params_size, .prepare = slice_prepare, .eval = slice_eval},
    {.since = 13, .in = in13, .out = out13, .rules = MX_RULE_NEGATIVE_AXIS, .infer = slice_infer,
     .params_size = slice_params_size, .prepare = slice_prepare, .eval = slice_eval},
};
MX_OP_TABLE(Slice, "", rows);
