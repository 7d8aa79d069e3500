/* The default thread pool, the workers (host builds, MINNX_THREADS): a
 * minnx_parallel_fn whose caller never waits for a worker that has not
 * started on the job. A job's tasks are cut into one contiguous share per
 * thread (the caller's and each worker's); a thread runs its own share from
 * the front, then takes tasks from the back of the others' shares, and the
 * call returns when the last task is done. A worker the OS has not scheduled
 * yet (a loaded machine) so leaves its share to the others instead of
 * holding the caller up. Depends on minnx.h only, so that the command-line
 * tool shares one set of workers between its sessions. */
#ifndef MX_WORKERS_H
#define MX_WORKERS_H

#include <stddef.h>

#include "minnx.h"

/* Bytes the workers of `threads` threads (the caller and threads - 1 workers) need. */
size_t mx_workers_size(size_t threads);
/* Starts the workers in `mem` (mx_workers_size bytes, aligned for any type).
 * 0, or -1 when the system refused a thread, a mutex or a condition variable:
 * nothing is then left running or initialized, and `why` (why_size bytes;
 * NULL: not written) names what was refused and the error pthread gave,
 * e.g. "worker thread 2 of 3: EAGAIN (out of resources, or at the limit of threads)". */
int mx_workers_start(void *mem, size_t threads, char *why, size_t why_size);
/* Runs task(ctx, i) for every i in [0, n) on the caller and the workers;
 * returns when all are done. Calls from several threads at once take turns. */
void mx_workers_run(void *workers, minnx_task_fn task, void *ctx, size_t n);
/* Stops and joins the workers; mem may then be freed. */
void mx_workers_stop(void *workers);

#endif
