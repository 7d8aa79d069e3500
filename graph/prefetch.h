/* A hint that the cache line holding p + ahead bytes will be read soon, for
 * every stage that walks large arrays (the loader's name table, the planner's
 * values, the kernels' streams: ops/core/kernel.h says how far ahead they
 * ask). A hint only: it never faults and never changes a result, so the
 * address may lie past the end of the data; it is formed as an integer so
 * that no out-of-bounds pointer is. Nothing on compilers without it. */
#ifndef MX_PREFETCH_H
#define MX_PREFETCH_H

#include <stdint.h>

/* mx_prefetch_w: the same for a line that will be written (x86-64's prefetchw): an output larger than the
 * cache has left it by the next run, and a store to a line not in the cache waits for it. */
#if defined(__GNUC__) || defined(__clang__)
#define mx_prefetch(p, ahead) __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (uintptr_t)(ahead)))
#define mx_prefetch_w(p, ahead) \
  __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (uintptr_t)(ahead)), 1, 3)
#else
#define mx_prefetch(p, ahead) ((void)(p), (void)(ahead))
#define mx_prefetch_w(p, ahead) ((void)(p), (void)(ahead))
#endif

#endif
