/* What the elementwise and reduction kernels share. */
#ifndef MX_KERNEL_H
#define MX_KERNEL_H

#include <stdint.h>

/* One thread streaming from DRAM is bound by how many cache lines it has in
 * flight, and while the core also computes the hardware prefetcher alone does
 * not keep enough of them in flight: kernels ask for data some way ahead of
 * what they read (MX_AHEAD bytes along a stream). A hint only: it never
 * faults and never changes a result, so the address may lie past the end of
 * the data; it is formed as an integer so that no out-of-bounds pointer is. */
#define MX_AHEAD 8192
#if defined(__GNUC__) || defined(__clang__)
#define mx_prefetch(p, ahead) __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (uintptr_t)(ahead)))
#else
#define mx_prefetch(p, ahead) ((void)(p), (void)(ahead))
#endif

#endif
