# Add, Sub, Mul, Div and the comparisons (ops/math/binary.c): every numeric
# dtype, portable and for AVX2 (AVX-512 would not be faster: these loops are
# bound by memory). And, Or, Xor: bool.
minnx_kernels(kernel_sources TEMPLATE ops/math/binary.c.in PREFIX mx_binary HEADER ops/math/binary.h
              DTYPES f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 ISAS port avx2)
minnx_kernels(kernel_sources TEMPLATE ops/math/logic.c.in PREFIX mx_logic HEADER ops/math/binary.h
              DTYPES bool ISAS port avx2)
