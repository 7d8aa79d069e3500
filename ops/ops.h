/* What op files share beyond the contract: Maximum runs Max's kernels, and the
 * unit tests call the kernels' prepare and eval directly. */
#ifndef MX_OPS_H
#define MX_OPS_H

#include "ops/op.h"

/* Elementwise maximum (ONNX Max, OpenVINO Maximum): one params struct and its kernels. */
/* The output of elementwise inputs, broadcast when `broadcast`, or an error naming the shapes. */
minnx_status mx_elementwise_shape(const mx_op_ctx *c, int broadcast);
size_t mx_max_params_size(const mx_node *n);
minnx_status mx_max_prepare(mx_op_ctx *c, void *params);
void mx_max_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out);

size_t mx_argmax_params_size(const mx_node *n);
minnx_status mx_argmax_prepare(mx_op_ctx *c, void *params);
/* The same with the kernels chosen: AVX2 ones when avx2 is nonzero and this
 * build has them (tests run both); mx_argmax_prepare passes whether the CPU
 * has AVX2, which mx_argmax_avx2_available tells (0 without AVX2 kernels). */
void mx_argmax_prepare_isa(const mx_op_ctx *c, void *params, int avx2);
int mx_argmax_avx2_available(void);
void mx_argmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out);

#endif
