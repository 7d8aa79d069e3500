/* ReduceMax and ReduceMin, every version to opset 21: the extreme over a set
 * of axes (extremum_reduce.c). NaN in a set gives NaN; an empty set gives the
 * dtype's lowest value for ReduceMax (-inf for floats) and its highest for
 * ReduceMin; bool (from 20) orders false < true. Axes come as an attribute
 * (1-13; negative from 11) or as an optional input (from 18, where
 * noop_with_empty_axes=1 with no axes makes the node an identity): a constant,
 * or a graph input (the session then plans again at each run); one computed
 * by a node is refused at load. */
#include <string.h>

#include "ops/minmax/extremum_kernels.h"
#include "ops/minmax/minmax.h"

typedef struct {
  int copy;     /* noop_with_empty_axes with empty axes fed at run time: the input as it is */
  size_t bytes; /* then its size */
  mx_reduce_walk w;
} reduce_params;

/* The node's axes: from the attribute, or from the constant input (18+). */
static void axes_given(const mx_op_ctx *c, const int64_t **axes, const unsigned char **bytes, int64_t *n) {
  *axes = NULL, *bytes = NULL, *n = 0;
  if (c->row->rules & MX_RULE_AXES_INPUT) {
    if (c->n_in > 1 && c->in[1] && c->in_data[1]) {
      *bytes = c->in_data[1];
      *n = mx_shape_count(c->in[1]);
    }
    return;
  }
  const mx_attr *a = mx_node_attr(c->node, "axes");
  if (a) *axes = a->ints, *n = (int64_t)a->n;
}

/* The reduced axes of an input of rank r as a mask (bit d: axis d), after
 * the checks: each in range (negative ones from 11), none twice. *noop: no
 * axes and noop_with_empty_axes=1. No axes otherwise reduces them all. */
static minnx_status reduced_axes(const mx_op_ctx *c, int r, uint32_t *mask, int *noop) {
  const int64_t *list;
  const unsigned char *bytes;
  int64_t n;
  axes_given(c, &list, &bytes, &n);
  if ((c->row->rules & MX_RULE_AXES_INPUT) && c->n_in > 1 && c->in[1] && c->in[1]->rank > 1)
    return mx_op_fail(c, MINNX_E_SHAPE, "the axes input has rank %d; its shape must be 1-D", c->in[1]->rank);
  *mask = 0;
  *noop = n == 0 && mx_attr_int(c->node, "noop_with_empty_axes", 0) == 1;
  if (n == 0) {
    if (!*noop) *mask = r > 0 ? (uint32_t)((1ull << r) - 1) : 0;
    return MINNX_OK;
  }
  int64_t lo = (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -(int64_t)r : 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t a;
    if (list) a = list[i];
    else memcpy(&a, bytes + (size_t)i * sizeof a, sizeof a); /* little-endian, maybe unaligned */
    if (a < lo || a > r - 1)
      return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld (axes[%lld]) is out of range [%lld, %lld] for an input of rank %d",
                        (long long)a, (long long)i, (long long)lo, (long long)(r - 1), r);
    if (a < 0) a += r;
    if (*mask >> a & 1) return mx_op_fail(c, MINNX_E_MODEL, "axis %lld is given twice in axes", (long long)a);
    *mask |= 1u << a;
  }
  return MINNX_OK;
}

static minnx_status reduce_infer(mx_op_ctx *c) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  int64_t keepdims = mx_attr_int(c->node, "keepdims", 1);
  int64_t noop_attr = mx_attr_int(c->node, "noop_with_empty_axes", 0);
  if (keepdims != 0 && keepdims != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute keepdims is %lld; it must be 0 or 1", (long long)keepdims);
  if (noop_attr != 0 && noop_attr != 1)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute noop_with_empty_axes is %lld; it must be 0 or 1",
                      (long long)noop_attr);
  /* checked again once the input's rank, or a graph input's axes, are known */
  int axes_unknown = (c->row->rules & MX_RULE_AXES_INPUT) && c->n_in > 1 && c->in[1] && !c->in_data[1];
  if (in->rank < 0 || axes_unknown) {
    out->rank = -1;
    return MINNX_OK;
  }
  uint32_t mask;
  int noop;
  minnx_status st = reduced_axes(c, in->rank, &mask, &noop);
  if (st) return st;
  if (noop) {
    *out = *in;
    return MINNX_OK;
  }
  out->rank = 0;
  for (int d = 0; d < in->rank; d++) {
    if (!(mask >> d & 1)) out->dims[out->rank++] = in->dims[d];
    else if (keepdims) out->dims[out->rank++] = 1;
  }
  return MINNX_OK;
}

static size_t reduce_params_size(const mx_node *n) {
  (void)n;
  return sizeof(reduce_params);
}

/* The kernels: reduce_rows.c.in's, which mx_reduce_init chooses (extremum_reduce.c). */
static minnx_status reduce_prepare(mx_op_ctx *c, void *params) {
  reduce_params *p = params;
  const mx_shape *in = c->in[0];
  uint32_t mask;
  int noop;
  minnx_status st = reduced_axes(c, in->rank, &mask, &noop);
  if (st) return st;
  p->copy = noop;
  p->bytes = mx_shape_bytes(in, c->in_dtype[0]);
  mx_reduce_init(&p->w, c->in_dtype[0], mx_dir_of(c->node), c->isa, in->rank, in->dims, mask);
  c->scratch = noop ? 0 : mx_reduce_scratch(&p->w); /* the pieces' results */
  return MINNX_OK;
}

typedef struct {
  const mx_reduce_walk *w;
  const void *in;
  void *out, *scratch;
  int64_t parts;
} reduce_split;

static void reduce_task(void *ctx, size_t i) {
  const reduce_split *s = ctx;
  mx_reduce_part(s->w, s->in, s->out, s->scratch, (int64_t)i, s->parts);
}

static void reduce_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const reduce_params *p = params;
  int64_t tasks = x->parallel && !p->copy ? mx_reduce_tasks(&p->w) : 1;
  if (p->copy) {
    memcpy(out[0], in[0], p->bytes);
  } else if (tasks < 2) {
    mx_reduce_run(&p->w, in[0], out[0]);
  } else {
    reduce_split s = {&p->w, in[0], out[0], x->scratch, tasks};
    mx_reduce_start(&p->w, out[0]);
    mx_parallel_for(x, reduce_task, &s, (size_t)tasks);
    mx_reduce_finish(&p->w, out[0], x->scratch);
  }
}

/* ---- the rows ---- */

#define REDUCE1_TYPES (MX_FLOATS | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64) | MX_BIT(MINNX_UINT32) | MX_BIT(MINNX_UINT64))
#define REDUCE12_TYPES (REDUCE1_TYPES | MX_BIT(MINNX_INT8) | MX_BIT(MINNX_UINT8))
#define REDUCE13_TYPES (REDUCE12_TYPES | MX_BIT(MINNX_BFLOAT16))
#define REDUCE20_TYPES (REDUCE13_TYPES | MX_BIT(MINNX_BOOL))
#define AXES_INPUT {.name = "axes", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_OPTIONAL | MX_IO_CONST}
static const mx_io in1[] = {{.name = "data", .types = REDUCE1_TYPES, .group = 1}, {0}};
static const mx_io in12[] = {{.name = "data", .types = REDUCE12_TYPES, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "data", .types = REDUCE13_TYPES, .group = 1}, {0}};
static const mx_io in18[] = {{.name = "data", .types = REDUCE13_TYPES, .group = 1}, AXES_INPUT, {0}};
static const mx_io in20[] = {{.name = "data", .types = REDUCE20_TYPES, .group = 1}, AXES_INPUT, {0}};
static const mx_io out_any[] = {{.name = "reduced", .types = REDUCE20_TYPES, .group = 1}, {0}};
static const mx_io out18[] = {{.name = "reduced", .types = REDUCE20_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_attr_spec attrs1[] = {{"axes", MX_ATTR_INTS}, {"keepdims", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec attrs18[] = {{"keepdims", MX_ATTR_INT}, {"noop_with_empty_axes", MX_ATTR_INT}, {NULL, 0}};

/* From 18 the node is an identity, a view of its input without a copy, when
 * noop_with_empty_axes=1 and axes is absent or an empty constant (known at
 * load). Empty axes fed at run time still give the input, as a copy. */
static int reduce_is_noop(const mx_graph *g, const mx_node *n) {
  if (mx_attr_int(n, "noop_with_empty_axes", 0) != 1) return 0;
  if (n->n_inputs < 2 || n->inputs[1] < 0) return 1;
  const mx_value *axes = &g->values[mx_bytes_of(g, n->inputs[1])];
  return axes->kind == MX_VALUE_INITIALIZER && mx_shape_count(&axes->shape) == 0;
}

#define NEG MX_RULE_NEGATIVE_AXIS
#define ROW .infer = reduce_infer, .params_size = reduce_params_size, .prepare = reduce_prepare, \
            .eval = reduce_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .out = out_any, .in = in1, .attrs = attrs1},
    {ROW, .since = 11, .out = out_any, .in = in1, .attrs = attrs1, .rules = NEG},
    {ROW, .since = 12, .out = out_any, .in = in12, .attrs = attrs1, .rules = NEG},
    {ROW, .since = 13, .out = out_any, .in = in13, .attrs = attrs1, .rules = NEG},
    {ROW, .since = 18, .in = in18, .attrs = attrs18, .rules = NEG | MX_RULE_AXES_INPUT, .out = out18,
     .views_if = reduce_is_noop},
    {ROW, .since = 20, .in = in20, .attrs = attrs18, .rules = NEG | MX_RULE_AXES_INPUT, .out = out18,
     .views_if = reduce_is_noop},
};
/* one list of versions for both; the direction comes from the op's name */
MX_OP_TABLE(ReduceMax, "", rows);
MX_OP_TABLE(ReduceMin, "", rows);
