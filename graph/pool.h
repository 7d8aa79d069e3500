/* Memory. mx_mem takes blocks from the caller's allocator hooks and counts
 * them against an optional cap (minnx_load_options.max_memory); a bump pool
 * over an mx_mem, or over the bottom of a caller's memory region, holds
 * everything a model owns and is released at once. */
#ifndef MX_POOL_H
#define MX_POOL_H

#include <stddef.h>

#include "graph/err.h"
#include "graph/region.h"
#include "minnx.h"

/* The hooks plus a running count of the bytes held through them. Each block
 * carries its size in a header so that frees are counted too. */
typedef struct mx_mem {
  minnx_allocator a;
  size_t cap;   /* 0: no cap */
  size_t used;  /* bytes held now, headers included */
  int over_cap; /* an allocation was refused for the cap (not by the hooks) */
} mx_mem;

typedef struct mx_chunk mx_chunk;

typedef struct mx_pool {
  mx_mem *mem;
  mx_chunk *head;
  mx_region *region; /* when set, everything comes from it and nothing from the hooks */
  size_t used; /* bytes handed out, for reporting */
  /* The folded outputs a later fold at the same load may share (Concat's of
   * the same constant bytes in two branches: ops/tensor/concat.c); NULL from
   * mx_pool_init where the ops fold (MX_OPS_VIEWS), unused elsewhere. */
  void *folds;
} mx_pool;

/* The allocator to use for `a` (NULL means malloc/free; in a build without
 * malloc, hooks that refuse every request). */
minnx_allocator mx_allocator_or_default(const minnx_allocator *a);
/* MINNX_E_FEATURE where `a` is NULL (or incomplete) in a build without
 * malloc, for calls that must allocate; MINNX_OK otherwise. */
minnx_status mx_allocator_check(const minnx_allocator *a, mx_err *err);
#ifdef MX_NO_MALLOC
void *mx_pb_no_malloc(size_t size);
void mx_pb_no_free(void *ptr);
#endif

void mx_mem_init(mx_mem *m, const minnx_allocator *a, size_t cap);
/* Memory aligned for any C type, or NULL (the hooks failed, or the cap). */
void *mx_mem_alloc(mx_mem *m, size_t size);
/* Releases what mx_mem_alloc returned; NULL is allowed. */
void mx_mem_free(mx_mem *m, void *p);
/* Where an out-of-memory status came from the cap rather than the hooks,
 * makes it a limit error naming the cap; clears the mark either way. */
minnx_status mx_mem_status(mx_mem *m, minnx_status st, mx_err *err);
/* Hooks over mx_mem_alloc / mx_mem_free, for protobuf-c and the planner. */
minnx_allocator mx_mem_allocator(mx_mem *m);

void mx_pool_init(mx_pool *p, mx_mem *mem);
/* A pool over the bottom of `r`; it never takes from `mem` (kept for sessions). */
void mx_pool_init_region(mx_pool *p, mx_region *r, mx_mem *mem);
/* Zeroed memory aligned to 64 bytes (16 for requests under 64 bytes), or NULL. */
void *mx_pool_alloc(mx_pool *p, size_t size);
/* Memory aligned to 16 bytes, not zeroed, or NULL: for blocks written whole
 * before they are read (the protobuf message's). */
void *mx_pool_alloc_raw(mx_pool *p, size_t size);
/* A NUL-terminated copy of n bytes at s, or NULL. */
char *mx_pool_strndup(mx_pool *p, const char *s, size_t n);
void mx_pool_release(mx_pool *p);
/* Hooks over mx_pool_alloc_raw whose free keeps the block: for a temporary
 * of many small blocks that goes all at once with mx_pool_release (asking
 * the hooks for each block of a million-node protobuf message cost more
 * than the rest of the load together). */
minnx_allocator mx_pool_allocator(mx_pool *p);

/* Temporary memory while the pool is built: from the hooks, or from the top
 * of the region. Zeroed. Every temporary must be freed. */
void *mx_pool_temp(mx_pool *p, size_t size);
/* The same, not zeroed: for arrays written whole before they are read (in a
 * graph of a million nodes, zeroing them was a pass over tens of MB, and
 * what is never written is never paged in). */
void *mx_pool_temp_raw(mx_pool *p, size_t size);
void mx_pool_temp_free(mx_pool *p, void *ptr);
/* The same as hooks, for protobuf-c and the planner. */
minnx_allocator mx_pool_temp_allocator(mx_pool *p);

#endif
