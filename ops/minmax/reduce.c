/* ReduceMax and ReduceMin, every version to opset 21: the extreme over a set
 * of axes (extremum_reduce.c). NaN in a set gives NaN; an empty set gives the
 * dtype's lowest value for ReduceMax (-inf for floats) and its highest for
 * ReduceMin; bool (from 20) orders false < true. Axes come as an attribute
 * (1-13; negative from 11) or as an optional input (from 18, where
 * noop_with_empty_axes=1 with no axes makes the node an identity): a constant,
 * or a graph input (the session then plans again at each run); one computed
 * by a node is refused at load. */
#include <string.h>

#include "ops/core/reduce_axes.h"
#include "ops/minmax/extremum_kernels.h"
#include "ops/minmax/minmax.h"

typedef struct {
  int copy;     /* noop_with_empty_axes with empty axes fed at run time: the input as it is */
  size_t bytes; /* then its size */
  mx_reduce_walk w;
} reduce_params;

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
  minnx_status st = mx_reduced_axes(c, in->rank, &mask, &noop);
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
static const mx_io in1[] = {{.name = "data", .types = REDUCE1_TYPES, .group = 1}, {0}};
static const mx_io in12[] = {{.name = "data", .types = REDUCE12_TYPES, .group = 1}, {0}};
static const mx_io in13[] = {{.name = "data", .types = REDUCE13_TYPES, .group = 1}, {0}};
static const mx_io in18[] = {{.name = "data", .types = REDUCE13_TYPES, .group = 1}, MX_REDUCE_AXES_INPUT, {0}};
static const mx_io in20[] = {{.name = "data", .types = REDUCE20_TYPES, .group = 1}, MX_REDUCE_AXES_INPUT, {0}};
static const mx_io out_any[] = {{.name = "reduced", .types = REDUCE20_TYPES, .group = 1}, {0}};
static const mx_io out18[] = {{.name = "reduced", .types = REDUCE20_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
#define NEG MX_RULE_NEGATIVE_AXIS
#define ROW .infer = mx_reduce_infer, .params_size = reduce_params_size, .prepare = reduce_prepare, \
            .eval = reduce_eval
static const mx_op_row rows[] = {
    {ROW, .since = 1, .out = out_any, .in = in1, .attrs = mx_reduce_attrs_axes},
    {ROW, .since = 11, .out = out_any, .in = in1, .attrs = mx_reduce_attrs_axes, .rules = NEG},
    {ROW, .since = 12, .out = out_any, .in = in12, .attrs = mx_reduce_attrs_axes, .rules = NEG},
    {ROW, .since = 13, .out = out_any, .in = in13, .attrs = mx_reduce_attrs_axes, .rules = NEG},
    {ROW, .since = 18, .in = in18, .attrs = mx_reduce_attrs_noop, .rules = NEG | MX_RULE_AXES_INPUT, .out = out18,
     .views_if = mx_reduce_is_noop},
    {ROW, .since = 20, .in = in20, .attrs = mx_reduce_attrs_noop, .rules = NEG | MX_RULE_AXES_INPUT, .out = out18,
     .views_if = mx_reduce_is_noop},
};
/* one list of versions for both; the direction comes from the op's name */
MX_OP_TABLE(ReduceMax, "", rows);
MX_OP_TABLE(ReduceMin, "", rows);
