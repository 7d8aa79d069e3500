#include "graph/region.h"

#include <stdint.h>
#include <string.h>

static size_t round_up(size_t v, size_t a) { return v > SIZE_MAX - (a - 1) ? SIZE_MAX : (v + a - 1) & ~(a - 1); }

void mx_region_init(mx_region *r, void *mem, size_t size) {
  memset(r, 0, sizeof *r);
  if (!mem) return;
  uintptr_t p = (uintptr_t)mem;
  if (p > UINTPTR_MAX - MX_REGION_ALIGN) return;
  size_t skip = (size_t)(((p + MX_REGION_ALIGN - 1) & ~(uintptr_t)(MX_REGION_ALIGN - 1)) - p);
  if (skip > size) return;
  r->base = (unsigned char *)mem + skip;
  r->size = (size - skip) & ~(size_t)(MX_REGION_TEMP_ALIGN - 1);
}

/* Whether `need` more bytes fit between the two ends; records the peak. */
static int take(mx_region *r, size_t need) {
  if (!r->base || need == SIZE_MAX || need > r->size - r->lo - r->hi) {
    r->exhausted = 1;
    return 0;
  }
  return 1;
}

static void note_peak(mx_region *r) {
  if (r->lo + r->hi > r->peak) r->peak = r->lo + r->hi;
}

size_t mx_region_size(size_t size) { return round_up(size, MX_REGION_ALIGN); }
size_t mx_region_temp_size(size_t size) { return round_up(size, MX_REGION_TEMP_ALIGN); }

size_t mx_region_after(size_t lo, size_t size, size_t align) {
  size_t at = round_up(lo, align), bytes = round_up(size, MX_REGION_TEMP_ALIGN);
  return at == SIZE_MAX || bytes > SIZE_MAX - at ? SIZE_MAX : at + bytes;
}

void *mx_region_alloc_aligned(mx_region *r, size_t size, size_t align) {
  size_t end = mx_region_after(r->lo, size, align);
  if (!take(r, end == SIZE_MAX ? SIZE_MAX : end - r->lo)) return NULL;
  unsigned char *p = r->base + round_up(r->lo, align);
  r->lo = end;
  note_peak(r);
  memset(p, 0, size);
  return p;
}

void *mx_region_alloc(mx_region *r, size_t size) {
  return mx_region_alloc_aligned(r, mx_region_size(size), MX_REGION_ALIGN);
}

void mx_region_reset(mx_region *r, size_t lo) {
  if (lo < r->lo) r->lo = lo;
}

void *mx_region_temp(mx_region *r, size_t size) {
  size_t need = mx_region_temp_size(size);
  if (!take(r, need)) return NULL;
  r->hi += need;
  r->temps++;
  note_peak(r);
  return r->base + r->size - r->hi;
}

void mx_region_temp_free(mx_region *r, void *ptr) {
  if (!ptr || r->temps == 0) return;
  if (--r->temps == 0) r->hi = 0;
}

static void *temp_alloc(void *user, size_t size) { return mx_region_temp(user, size); }
static void temp_free(void *user, void *ptr) { mx_region_temp_free(user, ptr); }

minnx_allocator mx_region_temp_allocator(mx_region *r) {
  minnx_allocator a = {temp_alloc, temp_free, r};
  return a;
}
