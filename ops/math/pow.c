/* Pow, every version: 1 (float16, float, double; legacy broadcast with
 * `broadcast`/`axis`, as Add's version 1), 7 (numpy's multidirectional
 * broadcasting), 12 (the base X of int32, int64, float16, float, double; the
 * exponent Y of its own type: any integer, float16, float, double), 13 (X
 * also bfloat16), 15 (Y also bfloat16). Z has X's dtype. The rules of one
 * element (which type computes, integers, negative exponents) are
 * ops/math/pow_elem.h's; the loops ops/math/pow.c.in's, chosen at prepare
 * (mx_pow_kernel). Inexact: float results are within the bounds of
 * ops/core/mathf.h's powf and mathd.h's pow (README's table). */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/core/broadcast.h"
#include "ops/core/kernel.h"
#include "ops/math/pow.h"

/* Versions 1 with broadcast=1: Y's dims stand at X's dims axis.. (as Add's);
 * gives Y's shape as a numpy-broadcastable one (1s appended), or -1. */
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

static int legacy(const mx_op_ctx *c) { return c->row->since < 7 && mx_attr_int(c->node, "broadcast", 0) != 0; }

static minnx_status pow_infer(mx_op_ctx *c) {
  if (!legacy(c)) return mx_elementwise_shape(c, c->row->since >= 7);
  const mx_shape *a = c->in[0], *b = c->in[1];
  int64_t axis = mx_attr_int(c->node, "axis", -1);
  mx_shape unused;
  if (a->rank >= 0 && b->rank >= 0 && legacy_shape(a, b, axis, &unused) != 0) {
    char sa[96], sb[96];
    return mx_op_fail(c, MINNX_E_SHAPE, "with broadcast=1, Y's shape %s must match X's shape %s from axis %lld on",
                      mx_shape_str(b, sb, sizeof sb), mx_shape_str(a, sa, sizeof sa),
                      (long long)(axis < 0 ? a->rank - b->rank : axis));
  }
  c->out[0] = *a;
  return MINNX_OK;
}

typedef struct {
  mx_binary_fn k;
  size_t esize, ysize; /* the base's (and output's) element, the exponent's */
  mx_bplan bp;         /* last: its strides follow */
} pow_params;

static size_t pow_params_size(const mx_node *n) { return offsetof(pow_params, bp) + mx_bplan_size(n->n_inputs); }

static minnx_status pow_prepare(mx_op_ctx *c, void *params) {
  pow_params *p = params;
  mx_dtype t = c->in_dtype[0], e = c->in_dtype[1];
  p->k = mx_pow_kernel(t, e, c->isa);
  if (!p->k)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "Pow is not implemented for a %s base and a %s exponent",
                      mx_dtype_name(t), mx_dtype_name(e));
  p->esize = mx_dtype_size(t);
  p->ysize = mx_dtype_size(e);
  mx_shape b;
  const mx_shape *in[2] = {c->in[0], c->in[1]};
  if (legacy(c)) {
    legacy_shape(c->in[0], c->in[1], mx_attr_int(c->node, "axis", -1), &b);
    in[1] = &b;
  }
  mx_bplan_init(&p->bp, in, 2, c->out);
  return MINNX_OK;
}

typedef struct {
  const pow_params *p;
  const unsigned char *a, *b;
  unsigned char *out;
} pow_run;

static void pow_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const pow_run *r = ctx;
  const mx_bplan *bp = &r->p->bp;
  const int64_t *sa = mx_bplan_strides(bp, 0), *sb = mx_bplan_strides(bp, 1);
  int rank = bp->rank;
  r->p->k(r->out + (size_t)out_off * r->p->esize, r->a + (size_t)in_off[0] * r->p->esize, (int)sa[rank - 1],
          r->b + (size_t)in_off[1] * r->p->ysize, (int)sb[rank - 1], len, rows, rank > 1 ? sa[rank - 2] : 0,
          rank > 1 ? sb[rank - 2] : 0);
}

static void pow_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const pow_params *p = params;
  pow_run r = {p, in[0], in[1], out[0]};
  mx_bplan_walk_x(&p->bp, x, p->esize, pow_tile, &r);
}

extern const mx_kernel_row mx_pow_rows[];
extern const size_t mx_pow_n_rows;

mx_binary_fn mx_pow_kernel(mx_dtype t, mx_dtype e, mx_isa isa) {
  const struct mx_pow_set *s = mx_kernel_find(mx_pow_rows, mx_pow_n_rows, t, isa);
  return s && (unsigned)e <= MINNX_BFLOAT16 ? s->k[e] : NULL;
}

mx_pow_ref_fn mx_pow_ref(mx_dtype t, mx_dtype e) {
  const struct mx_pow_set *s = mx_kernel_find(mx_pow_rows, mx_pow_n_rows, t, MX_ISA_PORTABLE);
  return s && (unsigned)e <= MINNX_BFLOAT16 ? s->reference[e] : NULL;
}

/* ---- the rows ---- */

#define T12 (MX_FLOATS | MX_BIT(MINNX_INT32) | MX_BIT(MINNX_INT64))
#define T1_12 (MX_FLOATS | MX_INTS)
static const mx_io in1[] = {{.name = "X", .types = MX_FLOATS, .group = 1}, {.name = "Y", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io in12[] = {{.name = "X", .types = T12, .group = 1}, {.name = "Y", .types = T1_12}, {0}};
static const mx_io in13[] = {
    {.name = "X", .types = T12 | MX_BIT(MINNX_BFLOAT16), .group = 1}, {.name = "Y", .types = T1_12}, {0}};
static const mx_io in15[] = {{.name = "X", .types = T12 | MX_BIT(MINNX_BFLOAT16), .group = 1},
                             {.name = "Y", .types = T1_12 | MX_BIT(MINNX_BFLOAT16)},
                             {0}};
static const mx_io out1[] = {{.name = "Z", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io out12[] = {{.name = "Z", .types = T12 | MX_BIT(MINNX_BFLOAT16), .group = 1}, {0}};
static const mx_attr_spec attrs1[] = {{"axis", MX_ATTR_INT}, {"broadcast", MX_ATTR_INT}, {NULL, 0}};

#define ROW .infer = pow_infer, .params_size = pow_params_size, .prepare = pow_prepare, .eval = pow_eval, .inexact = 1
#define NUMPY .rules = MX_RULE_BROADCAST
static const mx_op_row pow_rows[] = {
    {ROW, .since = 1, .in = in1, .out = out1, .attrs = attrs1},
    {ROW, .since = 7, .in = in1, .out = out1, NUMPY},
    {ROW, .since = 12, .in = in12, .out = out12, NUMPY},
    {ROW, .since = 13, .in = in13, .out = out12, NUMPY},
    {ROW, .since = 15, .in = in15, .out = out12, NUMPY},
};
MX_OP_TABLE(Pow, "", pow_rows);
