/* Range (11): the numbers start, start + delta, ... below limit (above it
 * for a negative delta), from three one-element inputs of one dtype
 * (float, double, int16, int32, int64). The count is
 * max(ceil((limit - start) / delta), 0): for the floats computed in the
 * dtype's own arithmetic (a subtraction and a division, each rounded, as
 * numpy.arange does for scalars of that dtype), for the integers exactly;
 * a zero delta, a NaN or infinite quotient, or a count above minnx's limit
 * is refused. Element i is start + i * delta, the spec's formula, not a
 * running sum: for the floats i (converted, exact below 2^24 for float) times
 * delta, then plus start, each rounded in the dtype; for the integers exact
 * (every element lies between start and limit). The inputs fix the output's
 * shape: constants at load (the output is then folded), graph inputs when
 * they are bound; a bad one is refused then, naming the node. */
#include <stddef.h>
#include <string.h>

#include "ops/core/op.h"

typedef struct range_params {
  int64_t count;
  mx_dtype dtype;
} range_params;

static int64_t int_of(mx_dtype t, const void *p) {
  return t == MINNX_INT16 ? ((const int16_t *)p)[0] : t == MINNX_INT32 ? ((const int32_t *)p)[0] : ((const int64_t *)p)[0];
}

/* ceil(q) for q a finite positive double below 2^62. */
static int64_t ceil_pos(double q) {
  int64_t n = (int64_t)q;
  return (double)n < q ? n + 1 : n;
}

/* The element count, or a refusal; -1: once the inputs are bound. */
static minnx_status range_count(mx_op_ctx *c, int64_t *count) {
  mx_dtype t = c->in_dtype[0];
  const int64_t limit_count = (int64_t)1 << 62;
  *count = -1;
  for (int k = 0; k < 3; k++)
    if (c->in[k]->rank > 1 || (c->in[k]->rank >= 0 && mx_shape_count(c->in[k]) >= 0 && mx_shape_count(c->in[k]) != 1))
      return mx_op_fail(c, MINNX_E_SHAPE, "input %d must be one element (a scalar); it has rank %d", k, c->in[k]->rank);
  if (!c->in_data[0] || !c->in_data[1] || !c->in_data[2]) return MINNX_OK;
  double q;
  if (t == MINNX_FLOAT || t == MINNX_DOUBLE) {
    if (t == MINNX_FLOAT) {
      float s = *(const float *)c->in_data[0], l = *(const float *)c->in_data[1], d = *(const float *)c->in_data[2];
      if (d == 0) return mx_op_fail(c, MINNX_E_SHAPE, "delta is 0: no element count");
      float diff = l - s, qf = diff / d; /* float arithmetic, as numpy.arange on float32 scalars */
      q = qf;
    } else {
      double s = *(const double *)c->in_data[0], l = *(const double *)c->in_data[1], d = *(const double *)c->in_data[2];
      if (d == 0) return mx_op_fail(c, MINNX_E_SHAPE, "delta is 0: no element count");
      q = (l - s) / d;
    }
    if (q != q || q - q != 0)
      return mx_op_fail(c, MINNX_E_SHAPE, "(limit - start) / delta is %s: no element count", q != q ? "NaN" : "infinite");
    if (q >= (double)limit_count)
      return mx_op_fail(c, MINNX_E_LIMIT, "the element count %.17g is above minnx's limit 2^62", q);
    *count = q > 0 ? ceil_pos(q) : 0;
    return MINNX_OK;
  }
  int64_t s = int_of(t, c->in_data[0]), l = int_of(t, c->in_data[1]), d = int_of(t, c->in_data[2]);
  if (d == 0) return mx_op_fail(c, MINNX_E_SHAPE, "delta is 0: no element count");
  if ((d > 0 && l <= s) || (d < 0 && l >= s)) {
    *count = 0;
    return MINNX_OK;
  }
  /* the distance and the step as magnitudes: exact in uint64 */
  uint64_t dist = d > 0 ? (uint64_t)l - (uint64_t)s : (uint64_t)s - (uint64_t)l;
  uint64_t step = d > 0 ? (uint64_t)d : (uint64_t)-(d + 1) + 1;
  uint64_t n = dist / step + (dist % step != 0);
  if (n > (uint64_t)limit_count)
    return mx_op_fail(c, MINNX_E_LIMIT, "the element count %llu is above minnx's limit 2^62", (unsigned long long)n);
  *count = (int64_t)n;
  return MINNX_OK;
}

static void range_run(int64_t count, mx_dtype t, const void *start, const void *delta, void *out) {
  if (t == MINNX_FLOAT) {
    float s = *(const float *)start, d = *(const float *)delta;
    for (int64_t i = 0; i < count; i++) ((float *)out)[i] = s + (float)i * d;
  } else if (t == MINNX_DOUBLE) {
    double s = *(const double *)start, d = *(const double *)delta;
    for (int64_t i = 0; i < count; i++) ((double *)out)[i] = s + (double)i * d;
  } else {
    /* wrapping uint64 arithmetic: the true value fits the dtype, so this is it */
    uint64_t s = (uint64_t)int_of(t, start), d = (uint64_t)int_of(t, delta);
    for (int64_t i = 0; i < count; i++) {
      uint64_t v = s + (uint64_t)i * d;
      if (t == MINNX_INT16) ((int16_t *)out)[i] = (int16_t)(int64_t)v;
      else if (t == MINNX_INT32) ((int32_t *)out)[i] = (int32_t)(int64_t)v;
      else memcpy((int64_t *)out + i, &v, 8);
    }
  }
}

static minnx_status range_infer(mx_op_ctx *c) {
  int64_t count;
  minnx_status st = range_count(c, &count);
  c->out[0] = (mx_shape){.rank = 1, .dims = {count}};
  if (st || count < 0) {
    if (count < 0) c->out[0].rank = -1;
    return st;
  }
  if (count > (int64_t)(PTRDIFF_MAX / 16))
    return mx_op_fail(c, MINNX_E_LIMIT, "the element count %lld is above what this machine addresses", (long long)count);
  void *bytes; /* every input constant: folded */
  if ((st = mx_fold_output(c, 0, &bytes)) || !bytes) return st;
  range_run(count, c->in_dtype[0], c->in_data[0], c->in_data[2], bytes);
  return MINNX_OK;
}

static size_t range_params_size(const mx_node *n) {
  (void)n;
  return sizeof(range_params);
}

static minnx_status range_prepare(mx_op_ctx *c, void *params) {
  range_params *p = params;
  *p = (range_params){.count = c->out[0].dims[0], .dtype = c->in_dtype[0]};
  return MINNX_OK;
}

static void range_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const range_params *p = params;
  (void)x;
  range_run(p->count, p->dtype, in[0], in[2], out[0]);
}

#define TR (MX_BIT(MINNX_FLOAT) | MX_BIT(MINNX_DOUBLE) | MX_BIT(MINNX_INT16) | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
static const mx_io in11[] = {{.name = "start", .types = TR, .group = 1, .flags = MX_IO_CONST},
                             {.name = "limit", .types = TR, .group = 1, .flags = MX_IO_CONST},
                             {.name = "delta", .types = TR, .group = 1, .flags = MX_IO_CONST}, {0}};
static const mx_io out11[] = {{.name = "output", .types = TR, .group = 1}, {0}};

static const mx_op_row rows[] = {
    {.since = 11, .in = in11, .out = out11, .infer = range_infer, .params_size = range_params_size,
     .prepare = range_prepare, .eval = range_eval},
};
MX_OP_TABLE(Range, "", rows);
