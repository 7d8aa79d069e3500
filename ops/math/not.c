/* Not (1): logical negation of a bool tensor. One plain loop, which is its
 * own reference: bool is stored as 0 and 1. */
#include <stdint.h>

#include "ops/core/op.h"

static minnx_status not_infer(mx_op_ctx *c) {
  c->out[0] = *c->in[0];
  return MINNX_OK;
}

static size_t not_params_size(const mx_node *n) {
  (void)n;
  return sizeof(int64_t);
}

static minnx_status not_prepare(mx_op_ctx *c, void *params) {
  int64_t count = 1;
  for (int d = 0; d < c->in[0]->rank; d++) count *= c->in[0]->dims[d];
  *(int64_t *)params = count;
  return MINNX_OK;
}

static void not_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  (void)x;
  const uint8_t *a = in[0];
  uint8_t *y = out[0];
  for (int64_t i = 0, n = *(const int64_t *)params; i < n; i++) y[i] = (uint8_t)(a[i] == 0);
}

static const mx_io not_in[] = {{.name = "X", .types = MX_BIT(MINNX_BOOL), .group = 1}, {0}};
static const mx_io not_out[] = {{.name = "Y", .types = MX_BIT(MINNX_BOOL), .group = 1}, {0}};
static const mx_op_row rows[] = {
    {.since = 1, .in = not_in, .out = not_out, .infer = not_infer, .params_size = not_params_size,
     .prepare = not_prepare, .eval = not_eval},
};
MX_OP_TABLE(Not, "", rows);
