/* Clip's one-pass kernels (clip.c): y = min(max(x, lo), hi) for both bounds
 * at once, under the min/max family's NaN rule (extremum.h), with the bits
 * of a max pass then a min pass of its pair kernels. */
#ifndef MX_CLIP_H
#define MX_CLIP_H

#include <stdint.h>

#include "graph/ir.h"

/* y[i] for i < n, with lo and hi one element each; y and x may be one. */
typedef void (*mx_clip_fn)(void *y, const void *x, const void *lo, const void *hi, int64_t n);

/* The kernel of dtype t: AVX2's when avx2 is nonzero and this build has it
 * (tests run both; mx_cpu_avx2, ops/core/cpu.h, tells whether it may run here),
 * else the portable one; NULL for a dtype that has none (Clip then makes two
 * passes over a block in L1). */
mx_clip_fn mx_clip_kernel(mx_dtype t, int avx2);

#endif
