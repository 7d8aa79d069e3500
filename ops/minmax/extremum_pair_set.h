/* Instantiates extremum_pair.h for the includer's dtype (T, PICK_DIR,
 * SUFFIX) in both directions, for VARIANT (port, or avx2 with ATTR its
 * target). */
#define PICK(a, b) PICK_DIR(a, b, MX_MAX)
#define NAME(f) MX_PAIR_NAME(SUFFIX, VARIANT, max, f)
#include "ops/minmax/extremum_pair.h"
#undef PICK
#undef NAME
#define PICK(a, b) PICK_DIR(a, b, MX_MIN)
#define NAME(f) MX_PAIR_NAME(SUFFIX, VARIANT, min, f)
#include "ops/minmax/extremum_pair.h"
#undef PICK
#undef NAME
