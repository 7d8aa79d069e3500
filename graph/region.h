/* One memory region from the caller, used from both ends: what lasts (a
 * model's IR and plan, a session's arrays and arena) is taken from the
 * bottom, temporaries (protobuf-c's message while the IR is built from it, the
 * planner's work arrays) from the top. Nothing comes from anywhere else. The
 * top empties when its last temporary is freed, so the region needs the
 * lasting bytes plus the temporaries alive at the worst moment: `peak`. */
#ifndef MX_REGION_H
#define MX_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "minnx.h"

#define MX_REGION_ALIGN MINNX_REGION_ALIGN /* the base and every bottom allocation */
#define MX_REGION_TEMP_ALIGN 16 /* top allocations: enough for any C type */

typedef struct mx_region {
  unsigned char *base; /* the caller's memory, aligned up to MX_REGION_ALIGN */
  size_t size;         /* usable bytes from base, a multiple of MX_REGION_TEMP_ALIGN */
  size_t lo, hi;       /* bytes in use at the bottom and at the top */
  size_t peak;         /* the largest lo + hi so far */
  uint32_t temps;      /* temporaries alive (each takes 16 bytes or more: 2^32 of them would need 64 GiB) */
  int exhausted;       /* a request did not fit (beside temps: one word for both on 64-bit hosts) */
} mx_region;

/* A region over `size` bytes at `mem`. An unaligned `mem` loses the bytes up
 * to the next MX_REGION_ALIGN boundary. */
void mx_region_init(mx_region *r, void *mem, size_t size);

/* Zeroed bytes at the bottom, aligned to MX_REGION_ALIGN; NULL when they do
 * not fit. Size 0 gives a valid pointer to no bytes. */
void *mx_region_alloc(mx_region *r, size_t size);
/* The bytes mx_region_alloc(size) takes (SIZE_MAX on overflow). */
size_t mx_region_size(size_t size);
/* The same at an alignment `align` (a power of two, at most MX_REGION_ALIGN);
 * the bytes are rounded up to MX_REGION_TEMP_ALIGN. */
void *mx_region_alloc_aligned(mx_region *r, size_t size, size_t align);
/* What r->lo becomes when mx_region_alloc_aligned(size, align) is called at
 * `lo` (SIZE_MAX on overflow): sizes can be added up exactly beforehand. */
size_t mx_region_after(size_t lo, size_t size, size_t align);
/* Gives back every bottom allocation made since r->lo was `lo`. */
void mx_region_reset(mx_region *r, size_t lo);

/* A temporary from the top, aligned to MX_REGION_TEMP_ALIGN; NULL when it
 * does not fit. Freeing one only counts it: the top is emptied when none is
 * left alive. */
void *mx_region_temp(mx_region *r, size_t size);
void mx_region_temp_free(mx_region *r, void *ptr);
/* The bytes mx_region_temp(size) takes (SIZE_MAX on overflow). */
size_t mx_region_temp_size(size_t size);
/* Hooks over mx_region_temp / mx_region_temp_free, for protobuf-c and the planner. */
minnx_allocator mx_region_temp_allocator(mx_region *r);

#endif
