# ArgMax's and ArgMin's kernels (ops/README.md, "The kernel scheme"): along
# the last axis (rows) and across rows (columns), each in two approaches. The
# portable kernels find a block's extremes first and their indices after
# (SSE2 has no select: carrying indices costs it more than it saves); the
# AVX2 ones carry each lane's index beside its key. (An AVX-512 build of the
# AVX2 text measured no faster, Zen 5: the one-pass kernels are bound by
# memory, not by instructions.) MINNX_SMALL_KERNELS builds run the reference
# loops instead (extremum_small.c) and instantiate none of these.
if(NOT MINNX_SMALL_KERNELS)
  set(minnx_arg_dtypes f32 f64 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/arg_along_blocks.c.in PREFIX mx_arg_along
                HEADER ops/minmax/arg.h DTYPES ${minnx_arg_dtypes} ISAS port)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/arg_along_pass.c.in PREFIX mx_arg_along
                HEADER ops/minmax/arg.h DTYPES ${minnx_arg_dtypes} ISAS avx2)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/arg_across_strips.c.in PREFIX mx_arg_across
                HEADER ops/minmax/arg.h DTYPES ${minnx_arg_dtypes} ISAS port)
  minnx_kernels(kernel_sources TEMPLATE ops/minmax/arg_across_sweep.c.in PREFIX mx_arg_across
                HEADER ops/minmax/arg.h DTYPES ${minnx_arg_dtypes} ISAS avx2)
endif()
