/* What the elementwise and reduction kernels share. */
#ifndef MX_KERNEL_H
#define MX_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "graph/dtype.h"
#include "ops/core/cpu.h"

/* A family's table of kernel sets, one row per instance of its templates
 * (ops/core/kernels.cmake writes it; ops/README.md, "The kernel scheme"):
 * `set` points at the instance's struct of kernels, of the family's type. */
typedef struct mx_kernel_row {
  mx_dtype dtype;
  mx_isa isa;
  const void *set;
} mx_kernel_row;

/* The set for dtype at the highest level <= isa that the table has, or NULL
 * (a dtype the build leaves out). Called at prepare, never in eval. */
const void *mx_kernel_find(const mx_kernel_row *rows, size_t n_rows, mx_dtype dtype, mx_isa isa);

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
