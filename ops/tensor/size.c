/* Size: the input's element count, an int64 scalar. Known at load whenever
 * the input's dims are: the output is then folded and the node never runs;
 * else eval writes the count prepare saw once the input's shape is bound.
 * Versions 1 (every dtype but bfloat16), 13 (adds it), 19 and 21 (only
 * dtypes minnx lacks). */
#include <string.h>

#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static minnx_status size_infer(mx_op_ctx *c) {
  int64_t n = mx_shape_count(c->in[0]);
  c->out_dtype[0] = MINNX_INT64;
  c->out[0] = (mx_shape){.rank = 0};
  if (n < 0) return MINNX_OK; /* runs once the input is bound */
  void *bytes;
  minnx_status st = mx_fold_output(c, 0, &bytes);
  if (!st && bytes) memcpy(bytes, &n, sizeof n);
  return st;
}

static size_t size_params_size(const mx_node *n) {
  (void)n;
  return sizeof(int64_t);
}

static minnx_status size_prepare(mx_op_ctx *c, void *params) {
  int64_t n = mx_shape_count(c->in[0]);
  memcpy(params, &n, sizeof n);
  return MINNX_OK;
}

static void size_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  (void)x, (void)in;
  memcpy(out[0], params, sizeof(int64_t));
}

static const mx_io in1[] = {{.name = "data", .types = NO_BF16, .flags = MX_IO_SHAPE}, {0}};
static const mx_io in13[] = {{.name = "data", .types = MX_ALL_TYPES, .flags = MX_IO_SHAPE}, {0}};
static const mx_io out1[] = {{.name = "size", .types = MX_BIT(MINNX_INT64)}, {0}};

#define ROW .out = out1, .infer = size_infer, .params_size = size_params_size, .prepare = size_prepare, .eval = size_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1},
    {ROW, .since = 13, .in = in13},
    {ROW, .since = 19, .in = in13}, /* float8 types, which minnx does not hold */
    {ROW, .since = 21, .in = in13}, /* 4-bit types, likewise */
};
MX_OP_TABLE(Size, "", rows);
