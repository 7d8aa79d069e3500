/* What op files share beyond the contract: the elementwise ops (Max, Min,
 * Maximum, Minimum) run one params struct and its kernels, ArgMax and ArgMin
 * another, and the unit tests call the kernels' prepare and eval directly. */
#ifndef MX_OPS_H
#define MX_OPS_H

#include "ops/core/cpu.h"
#include "ops/core/op.h"
#include "ops/minmax/extremum_kernels.h"

/* The direction of a min/max-family node: MX_MIN for Min, Minimum, ArgMin
 * and ReduceMin (the names holding "Min"), MX_MAX for the others. (A loop,
 * not strstr: a firmware's C library need not carry it.) */
static inline mx_dir mx_dir_of(const mx_node *n) {
  for (const char *p = n->op_type; *p; p++)
    if (p[0] == 'M' && p[1] == 'i' && p[2] == 'n') return MX_MIN;
  return MX_MAX;
}

/* Elementwise extremum, in the node's direction. */
size_t mx_max_params_size(const mx_node *n);
minnx_status mx_max_prepare(mx_op_ctx *c, void *params);
void mx_max_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out);

/* ArgMax and ArgMin, in the node's direction. */
size_t mx_argmax_params_size(const mx_node *n);
minnx_status mx_argmax_prepare(mx_op_ctx *c, void *params);
/* The same with the kernels of the highest level <= isa this build has
 * (tests run each level); mx_argmax_prepare passes its context's isa (ops/core/op.h)
 * for large inputs, MX_ISA_PORTABLE for small ones. */
void mx_argmax_prepare_isa(mx_op_ctx *c, void *params, mx_isa isa);
void mx_argmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out);

#endif
