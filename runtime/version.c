/* The library's version, for programs that load it at run time (the Python
 * package, a plugin host) and cannot trust the header they were built with. */
#include "minnx.h"

const char *minnx_version(void) { return MINNX_VERSION; }
