# The one-operand elementwise ops (ops/math/unary.c), portable and for AVX2
# (the same text compiled with the level's attribute: the compiler vectorizes
# the loops, and mathf.h's functions give every lane the scalar bits). The
# IEEE ones and the integers' stop at AVX2 (their loops are bound by memory);
# mathf.h's transcendental ones, bound by arithmetic, have an AVX-512 level
# too (about 2x on a CPU with a full-width AVX-512 unit, Zen 5: the same
# operations per lane, so the same bits). Three templates, one per set of ops
# a dtype has: the IEEE ones for the floats, mathf.h's for the
# float32-computed floats (mathd.h's for double), and the integers'.
minnx_kernels(kernel_sources TEMPLATE ops/math/unary.c.in PREFIX mx_unary HEADER ops/math/unary.h
              DTYPES f32 f64 f16 bf16 ISAS port avx2)
minnx_kernels(kernel_sources TEMPLATE ops/math/unary_math.c.in PREFIX mx_unary_math HEADER ops/math/unary.h
              DTYPES f32 f64 f16 bf16 ISAS port avx2 avx512)
minnx_kernels(kernel_sources TEMPLATE ops/math/unary_int.c.in PREFIX mx_unary_int HEADER ops/math/unary.h
              DTYPES i8 i16 i32 i64 u8 u16 u32 u64 ISAS port avx2)
