# The pools' float32 row and whole-plane paths (ops/nn/pool_rows.c.in):
# portable, and for AVX2 with the rows' outputs 8 at a time in intrinsics
# (strides 1 and 2 along the row). The template's plain loops alone built for
# AVX2 and AVX-512 were no faster on 2026-12-02 (MaxPool 3x3/2 of
# [1,64,112,112]: 0.73 ms portable, 0.79 ms AVX2, 1.48 ms AVX-512; gcc 12
# leaves the rows' tails and strided taps scalar); AVX-512 takes the AVX2 set.
minnx_kernels(kernel_sources TEMPLATE ops/nn/pool_rows.c.in PREFIX mx_pool_rows HEADER ops/nn/pool.h
              DTYPES f32 ISAS port avx2)
