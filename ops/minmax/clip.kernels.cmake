# Clip's one-pass kernels (ops/README.md, "The kernel scheme"): clip.c.in for
# float and double, portably and on x86-64 for AVX2 too (where a pick's
# selects are one blend each). The other dtypes have none: Clip makes two
# passes of the pair kernels.
minnx_kernels(kernel_sources TEMPLATE ops/minmax/clip.c.in PREFIX mx_clip HEADER ops/minmax/clip.h
              DTYPES f32 f64 ISAS port avx2)
