/* The command-line tool's one thread pool (see pool.h). A process-wide
 * static is fine here: the tool is a single-threaded program; the library
 * itself keeps no global state. */
#include "pool.h"

#ifdef MINNX_CLI_POOL
#include <stdio.h>
#include <stdlib.h>

/* The library's default pool, as a parallel-for hook (the tool links the static library). */
#include "../runtime/workers.h"

static void *pool;

int cli_pool_available(void) {
  return 1;
}

/* A pool that cannot start is an error (the session is not run on fewer
 * threads than asked behind the user's back); the next session tries again. */
minnx_status cli_pool_attach(minnx_session *s, size_t threads, minnx_error *err) {
  char why[96] = "memory for its bookkeeping";
  if (!pool && (pool = malloc(mx_workers_size(threads))) && mx_workers_start(pool, threads, why, sizeof why)) {
    free(pool);
    pool = NULL;
  }
  if (!pool) {
    if (err) {
      err->status = MINNX_E_NOMEM;
      snprintf(err->message, sizeof err->message,
               "a pool of %zu threads could not start: the system refused %s; --threads 1 runs without one",
               threads, why);
    }
    return MINNX_E_NOMEM;
  }
  return minnx_session_set_parallel(s, mx_workers_run, pool, threads, err);
}

void cli_pool_stop(void) {
  if (pool) mx_workers_stop(pool);
  free(pool);
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
