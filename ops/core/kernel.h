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

/* How kernels split a node into tasks (mx_parallel_for): bytes below which a
 * node runs whole on the calling thread (waking other threads costs
 * microseconds), and that a task takes at least; the most tasks of one node
 * (handed out as threads free up). Tasks depend on the data's size only,
 * never on the thread count. */
#ifndef MX_TASK_BYTES /* the fuzz build splits small nodes too (CMakeLists.txt) */
#define MX_TASK_BYTES (64 * 1024)
#endif
#define MX_MAX_TASKS 256

#endif
