/* A digest of a run's outputs, so that minnx's bits can be compared across
 * ISA levels and architectures without moving the outputs themselves
 * (`minnx test --digest` on the hosts, the Cortex-M4 test firmware): XXH3's
 * 64 bits over each output's dtype, rank, dims and bytes in turn, each step
 * seeded with the digest so far. Equal digests mean equal bits, the sign of
 * zero included, every NaN counting as one (a NaN's sign and payload are the
 * hardware's: x86-64 and ARM differ); tests/xarch/compare.py compares them. */
#ifndef MINNX_TOOLS_DIGEST_H
#define MINNX_TOOLS_DIGEST_H

#include <stdint.h>

#include "minnx.h"

/* The digest of t after `seed` (0 for the first output of a case). */
uint64_t digest_tensor(uint64_t seed, const minnx_tensor *t);

#endif
