# Pow (ops/math/pow.c): the six base dtypes ONNX allows, each with a kernel
# per exponent dtype, portable and for AVX2 (the same text; mathf.h's and
# mathd.h's functions give every lane the scalar bits).
minnx_kernels(kernel_sources TEMPLATE ops/math/pow.c.in PREFIX mx_pow HEADER ops/math/pow.h
              DTYPES f32 f64 f16 bf16 i32 i64 ISAS port avx2)
