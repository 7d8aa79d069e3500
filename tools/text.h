/* Tensors as text: a shape "[2,?,4]" and one element, as the CLI prints them
 * and the comparison's messages name them. No libm: the Cortex-M4 test
 * firmware links it too. */
#ifndef MINNX_TOOLS_TEXT_H
#define MINNX_TOOLS_TEXT_H

#include <stddef.h>

#include "minnx.h"

/* "[2,3]" ("[?]" for an unknown rank, "?" for an unknown dim) into buf; returns buf. */
const char *shape_text(const minnx_tensor *t, char *buf, size_t n);
/* Element i of t: floats with the digits that tell their bits apart
 * (%.9g for float, %.17g double, %.5g float16, %.4g bfloat16), integers in full. */
void elem_text(const minnx_tensor *t, size_t i, char *buf, size_t n);
/* Element i of a floating-point tensor (float, double, float16, bfloat16) as a double. */
double elem_value(const minnx_tensor *t, size_t i);

#endif
