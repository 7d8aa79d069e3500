/* Instantiates extremum_pair.h for the includer's dtype (T, PICK_DIR,
 * SUFFIX) in both directions. */
#define PICK(a, b) PICK_DIR(a, b, MX_MAX)
#define NAME(f) MX_PAIR_NAME(SUFFIX, max, f)
#include "ops/extremum_pair.h"
#undef PICK
#undef NAME
#define PICK(a, b) PICK_DIR(a, b, MX_MIN)
#define NAME(f) MX_PAIR_NAME(SUFFIX, min, f)
#include "ops/extremum_pair.h"
#undef PICK
#undef NAME
