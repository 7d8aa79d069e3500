# Add, Sub, Mul, Div (ops/math/binary.c): every numeric dtype, portable and
# for AVX2 (AVX-512 would not be faster: these loops are bound by memory).
minnx_kernels(kernel_sources TEMPLATE ops/math/binary.c.in PREFIX mx_binary HEADER ops/math/binary.h
              DTYPES f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 ISAS port avx2)
# Their reference loop (the fuzzer's oracle), portable only.
minnx_kernels(kernel_sources TEMPLATE ops/math/binary_ref.c.in PREFIX mx_binary_ref HEADER ops/math/binary.h
              DTYPES f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 ISAS port)
