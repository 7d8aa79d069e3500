# Cast's conversion kernels (convert_kernels.h; ops/README.md, "The kernel
# scheme"), included by minnx_select_ops when Cast, CastLike or Clip is linked.
# The two-stage path's loads and stores for every dtype and bool, portable
# (one table: the integers' template has one store for both kinds of integer):
minnx_kernels(kernel_sources TEMPLATE ops/tensor/convert_wide_float.c.in PREFIX mx_convert_wide
              HEADER ops/tensor/convert_kernels.h DTYPES f32 f64 f16 bf16 ISAS port)
minnx_kernels(kernel_sources TEMPLATE ops/tensor/convert_wide_int.c.in PREFIX mx_convert_wide
              HEADER ops/tensor/convert_kernels.h DTYPES i8 i16 i32 i64 u8 u16 u32 u64 bool ISAS port)
# The direct loops between float and the dtypes it is most often cast to and
# from (none in a build without float): portable and AVX2, and int64 to float
# for AVX-512 as well.
set(minnx_convert_pairs f16 bf16 i32 i64)
if(MINNX_DTYPES AND NOT float IN_LIST MINNX_DTYPES)
  set(minnx_convert_pairs "")
endif()
minnx_kernels(kernel_sources TEMPLATE ops/tensor/convert_to_float.c.in PREFIX mx_convert_to_float
              HEADER ops/tensor/convert_kernels.h DTYPES ${minnx_convert_pairs} ISAS port avx2)
if(i64 IN_LIST minnx_convert_pairs)
  minnx_kernels(kernel_sources TEMPLATE ops/tensor/convert_to_float.c.in PREFIX mx_convert_to_float
                HEADER ops/tensor/convert_kernels.h DTYPES i64 ISAS avx512)
endif()
minnx_kernels(kernel_sources TEMPLATE ops/tensor/convert_from_float.c.in PREFIX mx_convert_from_float
              HEADER ops/tensor/convert_kernels.h DTYPES ${minnx_convert_pairs} ISAS port avx2)
