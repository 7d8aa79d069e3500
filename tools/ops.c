/* minnx ops: the operators a model's graph holds, as the MINNX_OPS build
 * option takes them, and those this build lacks. The model is not loaded:
 * a model minnx refuses (for the very ops it lacks) must still be listed, so
 * the protobuf wire format is walked here for the few fields this needs
 * (ModelProto.opset_import and graph, GraphProto.node, NodeProto.op_type,
 * domain and the subgraphs of its attributes), and each op is checked
 * against the registry with minnx_op_since. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "files.h"

/* ONNX field numbers (onnx.proto). */
enum {
  MODEL_GRAPH = 7, MODEL_OPSET_IMPORT = 8,
  OPSET_DOMAIN = 1, OPSET_VERSION = 2,
  GRAPH_NODE = 1,
  NODE_OP_TYPE = 4, NODE_ATTRIBUTE = 5, NODE_DOMAIN = 7,
  ATTRIBUTE_G = 6, ATTRIBUTE_GRAPHS = 11
};
/* Subgraphs nest (If inside Loop...); deeper than this is refused, not recursed into. */
#define MAX_DEPTH 64

typedef struct {
  const unsigned char *p, *end;
} span;

/* One field of a message: its number, wire type, and its bytes (a
 * length-delimited field) or value (a varint). */
typedef struct {
  uint32_t number;
  int wire;
  span bytes;
  uint64_t value;
} field;

static int read_varint(span *s, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64 && s->p < s->end; shift += 7) {
    unsigned char b = *s->p++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return 1;
  }
  return 0;
}

/* The next field of s into f: 1, 0 at the end, -1 when the bytes are no protobuf. */
static int next_field(span *s, field *f) {
  if (s->p == s->end) return 0;
  uint64_t key, n;
  if (!read_varint(s, &key) || key >> 3 == 0 || key >> 3 > UINT32_MAX) return -1;
  f->number = (uint32_t)(key >> 3);
  f->wire = (int)(key & 7);
  switch (f->wire) {
  case 0: return read_varint(s, &f->value) ? 1 : -1;
  case 1: n = 8; break;
  case 5: n = 4; break;
  case 2:
    if (!read_varint(s, &n)) return -1;
    break;
  default: return -1; /* groups (3, 4) are not in onnx.proto */
  }
  if (n > (uint64_t)(s->end - s->p)) return -1;
  f->bytes = (span){s->p, s->p + n};
  s->p += n;
  return 1;
}

typedef struct {
  char *domain, *op; /* domain "" for ai.onnx */
} op_entry;

typedef struct {
  op_entry *ops;
  size_t n, cap;
  char *domains[64]; /* the opset imports */
  int64_t versions[64];
  size_t n_opsets;
} model_ops;

static char *copy_span(span s) {
  size_t n = (size_t)(s.end - s.p);
  char *c = malloc(n + 1);
  if (c && n) memcpy(c, s.p, n); /* an absent field is {NULL, NULL} */
  if (c) c[n] = '\0';
  return c;
}

/* Adds (domain, op) once; 0 when out of memory. */
static int add_op(model_ops *m, span domain, span op) {
  char *d = copy_span(domain), *o = copy_span(op);
  if (!d || !o) return free(d), free(o), 0;
  if (strcmp(d, "ai.onnx") == 0) d[0] = '\0';
  for (size_t k = 0; k < m->n; k++)
    if (strcmp(m->ops[k].domain, d) == 0 && strcmp(m->ops[k].op, o) == 0) return free(d), free(o), 1;
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 16;
    op_entry *grown = realloc(m->ops, cap * sizeof *grown);
    if (!grown) return free(d), free(o), 0;
    m->ops = grown, m->cap = cap;
  }
  m->ops[m->n++] = (op_entry){d, o};
  return 1;
}

/* The ops of a GraphProto and of its nodes' subgraphs: NULL, or what was wrong. */
static const char *walk_graph(model_ops *m, span g, int depth) {
  if (depth > MAX_DEPTH) return "subgraphs nested too deep";
  field f;
  int r;
  while ((r = next_field(&g, &f)) > 0) {
    if (f.number != GRAPH_NODE || f.wire != 2) continue;
    span node = f.bytes, op = {0}, domain = {0};
    field nf;
    int nr;
    while ((nr = next_field(&node, &nf)) > 0) {
      if (nf.wire != 2) continue;
      if (nf.number == NODE_OP_TYPE) op = nf.bytes;
      else if (nf.number == NODE_DOMAIN) domain = nf.bytes;
      else if (nf.number == NODE_ATTRIBUTE) {
        span a = nf.bytes;
        field af;
        int ar;
        while ((ar = next_field(&a, &af)) > 0)
          if (af.wire == 2 && (af.number == ATTRIBUTE_G || af.number == ATTRIBUTE_GRAPHS)) {
            const char *why = walk_graph(m, af.bytes, depth + 1);
            if (why) return why;
          }
        if (ar < 0) return "a node attribute is not a protobuf message";
      }
    }
    if (nr < 0) return "a node is not a protobuf message";
    if (op.p == op.end) return "a node has no op_type";
    if (!add_op(m, domain, op)) return "out of memory";
  }
  return r < 0 ? "the graph is not a protobuf message" : NULL;
}

static const char *walk_model(model_ops *m, const unsigned char *bytes, size_t size) {
  span s = {bytes, bytes + size};
  field f;
  int r, graphs = 0;
  while ((r = next_field(&s, &f)) > 0) {
    if (f.wire != 2) continue;
    if (f.number == MODEL_GRAPH) {
      const char *why = walk_graph(m, f.bytes, 0);
      if (why) return why;
      graphs++;
    } else if (f.number == MODEL_OPSET_IMPORT) {
      if (m->n_opsets == sizeof m->domains / sizeof m->domains[0]) return "more than 64 opset imports";
      span o = f.bytes, domain = {0};
      field of;
      int orr;
      int64_t version = 0;
      while ((orr = next_field(&o, &of)) > 0) {
        if (of.number == OPSET_DOMAIN && of.wire == 2) domain = of.bytes;
        else if (of.number == OPSET_VERSION && of.wire == 0) version = (int64_t)of.value;
      }
      if (orr < 0) return "an opset import is not a protobuf message";
      char *d = copy_span(domain);
      if (!d) return "out of memory";
      if (strcmp(d, "ai.onnx") == 0) d[0] = '\0';
      m->domains[m->n_opsets] = d;
      m->versions[m->n_opsets++] = version;
    }
  }
  if (r < 0) return "not an ONNX model (the bytes are no protobuf message)";
  return graphs ? NULL : "not an ONNX model (no graph)";
}

/* The name MINNX_OPS gives an op: its op type, domain-qualified outside ai.onnx. */
static void op_label(const op_entry *e, char *out, size_t n) {
  snprintf(out, n, "%s%s%s", e->domain, e->domain[0] ? "." : "", e->op);
}

static int by_label(const void *a, const void *b) {
  char la[512], lb[512];
  op_label(a, la, sizeof la);
  op_label(b, lb, sizeof lb);
  return strcmp(la, lb);
}

/* Whether minnx implements op_type at all (MINNX_ALL_OPS: every op ops/ops.cmake lists, comma-separated). */
static int minnx_has(const op_entry *e) {
  static const char all[] = MINNX_ALL_OPS;
  if (e->domain[0]) return 0;
  size_t n = strlen(e->op);
  for (const char *p = all; (p = strstr(p, e->op)); p += n)
    if ((p == all || p[-1] == ',') && (p[n] == ',' || !p[n])) return 1;
  return 0;
}

/* Why this build cannot run e, or NULL when it can. */
static const char *lack(const model_ops *m, const op_entry *e, char *why, size_t n) {
  const int64_t *version = NULL;
  for (size_t k = 0; k < m->n_opsets && !version; k++)
    if (strcmp(m->domains[k], e->domain) == 0) version = &m->versions[k];
  if (!version) return snprintf(why, n, "domain '%s' not imported", e->domain[0] ? e->domain : "ai.onnx"), why;
  int since = minnx_op_since(e->domain, e->op, *version);
  if (since > 0) return NULL;
  if (since == 0) snprintf(why, n, "no version at or below opset %" PRId64, *version);
  else snprintf(why, n, "%s", minnx_has(e) ? "left out of this build by MINNX_OPS" : "not implemented by minnx");
  return why;
}

int cmd_ops(cli *c) {
  const char *path = c->positional[0];
  unsigned char *bytes = NULL;
  size_t size = 0;
  int e = read_file(path, &bytes, &size);
  if (e) return die(EXIT_LOAD, "cannot read '%s': %s", path, strerror(e));
  model_ops m = {0};
  const char *why = walk_model(&m, bytes, size);
  int rc = EXIT_OK;
  if (why) {
    rc = die(EXIT_LOAD, "%s: %s", path, why);
    goto out;
  }
  if (m.n) qsort(m.ops, m.n, sizeof *m.ops, by_label);
  char label[512], reason[128];
  for (size_t k = 0; k < m.n; k++) op_label(&m.ops[k], label, sizeof label), printf("%s%s", k ? ";" : "", label);
  putchar('\n');
  /* What this build lacks: one error line naming each missing op and why. */
  size_t missing = 0;
  for (size_t k = 0; k < m.n; k++) missing += lack(&m, &m.ops[k], reason, sizeof reason) != NULL;
  if (missing) {
    fflush(stdout);
    fprintf(stderr, "minnx: error: %s: this build lacks %zu of its %zu operators:", path, missing, m.n);
    for (size_t k = 0, i = 0; k < m.n; k++)
      if (lack(&m, &m.ops[k], reason, sizeof reason))
        op_label(&m.ops[k], label, sizeof label), fprintf(stderr, "%s %s (%s)", i++ ? "," : "", label, reason);
    fputc('\n', stderr);
    rc = EXIT_TEST_FAILED;
  }
out:
  for (size_t k = 0; k < m.n; k++) free(m.ops[k].domain), free(m.ops[k].op);
  for (size_t k = 0; k < m.n_opsets; k++) free(m.domains[k]);
  free(m.ops);
  free(bytes);
  return rc;
}
