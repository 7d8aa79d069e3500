/* Why the default pool is minnx's own (runtime/workers.c) and not
 * pthreadpool: per pool, on 2 threads, the median time of
 *   - one dispatch of 2 empty tasks, back to back (what a small node pays);
 *   - one node of 256 tasks of about 5 us of work each (a 16 MiB node), next
 *     to the same tasks run inline on 1 thread.
 * Run it on an idle machine and under load (e.g. `taskset -c 0 yes >
 * /dev/null & taskset -c 1 yes > /dev/null &`): pthreadpool's caller waits
 * for each worker to wake and check in, so under load its node takes a
 * scheduler slice or more. Not part of ctest; README's Performance section
 * quotes it.
 *   cc -O2 -pthread -Iinclude -I. tests/bench/pool_latency.c runtime/workers.c -lpthreadpool && ./a.out */
#define _POSIX_C_SOURCE 200809L
#include <pthreadpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/workers.h"

#define ROUNDS 400
#define TASKS 256

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile double sink[TASKS];
static void empty(void *c, size_t i) {
  (void)c;
  (void)i;
}
static void busy(void *c, size_t i) { /* about 5 us on a 2-3 GHz core */
  (void)c;
  double s = (double)i;
  for (int k = 0; k < 4000; k++) s = s * 0.999 + 1.0;
  sink[i] = s;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef void (*run_fn)(void *pool, minnx_task_fn task, void *ctx, size_t n);

static double median(run_fn run, void *pool, minnx_task_fn task, size_t n) {
  static double t[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double a = now();
    run(pool, task, NULL, n);
    t[r] = now() - a;
  }
  qsort(t, ROUNDS, sizeof *t, cmp);
  return t[ROUNDS / 2] * 1e6;
}

static void inline_run(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  (void)pool;
  for (size_t i = 0; i < n; i++) task(ctx, i);
}
static void pthreadpool_run(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  pthreadpool_parallelize_1d(pool, task, ctx, n, 0);
}

int main(void) {
  pthreadpool_t pp = pthreadpool_create(2);
  void *own = malloc(mx_workers_size(2));
  if (!pp || !own || mx_workers_start(own, 2, NULL, 0)) return 1;
  for (int pass = 0; pass < 2; pass++) { /* interleaved, twice */
    printf("dispatch of 2 empty tasks: pthreadpool %.1f us, minnx %.1f us\n", median(pthreadpool_run, pp, empty, 2),
           median(mx_workers_run, own, empty, 2));
    printf("256 tasks of ~5 us: 1 thread %.0f us, pthreadpool %.0f us, minnx %.0f us\n",
           median(inline_run, NULL, busy, TASKS), median(pthreadpool_run, pp, busy, TASKS),
           median(mx_workers_run, own, busy, TASKS));
  }
  mx_workers_stop(own);
  free(own);
  pthreadpool_destroy(pp);
  return 0;
}
