/* The operator implementations the registry's table points at. */
#ifndef MX_OPS_H
#define MX_OPS_H

#include "ops/registry.h"

/* Elementwise maximum (ONNX Max, OpenVINO Maximum): shared plan and kernels. */
minnx_status mx_max_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype);
minnx_status mx_maximum_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype);
/* The output of elementwise inputs under `rule`, or an error naming the shapes. */
minnx_status mx_elementwise_shape(const mx_infer_ctx *c, mx_bcast_rule rule, mx_shape *out);
size_t mx_max_plan_size(int32_t n_inputs);
void mx_max_prepare(const mx_prepare_ctx *c, void *plan);
void mx_max_eval(const mx_exec *x, void *plan, const void *const *in, void *out);

minnx_status mx_argmax_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype);
size_t mx_argmax_plan_size(int32_t n_inputs);
void mx_argmax_prepare(const mx_prepare_ctx *c, void *plan);
/* The same with the kernels chosen: AVX2 ones when avx2 is nonzero and this
 * build has them (tests run both); mx_argmax_prepare passes whether the CPU
 * has AVX2, which mx_argmax_avx2_available tells (0 without AVX2 kernels). */
void mx_argmax_prepare_isa(const mx_prepare_ctx *c, void *plan, int avx2);
int mx_argmax_avx2_available(void);
void mx_argmax_eval(const mx_exec *x, void *plan, const void *const *in, void *out);

#endif
