# Where (ops/math/where.c): every dtype, portable (a select; memory bound).
minnx_kernels(kernel_sources TEMPLATE ops/math/where.c.in PREFIX mx_where HEADER ops/math/where.h
              DTYPES f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64 bool ISAS port)
