/* Instantiates extremum_arg.h (no include guard) for the includer's dtype,
 * DIR, LAST and VARIANT: the portable build, and on x86-64 (unless
 * MX_NO_AVX2) the AVX2 build of the same text. The portable build finds
 * extremes first and their indices after (SSE2 has no select: carrying
 * indices costs it more than it saves); the AVX2 build carries each lane's
 * index (a compare and two selects per vector: as fast on ties, NaN and
 * columns setting a new extreme in every row as on random data). */
#define ATTR /* portable */
#define WIDE 0
#define NAME(f) MX_ARG_NAME(SUFFIX, VARIANT, port, f)
#include "ops/minmax/extremum_arg.h"
#undef ATTR
#undef WIDE
#undef NAME
#if MX_X86_AVX2
#define WIDE 1
#define ATTR MX_AVX2_TARGET
#define NAME(f) MX_ARG_NAME(SUFFIX, VARIANT, avx2, f)
#include "ops/minmax/extremum_arg.h"
#undef ATTR
#undef NAME
#undef WIDE
#endif
