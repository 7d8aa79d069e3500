/* Dropout, at inference: the output is the input (a view: no copy), and the
 * optional mask says every element was kept: all true (bool, from version
 * 10), ones of the input's dtype in 1, 6 and 7. minnx runs inference only:
 * `ratio` (an attribute up to 10, an input from 12) and `seed` change
 * nothing then and are not checked beyond their types, and Dropout-1 and -6's
 * `is_test` is taken as 1 whatever it says, as ONNX Runtime does. A
 * `training_mode` input (12) that is true is refused, naming the node: at
 * load when constant, when bound when a graph input; one computed by a node
 * is refused at load (MX_IO_CONST). Version 13 adds bfloat16. */
#include <string.h>

#include "ops/core/op.h"

typedef struct dropout_params {
  int64_t count; /* mask elements; 0: no mask asked for */
  size_t elem;
  uint64_t one; /* the mask's "kept": its bytes, little end first in the host's order */
} dropout_params;

static minnx_status dropout_infer(mx_op_ctx *c) {
  c->out[0] = *c->in[0];
  if (c->n_out > 1) {
    c->out[1] = *c->in[0];
    if (c->row->since >= 10) c->out_dtype[1] = MINNX_BOOL;
  }
  if (c->n_in > 2 && c->in[2]) {
    if (c->in[2]->rank > 0) return mx_op_fail(c, MINNX_E_SHAPE, "training_mode must be a scalar; it has rank %d", c->in[2]->rank);
    if (c->in_data[2] && *(const unsigned char *)c->in_data[2])
      return mx_op_fail(c, MINNX_E_FEATURE, "training_mode is true: minnx runs inference only");
  }
  if (c->n_in > 1 && c->in[1] && c->in[1]->rank > 0)
    return mx_op_fail(c, MINNX_E_SHAPE, "ratio must be a scalar; it has rank %d", c->in[1]->rank);
  return MINNX_OK;
}

static size_t dropout_params_size(const mx_node *n) {
  (void)n;
  return sizeof(dropout_params);
}

static minnx_status dropout_prepare(mx_op_ctx *c, void *params) {
  dropout_params *p = params;
  int has_mask = c->n_out > 1 && c->node->outputs[1] >= 0;
  mx_dtype t = c->out_dtype[has_mask ? 1 : 0];
  *p = (dropout_params){.count = has_mask ? mx_shape_count(&c->out[1]) : 0, .elem = mx_dtype_size(t)};
  switch (t) {
    case MINNX_BOOL: p->one = 1; break;
    case MINNX_FLOAT16: p->one = 0x3c00; break;
    case MINNX_FLOAT: p->one = 0x3f800000; break;
    default: p->one = 0x3ff0000000000000ull; break; /* double */
  }
  return MINNX_OK;
}

static void dropout_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const dropout_params *p = params;
  unsigned char *m = p->count ? out[1] : NULL;
  (void)x, (void)in;
  if (p->elem == 1) {
    if (m) memset(m, 1, (size_t)p->count);
    return;
  }
  for (int64_t i = 0; i < p->count; i++) {
    if (p->elem == 2) memcpy(m + i * 2, &(uint16_t){(uint16_t)p->one}, 2);
    else if (p->elem == 4) memcpy(m + i * 4, &(uint32_t){(uint32_t)p->one}, 4);
    else memcpy(m + i * 8, &p->one, 8);
  }
}

#define BOOL_T MX_BIT(MINNX_BOOL)
#define FLOATS_BF16 (MX_FLOATS | MX_BIT(MINNX_BFLOAT16))
static const mx_io in1[] = {{.name = "data", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = MX_FLOATS, .group = 1, .view = MX_VIEW_OF(0)},
                             {.name = "mask", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io out10[] = {{.name = "output", .types = MX_FLOATS, .group = 1, .view = MX_VIEW_OF(0)},
                              {.name = "mask", .types = BOOL_T, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io in12[] = {{.name = "data", .types = MX_FLOATS, .group = 1},
                             {.name = "ratio", .types = MX_FLOATS, .group = 2, .flags = MX_IO_OPTIONAL},
                             {.name = "training_mode", .types = BOOL_T, .flags = MX_IO_OPTIONAL | MX_IO_CONST}, {0}};
static const mx_io in13[] = {{.name = "data", .types = FLOATS_BF16, .group = 1},
                             {.name = "ratio", .types = MX_FLOATS, .group = 2, .flags = MX_IO_OPTIONAL},
                             {.name = "training_mode", .types = BOOL_T, .flags = MX_IO_OPTIONAL | MX_IO_CONST}, {0}};
static const mx_io out13[] = {{.name = "output", .types = FLOATS_BF16, .group = 1, .view = MX_VIEW_OF(0)},
                              {.name = "mask", .types = BOOL_T, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_attr_spec attrs1[] = {{"consumed_inputs", MX_ATTR_INTS}, {"is_test", MX_ATTR_INT}, {"ratio", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec attrs6[] = {{"is_test", MX_ATTR_INT}, {"ratio", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec attrs7[] = {{"ratio", MX_ATTR_FLOAT}, {NULL, 0}};
static const mx_attr_spec attrs12[] = {{"seed", MX_ATTR_INT}, {NULL, 0}};

#define ROW .infer = dropout_infer, .params_size = dropout_params_size, .prepare = dropout_prepare, .eval = dropout_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1, .attrs = attrs1},
    {ROW, .since = 6, .in = in1, .out = out1, .attrs = attrs6},
    {ROW, .since = 7, .in = in1, .out = out1, .attrs = attrs7},
    {ROW, .since = 10, .in = in1, .out = out10, .attrs = attrs7},
    {ROW, .since = 12, .in = in12, .out = out10, .attrs = attrs12},
    {ROW, .since = 13, .in = in13, .out = out13, .attrs = attrs12},
};
MX_OP_TABLE(Dropout, "", rows);
