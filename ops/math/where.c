/* Where (9, 16): out = condition ? X : Y elementwise, the three broadcast
 * together (numpy's rule); X and Y of one dtype (any; bfloat16 from 16),
 * condition bool. Exact: a selection. The loops are ops/math/where.c.in's,
 * chosen at prepare. */
#include <stddef.h>

#include "ops/core/broadcast.h"
#include "ops/core/kernel.h"
#include "ops/math/where.h"

static minnx_status where_infer(mx_op_ctx *c) { return mx_elementwise_shape(c, 1); }

typedef struct {
  mx_where_fn k;
  size_t esize;
  mx_bplan bp; /* last: its strides follow */
} where_params;

static size_t where_params_size(const mx_node *n) { return offsetof(where_params, bp) + mx_bplan_size(n->n_inputs); }

static minnx_status where_prepare(mx_op_ctx *c, void *params) {
  where_params *p = params;
  const struct mx_where_set *s = mx_where_kernels(c->in_dtype[1]);
  if (!s) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "Where is not implemented for %s", mx_dtype_name(c->in_dtype[1]));
  p->k = s->run;
  p->esize = mx_dtype_size(c->in_dtype[1]);
  mx_bplan_init(&p->bp, c->in, 3, c->out);
  return MINNX_OK;
}

typedef struct {
  const where_params *p;
  const void *const *in;
  unsigned char *out;
} where_run;

static void where_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const where_run *r = ctx;
  const mx_bplan *bp = &r->p->bp;
  int last = bp->rank - 1;
  const int64_t *s0 = mx_bplan_strides(bp, 0), *s1 = mx_bplan_strides(bp, 1), *s2 = mx_bplan_strides(bp, 2);
  size_t es = r->p->esize;
  r->p->k(r->out + (size_t)out_off * es, (const uint8_t *)r->in[0] + in_off[0], (int)s0[last],
          (const unsigned char *)r->in[1] + (size_t)in_off[1] * es, (int)s1[last],
          (const unsigned char *)r->in[2] + (size_t)in_off[2] * es, (int)s2[last], len, rows,
          last > 0 ? s0[last - 1] : 0, last > 0 ? s1[last - 1] : 0, last > 0 ? s2[last - 1] : 0);
}

static void where_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const where_params *p = params;
  where_run r = {p, in, out[0]};
  mx_bplan_walk_x(&p->bp, x, p->esize, where_tile, &r);
}

extern const mx_kernel_row mx_where_rows[];
extern const size_t mx_where_n_rows;

const struct mx_where_set *mx_where_kernels(mx_dtype t) {
  return mx_kernel_find(mx_where_rows, mx_where_n_rows, t, MX_ISA_PORTABLE);
}

#define T9 (MX_FLOATS | MX_INTS | MX_BIT(MINNX_BOOL))
static const mx_io in9[] = {{.name = "condition", .types = MX_BIT(MINNX_BOOL)},
                            {.name = "X", .types = T9, .group = 1},
                            {.name = "Y", .types = T9, .group = 1}, {0}};
static const mx_io in16[] = {{.name = "condition", .types = MX_BIT(MINNX_BOOL)},
                             {.name = "X", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "Y", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_io out[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1}, {0}};

static const mx_op_row rows[] = {
    {.since = 9, .in = in9, .out = out, .rules = MX_RULE_BROADCAST, .infer = where_infer,
     .params_size = where_params_size, .prepare = where_prepare, .eval = where_eval},
    {.since = 16, .in = in16, .out = out, .rules = MX_RULE_BROADCAST, .infer = where_infer,
     .params_size = where_params_size, .prepare = where_prepare, .eval = where_eval},
};
MX_OP_TABLE(Where, "", rows);
