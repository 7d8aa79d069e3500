/* The command-line tool's one pool of workers (minnx_workers_create), shared
 * by all its sessions. A process-wide static is fine here: the tool is a
 * single-threaded program; the library itself keeps no global state. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static minnx_workers *workers;
static int no_workers; /* the build has none (MINNX_THREADS=OFF): the default is then 1 thread */

/* The pool for `threads` threads, started by the first session that wants
 * more than one. The message says how to do without it. */
static minnx_status get_workers(size_t threads, minnx_error *err) {
  if (workers) return MINNX_OK;
  minnx_status st = minnx_workers_create(threads, NULL, &workers, err);
  if (st == MINNX_E_NOMEM && err) {
    size_t n = strlen(err->message);
    snprintf(err->message + n, sizeof err->message - n, "; --threads 1 runs without one");
  }
  return st;
}

minnx_status open_session(const minnx_model *m, long threads, minnx_session **s, minnx_error *err) {
  int asked = threads > 0;
  if (!asked) {
    long cpus = no_workers ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus > 0 ? cpus : 1;
  }
  minnx_status st = minnx_session_create(m, s, err);
  if (st || threads <= 1) return st;
  st = get_workers((size_t)threads, err);
  if (st == MINNX_E_FEATURE && !asked) return no_workers = 1, MINNX_OK;
  if (!st) st = minnx_session_use_workers(*s, workers, err);
  if (st) {
    minnx_session_free(*s);
    *s = NULL;
  }
  return st;
}

void close_workers(void) {
  minnx_workers_free(workers);
  workers = NULL;
}
