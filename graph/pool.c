#include "graph/pool.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MX_POOL_ALIGN 64
#define MX_POOL_SMALL_ALIGN 16
#define MX_POOL_FIRST_CHUNK 4096
#define MX_POOL_CHUNK (64 * 1024)

struct mx_chunk {
  mx_chunk *next;
  size_t size, used;
  unsigned char *base; /* aligned start of the usable bytes */
};

#ifndef MX_NO_MALLOC
static void *default_alloc(void *user, size_t size) {
  (void)user;
  return malloc(size);
}

static void default_free(void *user, void *ptr) {
  (void)user;
  free(ptr);
}
#else
/* A build without malloc (MINNX_MALLOC=OFF: a firmware whose memory is all
 * its own): with no allocator given, every request fails, and mx_mem_status
 * says why. The firmware then links no malloc, free or sbrk of its C library. */
static void *default_alloc(void *user, size_t size) {
  (void)user;
  (void)size;
  return NULL;
}

static void default_free(void *user, void *ptr) {
  (void)user;
  (void)ptr;
}

/* protobuf-c's source, built in without malloc, calls these for malloc and
 * free (proto/CMakeLists.txt): its default allocator, never used, as minnx
 * gives every unpack its hooks. */
void *mx_pb_no_malloc(size_t size) {
  (void)size;
  return NULL;
}

void mx_pb_no_free(void *ptr) { (void)ptr; }
#endif

minnx_allocator mx_allocator_or_default(const minnx_allocator *a) {
  if (a && a->alloc && a->free) return *a;
  minnx_allocator d = {default_alloc, default_free, NULL};
  return d;
}

minnx_status mx_allocator_check(const minnx_allocator *a, mx_err *err) {
#ifdef MX_NO_MALLOC
  if (!a || !a->alloc || !a->free)
    return mx_fail(err, MINNX_E_FEATURE, "minnx was built without malloc (MINNX_MALLOC=OFF): give an allocator");
#else
  (void)a;
  (void)err;
#endif
  return MINNX_OK;
}

/* The header before each block: its size, padded so the block stays aligned. */
typedef union {
  size_t size;
  max_align_t align;
} header;

void mx_mem_init(mx_mem *m, const minnx_allocator *a, size_t cap) {
  m->a = mx_allocator_or_default(a);
  m->cap = cap;
  m->used = 0;
  m->over_cap = 0;
}

void *mx_mem_alloc(mx_mem *m, size_t size) {
  if (size > SIZE_MAX - sizeof(header)) return NULL;
  size_t total = size + sizeof(header);
  if (m->cap && (m->used > m->cap || total > m->cap - m->used)) {
    m->over_cap = 1;
    return NULL;
  }
  header *h = m->a.alloc(m->a.user, total);
  if (!h) return NULL;
  h->size = total;
  m->used += total;
  return h + 1;
}

void mx_mem_free(mx_mem *m, void *p) {
  if (!p) return;
  header *h = (header *)p - 1;
  m->used -= h->size;
  m->a.free(m->a.user, h);
}

minnx_status mx_mem_status(mx_mem *m, minnx_status st, mx_err *err) {
  int over = m->over_cap;
  m->over_cap = 0;
#ifdef MX_NO_MALLOC
  if (st == MINNX_E_NOMEM && !over && m->a.alloc == default_alloc)
    return mx_fail_prefix(err, MINNX_E_FEATURE, "minnx was built without malloc (MINNX_MALLOC=OFF) and given no allocator "
                                                "or memory of the caller's: ");
#endif
  if (st != MINNX_E_NOMEM || !over) return st;
  return mx_fail_prefix(err, MINNX_E_LIMIT, "above max_memory (%zu bytes): ", m->cap);
}

void mx_pool_init(mx_pool *p, mx_mem *mem) {
  p->mem = mem;
  p->head = NULL;
  p->region = NULL;
  p->used = 0;
#if !defined(MX_OPS_VIEWS) || MX_OPS_VIEWS
  p->folds = NULL;
#endif
}

void mx_pool_init_region(mx_pool *p, mx_region *r, mx_mem *mem) {
  mx_pool_init(p, mem);
  p->region = r;
}

static uintptr_t align_up(uintptr_t v, size_t a) { return (v + a - 1) & ~(uintptr_t)(a - 1); }

/* `size` bytes aligned to `align` from the region or the current chunk, or
 * NULL. The one chunk allocator of the library: the model's memory and the
 * loader's protobuf message both come from it. */
static void *take(mx_pool *p, size_t size, size_t align) {
  if (size == 0) size = 1;
  if (size > SIZE_MAX / 2) return NULL;
  size = (size_t)align_up(size, MX_POOL_SMALL_ALIGN);
  if (p->region) {
    size_t before = p->region->lo;
    void *r = mx_region_alloc_aligned(p->region, size, align);
    if (r) p->used += p->region->lo - before;
    return r;
  }
  mx_chunk *c = p->head;
  size_t at = c ? (size_t)align_up(c->used, align) : 0;
  if (!c || at > c->size || c->size - at < size) {
    /* Each chunk twice the last, up to a bound, so that a small model keeps
     * little unused. Large requests get a chunk of their own so that small
     * ones keep filling the current one. */
    size_t grow = !c ? MX_POOL_FIRST_CHUNK : c->size < MX_POOL_CHUNK / 2 ? 2 * c->size : MX_POOL_CHUNK;
    size_t cap = size > grow / 4 ? size : grow;
    unsigned char *raw = mx_mem_alloc(p->mem, sizeof(mx_chunk) + MX_POOL_ALIGN + cap);
    if (!raw) return NULL;
    mx_chunk *n = (mx_chunk *)raw;
    n->base = (unsigned char *)align_up((uintptr_t)(raw + sizeof(mx_chunk)), MX_POOL_ALIGN);
    n->size = cap;
    n->used = 0;
    if (c && size == cap && c->size - c->used >= c->size / 8) {
      /* keep filling the current chunk: put the dedicated one behind it */
      n->next = c->next;
      c->next = n;
    } else {
      n->next = c;
      p->head = n;
    }
    c = n;
    at = 0;
  }
  void *r = c->base + at;
  p->used += at + size - c->used;
  c->used = at + size;
  return r;
}

void *mx_pool_alloc(mx_pool *p, size_t size) {
  /* Names and small arrays need only C alignment; tensor-sized requests start
   * on a 64-byte line. */
  void *r = take(p, size, size < MX_POOL_ALIGN ? MX_POOL_SMALL_ALIGN : MX_POOL_ALIGN);
  if (r) memset(r, 0, size);
  return r;
}

void *mx_pool_alloc_raw(mx_pool *p, size_t size) { return take(p, size, MX_POOL_SMALL_ALIGN); }

char *mx_pool_strndup(mx_pool *p, const char *s, size_t n) {
  char *r = mx_pool_alloc(p, n + 1);
  if (!r) return NULL;
  memcpy(r, s, n);
  r[n] = '\0';
  return r;
}

void mx_pool_release(mx_pool *p) {
  mx_chunk *c = p->head;
  while (c) {
    mx_chunk *next = c->next;
    mx_mem_free(p->mem, c);
    c = next;
  }
  p->head = NULL;
  p->used = 0;
}

static void *mem_alloc(void *user, size_t size) { return mx_mem_alloc(user, size); }
static void mem_free(void *user, void *ptr) { mx_mem_free(user, ptr); }

minnx_allocator mx_mem_allocator(mx_mem *m) {
  minnx_allocator a = {mem_alloc, mem_free, m};
  return a;
}

static void *pool_alloc_raw(void *user, size_t size) { return mx_pool_alloc_raw(user, size); }
static void pool_keep(void *user, void *ptr) { (void)user, (void)ptr; }

minnx_allocator mx_pool_allocator(mx_pool *p) {
  minnx_allocator a = {pool_alloc_raw, pool_keep, p};
  return a;
}

void *mx_pool_temp_raw(mx_pool *p, size_t size) {
  return p->region ? mx_region_temp(p->region, size) : mx_mem_alloc(p->mem, size ? size : 1);
}

void *mx_pool_temp(mx_pool *p, size_t size) {
  void *r = mx_pool_temp_raw(p, size);
  if (r) memset(r, 0, size);
  return r;
}

void mx_pool_temp_free(mx_pool *p, void *ptr) {
  if (!ptr) return;
  if (p->region) mx_region_temp_free(p->region, ptr);
  else mx_mem_free(p->mem, ptr);
}

minnx_allocator mx_pool_temp_allocator(mx_pool *p) {
  return p->region ? mx_region_temp_allocator(p->region) : mx_mem_allocator(p->mem);
}
