/* Instantiates the arg kernels of the includer's dtype (T, K, I, A, KEY,
 * ISNAN, EITHER_NAN, SUFFIX) in every variant the table lists: each direction
 * with the first or the last index. */
#define DIR MX_MAX
#define LAST 0
#define VARIANT max_first
#include "ops/minmax/extremum_arg_isa.h"
#undef LAST
#undef VARIANT
#define LAST 1
#define VARIANT max_last
#include "ops/minmax/extremum_arg_isa.h"
#undef DIR
#undef LAST
#undef VARIANT
#define DIR MX_MIN
#define LAST 0
#define VARIANT min_first
#include "ops/minmax/extremum_arg_isa.h"
#undef LAST
#undef VARIANT
#define LAST 1
#define VARIANT min_last
#include "ops/minmax/extremum_arg_isa.h"
#undef DIR
#undef LAST
#undef VARIANT
