/* The operator registry: one row per (domain, op, since_version). */
#ifndef MX_REGISTRY_H
#define MX_REGISTRY_H

#include "graph/err.h"
#include "graph/ir.h"
#include "ops/exec.h"

typedef struct mx_attr_spec {
  const char *name;
  mx_attr_type type;
} mx_attr_spec;

typedef enum mx_bcast_rule {
  MX_BCAST_NONE, /* all inputs and the output have one shape */
  MX_BCAST_NUMPY /* multidirectional broadcasting */
} mx_bcast_rule;

/* Version-specific rules a schema row carries for its op's code to read. */
enum {
  MX_RULE_NEGATIVE_AXIS = 1u << 0, /* axis may be in [-r, -1] */
};

typedef struct mx_schema mx_schema;

/* What an op's infer step sees: the node, its schema row, its inputs'
 * shapes and their (single, shared) dtype. */
typedef struct mx_infer_ctx {
  const mx_graph *g;
  const mx_node *node;
  const mx_schema *schema;
  const mx_shape *const *in;
  mx_dtype dtype;
  mx_err *err;
} mx_infer_ctx;

/* "prepare" turns concrete shapes into the kernel's plan; "eval" only computes. */
typedef struct mx_prepare_ctx {
  const mx_node *node;
  const mx_schema *schema;
  const mx_shape *const *in;
  const mx_shape *out;
  mx_dtype dtype; /* the inputs' dtype */
} mx_prepare_ctx;

struct mx_schema {
  const char *domain; /* "" for ai.onnx */
  const char *op_type;
  int since;
  int32_t min_inputs, max_inputs;
  mx_dtype_set dtypes; /* allowed input dtypes (all inputs share one) */
  mx_bcast_rule bcast;
  unsigned rules;
  const mx_attr_spec *attrs; /* allowed attributes, ended by a NULL name */
  /* Checks attribute values and gives the output's shape and dtype. */
  minnx_status (*infer)(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype);
  /* Bytes the kernel's plan needs for a node with n inputs. */
  size_t (*plan_size)(int32_t n_inputs);
  void (*prepare)(const mx_prepare_ctx *c, void *plan);
  void (*eval)(const mx_exec *x, void *plan, const void *const *in, void *out);
};

/* Resolves every node of g to the schema of the highest since_version <= the
 * model's opset for its domain. */
minnx_status mx_resolve(mx_graph *g, mx_err *err);

/* Arity, dtype and attribute checks common to all rows, then the op's infer. */
minnx_status mx_op_infer(const mx_graph *g, const mx_node *n, const mx_shape *const *in, const mx_dtype *dtypes,
                         mx_shape *out, mx_dtype *out_dtype, mx_err *err);

/* MINNX_OK when some version of the operator exists (the loader's op check). */
minnx_status mx_op_known(const char *domain, const char *op_type, mx_err *err);

#endif
