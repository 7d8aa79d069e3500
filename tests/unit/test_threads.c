/* One model shared by many threads, each with its own session (half on the
 * hooks, half in caller memory) and its own inputs, running concurrently:
 * every run's output must be bit-identical to the plain loops below. Then
 * the same with threads inside the sessions too: those on the hooks start
 * their own pools (2 or 3 threads), those in caller memory share one pool
 * as their parallel-for hook: pthreadpool for half, and minnx's own workers
 * (minnx_workers_create, minnx_session_use_workers) for the other half
 * (several callers taking turns on it). Built with -fsanitize=thread in
 * .ci/run, where any write to the shared model or a race between sessions,
 * or between a session's tasks, is reported. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"
#ifdef MX_TEST_THREADS
#include <pthreadpool.h>

#include "../../runtime/workers.h"
#endif

#define THREADS 8
#define RUNS 40
#define ROWS 64
#define COLS 2048
#define N (ROWS * COLS)

typedef struct {
  const minnx_model *model;
  int id;
  float a[N], b[N], c[N];
  int64_t want[ROWS];
  _Alignas(MINNX_REGION_ALIGN) unsigned char mem[1536 * 1024];
  int mismatches, errors;
} worker;

/* NaN is greater than every number, ties give the first index, +0 == -0. */
static int64_t row_argmax(const float *a, const float *b, const float *c) {
  int64_t best = 0;
  float bv = 0;
  for (int j = 0; j < COLS; j++) {
    float v = a[j];
    if (isnan(b[j]) || b[j] > v) v = b[j];
    if (!isnan(v) && (isnan(c[j]) || c[j] > v)) v = c[j];
    if (j == 0 || (isnan(v) && !isnan(bv)) || v > bv) best = j, bv = v;
  }
  return best;
}

static void fill(worker *w) {
  uint32_t s = 2654435761u * (uint32_t)(w->id + 1);
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    int r = (int)((s >> 16) % 19) - 9; /* small integers: many ties */
    w->a[i] = (float)r;
    w->b[i] = (float)((r * 7) % 5);
    w->c[i] = (s >> 8) % 97 == 0 ? NAN : (float)(r % 4) * -0.5f;
  }
  for (int r = 0; r < ROWS; r++) w->want[r] = row_argmax(w->a + r * COLS, w->b + r * COLS, w->c + r * COLS);
}

static int inner; /* the second phase: threads inside the sessions */
#ifdef MX_TEST_THREADS
static pthreadpool_t shared;
static minnx_workers *own; /* minnx's default pool, shared the same way (minnx_workers_create) */

static void shared_hook(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  pthreadpool_parallelize_1d(pool, task, ctx, n, 0);
}

/* minnx's pool runs every task exactly once, whatever n is against its threads. */
static _Atomic int hits[1000];
static void hit(void *ctx, size_t i) {
  (void)ctx;
  hits[i]++;
}

static void pool_runs_each_task_once(void) {
  for (size_t threads = 2; threads <= 4; threads++) {
    void *p = malloc(mx_workers_size(threads));
    CHECK(p != NULL && mx_workers_start(p, threads, NULL, 0) == 0);
    static const size_t sizes[] = {1, 2, 3, 5, 64, 255, 256, 1000};
    for (int r = 0; r < 50; r++)
      for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        for (size_t i = 0; i < n; i++) hits[i] = 0;
        mx_workers_run(p, hit, NULL, n);
        int wrong = 0;
        for (size_t i = 0; i < n; i++) wrong += hits[i] != 1;
        CHECK_EQ_INT(wrong, 0);
      }
    mx_workers_stop(p);
    free(p);
  }
}
#endif

#ifdef MX_TEST_THREADS
/* The public workers' edges: counts, one thread. */
static void workers_api(void) {
  minnx_workers *w = (minnx_workers *)&shared;
  minnx_error err;
  CHECK_EQ_INT(minnx_workers_create(0, NULL, &w, &err), MINNX_E_ARG);
  CHECK(w == NULL);
  CHECK_EQ_INT(minnx_workers_create(65537, NULL, &w, &err), MINNX_E_ARG);
  CHECK_EQ_INT(minnx_workers_create(2, NULL, NULL, &err), MINNX_E_ARG);
  CHECK_EQ_INT(minnx_workers_threads(NULL), 0);
  minnx_workers_free(NULL);
  CHECK_EQ_INT(minnx_session_use_workers(NULL, own, &err), MINNX_E_ARG);
  CHECK_EQ_INT(minnx_workers_threads(own), 3);
  CHECK_EQ_INT(minnx_workers_create(1, NULL, &w, &err), MINNX_OK); /* no thread: inline */
  CHECK_EQ_INT(minnx_workers_threads(w), 1);
  minnx_workers_free(w);
}
#endif

static void *work(void *arg) {
  worker *w = arg;
  minnx_error err;
  minnx_session *s = NULL;
  minnx_status st = w->id % 2 ? minnx_session_create_in(w->model, w->mem, sizeof w->mem, &s, &err)
                              : minnx_session_create(w->model, &s, &err);
#ifdef MX_TEST_THREADS
  if (!st && inner)
    st = w->id % 4 == 1   ? minnx_session_set_parallel(s, shared_hook, shared, 2, &err)
         : w->id % 4 == 3 ? minnx_session_use_workers(s, own, &err)
                   : minnx_session_set_threads(s, 2 + (size_t)(w->id % 4 == 2), &err);
#endif
  minnx_tensor ta = {MINNX_FLOAT, 2, {ROWS, COLS}, w->a, sizeof w->a};
  minnx_tensor tb = {MINNX_FLOAT, 2, {ROWS, COLS}, w->b, sizeof w->b};
  minnx_tensor tc = {MINNX_FLOAT, 2, {ROWS, COLS}, w->c, sizeof w->c};
#ifdef MX_TEST_THREADS
  if (!st && inner && w->id % 4 == 3 && minnx_session_threads(s) != 3) w->errors++;
#endif
  if (!st) st = minnx_session_bind_input(s, 0, &ta, &err);
  if (!st) st = minnx_session_bind_input(s, 1, &tb, &err);
  if (!st) st = minnx_session_bind_input(s, 2, &tc, &err);
  for (int r = 0; r < RUNS && !st; r++) {
    minnx_tensor y;
    if ((st = minnx_session_run(s, &err)) || (st = minnx_session_output(s, 0, &y))) break;
    if (y.nbytes != sizeof w->want || memcmp(y.data, w->want, sizeof w->want) != 0) w->mismatches++;
  }
  if (st) w->errors++;
  minnx_session_free(s);
  return NULL;
}

int main(void) {
  /* y = ArgMax(Max(Max(a, b), c), axis 1) */
  test_model tm = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 3,
                   .inputs = {"a", "b", "c"}, .dtype = MINNX_FLOAT, .rank = 2, .dims = {ROWS, COLS}, .n_nodes = 3,
                   .output = "y"};
  tm.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "m0", NULL, 0};
  tm.nodes[1] = (test_node){"Max", "", 2, {"m0", "c"}, "m1", NULL, 0};
  tm.nodes[2] = (test_node){"ArgMax", "", 1, {"m1"}, "y", "axis", 1};
  uint8_t *bytes;
  size_t size = build_model(&tm, &bytes);
  minnx_model *model;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, &model, &err), MINNX_OK);
  static worker w[THREADS];
  CHECK(minnx_session_memory_needed(model) <= sizeof w[0].mem);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i].model = model;
    w[i].id = i;
    fill(&w[i]);
  }
#ifdef MX_TEST_THREADS
  pool_runs_each_task_once();
  shared = pthreadpool_create(2);
  CHECK(shared != NULL);
  CHECK_EQ_INT(minnx_workers_create(3, NULL, &own, &err), MINNX_OK);
  workers_api();
  int phases = 2;
#else
  int phases = 1;
  minnx_workers *none = (minnx_workers *)&t;
  CHECK_EQ_INT(minnx_workers_create(2, NULL, &none, &err), MINNX_E_FEATURE); /* a build without the pool */
  CHECK(none == NULL);
#endif
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (inner = 0; inner < phases; inner++) {
    for (int i = 0; i < THREADS; i++) CHECK_EQ_INT(pthread_create(&t[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < THREADS; i++) CHECK_EQ_INT(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < THREADS; i++) {
      CHECK_EQ_INT(w[i].errors, 0);
      CHECK_EQ_INT(w[i].mismatches, 0);
      w[i].errors = w[i].mismatches = 0;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
#ifdef MX_TEST_THREADS
  pthreadpool_destroy(shared);
  minnx_workers_free(own);
#endif
  /* the inputs differ between threads, so a session reading another's bytes would show */
  CHECK(memcmp(w[0].want, w[1].want, sizeof w[0].want) != 0);
  printf("threads=%d runs=%d each, phases=%d, %d nodes on [%d,%d], %.3f s\n", THREADS, RUNS, phases, tm.n_nodes, ROWS, COLS,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  minnx_model_free(model);
  free(bytes);
  return check_report("test_threads");
}
