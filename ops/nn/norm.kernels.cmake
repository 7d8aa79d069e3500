# The normalizations' kernels (ops/README.md, "The kernel scheme"): norm.c.in
# for the four floats, portably and, from the same text, for AVX2 and
# AVX-512: the order (norm.h) is the same at every level, only the vectors'
# width differs.
foreach(isa port avx2 avx512)
  minnx_kernels(kernel_sources TEMPLATE ops/nn/norm.c.in PREFIX mx_norm HEADER ops/nn/norm.h
                DTYPES f32 f64 f16 bf16 ISAS ${isa})
endforeach()
