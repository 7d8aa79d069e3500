/* The table of every operator version minnx implements. Adding a version is
 * adding a row: its dtypes, arity, attributes and rules. */
#include <limits.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/ops.h"

static const mx_attr_spec max1_attrs[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec no_attrs[] = {{NULL, 0}};
static const mx_attr_spec argmax1_attrs[] = {{"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec argmax12_attrs[] = {
    {"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {"select_last_index", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec maximum_attrs[] = {{"auto_broadcast", MX_ATTR_STRING}, {NULL, 0}};

#define VARIADIC 1, INT32_MAX
#define MAX_OP mx_max_plan_size, mx_max_prepare, mx_max_eval
#define ARGMAX_OP mx_argmax_infer, mx_argmax_plan_size, mx_argmax_prepare, mx_argmax_eval
#define ARGMAX_TYPES (MX_FLOATS | MX_INTS)

static const mx_schema table[] = {
    /* domain, op, since, inputs, dtypes, broadcasting, rules, attributes, infer, plan, prepare, eval */
    {"", "Max", 1, VARIADIC, MX_FLOATS, MX_BCAST_NONE, 0, max1_attrs, mx_max_infer, MAX_OP},
    {"", "Max", 6, VARIADIC, MX_FLOATS, MX_BCAST_NONE, 0, no_attrs, mx_max_infer, MAX_OP},
    {"", "Max", 8, VARIADIC, MX_FLOATS, MX_BCAST_NUMPY, 0, no_attrs, mx_max_infer, MAX_OP},
    {"", "Max", 12, VARIADIC, MX_FLOATS | MX_INTS, MX_BCAST_NUMPY, 0, no_attrs, mx_max_infer, MAX_OP},
    {"", "Max", 13, VARIADIC, MX_NUMERIC, MX_BCAST_NUMPY, 0, no_attrs, mx_max_infer, MAX_OP},
    {"", "ArgMax", 1, 1, 1, ARGMAX_TYPES, MX_BCAST_NONE, 0, argmax1_attrs, ARGMAX_OP},
    {"", "ArgMax", 11, 1, 1, ARGMAX_TYPES, MX_BCAST_NONE, MX_RULE_NEGATIVE_AXIS, argmax1_attrs, ARGMAX_OP},
    {"", "ArgMax", 12, 1, 1, ARGMAX_TYPES, MX_BCAST_NONE, MX_RULE_NEGATIVE_AXIS, argmax12_attrs, ARGMAX_OP},
    {"", "ArgMax", 13, 1, 1, MX_NUMERIC, MX_BCAST_NONE, MX_RULE_NEGATIVE_AXIS, argmax12_attrs, ARGMAX_OP},
    {"org.openvinotoolkit", "Maximum", 1, 2, 2, MX_NUMERIC, MX_BCAST_NUMPY, 0, maximum_attrs, mx_maximum_infer, MAX_OP},
};
#define TABLE_SIZE (sizeof table / sizeof table[0])

static const char *domain_label(const char *d) { return d[0] ? d : "ai.onnx"; }

minnx_status mx_op_known(const char *domain, const char *op_type, mx_err *err) {
  for (size_t i = 0; i < TABLE_SIZE; i++)
    if (strcmp(table[i].domain, domain) == 0 && strcmp(table[i].op_type, op_type) == 0) return MINNX_OK;
  return mx_fail(err, MINNX_E_UNSUPPORTED, "operator '%s' of domain '%s' is not implemented by minnx", op_type,
                 domain_label(domain));
}

minnx_status mx_resolve(mx_graph *g, mx_err *err) {
  for (int32_t i = 0; i < g->n_nodes; i++) {
    mx_node *n = &g->nodes[i];
    /* the loader shares one op_type copy between neighbours of the same op */
    if (i && n->op_type == n[-1].op_type && n->domain == n[-1].domain) {
      n->schema = n[-1].schema;
      continue;
    }
    minnx_status st = mx_op_known(n->domain, n->op_type, err);
    if (st) return st;
    const mx_opset *imp = NULL;
    for (int32_t k = 0; k < g->n_opsets && !imp; k++)
      if (strcmp(g->opsets[k].domain, n->domain) == 0) imp = &g->opsets[k];
    if (!imp)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s): domain '%s' is not imported by the model (opset_import)",
                     mx_node_label(g, n), n->op_type, domain_label(n->domain));
    for (size_t k = 0; k < TABLE_SIZE; k++) {
      const mx_schema *s = &table[k];
      if (strcmp(s->domain, n->domain) == 0 && strcmp(s->op_type, n->op_type) == 0 && s->since <= imp->version &&
          (!n->schema || s->since > n->schema->since))
        n->schema = s;
    }
    if (!n->schema)
      return mx_fail(err, MINNX_E_MODEL, "node '%s': operator %s has no version in opset %lld of domain '%s'",
                     mx_node_label(g, n), n->op_type, (long long)imp->version, domain_label(n->domain));
  }
  return MINNX_OK;
}

static minnx_status check_attrs(const mx_graph *g, const mx_node *n, mx_err *err) {
  const mx_schema *s = n->schema;
  for (int32_t i = 0; i < n->n_attrs; i++) {
    const mx_attr_spec *a = s->attrs;
    while (a->name && strcmp(a->name, n->attrs[i].name) != 0) a++;
    if (!a->name)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d): attribute '%s' is not allowed in this version",
                     mx_node_label(g, n), n->op_type, s->since, n->attrs[i].name);
    if (a->type != n->attrs[i].type)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d): attribute '%s' has the wrong type", mx_node_label(g, n),
                     n->op_type, s->since, n->attrs[i].name);
  }
  return MINNX_OK;
}

minnx_status mx_op_infer(const mx_graph *g, const mx_node *n, const mx_shape *const *in, const mx_dtype *dtypes,
                         mx_shape *out, mx_dtype *out_dtype, mx_err *err) {
  const mx_schema *s = n->schema;
  const char *label = mx_node_label(g, n);
  if (n->n_inputs < s->min_inputs || n->n_inputs > s->max_inputs) {
    if (s->min_inputs == s->max_inputs)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d) has %d inputs; it takes exactly %d", label, n->op_type,
                     s->since, (int)n->n_inputs, (int)s->min_inputs);
    return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d) has %d inputs; it takes at least %d", label, n->op_type,
                   s->since, (int)n->n_inputs, (int)s->min_inputs);
  }
  if (n->n_outputs != 1 || n->outputs[0] < 0)
    return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d) must have exactly one named output", label, n->op_type, s->since);
  mx_dtype t = MINNX_UNDEFINED;
  for (int32_t k = 0; k < n->n_inputs; k++) {
    if (n->inputs[k] < 0)
      return mx_fail(err, MINNX_E_MODEL, "node '%s' (%s-%d): input %d is empty; all inputs are required", label,
                     n->op_type, s->since, (int)k);
    mx_dtype tk = dtypes[n->inputs[k]];
    if ((s->dtypes & MX_BIT(tk)) && !MX_DTYPE_ON(tk))
      return mx_fail(err, MINNX_E_TYPE, "node '%s' (%s-%d): input %d has dtype %s, which this build of minnx leaves out (MINNX_DTYPES)",
                     label, n->op_type, s->since, (int)k, mx_dtype_name(tk));
    if (!(s->dtypes & MX_BIT(tk)))
      return mx_fail(err, MINNX_E_TYPE, "node '%s' (%s-%d): input %d has dtype %s, which this version does not allow",
                     label, n->op_type, s->since, (int)k, mx_dtype_name(tk));
    if (k > 0 && tk != t)
      return mx_fail(err, MINNX_E_TYPE, "node '%s' (%s-%d): inputs mix dtypes %s and %s; they must share one", label,
                     n->op_type, s->since, mx_dtype_name(t), mx_dtype_name(tk));
    t = tk;
  }
  minnx_status st = check_attrs(g, n, err);
  if (st) return st;
  mx_infer_ctx c = {g, n, s, in, t, err};
  return s->infer(&c, out, out_dtype);
}
