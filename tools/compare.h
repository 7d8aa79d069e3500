/* The test rule for outputs: exactly equal in dtype, shape and every element,
 * where NaN matches NaN (any payload) and -0.0 matches +0.0. Shared by the
 * tests that run cases outside the CLI (caller memory, the Cortex-M4 firmware). */
#ifndef MINNX_TOOLS_COMPARE_H
#define MINNX_TOOLS_COMPARE_H

#include <stddef.h>

#include "minnx.h"

/* 1 when got matches want; else 0 and a short reason in why. */
int same_tensor(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn);

#endif
