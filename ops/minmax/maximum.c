/* OpenVINO Maximum-1 and Minimum-1: two inputs of one numeric type;
 * auto_broadcast is "numpy" (the default) or "none". The kernels are Max's
 * and Min's. */
#include <string.h>

#include "ops/core/broadcast.h"
#include "ops/minmax/minmax.h"

static minnx_status maximum_infer(mx_op_ctx *c) {
  const mx_attr *a = mx_node_attr(c->node, "auto_broadcast");
  int broadcast = 1;
  if (a && strcmp(a->s, "none") == 0) broadcast = 0;
  else if (a && strcmp(a->s, "numpy") != 0)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute auto_broadcast is '%s'; it must be 'none' or 'numpy'", a->s);
  return mx_elementwise_shape(c, broadcast);
}

static const mx_io maximum_in[] = {{.name = "input1", .types = MX_NUMERIC, .group = 1},
                                   {.name = "input2", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_io maximum_out[] = {{.name = "output", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_attr_spec maximum_attrs[] = {{"auto_broadcast", MX_ATTR_STRING}, {NULL, 0}};

static const mx_op_row rows[] = {
    {.since = 1, .in = maximum_in, .out = maximum_out,
     .attrs = maximum_attrs, .infer = maximum_infer, .params_size = mx_max_params_size, .prepare = mx_max_prepare,
     .eval = mx_max_eval},
};
MX_OP_TABLE(Maximum, "org.openvinotoolkit", rows);
MX_OP_TABLE(Minimum, "org.openvinotoolkit", rows); /* the direction comes from the op's name */
