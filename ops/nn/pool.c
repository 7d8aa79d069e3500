/* ONNX MaxPool (1, 8, 10, 11, 12), AveragePool (1, 7, 10, 11, 19),
 * GlobalMaxPool (1) and GlobalAveragePool (1): the rows, their shapes
 * (window.h's rules), and the run (pool.h: the order of the sums, the NaN
 * and tie rules, the kernel and its reference loop).
 * - MaxPool: Indices (from 8, optional) with storage_order; ceil_mode and
 *   dilations from 10; int8 and uint8 from 12.
 * - AveragePool: count_include_pad from 7, ceil_mode from 10, dilations
 *   from 19.
 * - The global pools: one window over all of each plane's spatial dims (any
 *   number of them); the output [N, C, 1, ...]. */
#include <string.h>

#include "graph/shape.h"
#include "ops/core/kernel.h"
#include "ops/nn/pool.h"

typedef struct {
  mx_pool_geom g;
  const struct mx_pool_row_set *k; /* float32's row paths (pool_rows.c.in), NULL for other dtypes */
  mx_dtype t;
  int indices;
  int64_t tasks;
} pool_plan;

static size_t pool_params_size(const mx_node *n) {
  (void)n;
  return sizeof(pool_plan);
}

static int is_global(const mx_op_ctx *c) { return strncmp(c->node->op_type, "Global", 6) == 0; }
static int is_avg(const mx_op_ctx *c) { return strstr(c->node->op_type, "Average") != NULL; }

/* The geometry of the node and its output's shape (dims -1 where not known yet). */
static minnx_status pool_geometry(mx_op_ctx *c, mx_pool_geom *g, mx_shape *out) {
  const mx_shape *xs = c->in[0];
  char s1[96];
  memset(g, 0, sizeof *g);
  g->avg = is_avg(c);
  g->include_pad = mx_attr_int(c->node, "count_include_pad", 0) != 0;
  g->storage_order = mx_attr_int(c->node, "storage_order", 0) != 0;
  if (g->storage_order != (mx_attr_int(c->node, "storage_order", 0) == 1))
    return mx_op_fail(c, MINNX_E_MODEL, "attribute storage_order is %lld; it must be 0 or 1",
                      (long long)mx_attr_int(c->node, "storage_order", 0));
  if (xs->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  if (xs->rank < 3)
    return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s: a pool needs [N, C, spatial dims...], rank >= 3",
                      mx_shape_str(xs, s1, sizeof s1));
  *out = *xs;
  int sp = xs->rank - 2;
  g->planes = xs->dims[0] >= 0 && xs->dims[1] >= 0 ? xs->dims[0] * xs->dims[1] : -1;
  if (is_global(c)) { /* one 1-D window over the flattened plane */
    int64_t plane = 1;
    for (int d = 0; d < sp; d++) {
      out->dims[2 + d] = 1;
      if (plane < 0 || xs->dims[2 + d] < 0) plane = -1;
      else if (__builtin_mul_overflow(plane, xs->dims[2 + d], &plane))
        return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s: its plane's size overflows", mx_shape_str(xs, s1, sizeof s1));
    }
    for (int d = 0; d < 3; d++) g->w.in[d] = g->w.k[d] = g->w.out[d] = g->w.stride[d] = g->w.dil[d] = 1;
    g->w.in[2] = g->w.k[2] = plane;
    if (plane == 0) return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s has no spatial elements to pool", mx_shape_str(xs, s1, sizeof s1));
    return MINNX_OK;
  }
  if (sp > MX_WINDOW_MAX_SPATIAL)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "X's shape %s: minnx pools 1 to 3 spatial dims (rank 3 to 5)",
                      mx_shape_str(xs, s1, sizeof s1));
  const mx_attr *ks = mx_node_attr(c->node, "kernel_shape");
  if (!ks || (int64_t)ks->n != sp)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape must be given with %d values for X's shape %s", sp,
                      mx_shape_str(xs, s1, sizeof s1));
  for (int d = 0; d < sp; d++)
    if (ks->ints[d] < 1)
      return mx_op_fail(c, MINNX_E_MODEL, "attribute kernel_shape[%d] is %lld; it must be >= 1", d, (long long)ks->ints[d]);
  minnx_status st = mx_window_infer(c, sp, xs->dims + 2, ks->ints, &g->w);
  if (st != MINNX_OK) return st;
  for (int d = 0; d < sp; d++) out->dims[2 + d] = g->w.out[3 - sp + d];
  return MINNX_OK;
}

static minnx_status pool_infer(mx_op_ctx *c) {
  mx_pool_geom g;
  minnx_status st = pool_geometry(c, &g, &c->out[0]);
  if (st == MINNX_OK && c->n_out > 1) {
    c->out[1] = c->out[0];
    c->out_dtype[1] = MINNX_INT64;
  }
  return st;
}

/* Every window holds a tap of the input: a dim's taps are tested per output. */
static int no_empty_window(const mx_window *w, int *dim) {
  for (int d = 0; d < 3; d++)
    for (int64_t o = 0; o < w->out[d]; o++) {
      int64_t lo, hi;
      mx_window_taps(w, d, o, 0, w->in[d], &lo, &hi);
      if (lo == hi) return *dim = d, 0;
    }
  return 1;
}

static minnx_status pool_prepare(mx_op_ctx *c, void *params) {
  pool_plan *p = params;
  mx_shape out;
  memset(p, 0, sizeof *p);
  minnx_status st = pool_geometry(c, &p->g, &out);
  if (st != MINNX_OK) return st;
  int dim;
  char s1[96];
  if (!no_empty_window(&p->g.w, &dim))
    return mx_op_fail(c, MINNX_E_SHAPE, "X's shape %s: a window of spatial dim %d lies wholly in the padding (the pads, "
                      "dilations or ceil_mode leave it no input element)", mx_shape_str(c->in[0], s1, sizeof s1),
                      dim - 3 + c->in[0]->rank - 2);
  p->t = c->in_dtype[0];
  p->indices = c->n_out > 1;
  p->k = mx_pool_row_kernels(p->t, c->isa);
  double work = (double)p->g.planes * (double)mx_pool_out_plane(&p->g) * (double)(p->g.w.k[0] * p->g.w.k[1]) *
                (double)p->g.w.k[2] * 8;
  p->tasks = mx_task_count(work, 2);
  if (p->tasks > p->g.planes) p->tasks = p->g.planes > 0 ? p->g.planes : 1;
  return MINNX_OK;
}

typedef struct {
  const pool_plan *p;
  const void *x;
  void *y;
  int64_t *ind;
} pool_run;

static void pool_task(void *ctx, size_t t) {
  const pool_run *r = ctx;
  int64_t planes = r->p->g.planes, n = r->p->tasks;
  mx_pool_planes(r->p->t, &r->p->g, r->p->k, r->x, r->y, r->ind, planes * (int64_t)t / n, planes * ((int64_t)t + 1) / n);
}

static void pool_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const pool_plan *p = params;
  pool_run r = {p, in[0], out[0], p->indices ? out[1] : NULL};
  mx_parallel_for(x, pool_task, &r, (size_t)p->tasks);
}

/* ---- the rows ---- */

#define POOL8_TYPES (MX_FLOATS | MX_BIT(MINNX_INT8) | MX_BIT(MINNX_UINT8))
static const mx_io float_in[] = {{.name = "X", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io float_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io max8_out[] = {{.name = "Y", .types = MX_FLOATS, .group = 1},
                                 {.name = "Indices", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_OPTIONAL},
                                 {0}};
static const mx_io max12_in[] = {{.name = "X", .types = POOL8_TYPES, .group = 1}, {0}};
static const mx_io max12_out[] = {{.name = "Y", .types = POOL8_TYPES, .group = 1},
                                  {.name = "Indices", .types = MX_BIT(MINNX_INT64), .flags = MX_IO_OPTIONAL},
                                  {0}};

#define WINDOW_ATTRS {"auto_pad", MX_ATTR_STRING}, {"kernel_shape", MX_ATTR_INTS}, {"pads", MX_ATTR_INTS}, \
                     {"strides", MX_ATTR_INTS}
static const mx_attr_spec pool1_attrs[] = {WINDOW_ATTRS, {NULL, 0}};
static const mx_attr_spec max8_attrs[] = {WINDOW_ATTRS, {"storage_order", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec max10_attrs[] = {WINDOW_ATTRS, {"storage_order", MX_ATTR_INT}, {"ceil_mode", MX_ATTR_INT},
                                           {"dilations", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec avg7_attrs[] = {WINDOW_ATTRS, {"count_include_pad", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec avg10_attrs[] = {WINDOW_ATTRS, {"count_include_pad", MX_ATTR_INT}, {"ceil_mode", MX_ATTR_INT},
                                           {NULL, 0}};
static const mx_attr_spec avg19_attrs[] = {WINDOW_ATTRS, {"count_include_pad", MX_ATTR_INT}, {"ceil_mode", MX_ATTR_INT},
                                           {"dilations", MX_ATTR_INTS}, {NULL, 0}};

#define POOL_ROW .infer = pool_infer, .params_size = pool_params_size, .prepare = pool_prepare, .eval = pool_eval
static const mx_op_row maxpool_rows[] = {
    {POOL_ROW, .since = 1, .in = float_in, .out = float_out, .attrs = pool1_attrs},
    {POOL_ROW, .since = 8, .in = float_in, .out = max8_out, .attrs = max8_attrs},
    {POOL_ROW, .since = 10, .in = float_in, .out = max8_out, .attrs = max10_attrs},
    {POOL_ROW, .since = 11, .in = float_in, .out = max8_out, .attrs = max10_attrs},
    {POOL_ROW, .since = 12, .in = max12_in, .out = max12_out, .attrs = max10_attrs},
};
MX_OP_TABLE(MaxPool, "", maxpool_rows);
static const mx_op_row avgpool_rows[] = {
    {POOL_ROW, .inexact = 1, .since = 1, .in = float_in, .out = float_out, .attrs = pool1_attrs},
    {POOL_ROW, .inexact = 1, .since = 7, .in = float_in, .out = float_out, .attrs = avg7_attrs},
    {POOL_ROW, .inexact = 1, .since = 10, .in = float_in, .out = float_out, .attrs = avg10_attrs},
    {POOL_ROW, .inexact = 1, .since = 11, .in = float_in, .out = float_out, .attrs = avg10_attrs},
    {POOL_ROW, .inexact = 1, .since = 19, .in = float_in, .out = float_out, .attrs = avg19_attrs},
};
MX_OP_TABLE(AveragePool, "", avgpool_rows);
static const mx_op_row gmaxpool_rows[] = {{POOL_ROW, .since = 1, .in = float_in, .out = float_out}};
MX_OP_TABLE(GlobalMaxPool, "", gmaxpool_rows);
static const mx_op_row gavgpool_rows[] = {{POOL_ROW, .inexact = 1, .since = 1, .in = float_in, .out = float_out}};
MX_OP_TABLE(GlobalAveragePool, "", gavgpool_rows);
