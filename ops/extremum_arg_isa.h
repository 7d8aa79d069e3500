/* Instantiates extremum_arg.h (no include guard) for the includer's dtype,
 * DIR, LAST and VARIANT: the portable build, and on x86-64 (unless
 * MX_NO_AVX2) the AVX2 build of the same text. The portable build takes the
 * rescanning strips; the AVX2 build the one-pass ones (the same speed on
 * random data, and no slower on ties or on columns setting a new extreme in
 * every row, where rescans cost 1.5-1.7x). */
#define ATTR /* portable */
#define TRACK 0
#define NAME(f) MX_ARG_NAME(SUFFIX, VARIANT, port, f)
#include "ops/extremum_arg.h"
#undef ATTR
#undef TRACK
#undef NAME
#if MX_AVX2
#define ATTR MX_AVX2_TARGET
#define TRACK 1
#define NAME(f) MX_ARG_NAME(SUFFIX, VARIANT, avx2, f)
#include "ops/extremum_arg.h"
#undef ATTR
#undef TRACK
#undef NAME
#endif
