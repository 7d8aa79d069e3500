/* Fuzz target (c): a valid Max/ArgMax model, mutated where the bytes say
 * (into Cast and CastLike too, whose `to` takes dtype numbers and names).
 * The input is a stream of choices; choice 0 (or the end of the input) keeps
 * the valid model's value everywhere, so the empty input is Max-13 over two
 * float [2,3] inputs followed by ArgMax, and each non-zero byte changes one
 * thing: an opset, a dtype, a dim, an attribute, a name, an initializer. This
 * reaches the version, dtype and shape rules that random bytes rarely form. */
#include <stdio.h>

#include "exercise.h"
#include "onnx.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  const uint8_t *p, *end;
} choices;

static unsigned pick(choices *c, unsigned n) { return c->p < c->end ? *c->p++ % n : 0; }

#define PICK(c, array) (array[pick(c, sizeof array / sizeof array[0])])

static const int64_t versions[] = {13, 1, 6, 7, 8, 11, 12, 18, 0, -1, 1000, INT64_MAX, 9, 15, 19, 20, 21};
static const char *const domains[] = {"", "org.openvinotoolkit", "ai.onnx", "com.example"};
static const int dtypes[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_BFLOAT16, MINNX_INT8,  MINNX_INT16,
                             MINNX_INT32, MINNX_INT64,   MINNX_UINT8,  MINNX_UINT16,   MINNX_UINT32, MINNX_UINT64,
                             MINNX_BOOL,  8 /* string */, 0,            14,             99};
/* 0 stands for the position's valid dim */
static const int64_t dim_values[] = {0, 1, 0, 2, 3, -1, -2, -3, INT64_MAX, (int64_t)1 << 32, 7, 4096};
static const int ranks[] = {2, 1, 0, 3, 4, 8, 9};
static const char *const ops[] = {"Max",      "ArgMax",  "Maximum", "Min",     "",          "Constant",
                                  "Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "ArgMin",
                                  "Minimum",  "ReduceMax", "ReduceMin", "Cast",  "CastLike", "Shape",
                                  "Slice",    "Concat",   "Clip"};
static const char *const attr_names[] = {"axis",  "keepdims",     "select_last_index", "consumed_inputs", "auto_broadcast",
                                         "foo",   "",             "value",             "sparse_value",    "value_ints",
                                         "axes",  "shape",        "allowzero",         "value_float",     "value_string",
                                         "to",    "saturate",     "noop_with_empty_axes", "starts",       "ends",
                                         "start", "end",          "min",               "max"};
/* and as Cast's `to`: dtypes minnx holds (1, 2, 3, 5, 9, 10, 16), string (8), float8 (17), none (0, 99) */
static const int64_t ints[] = {0, 1, -1, 2, -2, 3, 5, INT64_MIN, INT64_MAX, 8, 9, 10, 16, 17, 99};
static const char *const strings[] = {"numpy", "none", "pdpd", "", "NUMPY", "FLOAT16", "BFLOAT16", "FLOAT8E5M2"};

enum { MAX_IN = 5, MAX_INIT = 2, MAX_NODES = 3, MAX_ATTRS = 3, MAX_NODE_IN = 9, MAX_OUT = 2 };

/* Everything the message points to lives here. */
typedef struct {
  char names[64][16];
  int n_names;
  Onnx__OperatorSetIdProto opset[2], *opsetp[2];
  Onnx__ValueInfoProto in[MAX_IN], *inp[MAX_IN], out[MAX_OUT], *outp[MAX_OUT];
  Onnx__TypeProto type[MAX_IN + MAX_OUT];
  Onnx__TypeProto__Tensor tt[MAX_IN + MAX_OUT];
  Onnx__TypeProto__Sequence seq[MAX_IN];
  Onnx__TensorShapeProto shape[MAX_IN + MAX_OUT];
  Onnx__TensorShapeProto__Dimension dim[MAX_IN + MAX_OUT][9], *dimp[MAX_IN + MAX_OUT][9];
  Onnx__TensorProto init[MAX_INIT], *initp[MAX_INIT];
  int64_t init_dims[MAX_INIT][9];
  uint8_t raw[MAX_INIT][64];
  float floats[MAX_INIT][16];
  Onnx__StringStringEntryProto ext[MAX_INIT], *extp[MAX_INIT];
  Onnx__NodeProto node[MAX_NODES], *nodep[MAX_NODES];
  char *node_in[MAX_NODES][MAX_NODE_IN], *node_out[MAX_NODES][2];
  Onnx__AttributeProto attr[MAX_NODES][MAX_ATTRS], *attrp[MAX_NODES][MAX_ATTRS];
  int64_t attr_ints[MAX_NODES][MAX_ATTRS][2];
  /* tensor attributes: a value tensor, or a sparse one (values, indices) */
  Onnx__TensorProto attr_t[MAX_NODES][MAX_ATTRS][2];
  Onnx__SparseTensorProto attr_sp[MAX_NODES][MAX_ATTRS];
  int64_t attr_t_dims[MAX_NODES][MAX_ATTRS][2][3], attr_sp_dims[MAX_NODES][MAX_ATTRS][3];
  uint8_t attr_raw[MAX_NODES][MAX_ATTRS][2][48];
  Onnx__GraphProto graph;
  Onnx__ModelProto model;
} parts;

static char *name(parts *m, const char *fmt, int i) {
  char *n = m->names[m->n_names++ % 64];
  snprintf(n, sizeof m->names[0], fmt, i);
  return n;
}

/* A tensor type: dtype, then a shape (default [2,3]), no shape, or no tensor type at all. */
static void tensor_type(choices *c, parts *m, int k, Onnx__TypeProto **out) {
  Onnx__TypeProto *t = &m->type[k];
  onnx__type_proto__init(t);
  onnx__type_proto__tensor__init(&m->tt[k]);
  m->tt[k].has_elem_type = 1;
  m->tt[k].elem_type = PICK(c, dtypes);
  t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  t->tensor_type = &m->tt[k];
  *out = t;
  switch (pick(c, 5)) {
    case 1: return; /* rank unknown */
    case 2: *out = NULL; return;
    case 3:
      if (k < MAX_IN) { /* a sequence of tensors */
        onnx__type_proto__sequence__init(&m->seq[k]);
        m->seq[k].elem_type = NULL;
        t->value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
        t->sequence_type = &m->seq[k];
      }
      return;
    case 4: m->tt[k].has_elem_type = 0; break;
    default: break;
  }
  onnx__tensor_shape_proto__init(&m->shape[k]);
  int rank = PICK(c, ranks);
  static const int64_t valid[9] = {2, 3, 1, 1, 1, 1, 1, 1, 1};
  for (int d = 0; d < rank; d++) {
    Onnx__TensorShapeProto__Dimension *x = &m->dim[k][d];
    onnx__tensor_shape_proto__dimension__init(x);
    unsigned w = pick(c, sizeof dim_values / sizeof dim_values[0]);
    if (w == 5 || w == 6) { /* symbolic */
      x->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      x->dim_param = w == 5 ? "N" : "M";
    } else if (w != 7) { /* 7: a dimension with neither value nor name */
      x->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      x->dim_value = w == 0 ? valid[d] : w == 2 ? 0 : dim_values[w];
    }
    m->dimp[k][d] = x;
  }
  m->shape[k].n_dim = (size_t)rank;
  m->shape[k].dim = m->dimp[k];
  m->tt[k].shape = &m->shape[k];
}

/* An initializer named w0/w1 (or an input's name), its data raw, short, typed or external. */
static void initializer(choices *c, parts *m, int k) {
  Onnx__TensorProto *t = &m->init[k];
  onnx__tensor_proto__init(t);
  static const char *const init_names[] = {"w%d", "a", "b", ""};
  t->name = name(m, PICK(c, init_names), k);
  t->has_data_type = 1;
  t->data_type = PICK(c, dtypes);
  int rank = pick(c, 4); /* [], [n], [2,n], [2,n,1] */
  static const int64_t sizes[] = {3, 1, 0, 2, -1, INT64_MAX};
  int64_t n = PICK(c, sizes);
  int64_t shape[3] = {rank == 1 ? n : 2, n, 1};
  for (int d = 0; d < rank; d++) m->init_dims[k][d] = shape[d];
  t->n_dims = (size_t)rank;
  t->dims = m->init_dims[k];
  size_t es = minnx_dtype_size((minnx_dtype)t->data_type);
  int64_t count = 1;
  for (int d = 0; d < rank; d++) count = shape[d] >= 0 && shape[d] <= 16 ? count * shape[d] : 64;
  size_t want = es && count <= 16 ? (size_t)count * es : 8;
  fuzz_fill(m->raw[k], sizeof m->raw[k], (uint32_t)k);
  if (t->data_type == MINNX_INT64 && pick(c, 2)) /* Slice's starts/ends/axes/steps: 0, INT64_MIN, INT64_MAX... */
    for (size_t j = 0; j + 8 <= sizeof m->raw[k]; j += 8) {
      int64_t x = PICK(c, ints);
      memcpy(m->raw[k] + j, &x, 8);
    }
  switch (pick(c, 5)) {
    case 0: t->has_raw_data = 1, t->raw_data.data = m->raw[k], t->raw_data.len = want; break;
    case 1: t->has_raw_data = 1, t->raw_data.data = m->raw[k], t->raw_data.len = want ? want - 1 : 1; break;
    case 2: t->n_float_data = count >= 0 && count <= 16 ? (size_t)count : 3, t->float_data = m->floats[k]; break;
    case 3:
      t->has_data_location = 1;
      t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
      onnx__string_string_entry_proto__init(&m->ext[k]);
      m->ext[k].key = "location";
      m->ext[k].value = pick(c, 2) ? "../w.bin" : "w.bin";
      m->extp[k] = &m->ext[k];
      t->n_external_data = 1;
      t->external_data = &m->extp[k];
      break;
    default: break; /* no data at all */
  }
  m->initp[k] = t;
}

/* A small tensor for an attribute: a dtype, dims from the hostile list, raw
 * bytes of the right length or one short. */
static void attr_tensor(choices *c, Onnx__TensorProto *t, int64_t *dims, uint8_t *raw, size_t raw_size, int dtype) {
  onnx__tensor_proto__init(t);
  t->has_data_type = 1;
  t->data_type = dtype ? dtype : PICK(c, dtypes);
  int rank = pick(c, 4) % 3;
  int64_t count = 1;
  for (int d = 0; d < rank; d++) {
    unsigned w = pick(c, sizeof dim_values / sizeof dim_values[0]);
    dims[d] = w == 0 ? 2 : dim_values[w];
    count = dims[d] >= 0 && dims[d] <= 6 && count <= 6 ? count * dims[d] : 64;
  }
  t->n_dims = (size_t)rank;
  t->dims = dims;
  size_t es = minnx_dtype_size((minnx_dtype)t->data_type), want = es && count <= 6 ? (size_t)count * es : 8;
  fuzz_fill(raw, raw_size, (uint32_t)count);
  t->has_raw_data = 1;
  t->raw_data.data = raw;
  t->raw_data.len = pick(c, 4) == 3 && want ? want - 1 : want;
}

/* ArgMax's first attribute is axis=1 unless changed. */
static void attribute(choices *c, parts *m, int node, int k) {
  Onnx__AttributeProto *a = &m->attr[node][k];
  onnx__attribute_proto__init(a);
  a->name = (char *)PICK(c, attr_names);
  int type = pick(c, 8);
  int ints_attr = strcmp(a->name, "consumed_inputs") == 0 || strcmp(a->name, "value_ints") == 0 ||
                  strcmp(a->name, "axes") == 0 || strcmp(a->name, "shape") == 0 || strcmp(a->name, "starts") == 0 ||
                  strcmp(a->name, "ends") == 0;
  int string_attr = strcmp(a->name, "auto_broadcast") == 0 || strcmp(a->name, "value_string") == 0;
  string_attr |= strcmp(a->name, "to") == 0 && pick(c, 4) == 0; /* Cast-1 names the type */
  int tensor_attr = strcmp(a->name, "value") == 0, sparse_attr = strcmp(a->name, "sparse_value") == 0;
  if (type == 0) /* the right type for the name */
    type = ints_attr ? 7 : string_attr ? 3 : tensor_attr ? 4 : sparse_attr ? 11 : 2;
  else type = (int[]){0, 1, 2, 3, 7, 5, 4, 11}[type];
  a->has_type = type != 0;
  a->type = (Onnx__AttributeProto__AttributeType)type;
  int64_t v = k == 0 && strcmp(a->name, "axis") == 0 ? (int64_t[]){1, 0, -1, 2, -2, 3, 5, INT64_MIN, INT64_MAX}[pick(c, 9)]
                                                      : PICK(c, ints);
  switch (type) {
    case 1: a->has_f = 1, a->f = (float)v; break;
    case 2: a->has_i = 1, a->i = v; break;
    case 3: a->has_s = 1, a->s.data = (uint8_t *)PICK(c, strings), a->s.len = strlen((const char *)a->s.data); break;
    case 7:
      m->attr_ints[node][k][0] = v, m->attr_ints[node][k][1] = 0;
      a->n_ints = pick(c, 3);
      a->ints = m->attr_ints[node][k];
      break;
    case 4:
      if (pick(c, 5) == 4) break; /* the type without the tensor */
      attr_tensor(c, &m->attr_t[node][k][0], m->attr_t_dims[node][k][0], m->attr_raw[node][k][0],
                  sizeof m->attr_raw[node][k][0], 0);
      a->t = &m->attr_t[node][k][0];
      break;
    case 11: { /* values, indices (hostile ones among them), dense dims */
      Onnx__SparseTensorProto *sp = &m->attr_sp[node][k];
      onnx__sparse_tensor_proto__init(sp);
      if (pick(c, 5) == 4) break;
      attr_tensor(c, &m->attr_t[node][k][0], m->attr_t_dims[node][k][0], m->attr_raw[node][k][0],
                  sizeof m->attr_raw[node][k][0], pick(c, 2) ? MINNX_FLOAT : 0);
      attr_tensor(c, &m->attr_t[node][k][1], m->attr_t_dims[node][k][1], m->attr_raw[node][k][1],
                  sizeof m->attr_raw[node][k][1], pick(c, 4) ? MINNX_INT64 : 0);
      for (size_t j = 0; j + 8 <= sizeof m->attr_raw[node][k][1]; j += 8) { /* indices: hostile values */
        int64_t x = PICK(c, ints);
        memcpy(m->attr_raw[node][k][1] + j, &x, 8);
      }
      sp->values = pick(c, 6) == 5 ? NULL : &m->attr_t[node][k][0];
      sp->indices = pick(c, 6) == 5 ? NULL : &m->attr_t[node][k][1];
      int rank = pick(c, 4);
      for (int d = 0; d < rank; d++) {
        unsigned w = pick(c, sizeof dim_values / sizeof dim_values[0]);
        m->attr_sp_dims[node][k][d % 3] = w == 0 ? 3 : dim_values[w];
      }
      sp->n_dims = (size_t)(rank > 3 ? 3 : rank);
      sp->dims = m->attr_sp_dims[node][k];
      a->sparse_tensor = sp;
      break;
    }
    default: break; /* GRAPH without a graph, or no type */
  }
  m->attrp[node][k] = a;
}

static void node(choices *c, parts *m, int i, int n_inputs, int n_inits) {
  Onnx__NodeProto *n = &m->node[i];
  onnx__node_proto__init(n);
  /* the valid model: Max(a, b) -> y0, ArgMax(y0) -> y1, Max(y1...) fails only if chosen */
  n->op_type = (char *)(i == 1 ? (pick(c, 2) ? PICK(c, ops) : "ArgMax") : PICK(c, ops));
  int maximum = strcmp(n->op_type, "Maximum") == 0 || strcmp(n->op_type, "Minimum") == 0;
  n->domain = (char *)(pick(c, 3) == 2 ? PICK(c, domains) : maximum ? "org.openvinotoolkit" : "");
  static const int arity[] = {2, 1, 0, 3, MAX_NODE_IN};
  n->n_input = strcmp(n->op_type, "ArgMax") == 0 && pick(c, 2) == 0 ? 1 : (size_t)PICK(c, arity);
  for (size_t k = 0; k < n->n_input; k++) {
    /* default: the previous node's output, then the graph inputs */
    unsigned w = pick(c, 6);
    if (w == 0) m->node_in[i][k] = i && k == 0 ? name(m, "y%d", i - 1) : name(m, k % 2 ? "b" : "a", 0);
    else if (w == 1) m->node_in[i][k] = name(m, "w%d", (int)k % (n_inits ? n_inits : 1));
    else if (w == 2) m->node_in[i][k] = name(m, "%c", 'a' + (int)k % (n_inputs ? n_inputs : 1));
    else if (w == 3) m->node_in[i][k] = name(m, "y%d", i); /* its own output: a cycle */
    else if (w == 4) m->node_in[i][k] = "";
    else m->node_in[i][k] = "undefined";
  }
  n->input = m->node_in[i];
  static const int outs[] = {1, 2, 0};
  n->n_output = (size_t)PICK(c, outs);
  static const char *const out_names[] = {"y%d", "a", "", "y0"};
  for (size_t k = 0; k < n->n_output; k++) m->node_out[i][k] = name(m, k ? "z%d" : PICK(c, out_names), i);
  n->output = m->node_out[i];
  static const int n_attrs[] = {0, 1, 2, 3};
  n->n_attribute = strcmp(n->op_type, "ArgMax") == 0 ? (size_t)(pick(c, 4) + 1) % 4 : (size_t)PICK(c, n_attrs);
  if (strcmp(n->op_type, "ArgMax") == 0 && n->n_attribute == 0 && pick(c, 2) == 0) n->n_attribute = 1;
  for (size_t k = 0; k < n->n_attribute; k++) attribute(c, m, i, (int)k);
  n->attribute = m->attrp[i];
  m->nodep[i] = n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  choices c = {data, data + size};
  static parts m;
  memset(&m, 0, sizeof m);

  static const int n_opsets[] = {1, 2};
  onnx__model_proto__init(&m.model);
  m.model.n_opset_import = (size_t)PICK(&c, n_opsets);
  for (size_t i = 0; i < m.model.n_opset_import; i++) {
    onnx__operator_set_id_proto__init(&m.opset[i]);
    m.opset[i].domain = (char *)(pick(&c, 2) ? PICK(&c, domains) : domains[i]);
    m.opset[i].has_version = pick(&c, 8) != 7;
    m.opset[i].version = i && pick(&c, 2) == 0 ? 1 : PICK(&c, versions);
    m.opsetp[i] = &m.opset[i];
  }
  m.model.opset_import = m.opsetp;
  m.model.has_ir_version = 1;
  m.model.ir_version = 8;

  onnx__graph_proto__init(&m.graph);
  static const int n_in[] = {2, 1, 3, 0, MAX_IN};
  m.graph.n_input = (size_t)PICK(&c, n_in);
  for (size_t i = 0; i < m.graph.n_input; i++) {
    onnx__value_info_proto__init(&m.in[i]);
    static const char *const in_names[] = {"%c", "a", "", "w0"};
    m.in[i].name = name(&m, PICK(&c, in_names), 'a' + (int)i);
    tensor_type(&c, &m, (int)i, &m.in[i].type);
    m.inp[i] = &m.in[i];
  }
  m.graph.input = m.inp;
  static const int n_init[] = {0, 1, 2};
  m.graph.n_initializer = (size_t)PICK(&c, n_init);
  for (size_t i = 0; i < m.graph.n_initializer; i++) initializer(&c, &m, (int)i);
  m.graph.initializer = m.initp;
  static const int n_nodes[] = {2, 1, 3, 0};
  m.graph.n_node = (size_t)PICK(&c, n_nodes);
  for (size_t i = 0; i < m.graph.n_node; i++) node(&c, &m, (int)i, (int)m.graph.n_input, (int)m.graph.n_initializer);
  m.graph.node = m.nodep;
  static const int n_out[] = {1, 2, 0};
  m.graph.n_output = (size_t)PICK(&c, n_out);
  for (size_t i = 0; i < m.graph.n_output; i++) {
    onnx__value_info_proto__init(&m.out[i]);
    unsigned w = pick(&c, 5);
    int last = m.graph.n_node ? (int)m.graph.n_node - 1 : 0;
    m.out[i].name = w == 0 ? name(&m, "y%d", last - (int)i) : w == 1 ? "a" : w == 2 ? "w0" : w == 3 ? "" : "nowhere";
    if (pick(&c, 3) == 1) tensor_type(&c, &m, MAX_IN + (int)i, &m.out[i].type);
    m.outp[i] = &m.out[i];
  }
  m.graph.output = m.outp;
  m.graph.name = "fuzz";
  m.model.graph = pick(&c, 16) == 15 ? NULL : &m.graph;

  size_t len = onnx__model_proto__get_packed_size(&m.model);
  uint8_t *bytes = malloc(len ? len : 1);
  if (!bytes) return 0;
  onnx__model_proto__pack(&m.model, bytes);
  minnx_status st = fuzz_model_bytes(bytes, len);
  free(bytes);
  if (size == 0 && st != MINNX_OK) abort(); /* the unmutated model must be valid */
  return 0;
}
