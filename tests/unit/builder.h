/* Builds small ModelProto byte strings for unit tests with protobuf-c: a
 * chain of nodes over float/any-dtype inputs of one static shape. An edit
 * callback may change the message before it is packed (pointing it at the
 * caller's own objects, which must outlive the call). */
#ifndef MINNX_TEST_BUILDER_H
#define MINNX_TEST_BUILDER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

typedef struct {
  const char *op_type, *domain;
  int n_inputs;
  const char *inputs[5];
  const char *output;
  const char *int_attr; /* one optional int attribute */
  int64_t int_value;
} test_node;

typedef struct {
  int n_opsets;
  const char *opset_domain[2];
  int64_t opset_version[2];
  int n_inputs;
  const char *inputs[4];
  int dtype, rank;
  int64_t dims[4]; /* < 0: the symbolic dim "N" */
  int n_nodes;
  test_node nodes[8];
  const char *output;
} test_model;

typedef void (*test_edit)(Onnx__ModelProto *model, void *ctx);

/* *t: a float32 initializer `name` of n_dims dims (the caller's array), its
 * bytes `data` as raw_data (the test host is little-endian, as raw_data). */
static inline void build_float_init(Onnx__TensorProto *t, const char *name, int64_t *dims, size_t n_dims, const float *data) {
  size_t count = 1;
  for (size_t i = 0; i < n_dims; i++) count *= (size_t)dims[i];
  t->name = (char *)name;
  t->has_data_type = 1;
  t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  t->n_dims = n_dims;
  t->dims = dims;
  t->has_raw_data = 1;
  t->raw_data.len = count * sizeof(float);
  t->raw_data.data = (uint8_t *)data;
}

/* Serializes m, changed by edit (if not NULL), into a malloc'd buffer; returns its size. */
static inline size_t build_model_edit(const test_model *m, test_edit edit, void *ctx, uint8_t **out) {
  Onnx__TensorShapeProto__Dimension dim[4], *dimp[4];
  Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
  for (int i = 0; i < m->rank; i++) {
    onnx__tensor_shape_proto__dimension__init(&dim[i]);
    if (m->dims[i] < 0) { /* a symbolic dim, one symbol for all */
      dim[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      dim[i].dim_param = "N";
    } else {
      dim[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      dim[i].dim_value = m->dims[i];
    }
    dimp[i] = &dim[i];
  }
  shape.n_dim = (size_t)m->rank;
  shape.dim = dimp;
  Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
  tt.has_elem_type = 1;
  tt.elem_type = m->dtype;
  tt.shape = &shape;
  Onnx__TypeProto type = ONNX__TYPE_PROTO__INIT;
  type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  type.tensor_type = &tt;
  Onnx__ValueInfoProto in[4], *inp[4], out_vi = ONNX__VALUE_INFO_PROTO__INIT, *outp = &out_vi;
  for (int i = 0; i < m->n_inputs; i++) {
    onnx__value_info_proto__init(&in[i]);
    in[i].name = (char *)m->inputs[i];
    in[i].type = &type;
    inp[i] = &in[i];
  }
  out_vi.name = (char *)m->output;
  Onnx__NodeProto nodes[8], *nodep[8];
  Onnx__AttributeProto attr[8], *attrp[8];
  for (int i = 0; i < m->n_nodes; i++) {
    const test_node *t = &m->nodes[i];
    onnx__node_proto__init(&nodes[i]);
    nodes[i].op_type = (char *)t->op_type;
    nodes[i].domain = (char *)(t->domain ? t->domain : "");
    nodes[i].n_input = (size_t)t->n_inputs;
    nodes[i].input = (char **)t->inputs;
    nodes[i].n_output = 1;
    nodes[i].output = (char **)&t->output;
    if (t->int_attr) {
      onnx__attribute_proto__init(&attr[i]);
      attr[i].name = (char *)t->int_attr;
      attr[i].has_type = 1;
      attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
      attr[i].has_i = 1;
      attr[i].i = t->int_value;
      attrp[i] = &attr[i];
      nodes[i].n_attribute = 1;
      nodes[i].attribute = &attrp[i];
    }
    nodep[i] = &nodes[i];
  }
  Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
  g.name = "test";
  g.n_node = (size_t)m->n_nodes;
  g.node = nodep;
  g.n_input = (size_t)m->n_inputs;
  g.input = inp;
  g.n_output = 1;
  g.output = &outp;
  Onnx__OperatorSetIdProto ops[2], *opsp[2];
  for (int i = 0; i < m->n_opsets; i++) {
    onnx__operator_set_id_proto__init(&ops[i]);
    ops[i].domain = (char *)m->opset_domain[i];
    ops[i].has_version = 1;
    ops[i].version = m->opset_version[i];
    opsp[i] = &ops[i];
  }
  Onnx__ModelProto model = ONNX__MODEL_PROTO__INIT;
  model.has_ir_version = 1;
  model.ir_version = 8;
  model.graph = &g;
  model.n_opset_import = (size_t)m->n_opsets;
  model.opset_import = opsp;
  if (edit) edit(&model, ctx);
  size_t size = onnx__model_proto__get_packed_size(&model);
  *out = malloc(size);
  if (*out) onnx__model_proto__pack(&model, *out);
  return size;
}

static inline size_t build_model(const test_model *m, uint8_t **out) { return build_model_edit(m, NULL, NULL, out); }

#endif
