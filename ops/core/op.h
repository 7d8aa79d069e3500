/* The op contract. An operator version is one row (mx_op_row), declared with
 * designated initializers in the op's own file, next to its infer, prepare
 * and eval. The registry (registry.c) only lists each op's table and resolves
 * a node to a row: the highest `since` <= the model's opset for its domain.
 *
 * What the stages guarantee a row:
 * - load: the node's arity, input dtypes (mx_io) and attribute names and types
 *   (mx_attr_spec) are checked before infer runs; an input marked MX_IO_CONST
 *   is constant data (initializer, folded Constant) or the node is refused.
 * - infer (load, and again once a session's input shapes are bound): sees
 *   every input's dtype, shape and, for constants, its bytes; gives each
 *   output's shape (and dtype where no type group fixes it). Setting
 *   c->out_data[k] folds the output into a constant: the node never runs.
 *   A node computing from shapes and constants only (an MX_IO_SHAPE input,
 *   or values so computed) that does not fold at load is computed when a
 *   session's inputs are bound, by its own prepare and eval, before the
 *   arena is planned (MX_VALUE_BIND, ops/core/infer.c): the ops need no
 *   code of their own for it.
 * - prepare (once per plan, concrete shapes): parses attributes into the op's
 *   own params struct, validates, chooses the kernel, and asks for arena
 *   scratch bytes (c->scratch). May fail, naming the node.
 * - eval: computes only; never fails, never allocates, little stack.
 * - an output declared a view (mx_io.view) shares its input's bytes: no eval
 *   and no arena bytes; the planner keeps the viewed bytes alive while any
 *   view of them is.
 *
 * A row, as Reshape-14 declares it in ops/tensor/reshape.c:
 *   static const mx_io reshape_in[] = {{.name = "data", .types = MX_ALL_TYPES, .group = 1},
 *                                      {.name = "shape", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_CONST}, {0}};
 *   static const mx_io reshape_out[] = {{.name = "reshaped", .types = MX_ALL_TYPES, .group = 1,
 *                                        .view = MX_VIEW_OF(0)}, {0}};
 *   static const mx_attr_spec reshape14_attrs[] = {{"allowzero", MX_ATTR_INT}, {NULL}};
 *   static const mx_op_row rows[] = {
 *       {.since = 14, .in = reshape_in, .out = reshape_out, .attrs = reshape14_attrs,
 *        .rules = MX_RULE_ALLOWZERO, .infer = reshape_infer},
 *   };
 *   MX_OP_TABLE(Reshape, "", rows);
 * and CMake's op list (ops/ops.cmake) names the file: minnx_op(Reshape ops/tensor/reshape.c). */
#ifndef MX_OP_H
#define MX_OP_H

#include "graph/err.h"
#include "graph/ir.h"
#include "ops/core/cpu.h"

/* ---- what a row declares ---- */

enum {
  MX_IO_OPTIONAL = 1u << 0, /* may be omitted (absent, or named "") */
  MX_IO_VARIADIC = 1u << 1, /* last entry only: it repeats, at least once unless OPTIONAL */
  /* inputs: infer reads the bytes (c->in_data): an initializer, a folded
   * Constant, or a graph input (then known when it is bound, not at load);
   * a value computed by a node is refused at load */
  MX_IO_CONST = 1u << 2,
  /* inputs: infer and eval read only the shape (Shape, Size): the output is
   * known once that shape is, at load or when the inputs are bound; the
   * values computed from it and constants alone are MX_VALUE_BIND */
  MX_IO_SHAPE = 1u << 3,
};

/* One input or output. Entries of one row with the same nonzero `group`
 * (1..MX_GROUPS, a row's numbering of ONNX's T, T1, T2...) share one dtype,
 * which must be in `types`; an output in a group takes the dtype of that
 * group's inputs. An output in no group (or in a group no input has) gets
 * its dtype from infer (Cast: its `to`; ArgMax: int64), checked against
 * `types`.
 * Lists end with an entry whose name is NULL ({0}). */
#define MX_GROUPS 7
typedef struct mx_io {
  const char *name;
  mx_dtype_set types;
  unsigned char group : 3; /* 0: a constraint of its own */
  unsigned char flags; /* MX_IO_* */
  /* outputs: MX_VIEW_OF(k) makes this output a view of input k (same bytes,
   * the shape infer gives it); 0: an output of its own */
  signed char view;
} mx_io;
#define MX_VIEW_OF(k) ((signed char)((k) + 1))

/* An attribute the row allows; anything else on a node is refused at load. */
typedef struct mx_attr_spec {
  const char *name;
  mx_attr_type type;
} mx_attr_spec;

/* ---- what infer and prepare see ---- */

typedef struct mx_op_row mx_op_row;

/* One context for infer and prepare. Inputs are indexed as in the node
 * (n_in entries, an omitted optional input has shape NULL, dtype UNDEFINED);
 * outputs likewise (an omitted optional output is still given room). */
typedef struct mx_op_ctx {
  const mx_graph *g;
  const mx_node *node;
  const mx_op_row *row;
  int32_t n_in, n_out;
  const mx_shape *const *in;  /* inputs' shapes (load: dims may be unknown, -1) */
  const mx_dtype *in_dtype;
  const void *const *in_data; /* bytes infer may read (MX_IO_CONST), host byte order, packed; else NULL */
  mx_shape *out;              /* infer: set every output's shape; prepare: the concrete ones */
  mx_dtype *out_dtype;        /* preset from the row's groups; infer sets the others */
  const void **out_data;      /* infer: bytes known at load fold the output (they must outlive the model) */
  struct mx_pool *pool;       /* infer at load: the model's pool, for bytes infer computes (mx_fold_output); else NULL */
  size_t scratch;             /* prepare: arena bytes eval needs (mx_exec.scratch), 64-byte aligned */
  /* prepare in a session: the row's packed_size bytes, kept with the node's
   * params (16-byte aligned), for prepare to fill from constant inputs;
   * eval reads them through the params. NULL at load, with
   * weights_in_place (the weights are read as they lie), and for rows
   * without packed_size or nodes it gives 0. (Only where an op packs.) */
#if MX_OPS_PACKED
  void *packed;
  /* prepare: sessions give this node packed bytes (the above, non-NULL in a
   * session; at load, where it is NULL, the scratch asked for must be the
   * session's, so an op whose scratch shrinks when it packs asks for that) */
  int packs;
#endif
#if MX_OPS_GRAPHS
  /* infer with a prepare to follow (a session's plan): the node's params
   * memory, the one its prepare gets; NULL otherwise. If plans its taken
   * branch there at infer, to know its outputs' shapes. */
  void *params;
#endif
  mx_isa isa;                 /* the ISA level for the kernel choosers: the model's (the CPU's, asked once at load
                                 since CPUID traps to the hypervisor in a VM; minnx_load_options.max_isa caps it) */
  mx_err *err;
} mx_op_ctx;

/* ---- what eval sees ---- */

/* Tasks are minnx.h's, the hooks' (pthreadpool's convention): parallel runs
 * task(ctx, i) for every i in [0, n), in any order, possibly at once on
 * several threads, and returns when all are done. */
typedef struct mx_exec {
  minnx_parallel_fn parallel; /* NULL: tasks run inline, in order */
  void *threads;              /* parallel's own state */
  void *scratch;              /* this node's scratch (prepare's c->scratch bytes), NULL when none */
  int *fault;                 /* where mx_fault reports; NULL: nowhere (a fold at load checks first) */
} mx_exec;

/* What only the data can break at run time, which eval still may not fail
 * on: a kernel writes a defined value in place of what it cannot compute,
 * reads nothing out of bounds, and reports the fault here; the session then
 * stops after the node and fails its run naming it (runtime/session.c). */
enum {
  MX_FAULT_NONE,
  MX_FAULT_INDEX, /* an index out of range of its axis */
  /* Loop (ops/controlflow/loop.c): cond ended it before the M rows its scan
   * outputs were planned with; it reached MX_LOOP_MAX_ITERATIONS; its body's
   * shapes computed from the iteration number differ from the planned ones */
  MX_FAULT_LOOP_ROWS,
  MX_FAULT_LOOP_ENDLESS,
  MX_FAULT_LOOP_SHAPE,
};
static inline void mx_fault(const mx_exec *x, int fault) {
  if (!x->fault) return;
#if defined(__GNUC__) || defined(__clang__)
  __atomic_store_n(x->fault, fault, __ATOMIC_RELAXED); /* tasks on several threads may report at once */
#else
  *x->fault = fault;
#endif
}

/* What a kernel calls to split its work. */
static inline void mx_parallel_for(const mx_exec *x, minnx_task_fn task, void *ctx, size_t n) {
  if (x->parallel) {
    x->parallel(x->threads, task, ctx, n);
    return;
  }
  for (size_t i = 0; i < n; i++) task(ctx, i);
}

/* in[k]: input k's bytes (NULL when omitted); out[k]: output k's. */
typedef void (*mx_eval_fn)(const mx_exec *x, const void *params, const void *const *in, void *const *out);

/* ---- the row ---- */

struct mx_op_row {
  unsigned short since;
  /* rules and inexact are a byte each: a row keeps 4 bytes of numbers
   * before its pointers on 32-bit targets (a firmware's tables). */
  unsigned char rules; /* version rules (MX_RULE_*) for the op's code to read */
  /* 0: the result is exact under the numeric contract (selection, copies,
   * conversions, one IEEE operation per element), compared bit for bit by
   * `minnx test`; 1: it depends on minnx's documented order of a sum or on
   * its own transcendental functions, compared with independent references
   * within a tolerance (README, "Numbers"). */
  unsigned char inexact;
  const mx_io *in, *out;
  const mx_attr_spec *attrs; /* NULL: none */
  minnx_status (*infer)(mx_op_ctx *c);
  /* Bytes of the node's params (the op's struct), known at load; NULL: none. */
  size_t (*params_size)(const mx_node *n);
#if MX_OPS_PACKED
  /* Bytes prepare packs the node's constant inputs into (weights in the
   * layout its kernel streams), known at load; NULL or 0: none. Counted in
   * the session's memory (minnx_session_memory_needed, `minnx info`). A
   * build whose ops do not declare PACKED (ops/ops.cmake) has no such field. */
  size_t (*packed_size)(const mx_graph *g, const mx_node *n);
#endif
  /* NULL for rows that never run (views, folded): nothing to prepare. */
  minnx_status (*prepare)(mx_op_ctx *c, void *params);
  mx_eval_fn eval; /* NULL: every output is a view or folded */
  /* NULL: the outputs declared views always are. Otherwise they are views
   * only for the nodes it says so of, at load (ReduceMax-18 with no axes and
   * noop_with_empty_axes=1: an identity); a node whose outputs are all views
   * does not run. */
  int (*views_if)(const mx_graph *g, const mx_node *n);
};

/* Version rules a row may carry. */
enum {
  MX_RULE_NEGATIVE_AXIS = 1u << 0, /* axes may be in [-r, -1] */
  MX_RULE_BROADCAST = 1u << 1,     /* multidirectional (numpy) broadcasting */
  MX_RULE_ALLOWZERO = 1u << 2,     /* Reshape-14: the allowzero attribute */
  MX_RULE_AXES_INPUT = 1u << 3,    /* axes come as an input (Squeeze/Unsqueeze-13) */
};

/* An op's table, its versions in any order: what its file exports as
 * mx_op_<name> (registry.c lists them; CMake's MINNX_OPS chooses which are
 * linked). domain "" is ai.onnx. */
typedef struct mx_op_table {
  const char *domain, *op;
  const mx_op_row *rows;
  size_t n_rows;
} mx_op_table;
#define MX_OP_TABLE(name, domain, rows) \
  const mx_op_table mx_op_##name = {domain, #name, rows, sizeof rows / sizeof rows[0]}

/* ---- helpers for op code ---- */

/* An attribute's value, or dflt when the node does not have it. */
int64_t mx_attr_int(const mx_node *n, const char *name, int64_t dflt);
/* Axis `axis` of a rank-`rank` shape as an index in [0, rank): negative ones
 * count from the end where the row has MX_RULE_NEGATIVE_AXIS; -1 when out of
 * range. */
int64_t mx_axis(const mx_op_ctx *c, int64_t axis, int64_t rank);
/* An int64 list given as an attribute (version < since_input) or as input 1
 * (an MX_IO_CONST entry): its values and count; a refusal names which.
 * `required`: absent is refused; else absent gives *n = -1. *n = -2: it is a
 * graph input whose bytes come when it is bound (at load: the output's shape
 * is not known yet). */
minnx_status mx_int_list(const mx_op_ctx *c, const char *name, int since_input, int required, const int64_t **v,
                         int64_t *n);
/* Folds output k into bytes infer computes at load (Slice, Concat of
 * constants run their own kernel into them): room for its shape and dtype,
 * set first, from the model's pool, made c->out_data[k]. *bytes is NULL when
 * this infer does not fold (a session's, or a build without folding); a
 * failure is out of memory. */
minnx_status mx_fold_output(mx_op_ctx *c, int32_t k, void **bytes);
/* Folds output k into bytes a constant input holds already (a Slice, Split
 * or Gather of constants whose result is one run of its input's bytes): no
 * copy, the same check as mx_fold_output; `bytes` must outlive the model (a
 * constant's, at load). Does nothing when this infer does not fold. */
minnx_status mx_fold_within(mx_op_ctx *c, int32_t k, const void *bytes);
/* Fails with the message "node '<label>' (<Op>-<since>): <text>". */
#ifndef MX_NO_MESSAGES
minnx_status mx_op_fail(const mx_op_ctx *c, minnx_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#else
#define mx_op_fail(c, st, ...) ((void)sizeof(mx_format_check(__VA_ARGS__)), mx_fail_status((c)->err, (st)))
#endif

#endif
