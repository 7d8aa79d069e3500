/* A hint that the cache line holding p + ahead bytes will be read soon, for
 * every stage that walks large arrays (the loader's name table, the planner's
 * values, the kernels' streams: ops/core/kernel.h says how far ahead they
 * ask). A hint only: it never faults and never changes a result, so the
 * address may lie past the end of the data; it is formed as an integer so
 * that no out-of-bounds pointer is. Nothing on compilers without it. */
#ifndef MX_PREFETCH_H
#define MX_PREFETCH_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define mx_prefetch(p, ahead) __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (uintptr_t)(ahead)))
#else
#define mx_prefetch(p, ahead) ((void)(p), (void)(ahead))
#endif

#endif
