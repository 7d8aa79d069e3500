#include "runtime/threads.h"

#ifdef MX_WORKERS
#include "runtime/workers.h"
#endif

/* ThreadSanitizer does not see how a thread pool it did not build (a caller's, e.g.
 * pthreadpool) orders its tasks with the call that started them: the bridge
 * tells it (what the caller wrote before comes before every task; every
 * task comes before the return), and nothing more, so that tasks that
 * overlap in time stay unordered and a race between two is still found. */
#if defined(__SANITIZE_THREAD__)
#define MX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MX_TSAN 1
#endif
#endif
#ifdef MX_TSAN
#include <sanitizer/tsan_interface.h>
#define tsan_acquire(p) __tsan_acquire(p)
#define tsan_release(p) __tsan_release(p)
#else
#define tsan_acquire(p) ((void)(p))
#define tsan_release(p) ((void)(p))
#endif

/* Each task, between the sync objects the bridge tells ThreadSanitizer of. */
typedef struct {
  minnx_task_fn task;
  void *ctx;
  char started, done; /* ThreadSanitizer's sync objects */
} bridge;

static void bridged(void *p, size_t i) {
  bridge *b = p;
  tsan_acquire(&b->started);
  b->task(b->ctx, i);
  tsan_release(&b->done);
}

void mx_threads_run(void *threads, minnx_task_fn task, void *ctx, size_t n) {
  const mx_threads *t = threads;
  if (!t->parallel || n <= 1) {
    for (size_t i = 0; i < n; i++) task(ctx, i);
    return;
  }
  bridge b = {task, ctx, 0, 0};
  tsan_release(&b.started);
  t->parallel(t->workers, bridged, &b, n);
  tsan_acquire(&b.done);
}

#ifdef MX_WORKERS
/* Workers: the default pool in a block of its own, for any number of
 * sessions; its header is followed by the pool's memory. */
struct minnx_workers {
  mx_mem heap;
  size_t threads;
  void *pool; /* NULL for one thread: nothing to start */
};

static size_t workers_head(void) {
  size_t a = _Alignof(max_align_t);
  return (sizeof(minnx_workers) + a - 1) / a * a;
}

/* Starts the default pool in p; the message names what the system refused. */
static minnx_status start_pool(void *p, size_t count, mx_err *err) {
  char why[96];
  if (!mx_workers_start(p, count, why, sizeof why)) return MINNX_OK;
  return mx_fail(err, MINNX_E_NOMEM, "a pool of %zu threads could not start: the system refused %s", count, why);
}

/* The pool (runtime/workers.c) lives in a block from the session's hooks,
 * so that the allocation-failure test reaches this path. */
minnx_status mx_threads_start(mx_threads *t, mx_mem *heap, size_t count, mx_err *err) {
  if (count <= 1) {
    mx_threads_stop(t, heap);
    return MINNX_OK;
  }
  void *p = mx_mem_alloc(heap, mx_workers_size(count));
  if (!p) return mx_mem_status(heap, mx_fail(err, MINNX_E_NOMEM, "out of memory for a pool of %zu threads", count), err);
  if (start_pool(p, count, err)) {
    mx_mem_free(heap, p);
    return MINNX_E_NOMEM;
  }
  mx_threads_stop(t, heap);
  t->parallel = mx_workers_run;
  t->workers = p;
  t->own = p;
  t->count = count;
  return MINNX_OK;
}

void mx_threads_stop(mx_threads *t, mx_mem *heap) {
  if (t->own) {
    mx_workers_stop(t->own);
    mx_mem_free(heap, t->own);
  }
  t->parallel = NULL;
  t->workers = t->own = NULL;
  t->count = 1;
}

void mx_threads_use(mx_threads *t, const minnx_workers *w, mx_mem *heap) {
  mx_threads_stop(t, heap);
  if (w && w->pool) {
    t->parallel = mx_workers_run;
    t->workers = w->pool;
    t->count = w->threads;
  }
}

minnx_status minnx_workers_create(size_t threads, const minnx_allocator *allocator, minnx_workers **out,
                                  minnx_error *err) {
  if (out) *out = NULL;
  if (!out || threads == 0 || threads > MX_MAX_WORKERS)
    return mx_fail(err, MINNX_E_ARG, "minnx_workers_create: NULL out, or %zu threads (1 to %d)", threads,
                   MX_MAX_WORKERS);
  mx_mem heap;
  mx_mem_init(&heap, allocator, 0);
  minnx_workers *w = mx_mem_alloc(&heap, workers_head() + (threads > 1 ? mx_workers_size(threads) : 0));
  if (!w) return mx_fail(err, MINNX_E_NOMEM, "out of memory for a pool of %zu threads", threads);
  w->heap = heap;
  w->threads = threads;
  w->pool = threads > 1 ? (unsigned char *)w + workers_head() : NULL;
  if (w->pool && start_pool(w->pool, threads, err)) {
    mx_mem_free(&heap, w);
    return MINNX_E_NOMEM;
  }
  *out = w;
  return MINNX_OK;
}

size_t minnx_workers_threads(const minnx_workers *w) { return w ? w->threads : 0; }

void minnx_workers_free(minnx_workers *w) {
  if (!w) return;
  mx_mem heap = w->heap;
  if (w->pool) mx_workers_stop(w->pool);
  mx_mem_free(&heap, w);
}
#else
minnx_status mx_threads_start(mx_threads *t, mx_mem *heap, size_t count, mx_err *err) {
  if (count <= 1) {
    mx_threads_stop(t, heap);
    return MINNX_OK;
  }
  return mx_fail(err, MINNX_E_FEATURE, "minnx was built without a thread pool (MINNX_THREADS=OFF): "
                 "hand in a parallel-for hook with minnx_session_set_parallel");
}

void mx_threads_stop(mx_threads *t, mx_mem *heap) {
  (void)heap;
  t->parallel = NULL;
  t->workers = t->own = NULL;
  t->count = 1;
}

/* No workers can exist in this build: w is NULL. */
void mx_threads_use(mx_threads *t, const minnx_workers *w, mx_mem *heap) {
  (void)w;
  mx_threads_stop(t, heap);
}

minnx_status minnx_workers_create(size_t threads, const minnx_allocator *allocator, minnx_workers **out,
                                  minnx_error *err) {
  (void)threads, (void)allocator;
  if (out) *out = NULL;
  return mx_fail(err, MINNX_E_FEATURE, "minnx was built without a thread pool (MINNX_THREADS=OFF): "
                 "hand in a parallel-for hook with minnx_session_set_parallel");
}

size_t minnx_workers_threads(const minnx_workers *w) { return (void)w, 0; }

void minnx_workers_free(minnx_workers *w) { (void)w; }
#endif
