# The sums' kernels (ops/README.md, "The kernel scheme"): sum.c.in (ReduceSum,
# ReduceMean, ReduceProd, ReduceL1, ReduceSumSquare, ReduceL2) for the eight
# dtypes they take, and expsum.c.in (ReduceLogSum, ReduceLogSumExp, Softmax,
# LogSoftmax) for the four floats, portably and, from the same text, for AVX2
# and AVX-512: the order (sum.h) is the same at every level, only the
# vectors' width differs.
foreach(isa port avx2 avx512)
  minnx_kernels(kernel_sources TEMPLATE ops/reduction/sum.c.in PREFIX mx_sum HEADER ops/reduction/sum.h
                DTYPES f32 f64 f16 bf16 i32 i64 u32 u64 ISAS ${isa})
  minnx_kernels(kernel_sources TEMPLATE ops/reduction/expsum.c.in PREFIX mx_expsum HEADER ops/reduction/sum.h
                DTYPES f32 f64 f16 bf16 ISAS ${isa})
endforeach()
