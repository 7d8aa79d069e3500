/* What the elementwise and reduction kernels share. */
#ifndef MX_KERNEL_H
#define MX_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "graph/dtype.h"
#include "graph/prefetch.h"
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
 * what they read (MX_AHEAD bytes along a stream), with mx_prefetch
 * (graph/prefetch.h: a hint, which may point past the end of the data). */
#define MX_AHEAD 8192

/* The loop of a kernel that streams n elements of elem_size bytes: a chunk of
 * 256 bytes at a time, each chunk first running PREFETCH for each of its four
 * cache lines, then STMT for each of its elements; then STMT for the
 * remainder. A full chunk's loop has a constant trip count, so it vectorizes
 * without a remainder. PREFETCH may use i0 (the chunk's first element) and
 * line (the line's byte offset in the chunk), STMT i (the element). */
#define MX_CHUNKED(n, elem_size, PREFETCH, STMT)                            \
  do {                                                                     \
    int64_t i0 = 0;                                                        \
    for (; i0 + 256 / (int64_t)(elem_size) <= (n); i0 += 256 / (int64_t)(elem_size)) { \
      for (int line = 0; line < 256; line += 64) PREFETCH;                 \
      for (int64_t i = i0; i < i0 + 256 / (int64_t)(elem_size); i++) STMT; \
    }                                                                      \
    for (int64_t i = i0; i < (n); i++) STMT;                               \
  } while (0)

/* A kernel's loop written once as a function of its direction (or another
 * constant argument) and called with each constant: inlined always, so that
 * every caller's loop is compiled for its constant. */
#if defined(__GNUC__) || defined(__clang__)
#define MX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MX_ALWAYS_INLINE inline
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

/* Tasks for `work` bytes of work: one task per MX_TASK_BYTES, at most
 * MX_MAX_TASKS, and 1 (the node whole) below `least` of them. */
static inline int64_t mx_task_count(double work, double least) {
  double t = work / MX_TASK_BYTES;
  return t < least ? 1 : t > MX_MAX_TASKS ? MX_MAX_TASKS : (int64_t)t;
}

#endif
