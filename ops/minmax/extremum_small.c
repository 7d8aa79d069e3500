/* The size-first kernels (MINNX_SMALL_KERNELS=ON): Max, Min, Maximum,
 * Minimum, ArgMax and ArgMin run the reference loops (extremum_ref.c) instead
 * of the fast kernels, which are then left out of the binary. One comparator
 * and plain index loops: for a firmware that counts bytes before cycles. */
#include <stddef.h>

#include "ops/minmax/extremum_ref.h"
#include "ops/minmax/minmax.h"

/* Max: the shapes the loop walks, by value, and pointers to them (the params
 * block stays where prepare filled it: eval gets the same address). */
typedef struct {
  mx_dtype dtype;
  mx_dir dir;
  int32_t n;
  mx_shape out;
  const mx_shape **shapes; /* n pointers into in[] */
  mx_shape in[];           /* then the n pointers */
} max_params;

size_t mx_max_params_size(const mx_node *n) {
  return sizeof(max_params) + (size_t)n->n_inputs * (sizeof(mx_shape) + sizeof(mx_shape *));
}

minnx_status mx_max_prepare(mx_op_ctx *c, void *params) {
  max_params *p = params;
  p->dtype = c->in_dtype[0];
  p->dir = mx_dir_of(c->node);
  p->n = c->node->n_inputs;
  p->out = c->out[0];
  p->shapes = (const mx_shape **)(void *)(p->in + p->n);
  for (int32_t k = 0; k < p->n; k++) {
    p->in[k] = *c->in[k];
    p->shapes[k] = &p->in[k];
  }
  return MINNX_OK;
}

void mx_max_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const max_params *p = params;
  (void)x;
  mx_ref_elementwise(p->dtype, p->dir, p->n, p->shapes, in, &p->out, out[0]);
}

typedef struct {
  mx_dtype dtype;
  mx_dir dir;
  int last, axis;
  mx_shape in;
} argmax_params;

size_t mx_argmax_params_size(const mx_node *n) {
  (void)n;
  return sizeof(argmax_params);
}

minnx_status mx_argmax_prepare(mx_op_ctx *c, void *params) {
  mx_argmax_prepare_isa(c, params, MX_ISA_PORTABLE);
  return MINNX_OK;
}

void mx_argmax_prepare_isa(mx_op_ctx *c, void *params, mx_isa isa) {
  argmax_params *p = params;
  (void)isa;
  p->dtype = c->in_dtype[0];
  p->dir = mx_dir_of(c->node);
  p->last = mx_attr_int(c->node, "select_last_index", 0) != 0;
  p->in = *c->in[0];
  int64_t axis = mx_attr_int(c->node, "axis", 0);
  p->axis = (int)(axis < 0 ? axis + p->in.rank : axis);
}

void mx_argmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const argmax_params *p = params;
  (void)x;
  mx_ref_arg(p->dtype, p->dir, p->last, &p->in, p->axis, in[0], out[0]);
}
