# The one-operand elementwise ops (ops/math/unary.c), portable and for AVX2
# (the same text compiled with the level's attribute: the compiler vectorizes
# the loops, and mathf.h's functions give every lane the scalar bits; AVX-512
# would not be faster for loops bound by memory, and the transcendental ones
# gain little beyond 8 lanes). Three templates, one per set of ops a dtype
# has: the IEEE ones for the floats, mathf.h's for the float32-computed
# floats (mathd.h's for double), and the integers'.
minnx_kernels(kernel_sources TEMPLATE ops/math/unary.c.in PREFIX mx_unary HEADER ops/math/unary.h
              DTYPES f32 f64 f16 bf16 ISAS port avx2)
minnx_kernels(kernel_sources TEMPLATE ops/math/unary_math.c.in PREFIX mx_unary_math HEADER ops/math/unary.h
              DTYPES f32 f64 f16 bf16 ISAS port avx2)
minnx_kernels(kernel_sources TEMPLATE ops/math/unary_int.c.in PREFIX mx_unary_int HEADER ops/math/unary.h
              DTYPES i8 i16 i32 i64 u8 u16 u32 u64 ISAS port avx2)
