/* Constant: its one value attribute becomes a constant value at load (the
 * node never runs): `value` (a tensor the loader decoded), `sparse_value`
 * (densified by the loader, every index checked), `value_float(s)`,
 * `value_int(s)` (from 12). String values are refused: minnx holds no
 * strings. */
#include <string.h>

#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static minnx_status constant_infer(mx_op_ctx *c) {
  const mx_node *n = c->node;
  if (n->n_attrs != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "it has %d value attributes; a Constant has exactly one", (int)n->n_attrs);
  const mx_attr *a = &n->attrs[0];
  mx_shape *out = &c->out[0];
  *out = (mx_shape){.rank = 0};
  switch (a->type) {
  case MX_ATTR_TENSOR:
  case MX_ATTR_SPARSE_TENSOR:
    *out = a->t->shape;
    c->out_dtype[0] = a->t->dtype;
    c->out_data[0] = a->t->data ? a->t->data : (const void *)a->t; /* no bytes: any valid pointer */
    return MINNX_OK;
  case MX_ATTR_FLOAT:
  case MX_ATTR_FLOATS:
    c->out_dtype[0] = MINNX_FLOAT;
    c->out_data[0] = a->type == MX_ATTR_FLOAT ? (const void *)&a->f : (const void *)a->floats;
    break;
  case MX_ATTR_INT:
  case MX_ATTR_INTS:
    c->out_dtype[0] = MINNX_INT64;
    c->out_data[0] = a->type == MX_ATTR_INT ? (const void *)&a->i : (const void *)a->ints;
    break;
  default:
    return mx_op_fail(c, MINNX_E_FEATURE, "attribute '%s' holds strings, which minnx does not support (numeric tensors only)",
                      a->name);
  }
  if (a->type == MX_ATTR_FLOATS || a->type == MX_ATTR_INTS) *out = (mx_shape){.rank = 1, .dims = {(int64_t)a->n}};
  if (!c->out_data[0]) c->out_data[0] = a; /* an empty list */
  return MINNX_OK;
}

static const mx_io no_inputs[] = {{0}};
static const mx_io out1[] = {{.name = "output", .types = NO_BF16}, {0}}; /* (the spec says the floats; see below) */
static const mx_io out9[] = {{.name = "output", .types = NO_BF16}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES}, {0}};
static const mx_attr_spec attrs1[] = {{"value", MX_ATTR_TENSOR}, {NULL, 0}};
static const mx_attr_spec attrs11[] = {{"value", MX_ATTR_TENSOR}, {"sparse_value", MX_ATTR_SPARSE_TENSOR}, {NULL, 0}};
static const mx_attr_spec attrs12[] = {
    {"value", MX_ATTR_TENSOR},     {"sparse_value", MX_ATTR_SPARSE_TENSOR}, {"value_float", MX_ATTR_FLOAT},
    {"value_floats", MX_ATTR_FLOATS}, {"value_int", MX_ATTR_INT},          {"value_ints", MX_ATTR_INTS},
    {"value_string", MX_ATTR_STRING}, {"value_strings", MX_ATTR_STRINGS},   {NULL, 0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = no_inputs, .out = out1, .attrs = attrs1, .infer = constant_infer},
    {.since = 9, .in = no_inputs, .out = out9, .attrs = attrs1, .infer = constant_infer},
    {.since = 11, .in = no_inputs, .out = out9, .attrs = attrs11, .infer = constant_infer},
    {.since = 12, .in = no_inputs, .out = out9, .attrs = attrs12, .infer = constant_infer},
    {.since = 13, .in = no_inputs, .out = out13, .attrs = attrs12, .infer = constant_infer},
    {.since = 19, .in = no_inputs, .out = out13, .attrs = attrs12, .infer = constant_infer},
    {.since = 21, .in = no_inputs, .out = out13, .attrs = attrs12, .infer = constant_infer},
};
MX_OP_TABLE(Constant, "", rows);
