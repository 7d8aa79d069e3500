/* Shape: the input's dims as a 1-D int64 tensor; from 15, only dims
 * [start, end) (negative ones count from the end, both clamped to [0, rank];
 * end <= start gives none). Known at load whenever those dims are: the output
 * is then folded and the node never runs; else eval writes the dims prepare
 * saw once the input's shape is bound. */
#include <string.h>

#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

typedef struct shape_params {
  int64_t n;
  int64_t dims[MX_MAX_RANK];
} shape_params;

static int64_t clamp_index(int64_t i, int64_t rank) {
  if (i < 0) i += rank; /* i >= INT64_MIN and rank >= 0: no overflow */
  return i < 0 ? 0 : i > rank ? rank : i;
}

/* The dims the output lists: [*lo, *hi) of the input's. */
static void shape_range(const mx_op_ctx *c, int64_t *lo, int64_t *hi) {
  int64_t rank = c->in[0]->rank;
  *lo = clamp_index(mx_attr_int(c->node, "start", 0), rank);
  *hi = clamp_index(mx_attr_int(c->node, "end", rank), rank);
  if (*hi < *lo) *hi = *lo;
}

static minnx_status shape_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  c->out_dtype[0] = MINNX_INT64;
  c->out[0] = (mx_shape){.rank = 1, .dims = {-1}};
  if (in->rank < 0) return MINNX_OK; /* known once the input's rank is */
  int64_t lo, hi;
  shape_range(c, &lo, &hi);
  c->out[0].dims[0] = hi - lo;
  for (int64_t d = lo; d < hi; d++)
    if (in->dims[d] < 0) return MINNX_OK; /* runs once the input is bound */
  void *bytes;
  minnx_status st = mx_fold_output(c, 0, &bytes);
  if (!st && bytes) memcpy(bytes, in->dims + lo, (size_t)(hi - lo) * sizeof(int64_t));
  return st;
}

static size_t shape_params_size(const mx_node *n) {
  (void)n;
  return sizeof(shape_params);
}

static minnx_status shape_prepare(mx_op_ctx *c, void *params) {
  shape_params *p = params;
  int64_t lo, hi;
  shape_range(c, &lo, &hi);
  p->n = hi - lo;
  memcpy(p->dims, c->in[0]->dims + lo, (size_t)p->n * sizeof(int64_t));
  return MINNX_OK;
}

static void shape_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const shape_params *p = params;
  (void)x, (void)in;
  memcpy(out[0], p->dims, (size_t)p->n * sizeof(int64_t));
}

static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .flags = MX_IO_SHAPE}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .flags = MX_IO_SHAPE}, {0}};
static const mx_io out1[] = {{.name = "shape", .types = MX_BIT(MINNX_INT64)}, {0}};
static const mx_attr_spec attrs15[] = {{"start", MX_ATTR_INT}, {"end", MX_ATTR_INT}, {NULL, 0}};

#define SHAPE_ROW(v, ins, at)                                                                                      \
  {.since = v, .in = ins, .out = out1, .attrs = at, .infer = shape_infer, .params_size = shape_params_size,      \
   .prepare = shape_prepare, .eval = shape_eval}
static const mx_op_row rows[] = {
    SHAPE_ROW(1, in1, NULL), SHAPE_ROW(13, in13, NULL), SHAPE_ROW(15, in13, attrs15),
    SHAPE_ROW(19, in13, attrs15), /* float8 types, which minnx does not hold */
    SHAPE_ROW(21, in13, attrs15), /* 4-bit types, likewise */
};
MX_OP_TABLE(Shape, "", rows);
