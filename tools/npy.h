/* Reading numpy .npy files (format versions 1 to 3, C order, little-endian). */
#ifndef MINNX_TOOLS_NPY_H
#define MINNX_TOOLS_NPY_H

#include "minnx.h"

/* Parses the .npy bytes into t; t->data points into `data` (no copy). On
 * failure returns 0 and writes a reason into why. */
int npy_parse(const unsigned char *data, size_t size, minnx_tensor *t, char *why, size_t why_size);

#endif
