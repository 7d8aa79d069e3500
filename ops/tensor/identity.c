/* Identity: the output is its input, a view of the same bytes (no copy, no
 * arena bytes, nothing runs). Tensors only: sequence and optional values
 * (Identity-14, -16) are refused where the graph declares them. */
#include "ops/core/op.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))

static minnx_status identity_infer(mx_op_ctx *c) {
  c->out[0] = *c->in[0];
  return MINNX_OK;
}

static const mx_io in1[] = {{.name = "input", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out1[] = {{.name = "output", .types = NO_BF16, .group = 1, .view = MX_VIEW_OF(0)}, {0}};
static const mx_io in13[] = {{.name = "input", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_io out13[] = {{.name = "output", .types = MX_ALL_TYPES, .group = 1, .view = MX_VIEW_OF(0)}, {0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = in1, .out = out1, .infer = identity_infer},
    {.since = 13, .in = in13, .out = out13, .infer = identity_infer},
    {.since = 14, .in = in13, .out = out13, .infer = identity_infer},
    {.since = 16, .in = in13, .out = out13, .infer = identity_infer},
    {.since = 19, .in = in13, .out = out13, .infer = identity_infer},
    {.since = 21, .in = in13, .out = out13, .infer = identity_infer},
};
MX_OP_TABLE(Identity, "", rows);
