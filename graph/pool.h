/* A bump allocator over chunks from the caller's allocator hooks, or over the
 * bottom of a caller's memory region: everything a model owns lives in one
 * pool and is released at once. */
#ifndef MX_POOL_H
#define MX_POOL_H

#include <stddef.h>

#include "graph/region.h"
#include "minnx.h"

typedef struct mx_chunk mx_chunk;

typedef struct mx_pool {
  minnx_allocator a;
  mx_chunk *head;
  mx_region *region; /* when set, everything comes from it and nothing from the hooks */
  size_t used; /* bytes handed out, for reporting */
} mx_pool;

/* The allocator to use for `a` (NULL means malloc/free). */
minnx_allocator mx_allocator_or_default(const minnx_allocator *a);

void mx_pool_init(mx_pool *p, const minnx_allocator *a);
/* A pool over the bottom of `r`; `a` stays the hooks sessions may use. */
void mx_pool_init_region(mx_pool *p, mx_region *r, const minnx_allocator *a);
/* Zeroed memory aligned to 64 bytes (16 for requests under 64 bytes), or NULL. */
void *mx_pool_alloc(mx_pool *p, size_t size);
/* A NUL-terminated copy of n bytes at s, or NULL. */
char *mx_pool_strndup(mx_pool *p, const char *s, size_t n);
void mx_pool_release(mx_pool *p);

/* Temporary memory while the pool is built: from the hooks, or from the top
 * of the region. Zeroed. Every temporary must be freed. */
void *mx_pool_temp(mx_pool *p, size_t size);
void mx_pool_temp_free(mx_pool *p, void *ptr);
/* The same as hooks, for protobuf-c and the planner. */
minnx_allocator mx_pool_temp_allocator(mx_pool *p);

#endif
