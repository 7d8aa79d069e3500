# Sum and Mean of float16 and bfloat16 (ops/math/sum_mean.c): the float32
# accumulation, portable and for AVX2 (the same text; float and double use
# Add's and Div's kernels, ops/math/binary.kernels.cmake).
minnx_kernels(kernel_sources TEMPLATE ops/math/sum_mean.c.in PREFIX mx_sum_mean HEADER ops/math/sum_mean.h
              DTYPES f16 bf16 ISAS port avx2)
