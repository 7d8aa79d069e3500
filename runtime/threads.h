/* Intra-op threads: how a session runs the tasks a kernel splits its work
 * into. Either the caller's parallel-for hook (an application's thread pool,
 * an RTOS), or the host build's default workers (runtime/workers.c, built in
 * with MINNX_THREADS), started once when a session is given a thread count. */
#ifndef MX_THREADS_H
#define MX_THREADS_H

#include <stddef.h>
#include <stdint.h>

#include "graph/err.h"
#include "graph/pool.h"

/* A session's way of running tasks. */
typedef struct mx_threads {
  minnx_parallel_fn parallel; /* NULL: every task inline, in order */
  void *workers;              /* parallel's state: the caller's thread pool, or the default workers */
  size_t count;               /* threads the work may be split over (>= 1) */
  void *own;                  /* the default workers, when the session started them */
} mx_threads;

/* Runs the n tasks through t (inline when it has no hook, or n is 1): a
 * minnx_parallel_fn, with t as its state (mx_exec.threads). */
void mx_threads_run(void *t, minnx_task_fn task, void *ctx, size_t n);
/* Starts the default workers, `count` threads, into t (count 1: none). Their
 * bookkeeping comes from `heap`; their threads' stacks from the C library.
 * MINNX_E_NOMEM when they cannot start, the block or a thread, mutex or
 * condition variable refused (the message names which, and pthread's error):
 * t is then unchanged, nothing of the new workers is left. MINNX_E_FEATURE in
 * a build without the default workers. */
minnx_status mx_threads_start(mx_threads *t, mx_mem *heap, size_t count, mx_err *err);
/* Stops t's own workers, if any, and makes t inline. */
void mx_threads_stop(mx_threads *t, mx_mem *heap);
/* Stops t's own pool, if any, and makes t run its tasks in the shared pool
 * w (minnx_workers_create; NULL or one thread: inline), which t does not own. */
void mx_threads_use(mx_threads *t, const minnx_workers *w, mx_mem *heap);

/* The most threads a pool may have: far beyond any machine, and its
 * bookkeeping's size cannot overflow. */
#define MX_MAX_WORKERS 65536

#endif
