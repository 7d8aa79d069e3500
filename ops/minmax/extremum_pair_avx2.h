/* Instantiates extremum_pair.h once more for the includer's dtype, built for
 * AVX2 (extremum_pair.c says which dtypes and why); nothing without it. */
#if MX_X86_AVX2
#undef ATTR
#undef VARIANT
#define ATTR MX_AVX2_TARGET
#define VARIANT avx2
#include "ops/minmax/extremum_pair_set.h"
#undef ATTR
#undef VARIANT
#define ATTR
#define VARIANT port
#endif
