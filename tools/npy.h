/* Reading and writing numpy .npy files (format versions 1 to 3, C order, little-endian). */
#ifndef MINNX_TOOLS_NPY_H
#define MINNX_TOOLS_NPY_H

#include "minnx.h"

/* Parses the .npy bytes into t; t->data points into `data` (no copy). On
 * failure returns 0 and writes a reason into why. */
int npy_parse(const unsigned char *data, size_t size, minnx_tensor *t, char *why, size_t why_size);

/* The .npy bytes (format 1.0, little-endian, C order) of t, malloc'd into
 * *out; bfloat16 is written as its uint16 bit patterns (numpy has no
 * bfloat16). Returns 0 when out of memory or for a dtype numpy cannot hold. */
int npy_encode(const minnx_tensor *t, unsigned char **out, size_t *out_size);

#endif
