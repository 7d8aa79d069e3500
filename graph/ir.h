/* The graph IR: what the loader builds and every later stage reads. Plain C,
 * no protobuf types. All of it lives in the model's pool. */
#ifndef MX_IR_H
#define MX_IR_H

#include <stddef.h>
#include <stdint.h>

#include "graph/dtype.h"
#include "graph/pool.h"

#define MX_MAX_RANK MINNX_MAX_RANK
#define MX_DIM_UNKNOWN (-1) /* a dim_param or absent dimension before binding */

/* Whether an op linked in takes a graph attribute (If, Loop): the loader
 * then decodes subgraphs and the registry resolves their nodes. (Here, before
 * mx_graph, whose n_captures it decides.) */
#ifndef MX_OPS_GRAPHS
#define MX_OPS_GRAPHS 1
#endif

typedef struct mx_shape {
  int rank; /* -1: rank unknown */
  int64_t dims[MX_MAX_RANK];
} mx_shape;

typedef enum mx_value_kind {
  MX_VALUE_INPUT,       /* graph input, bound by the caller */
  MX_VALUE_INITIALIZER, /* constant data: an initializer, or a folded node output (Constant) */
  MX_VALUE_NODE,        /* produced by a node */
  /* produced by a node from shapes and constants only (Shape of a symbolic
   * dim, then Gather, Concat, Mul...): computed once the graph inputs are
   * bound, in the session's bind memory before its arena is planned, and
   * kept while the inputs' shapes stay the same; never in the arena, never
   * run. A view of one is a view (MX_VALUE_NODE) whose bytes are its. */
  MX_VALUE_BIND
} mx_value_kind;

/* The fields the passes over every value read (kind, producer, view_of,
 * dtype, rank) come first, together: in a graph of a million values each
 * pass then reads one cache line of a value, not two. */
typedef struct mx_value {
  const char *name;
  mx_value_kind kind;
  int32_t producer; /* node index, -1 for inputs and initializers */
  /* A view (ops/core/op.h): 1 + the id of the value whose bytes it shares (never
   * itself a view); 0: bytes of its own. mx_bytes_of gives the value. */
  int32_t view_of;
  mx_dtype dtype; /* MINNX_UNDEFINED until known */
  mx_shape shape;
  /* 1 + the index of the value's block of dim_params in the graph's
   * dim_syms, 0: none. Most values have none: a block in every value made the
   * record 24 bytes larger, which every pass over a large graph paid. */
  int32_t syms;
  const void *data;             /* initializer bytes (64-byte aligned, or in place: aligned to the element) */
  size_t nbytes;
} mx_value;

typedef enum mx_attr_type {
  MX_ATTR_FLOAT = 1,
  MX_ATTR_INT = 2,
  MX_ATTR_STRING = 3,
  MX_ATTR_TENSOR = 4,
  MX_ATTR_GRAPH = 5,
  MX_ATTR_FLOATS = 6,
  MX_ATTR_INTS = 7,
  MX_ATTR_STRINGS = 8,
  MX_ATTR_SPARSE_TENSOR = 11 /* densified by the loader: read it as a tensor */
} mx_attr_type;

/* A tensor known at load: a tensor attribute's value (decoded by the loader,
 * sparse ones densified), little-endian and packed, in the model's pool. */
typedef struct mx_const {
  mx_dtype dtype;
  mx_shape shape;
  const void *data; /* NULL when nbytes is 0 */
  size_t nbytes;
} mx_const;

typedef struct mx_attr {
  const char *name;
  mx_attr_type type;
  int64_t i;
  float f;
  const char *s; /* NUL-terminated copy of the string value; a list of strings: its n strings one after
                  * another, each ending in NUL (kept only when a linked op reads them, MX_OPS_STRINGS) */
  size_t n;      /* element count of a list attribute */
  const int64_t *ints;
  const float *floats;
  union {
    const mx_const *t;  /* MX_ATTR_TENSOR and MX_ATTR_SPARSE_TENSOR */
    struct mx_graph *g; /* MX_ATTR_GRAPH (decoded only when a linked op takes one, MX_OPS_GRAPHS) */
  };
} mx_attr;

struct mx_op_row;

typedef struct mx_node {
  const char *name; /* "" when the model gave none */
  const char *op_type;
  const char *domain; /* normalized: "" for ai.onnx */
  int32_t n_inputs, n_outputs, n_attrs;
  /* A fusion (ops/nn/conv_fuse.c, at load): 1 + the index of the node fused
   * into this one (whose work it does), -(1 + the index) of the node this
   * one was fused into (it runs nothing), 0 for neither. (In the padding
   * after n_attrs on 64-bit targets: no byte more.) */
  int32_t fused;
  int32_t *inputs; /* value ids; -1 for an omitted optional input */
  int32_t *outputs;
  mx_attr *attrs;
  const struct mx_op_row *row; /* the schema row, resolved by the registry (ops/core/op.h) */
} mx_node;

typedef struct mx_opset {
  const char *domain; /* normalized: "" for ai.onnx */
  int64_t version;
} mx_opset;

typedef struct mx_graph {
  mx_value *values;
  int32_t n_values;
#if MX_OPS_GRAPHS
  /* 1 for a subgraph: its inputs are captures or a Loop's formals, never the
   * caller's bound tensors (a cond computed from a graph input is known at
   * bind only in the main graph: mx_reads_cond_input); 2 for a Loop's body
   * (set when it is inferred: its values known at bind change with the
   * iteration, so an If in it plans both branches). In the padding after
   * n_values on 64-bit targets: no byte more. */
  unsigned char nested;
#endif
  mx_node *nodes; /* in execution (topological) order once validated */
  int32_t n_nodes;
  int32_t *inputs, *outputs; /* value ids of the graph's inputs and outputs */
  int32_t n_inputs, n_outputs;
  mx_opset *opsets;
  int32_t n_opsets;
  int32_t n_syms;         /* distinct dim_param names */
  const char **sym_names; /* [n_syms]: each symbol's dim_param name */
  /* Blocks of MX_MAX_RANK symbol ids, one per value with a dim_param
   * (mx_value.syms): each dim's symbol, -1 for the others. */
  int32_t *dim_syms;
  int32_t n_dim_syms;
  /* A subgraph (an attribute's, MX_OPS_GRAPHS): how many values it reads
   * from enclosing scopes, each an input of its own (MX_VALUE_INPUT) listed
   * in `inputs` after the n_inputs declared ones. The node holding the
   * subgraph takes the outer values as extra inputs, appended after its own
   * in the order of its graph attributes, then of the captures: the
   * enclosing graph orders and plans them as it does any input. (Beside
   * n_dim_syms, it takes the struct's padding on 64-bit targets: no byte
   * more; it is left out where no op takes a subgraph.) */
#if MX_OPS_GRAPHS
  int32_t n_captures;
#endif
} mx_graph;

/* Whether the ops linked in use views and constant folding (rows without
 * eval), whether their infer reads inputs' bytes, and whether their prepare
 * asks for arena scratch (ops/ops.cmake): a build whose ops do not
 * (MINNX_OPS) leaves that code out. */
#ifndef MX_OPS_VIEWS
#define MX_OPS_VIEWS 1
#endif
#ifndef MX_OPS_DATA
#define MX_OPS_DATA 1
#endif
#ifndef MX_OPS_SCRATCH
#define MX_OPS_SCRATCH 1
#endif
/* Whether an op linked in makes data from shapes (Shape, Size): then values
 * computed from shapes are evaluated when the inputs are bound
 * (MX_VALUE_BIND); a build without such ops (a firmware's MINNX_OPS) leaves
 * that code out. */
#ifndef MX_OPS_SHAPES
#define MX_OPS_SHAPES 1
#endif
/* Whether an op linked in reads a list-of-strings attribute (mx_attr.s). */
#ifndef MX_OPS_STRINGS
#define MX_OPS_STRINGS 1
#endif
/* Whether an op linked in packs its constant inputs at prepare (MatMul and
 * Gemm: a float32 B that is an initializer), into bytes kept with the
 * session's params (ops/core/op.h, mx_op_row.packed_size). */
#ifndef MX_OPS_PACKED
#define MX_OPS_PACKED 1
#endif

/* An attribute's subgraph, or NULL: the graph pointer shares its place with
 * the tensor's, so only the type tells which one is there. */
static inline struct mx_graph *mx_attr_graph(const mx_attr *a) { return a->type == MX_ATTR_GRAPH ? a->g : NULL; }

/* The value holding v's bytes: v, or the one v is a view of. */
static inline int32_t mx_bytes_of(const mx_graph *g, int32_t v) {
  return MX_OPS_VIEWS && g->values[v].view_of ? g->values[v].view_of - 1 : v;
}

/* The symbol of value v's dim d (a dim_param), or -1. */
static inline int32_t mx_value_sym(const mx_graph *g, const mx_value *v, int d) {
  return v->syms ? g->dim_syms[(size_t)(v->syms - 1) * MX_MAX_RANK + (size_t)d] : -1;
}

/* Bytes of a tensor of `shape` and `dtype`; SIZE_MAX when a dim is unknown or it overflows. */
size_t mx_shape_bytes(const mx_shape *shape, mx_dtype dtype);
/* Element count: 0 when any dim is 0, else -1 when a dim is unknown, -2 on overflow. */
int64_t mx_shape_count(const mx_shape *shape);
/* 1 when the rank and every dim are known (a 0 dim does not make the others known). */
int mx_shape_known(const mx_shape *shape);
/* "[2,3,N]"-style text of a shape into buf. */
const char *mx_shape_str(const mx_shape *shape, char *buf, size_t size);
/* The attribute named `name` of a node, or NULL. */
const mx_attr *mx_node_attr(const mx_node *node, const char *name);
/* How the node is named in messages: its name, or its first output's. */
const char *mx_node_label(const mx_graph *g, const mx_node *node);

#endif
