/* Bounded resources: nesting depth, counts, sizes that overflow, and the
 * max_memory cap. Each limit is checked on both sides of its boundary. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "graph/err.h"
#include "loader/loader.h"
#include "loader/wire.h"
#include "minnx.h"

static const test_model base = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2,
                                .inputs = {"a", "b"}, .dtype = MINNX_FLOAT, .rank = 1, .dims = {3}, .n_nodes = 1,
                                .nodes = {{"Max", "", 2, {"a", "b"}, "y", NULL, 0}}, .output = "y"};

static int contains(const char *s, const char *word) { return strstr(s, word) != NULL; }

/* Loads m as edited; returns the status and leaves the message in err. */
static minnx_status load(const test_model *m, test_edit edit, void *ctx, const minnx_load_options *o, minnx_model **out,
                         minnx_error *err) {
  uint8_t *bytes;
  size_t size = build_model_edit(m, edit, ctx, &bytes);
  minnx_model *model = NULL;
  minnx_status st = minnx_model_load_buffer(bytes, size, o, &model, err);
  free(bytes);
  if (out) *out = model;
  else minnx_model_free(model);
  return st;
}

/* ---- nesting: a value_info whose type is a sequence of sequences ... ---- */

typedef struct {
  int levels;
  Onnx__ValueInfoProto vi, *vip;
  Onnx__TypeProto types[64];
  Onnx__TypeProto__Sequence seqs[64];
} nested_type;

static void add_nested_type(Onnx__ModelProto *m, void *ctx) {
  nested_type *n = ctx;
  onnx__value_info_proto__init(&n->vi);
  n->vi.name = "deep";
  n->vi.type = &n->types[0];
  for (int i = 0; i <= n->levels; i++) onnx__type_proto__init(&n->types[i]);
  for (int i = 0; i < n->levels; i++) {
    onnx__type_proto__sequence__init(&n->seqs[i]);
    n->seqs[i].elem_type = &n->types[i + 1];
    n->types[i].value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
    n->types[i].sequence_type = &n->seqs[i];
  }
  n->vip = &n->vi;
  m->graph->n_value_info = 1;
  m->graph->value_info = &n->vip;
}

/* ---- nesting: graphs in attributes, far beyond any limit ---- */

enum { DEEP = 2000 };
typedef struct {
  Onnx__GraphProto g[DEEP];
  Onnx__NodeProto n[DEEP], *np[DEEP];
  Onnx__AttributeProto a[DEEP], *ap[DEEP];
} nested_graphs;

static void add_nested_graphs(Onnx__ModelProto *m, void *ctx) {
  nested_graphs *d = ctx;
  for (int i = 0; i < DEEP; i++) {
    onnx__graph_proto__init(&d->g[i]);
    onnx__node_proto__init(&d->n[i]);
    onnx__attribute_proto__init(&d->a[i]);
    d->n[i].op_type = "If";
    d->np[i] = &d->n[i];
    d->g[i].n_node = 1;
    d->g[i].node = &d->np[i];
    if (i + 1 < DEEP) {
      d->a[i].name = "then_branch";
      d->a[i].has_type = 1;
      d->a[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
      d->a[i].g = &d->g[i + 1];
      d->ap[i] = &d->a[i];
      d->n[i].n_attribute = 1;
      d->n[i].attribute = &d->ap[i];
    }
  }
  m->graph->n_node = 1;
  m->graph->node = &d->np[0];
}

/* ---- counts ---- */

typedef struct {
  size_t n;
  void *items, *ptrs; /* malloc'd by the edit, freed by load_many */
  char **names;
} many;

static void many_nodes(Onnx__ModelProto *m, void *ctx) {
  many *k = ctx;
  Onnx__NodeProto *nodes = calloc(k->n, sizeof *nodes), **np = calloc(k->n, sizeof *np);
  static char *in[2] = {"a", "b"};
  char **names = calloc(k->n, sizeof *names);
  for (size_t i = 0; i < k->n; i++) {
    onnx__node_proto__init(&nodes[i]);
    nodes[i].op_type = "Max";
    nodes[i].n_input = 2;
    nodes[i].input = in;
    names[i] = malloc(24);
    snprintf(names[i], 24, i + 1 == k->n ? "y" : "v%zu", i);
    nodes[i].n_output = 1;
    nodes[i].output = &names[i];
    np[i] = &nodes[i];
  }
  m->graph->n_node = k->n;
  m->graph->node = np;
  k->items = nodes;
  k->ptrs = np;
  k->names = names;
}

static void many_attrs(Onnx__ModelProto *m, void *ctx) {
  many *k = ctx;
  Onnx__AttributeProto *a = calloc(k->n, sizeof *a), **ap = calloc(k->n, sizeof *ap);
  static char names[128][24];
  for (size_t i = 0; i < k->n; i++) {
    onnx__attribute_proto__init(&a[i]);
    snprintf(names[i], sizeof names[i], "x%zu", i);
    a[i].name = names[i];
    a[i].has_type = 1;
    a[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    ap[i] = &a[i];
  }
  m->graph->node[0]->n_attribute = k->n;
  m->graph->node[0]->attribute = ap;
  k->items = a;
  k->ptrs = ap;
}

static void many_opsets(Onnx__ModelProto *m, void *ctx) {
  many *k = ctx;
  Onnx__OperatorSetIdProto *o = calloc(k->n, sizeof *o), **op = calloc(k->n, sizeof *op);
  static char names[128][24];
  for (size_t i = 0; i < k->n; i++) {
    onnx__operator_set_id_proto__init(&o[i]);
    snprintf(names[i], sizeof names[i], "d%zu", i);
    if (i == 0) names[i][0] = '\0'; /* the default domain, which the node uses */
    o[i].domain = names[i];
    o[i].has_version = 1;
    o[i].version = 13;
    op[i] = &o[i];
  }
  m->n_opset_import = k->n;
  m->opset_import = op;
  k->items = o;
  k->ptrs = op;
}

static minnx_status load_capped(test_edit edit, size_t n, size_t max_memory, minnx_error *err) {
  many k = {n, NULL, NULL, NULL};
  minnx_load_options o = {.max_memory = max_memory};
  minnx_status st = load(&base, edit, &k, &o, NULL, err);
  for (size_t i = 0; k.names && i < n; i++) free(k.names[i]);
  free(k.names);
  free(k.items);
  free(k.ptrs);
  return st;
}

static minnx_status load_many(test_edit edit, size_t n, minnx_error *err) { return load_capped(edit, n, 0, err); }

/* ---- sizes ---- */

static minnx_status session_of(const test_model *m, minnx_error *err) {
  minnx_model *model;
  minnx_session *s = NULL;
  minnx_status st = load(m, NULL, NULL, NULL, &model, err);
  if (!st) st = minnx_session_create(model, &s, err);
  minnx_session_free(s);
  minnx_model_free(model);
  return st;
}

/* ---- max_memory ---- */

static void run_bound(minnx_session *s, int64_t n, minnx_status want, const char *word) {
  static float data[1 << 18];
  minnx_error err;
  minnx_tensor t = {MINNX_FLOAT, 1, {n}, data, (size_t)n * sizeof(float)};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &t, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 1, &t, &err), MINNX_OK);
  minnx_status st = minnx_session_run(s, &err);
  CHECK_EQ_INT(st, want);
  if (word) CHECK(st && contains(err.message, word));
}

/* The message's own bound: mx_fail_prefix puts its words before a callee's
 * message in place, the whole when it fits, else cut at the buffer's end. */
static void prefix_in_place(void) {
  minnx_error e;
  char long_text[400];
  memset(long_text, 'x', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = '\0';
  mx_fail(&e, MINNX_E_SHAPE, "the cause %d", 7);
  CHECK_EQ_INT(mx_fail_prefix(&e, MINNX_E_MODEL, "node '%s': ", "n"), MINNX_E_MODEL);
  CHECK(strcmp(e.message, "node 'n': the cause 7") == 0 && e.status == MINNX_E_MODEL);
  mx_fail(&e, MINNX_E_SHAPE, "%s", long_text); /* a cause that fills the buffer: its end goes */
  mx_fail_prefix(&e, MINNX_E_MODEL, "p: ");
  CHECK(strlen(e.message) == sizeof e.message - 1 && strncmp(e.message, "p: xxx", 6) == 0);
  mx_fail(&e, MINNX_E_SHAPE, "cause");
  mx_fail_prefix(&e, MINNX_E_MODEL, "%s", long_text); /* a prefix longer than the buffer: the cause goes */
  CHECK(strlen(e.message) == sizeof e.message - 1 && strspn(e.message, "x") == sizeof e.message - 1);
  CHECK_EQ_INT(mx_fail_prefix(NULL, MINNX_E_LIMIT, "no message"), MINNX_E_LIMIT);
}

int main(void) {
  minnx_error err;

  prefix_in_place();

  /* nesting: exactly at the limit loads (value_info is not otherwise read); one more level is refused */
  nested_type *nt = calloc(1, sizeof *nt);
  nt->levels = (MX_MAX_NESTING - 3) / 2; /* ModelProto > GraphProto > ValueInfoProto > TypeProto at depth 3 */
  CHECK_EQ_INT(load(&base, add_nested_type, nt, NULL, NULL, &err), MINNX_OK);
  nt->levels++;
  CHECK_EQ_INT(load(&base, add_nested_type, nt, NULL, NULL, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "nests messages more than 32 deep"));
  free(nt);
  /* 2000 graphs, each in an attribute of the one above: refused before protobuf-c recurses into them */
  nested_graphs *ng = calloc(1, sizeof *ng);
  CHECK_EQ_INT(load(&base, add_nested_graphs, ng, NULL, NULL, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "nests messages"));
  free(ng);

  /* counts, at and beyond each cap */
  /* no node count of its own: memory is the bound (16385 nodes were once refused) */
  CHECK_EQ_INT(load_many(many_nodes, 200000, &err), MINNX_OK);
  CHECK_EQ_INT(load_capped(many_nodes, 200000, 20 << 20, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "max_memory"));
  CHECK_EQ_INT(load_many(many_attrs, MX_MAX_NODE_ATTRS, &err), MINNX_E_MODEL); /* x0 is not Max's */
  CHECK(contains(err.message, "'x0' is not allowed"));
  CHECK_EQ_INT(load_many(many_attrs, MX_MAX_NODE_ATTRS + 1, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "65 attributes"));
  CHECK_EQ_INT(load_many(many_opsets, MX_MAX_OPSETS, &err), MINNX_OK);
  CHECK_EQ_INT(load_many(many_opsets, MX_MAX_OPSETS + 1, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "65 opsets"));

  /* sizes: dims whose byte count overflows size_t, products that overflow int64, broadcasts that overflow */
  test_model m = base;
  m.dims[0] = INT64_MAX;
  CHECK_EQ_INT(session_of(&m, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "too large"));
  m.rank = 2, m.dims[0] = (int64_t)1 << 32, m.dims[1] = (int64_t)1 << 32;
  CHECK_EQ_INT(session_of(&m, &err), MINNX_E_LIMIT);
  m.rank = 4, m.dims[0] = m.dims[1] = m.dims[2] = m.dims[3] = (int64_t)1 << 16; /* 2^64 elements */
  CHECK_EQ_INT(session_of(&m, &err), MINNX_E_LIMIT);
  /* a graph input too large to count, whose node's output is small: the
   * planner never sees the input, the session refuses it all the same (the
   * fuzzer found ArgMax's prepare multiplying its dims) */
  test_model am = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 1, .inputs = {"a"},
                   .dtype = MINNX_FLOAT, .rank = 2, .dims = {2, INT64_MAX}, .n_nodes = 1,
                   .nodes = {{"ArgMax", "", 1, {"a"}, "y", "axis", 1}}, .output = "y"};
  CHECK_EQ_INT(session_of(&am, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "'a' is too large"));
  am.dims[0] = 2, am.dims[1] = INT64_MAX / 2; /* countable: only binding it would fail */
  CHECK_EQ_INT(session_of(&am, &err), MINNX_OK);

  /* max_memory: the model, then each session, then a plan made at run time */
  minnx_load_options o = {.max_memory = 1000};
  minnx_model *model = NULL;
  CHECK_EQ_INT(load(&base, NULL, NULL, &o, &model, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "max_memory (1000 bytes)"));
  CHECK(model == NULL);
  m = base;
  m.rank = 2, m.dims[0] = 1000, m.dims[1] = 1000; /* a 4 MB output */
  o.max_memory = 1 << 20;
  CHECK_EQ_INT(load(&m, NULL, NULL, &o, &model, &err), MINNX_OK);
  minnx_session *s = NULL;
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "max_memory") && contains(err.message, "arena"));
  minnx_model_free(model);
  o.max_memory = 5 << 20;
  CHECK_EQ_INT(load(&m, NULL, NULL, &o, &model, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_OK);
  minnx_session_free(s);
  minnx_model_free(model);
  /* a symbolic dim: the arena follows the binding, and the cap with it */
  m = base;
  m.dims[0] = -1;
  o.max_memory = 1 << 20;
  CHECK_EQ_INT(load(&m, NULL, NULL, &o, &model, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_OK);
  run_bound(s, 1000, MINNX_OK, NULL);
  run_bound(s, 1 << 18, MINNX_E_LIMIT, "max_memory"); /* a 1 MB output */
  run_bound(s, 1000, MINNX_OK, NULL);                /* and back: a real failure is not mistaken for the cap */
  /* a symbolic dim bound to sizes whose byte count overflows, or to a negative size */
  static float one;
  minnx_tensor t = {MINNX_FLOAT, 1, {INT64_MAX}, &one, sizeof one};
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &t, &err), MINNX_E_LIMIT);
  CHECK(contains(err.message, "overflows"));
  t.dims[0] = (int64_t)1 << 62; /* 2^64 bytes of float */
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &t, &err), MINNX_E_LIMIT);
  t.dims[0] = -5;
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &t, &err), MINNX_E_ARG);
  CHECK(contains(err.message, "negative"));
  minnx_session_free(s);
  minnx_model_free(model);

  return check_report("test_limits");
}
