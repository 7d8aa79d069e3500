# The min/max family's elementwise and reduction kernels (ops/README.md, "The
# kernel scheme"): pair.c.in (pair, triple, quad) and reduce_rows.c.in (rows,
# fold), for every dtype portably, and on x86-64 a second time, from the same
# text, for AVX2, for the dtypes SSE2 serves poorly: 64-bit integers (SSE2
# has no 64-bit compare: their loops are scalar cmov ones), float16/bfloat16
# (their keys' shuffles), and float and double (the NaN rule's selects are one
# blend each). Bool is served by uint8's row (false < true, stored as 0 and 1),
# which a build with bool has whatever MINNX_DTYPES says of uint8.
set(minnx_pair_dtypes ${MINNX_DTYPES})
if(MINNX_DTYPES AND bool IN_LIST MINNX_DTYPES AND NOT uint8 IN_LIST MINNX_DTYPES)
  set(MINNX_DTYPES ${MINNX_DTYPES} uint8)
endif()
foreach(template pair reduce_rows)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/${template}.c.in PREFIX mx_${template}
                HEADER ops/minmax/extremum_pair.h DTYPES ${minnx_kernel_dtypes} ISAS port)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/${template}.c.in PREFIX mx_${template}
                HEADER ops/minmax/extremum_pair.h DTYPES f32 f64 f16 bf16 i64 u64 ISAS avx2)
endforeach()
set(MINNX_DTYPES ${minnx_pair_dtypes})
