/* ConstantOfShape: a tensor of the shape its int64 input lists, every
 * element the one-element tensor attribute `value` (default float 0; its
 * dtype is the output's). Version 9 allows the numeric dtypes but bfloat16,
 * and bool; 20 adds bfloat16; 21 adds only dtypes minnx lacks. The shape
 * input is constant data (MX_IO_CONST): an initializer or Constant fixes the
 * output's shape at load, a graph input when it is bound; a dim below 0 is
 * refused. The output is written at eval, one value by element size; with
 * a constant shape, at load (folded) by the same loop. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

typedef struct cos_params {
  int64_t count;
  size_t elem;
  unsigned char value[8];
} cos_params;

static minnx_status cos_prepare(mx_op_ctx *c, void *params);
static void cos_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out);

static minnx_status cos_infer(mx_op_ctx *c) {
  const mx_shape *s = c->in[0];
  const mx_attr *a = mx_node_attr(c->node, "value");
  c->out[0] = (mx_shape){.rank = -1};
  if (a) {
    if (a->t->shape.rank > 1 || mx_shape_count(&a->t->shape) != 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "attribute value must hold one element (rank 0 or 1); it has rank %d and %lld",
                        a->t->shape.rank, (long long)mx_shape_count(&a->t->shape));
    c->out_dtype[0] = a->t->dtype;
  } else {
    c->out_dtype[0] = MINNX_FLOAT;
  }
  if (s->rank >= 0 && s->rank != 1) return mx_op_fail(c, MINNX_E_SHAPE, "the shape input has rank %d; it must be 1-D", s->rank);
  if (s->rank < 0 || s->dims[0] < 0) return MINNX_OK;
  if (s->dims[0] > MX_MAX_RANK)
    return mx_op_fail(c, MINNX_E_LIMIT, "the shape has %lld dims, above minnx's maximum rank %d", (long long)s->dims[0], MX_MAX_RANK);
  if (!c->in_data[0]) return MINNX_OK; /* a graph input: known once bound */
  const int64_t *dims = c->in_data[0];
  c->out[0].rank = (int)s->dims[0];
  for (int d = 0; d < c->out[0].rank; d++) {
    if (dims[d] < 0) return mx_op_fail(c, MINNX_E_SHAPE, "shape dim %d is %lld; dims are >= 0", d, (long long)dims[d]);
    c->out[0].dims[d] = dims[d];
  }
  if (mx_shape_count(&c->out[0]) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  void *bytes; /* a constant shape (an initializer, a Constant): folded, as exporters' pads chains need */
  minnx_status st = mx_fold_output(c, 0, &bytes);
  if (st || !bytes) return st;
  cos_params p;
  cos_prepare(c, &p);
  cos_eval(&(mx_exec){0}, &p, NULL, (void *const *)&bytes);
  return MINNX_OK;
}

static size_t cos_params_size(const mx_node *n) {
  (void)n;
  return sizeof(cos_params);
}

static minnx_status cos_prepare(mx_op_ctx *c, void *params) {
  cos_params *p = params;
  const mx_attr *a = mx_node_attr(c->node, "value");
  *p = (cos_params){.count = mx_shape_count(&c->out[0]), .elem = mx_dtype_size(c->out_dtype[0])};
  if (a) memcpy(p->value, a->t->data, p->elem); /* float 0 otherwise: zeros */
  return MINNX_OK;
}

static MX_ALWAYS_INLINE void cos_fill_es(unsigned char *o, const unsigned char *v, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * es, v, es);
}

static void cos_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const cos_params *p = params;
  (void)x, (void)in;
  switch (p->elem) {
    case 1: memset(out[0], p->value[0], (size_t)p->count); break;
    case 2: cos_fill_es(out[0], p->value, p->count, 2); break;
    case 4: cos_fill_es(out[0], p->value, p->count, 4); break;
    default: cos_fill_es(out[0], p->value, p->count, 8); break;
  }
}

static const mx_io in9[] = {{.name = "input", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
static const mx_io out9[] = {{.name = "output", .types = NO_BF16}, {0}};
static const mx_io out20[] = {{.name = "output", .types = MX_ALL_TYPES}, {0}};
static const mx_attr_spec attrs[] = {{"value", MX_ATTR_TENSOR}, {NULL, 0}};

#define ROW .in = in9, .attrs = attrs, .infer = cos_infer, .params_size = cos_params_size, .prepare = cos_prepare, \
            .eval = cos_eval
static const mx_op_row rows[] = {
    {ROW, .since = 9, .out = out9},
    {ROW, .since = 20, .out = out20},
    {ROW, .since = 21, .out = out20},
};
MX_OP_TABLE(ConstantOfShape, "", rows);
