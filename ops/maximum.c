/* OpenVINO Maximum-1: two inputs of one numeric type; auto_broadcast is
 * "numpy" (the default) or "none". The kernel is Max's. */
#include <string.h>

#include "ops/ops.h"

minnx_status mx_maximum_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype) {
  const mx_attr *a = mx_node_attr(c->node, "auto_broadcast");
  mx_bcast_rule rule = MX_BCAST_NUMPY;
  if (a && strcmp(a->s, "none") == 0) rule = MX_BCAST_NONE;
  else if (a && strcmp(a->s, "numpy") != 0)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (Maximum-1): attribute auto_broadcast is '%s'; it must be 'none' or 'numpy'",
                   mx_node_label(c->g, c->node), a->s);
  *out_dtype = c->dtype;
  return mx_elementwise_shape(c, rule, out);
}
