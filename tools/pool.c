/* The command-line tool's one thread pool (see pool.h). A process-wide
 * static is fine here: the tool is a single-threaded program; the library
 * itself keeps no global state. */
#include "pool.h"

#ifdef MINNX_CLI_POOL
#include <pthreadpool.h>
#include <stdio.h>

static pthreadpool_t pool;

/* pthreadpool_parallelize_1d in the hook's shape (its task type is the hook's). */
static void run_on_pool(void *p, minnx_task_fn task, void *ctx, size_t n) {
  pthreadpool_parallelize_1d(p, task, ctx, n, 0);
}

int cli_pool_available(void) {
  return 1;
}

minnx_status cli_pool_attach(minnx_session *s, size_t threads, minnx_error *err) {
  if (!pool && !(pool = pthreadpool_create(threads))) {
    if (err) {
      err->status = MINNX_E_NOMEM;
      snprintf(err->message, sizeof err->message, "a pool of %zu threads could not start", threads);
    }
    return MINNX_E_NOMEM;
  }
  return minnx_session_set_parallel(s, run_on_pool, pool, threads, err);
}

void cli_pool_stop(void) {
  if (pool) pthreadpool_destroy(pool);
  pool = NULL;
}
#else
int cli_pool_available(void) {
  return 0;
}

/* The library's own answer: it names the missing pool (MINNX_E_FEATURE). */
minnx_status cli_pool_attach(minnx_session *s, size_t threads, minnx_error *err) {
  return minnx_session_set_threads(s, threads, err);
}

void cli_pool_stop(void) {}
#endif
