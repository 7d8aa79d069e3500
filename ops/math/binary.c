/* The elementwise ops of two operands, every version: Add, Sub, Mul, Div
 * (1, 6, 7, 13, 14), PRelu (1, 6, 7, 9, 16), Equal (1, 7, 11, 13, 19),
 * Greater and Less (1, 7, 9, 13), GreaterOrEqual and LessOrEqual (12, 16), And, Or, Xor (1, 7).
 * Versions before 7 do not broadcast unless the node says `broadcast=1`,
 * and then B's shape must lie inside A's from `axis` on (default: B's dims
 * are A's last ones; a dim of B may also be 1); from 7 numpy's
 * multidirectional broadcasting. PRelu's slope broadcasts to X alone
 * (unidirectionally) from 7; before 7 a slope of one element is shared, a
 * 1-D slope as long as X's dim 1 is one value per channel (dim 1, as the
 * exporters of the time wrote it: PyTorch's [C] slope), and otherwise it
 * must broadcast unidirectionally too. The per-element operation is
 * ops/math/arith.h's or compare.h's (one IEEE operation: numpy's bits;
 * integers wrap, x / 0 = 0); the loops are ops/math/binary.c.in's and
 * logic.c.in's, chosen at prepare (mx_binary_kernel). */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/core/broadcast.h"
#include "ops/core/kernel.h"
#include "ops/math/binary.h"

/* ---- infer ---- */

/* Versions 1 and 6 with broadcast=1: B's dims stand at A's dims axis..;
 * gives B's shape as a numpy-broadcastable one (1s appended), or -1. */
static int legacy_shape(const mx_shape *a, const mx_shape *b, int64_t axis, mx_shape *as_numpy) {
  if (b->rank > a->rank) return -1;
  if (axis < 0) axis = a->rank - b->rank;
  if (axis < 0 || axis + b->rank > a->rank) return -1;
  for (int d = 0; d < b->rank; d++) {
    int64_t x = a->dims[axis + d], y = b->dims[d];
    if (x >= 0 && y >= 0 && y != x && y != 1) return -1;
  }
  *as_numpy = *b;
  as_numpy->rank = (int)(a->rank - axis);
  for (int d = b->rank; d < as_numpy->rank; d++) as_numpy->dims[d] = 1;
  return 0;
}

/* PRelu's slope as a numpy-broadcastable shape (its rule above), or -1.
 * Unknown dims (at load) pass; prepare checks the concrete ones. */
static int prelu_slope(const mx_op_ctx *c, const mx_shape *x, const mx_shape *s, mx_shape *as_numpy) {
  int known = x->rank >= 0 && s->rank >= 0;
  int64_t count = 1;
  for (int d = 0; known && d < x->rank; d++) known = x->dims[d] >= 0;
  for (int d = 0; known && d < s->rank; d++) known = s->dims[d] >= 0, count *= s->dims[d];
  *as_numpy = *s;
  if (!known) return 0;
  if (c->row->since < 7 && count == 1) {
    as_numpy->rank = 0;
    return 0;
  }
  if (c->row->since < 7 && s->rank == 1 && x->rank >= 2 && s->dims[0] == x->dims[1]) {
    as_numpy->rank = x->rank - 1;
    for (int d = 1; d < as_numpy->rank; d++) as_numpy->dims[d] = 1;
    return 0;
  }
  if (s->rank > x->rank) return -1;
  for (int d = 0; d < s->rank; d++) {
    int64_t y = s->dims[d], want = x->dims[x->rank - s->rank + d];
    if (y != want && y != 1) return -1;
  }
  return 0;
}

static minnx_status prelu_refuse(const mx_op_ctx *c) {
  char sx[96], ss[96];
  return mx_op_fail(c, MINNX_E_SHAPE, "PRelu-%d's slope of shape %s does not broadcast to X's shape %s%s",
                    c->row->since, mx_shape_str(c->in[1], ss, sizeof ss), mx_shape_str(c->in[0], sx, sizeof sx),
                    c->row->since < 7 ? " (nor has one element, nor one per channel of dim 1)" : " unidirectionally");
}

static int legacy(const mx_op_ctx *c) { return c->row->since < 7 && mx_attr_int(c->node, "broadcast", 0) != 0; }

/* The ops by name, and their kernels' index. */
static const struct {
  const char *name;
  mx_binop op;
} ops[] = {{"Add", MX_ADD},     {"Sub", MX_SUB},           {"Mul", MX_MUL},          {"Div", MX_DIV},
           {"PRelu", MX_PRELU}, {"Equal", MX_EQ},    {"Greater", MX_GT},        {"Less", MX_LT},          {"GreaterOrEqual", MX_GE},
           {"LessOrEqual", MX_LE}, {"And", MX_AND},        {"Or", MX_OR},            {"Xor", MX_XOR}};

static mx_binop binop_of(const mx_node *n) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(ops[i].name, n->op_type) == 0) return ops[i].op;
  return MX_ADD; /* not reached: the registry resolved the node to one of these tables */
}

static minnx_status binary_infer(mx_op_ctx *c) {
  if (binop_of(c->node) >= MX_EQ) c->out_dtype[0] = MINNX_BOOL;
  if (binop_of(c->node) == MX_PRELU) {
    mx_shape unused;
    if (prelu_slope(c, c->in[0], c->in[1], &unused) != 0) return prelu_refuse(c);
    c->out[0] = *c->in[0];
    return MINNX_OK;
  }
  if (c->row->since >= 7 || !legacy(c)) return mx_elementwise_shape(c, c->row->since >= 7);
  const mx_shape *a = c->in[0], *b = c->in[1];
  int64_t axis = mx_attr_int(c->node, "axis", -1);
  mx_shape unused;
  if (a->rank >= 0 && b->rank >= 0 && legacy_shape(a, b, axis, &unused) != 0) {
    char sa[96], sb[96];
    return mx_op_fail(c, MINNX_E_SHAPE, "with broadcast=1, B's shape %s must match A's shape %s from axis %lld on",
                      mx_shape_str(b, sb, sizeof sb), mx_shape_str(a, sa, sizeof sa),
                      (long long)(axis < 0 ? a->rank - b->rank : axis));
  }
  c->out[0] = *a;
  return MINNX_OK;
}

/* ---- prepare and eval ---- */

typedef struct {
  mx_binary_fn k;
  size_t esize, out_esize; /* an operand's element, the output's */
  int stream;              /* MX_OUT_STREAM when the output is larger than the last-level cache (kernel.h), else 0 */
  mx_bplan bp; /* last: its strides follow */
} binary_params;

static size_t binary_params_size(const mx_node *n) { return offsetof(binary_params, bp) + mx_bplan_size(n->n_inputs); }

static minnx_status binary_prepare(mx_op_ctx *c, void *params) {
  binary_params *p = params;
  mx_dtype t = c->in_dtype[0];
  p->k = mx_binary_kernel(t, binop_of(c->node), c->isa);
  if (!p->k) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "%s is not implemented for %s", c->node->op_type, mx_dtype_name(t));
  p->esize = mx_dtype_size(t);
  p->out_esize = mx_dtype_size(c->out_dtype[0]);
  mx_shape b;
  const mx_shape *in[2] = {c->in[0], c->in[1]};
  if (binop_of(c->node) == MX_PRELU) {
    if (prelu_slope(c, c->in[0], c->in[1], &b) != 0) return prelu_refuse(c);
    in[1] = &b;
  } else if (legacy(c)) {
    legacy_shape(c->in[0], c->in[1], mx_attr_int(c->node, "axis", -1), &b);
    in[1] = &b;
  }
  mx_bplan_init(&p->bp, in, 2, c->out);
  p->stream = mx_streams_out((double)mx_shape_count(c->out) * (double)p->out_esize) ? MX_OUT_STREAM : 0;
  return MINNX_OK;
}

typedef struct {
  const binary_params *p;
  const unsigned char *a, *b;
  unsigned char *out;
} binary_run;

static void binary_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const binary_run *r = ctx;
  const mx_bplan *bp = &r->p->bp;
  const int64_t *sa = mx_bplan_strides(bp, 0), *sb = mx_bplan_strides(bp, 1);
  int rank = bp->rank;
  r->p->k(r->out + (size_t)out_off * r->p->out_esize, r->a + (size_t)in_off[0] * r->p->esize, (sa[rank - 1] != 0) | r->p->stream,
          r->b + (size_t)in_off[1] * r->p->esize, (int)sb[rank - 1], len, rows, rank > 1 ? sa[rank - 2] : 0,
          rank > 1 ? sb[rank - 2] : 0);
}

static void binary_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const binary_params *p = params;
  /* one collapsed dim, small: a single call (a tiny node's run is mostly fixed cost) */
  if (p->bp.rank == 1 && (!x->parallel || p->bp.count < 2 * (int64_t)(MX_TASK_BYTES / p->out_esize))) {
    p->k(out[0], in[0], (mx_bplan_strides(&p->bp, 0)[0] != 0) | p->stream, in[1], mx_bplan_strides(&p->bp, 1)[0] != 0,
         p->bp.count, 1, 0, 0);
    return;
  }
  binary_run r = {p, in[0], in[1], out[0]};
  mx_bplan_walk_x(&p->bp, x, p->out_esize, binary_tile, &r);
}

/* ---- the kernels' table ---- */

extern const mx_kernel_row mx_binary_rows[], mx_logic_rows[];
extern const size_t mx_binary_n_rows, mx_logic_n_rows;

/* (The two sets have one layout: struct mx_binary_set's.) Equal of bool is
 * uint8's, as bool is stored as 0 and 1. */
static const struct mx_binary_set *set_of(mx_dtype t, mx_binop op, mx_isa isa) {
  if (t == MINNX_BOOL && op < MX_AND) t = MINNX_UINT8;
  return op >= MX_AND ? mx_kernel_find(mx_logic_rows, mx_logic_n_rows, t, isa)
                      : mx_kernel_find(mx_binary_rows, mx_binary_n_rows, t, isa);
}

mx_binary_fn mx_binary_kernel(mx_dtype t, mx_binop op, mx_isa isa) {
  const struct mx_binary_set *s = set_of(t, op, isa);
  return s ? s->op[op] : NULL;
}

mx_binary_ref_fn mx_binary_ref(mx_dtype t, mx_binop op) {
  const struct mx_binary_set *s = set_of(t, op, MX_ISA_PORTABLE);
  return s ? s->reference : NULL;
}

/* ---- the rows ---- */

#define T6 (MX_FLOATS | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64) | MX_BIT(MINNX_UINT32) | MX_BIT(MINNX_UINT64))
#define T_BOOL MX_BIT(MINNX_BOOL)
#define TWO(var, ts) \
  static const mx_io var[] = {{.name = "A", .types = (ts), .group = 1}, {.name = "B", .types = (ts), .group = 1}, {0}}
TWO(in_floats, MX_FLOATS);
TWO(in6, T6);
TWO(in13, T6 | MX_BIT(MINNX_BFLOAT16));
TWO(in_numeric, MX_NUMERIC);
TWO(in_eq1, T_BOOL | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64));
TWO(in_eq11, MX_FLOATS | MX_INTS | T_BOOL);
TWO(in_eq13, MX_ALL_TYPES);
TWO(in_cmp9, MX_FLOATS | MX_INTS);
TWO(in_bool, T_BOOL);
#undef TWO
static const mx_io out_same[] = {{.name = "C", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_io out_bool[] = {{.name = "C", .types = T_BOOL}, {0}};
static const mx_attr_spec attrs1[] = {
    {"axis", MX_ATTR_INT}, {"broadcast", MX_ATTR_INT}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec attrs_legacy[] = {{"axis", MX_ATTR_INT}, {"broadcast", MX_ATTR_INT}, {NULL, 0}};

#define ROW .infer = binary_infer, .params_size = binary_params_size, .prepare = binary_prepare, .eval = binary_eval
#define NUMPY .rules = MX_RULE_BROADCAST
static const mx_op_row arith_rows[] = {
    {ROW, .since = 1, .in = in_floats, .out = out_same, .attrs = attrs1},
    {ROW, .since = 6, .in = in6, .out = out_same, .attrs = attrs_legacy},
    {ROW, .since = 7, .in = in6, .out = out_same, NUMPY},
    {ROW, .since = 13, .in = in13, .out = out_same, NUMPY},
    {ROW, .since = 14, .in = in_numeric, .out = out_same, NUMPY},
};
static const mx_io prelu_in1[] = {{.name = "X", .types = MX_FLOATS, .group = 1},
                                  {.name = "slope", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io prelu_in9[] = {{.name = "X", .types = T6, .group = 1}, {.name = "slope", .types = T6, .group = 1},
                                  {0}};
static const mx_io prelu_in16[] = {{.name = "X", .types = T6 | MX_BIT(MINNX_BFLOAT16), .group = 1},
                                   {.name = "slope", .types = T6 | MX_BIT(MINNX_BFLOAT16), .group = 1}, {0}};
static const mx_attr_spec prelu_attrs1[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_op_row prelu_rows[] = {
    {ROW, .since = 1, .in = prelu_in1, .out = out_same, .attrs = prelu_attrs1},
    {ROW, .since = 6, .in = prelu_in1, .out = out_same},
    {ROW, .since = 7, .in = prelu_in1, .out = out_same},
    {ROW, .since = 9, .in = prelu_in9, .out = out_same},
    {ROW, .since = 16, .in = prelu_in16, .out = out_same},
};
static const mx_op_row equal_rows[] = {
    {ROW, .since = 1, .in = in_eq1, .out = out_bool, .attrs = attrs_legacy},
    {ROW, .since = 7, .in = in_eq1, .out = out_bool, NUMPY},
    {ROW, .since = 11, .in = in_eq11, .out = out_bool, NUMPY},
    {ROW, .since = 13, .in = in_eq13, .out = out_bool, NUMPY},
    {ROW, .since = 19, .in = in_eq13, .out = out_bool, NUMPY}, /* 19 adds strings, which minnx does not hold */
};
static const mx_op_row order_rows[] = { /* Greater, Less */
    {ROW, .since = 1, .in = in_floats, .out = out_bool, .attrs = attrs_legacy},
    {ROW, .since = 7, .in = in_floats, .out = out_bool, NUMPY},
    {ROW, .since = 9, .in = in_cmp9, .out = out_bool, NUMPY},
    {ROW, .since = 13, .in = in_numeric, .out = out_bool, NUMPY},
};
static const mx_op_row order_eq_rows[] = { /* GreaterOrEqual, LessOrEqual */
    {ROW, .since = 12, .in = in_cmp9, .out = out_bool, NUMPY},
    {ROW, .since = 16, .in = in_numeric, .out = out_bool, NUMPY},
};
static const mx_op_row logic_rows[] = {
    {ROW, .since = 1, .in = in_bool, .out = out_bool, .attrs = attrs_legacy},
    {ROW, .since = 7, .in = in_bool, .out = out_bool, NUMPY},
};
MX_OP_TABLE(Add, "", arith_rows);
MX_OP_TABLE(Sub, "", arith_rows);
MX_OP_TABLE(Mul, "", arith_rows);
MX_OP_TABLE(Div, "", arith_rows);
MX_OP_TABLE(PRelu, "", prelu_rows);
MX_OP_TABLE(Equal, "", equal_rows);
MX_OP_TABLE(Greater, "", order_rows);
MX_OP_TABLE(Less, "", order_rows);
MX_OP_TABLE(GreaterOrEqual, "", order_eq_rows);
MX_OP_TABLE(LessOrEqual, "", order_eq_rows);
MX_OP_TABLE(And, "", logic_rows);
MX_OP_TABLE(Or, "", logic_rows);
MX_OP_TABLE(Xor, "", logic_rows);
