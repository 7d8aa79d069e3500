/* The default workers (see workers.h). Why not pthreadpool (Debian's
 * libpthreadpool, the thread pool this replaced): its caller hands each thread a
 * range of the tasks and, even when it has stolen every task itself, waits
 * until each worker has woken up and checked in. With the cores busy with
 * other processes a worker may not run for a scheduler slice or more, and
 * its caller spun meanwhile: 2 threads took 12-20 ms on nodes that take
 * 1.5 ms on 1 (README, "Threads"). Here nothing waits for a worker that has
 * not entered the job, and a thread with nothing to do yields its core, then
 * sleeps. */
#define _POSIX_C_SOURCE 200809L
#include "runtime/workers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* How long a thread waits awake before it sleeps (waking a sleeping thread
 * costs tens of microseconds, and more on a busy machine, where the woken
 * thread may wait for a core longer than the node takes): the caller for the
 * last tasks (about one task's time), a worker for the next job (about the
 * time between nodes, which in `minnx bench` is more than 200 us). Past
 * SPIN_NS a waiting thread yields its core at every check, so that on a
 * loaded machine it takes little from the threads that have work. */
#define SPIN_NS 200000
#define CALLER_WAIT_NS 50000
#define WORKER_WAIT_NS 5000000

/* A thread's share of the current job, tasks [lo, hi): lo in the low 32
 * bits, hi in the high ones. Its thread takes tasks from the front, so that
 * each thread streams through contiguous memory; a thread out of tasks takes
 * from the back of the others' (those of a worker not scheduled yet). */
typedef struct {
  _Atomic uint64_t span;
  char pad[56];
} share;

typedef struct workers workers;
typedef struct {
  workers *p;
  size_t index; /* 0: the caller's share */
  pthread_t thread;
} slot;

/* The door of the current job: its number (high 32 bits), whether it is
 * closed, and how many workers are inside (reading its task and counters). */
#define DOOR_CLOSED ((uint64_t)1 << 31)
#define DOOR_INSIDE (DOOR_CLOSED - 1)

struct workers {
  /* the current job: written by the caller only while the door is closed
   * with nobody inside, read by workers only inside */
  minnx_task_fn task;
  void *ctx;
  size_t n;
  uint32_t jobs; /* jobs published so far (the caller's, under `turn`) */
  _Atomic uint64_t door;
  char pad0[64];
  _Atomic size_t done; /* tasks finished */
  char pad2[64];
  _Atomic uint32_t job;     /* the latest job's number: what idle workers watch */
  _Atomic int sleepers;     /* workers asleep on `wake` */
  _Atomic int waiting;      /* the caller asleep on `finished` */
  _Atomic int stop;
  pthread_mutex_t turn;     /* one caller at a time */
  pthread_mutex_t lock;     /* for the condition variables */
  pthread_cond_t wake, finished;
  size_t threads;
  share *shares; /* [threads], after slot[] in the same block */
  slot slot[];   /* [threads]; slot 0 is the caller's */
};

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Waits awake (checking the clock now and then) until ready(p, arg), or
 * `ns` pass: spinning, then yielding the core after SPIN_NS. */
static int wait_awake(workers *p, int (*ready)(workers *, uint32_t), uint32_t arg, int64_t ns) {
  int64_t start = 0, t = 0;
  for (unsigned k = 0;; k++) {
    if (ready(p, arg)) return 1;
    if (k % 64 == 0 || t - start > SPIN_NS) {
      t = now_ns();
      if (!start) start = t;
      else if (t - start > ns) return 0;
    }
    if (t - start > SPIN_NS) sched_yield();
    else relax();
  }
}

static int new_job(workers *p, uint32_t seen) {
  return atomic_load(&p->job) != seen || atomic_load(&p->stop);
}

static int all_done(workers *p, uint32_t unused) {
  (void)unused;
  return atomic_load(&p->done) == p->n;
}

static int take_front(share *r, size_t *i) {
  uint64_t s = atomic_load_explicit(&r->span, memory_order_relaxed);
  do {
    if ((uint32_t)s >= (uint32_t)(s >> 32)) return 0;
  } while (!atomic_compare_exchange_weak_explicit(&r->span, &s, s + 1, memory_order_relaxed, memory_order_relaxed));
  *i = (uint32_t)s;
  return 1;
}

static int take_back(share *r, size_t *i) {
  uint64_t s = atomic_load_explicit(&r->span, memory_order_relaxed);
  do {
    if ((uint32_t)s >= (uint32_t)(s >> 32)) return 0;
  } while (!atomic_compare_exchange_weak_explicit(&r->span, &s, s - ((uint64_t)1 << 32), memory_order_relaxed,
                                                  memory_order_relaxed));
  *i = (uint32_t)(s >> 32) - 1;
  return 1;
}

/* Runs task i; the finisher of the last wakes a sleeping caller. */
static void run_one(workers *p, size_t i) {
  p->task(p->ctx, i);
  if (atomic_fetch_add(&p->done, 1) + 1 == p->n && atomic_load(&p->waiting)) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_signal(&p->finished);
    pthread_mutex_unlock(&p->lock);
  }
}

/* Runs thread `self`'s share, then what is left of the others'. */
static void work(workers *p, size_t self) {
  size_t i;
  while (take_front(&p->shares[self], &i)) run_one(p, i);
  for (size_t k = 1; k < p->threads; k++) {
    share *other = &p->shares[(self + k) % p->threads];
    while (take_back(other, &i)) run_one(p, i);
  }
}

/* Enters job g unless it is over (closed, or another job is current). */
static int enter(workers *p, uint32_t g) {
  uint64_t d = atomic_load_explicit(&p->door, memory_order_acquire);
  do {
    if ((uint32_t)(d >> 32) != g || (d & DOOR_CLOSED)) return 0;
  } while (!atomic_compare_exchange_weak_explicit(&p->door, &d, d + 1, memory_order_acq_rel, memory_order_acquire));
  return 1;
}

static void *worker_main(void *arg) {
  slot *me = arg;
  workers *p = me->p;
  uint32_t seen = 0;
  for (;;) {
    if (!wait_awake(p, new_job, seen, WORKER_WAIT_NS)) {
      pthread_mutex_lock(&p->lock);
      atomic_fetch_add(&p->sleepers, 1);
      while (!new_job(p, seen)) pthread_cond_wait(&p->wake, &p->lock);
      atomic_fetch_sub(&p->sleepers, 1);
      pthread_mutex_unlock(&p->lock);
    }
    if (atomic_load(&p->stop)) return NULL;
    seen = atomic_load(&p->job);
    if (enter(p, seen)) {
      work(p, me->index);
      atomic_fetch_sub_explicit(&p->door, 1, memory_order_release);
    }
  }
}

size_t mx_workers_size(size_t threads) {
  return sizeof(workers) + threads * (sizeof(slot) + sizeof(share));
}

void mx_workers_run(void *state, minnx_task_fn task, void *ctx, size_t n) {
  workers *p = state;
  if (n > UINT32_MAX) { /* beyond the shares' counters (minnx cuts a node into at most MX_MAX_TASKS) */
    for (size_t i = 0; i < n; i++) task(ctx, i);
    return;
  }
  pthread_mutex_lock(&p->turn);
  p->task = task;
  p->ctx = ctx;
  p->n = n;
  for (size_t k = 0; k < p->threads; k++)
    atomic_store_explicit(&p->shares[k].span, (uint64_t)(n * (k + 1) / p->threads) << 32 | n * k / p->threads,
                          memory_order_relaxed);
  atomic_store_explicit(&p->done, 0, memory_order_relaxed);
  if (++p->jobs == 0) p->jobs = 1; /* 0 is no job, what a new worker has seen */
  atomic_store_explicit(&p->door, (uint64_t)p->jobs << 32, memory_order_release);
  atomic_store(&p->job, p->jobs);
  if (atomic_load(&p->sleepers)) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
  }
  work(p, 0);
  /* The last tasks may be running elsewhere: wait about a task's time, then sleep. */
  if (!wait_awake(p, all_done, 0, CALLER_WAIT_NS)) {
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->waiting, 1);
    while (atomic_load(&p->done) != n) pthread_cond_wait(&p->finished, &p->lock);
    atomic_store(&p->waiting, 0);
    pthread_mutex_unlock(&p->lock);
  }
  /* Close the door; a worker still inside has run out of tasks and leaves
   * within a few instructions (unless preempted right there: yield to it). */
  atomic_fetch_or_explicit(&p->door, DOOR_CLOSED, memory_order_acq_rel);
  for (unsigned k = 0; atomic_load_explicit(&p->door, memory_order_acquire) & DOOR_INSIDE; k++) {
    if (k < 1000) relax();
    else sched_yield();
  }
  pthread_mutex_unlock(&p->turn);
}

/* Stops and joins the first `started` workers; releases the locks. */
static void halt(workers *p, size_t started) {
  pthread_mutex_lock(&p->lock);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (size_t i = 1; i <= started; i++) pthread_join(p->slot[i].thread, NULL);
  pthread_cond_destroy(&p->finished);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->turn);
}

/* What a refused pthread call's error means: the numbers POSIX lists for
 * pthread_create, pthread_mutex_init and pthread_cond_init. */
static const char *error_meaning(int e) {
  switch (e) {
  case EAGAIN: return "EAGAIN (out of resources, or at the limit of threads)";
  case ENOMEM: return "ENOMEM (out of memory)";
  case EPERM: return "EPERM (not permitted)";
  case EINVAL: return "EINVAL (invalid attributes)";
  case EBUSY: return "EBUSY (already initialized)";
  default: return NULL;
  }
}

/* Fills why with what the system refused; -1. */
static int refused(char *why, size_t why_size, const char *what, int e) {
  const char *meaning = error_meaning(e);
  if (why && meaning) snprintf(why, why_size, "%s: %s", what, meaning);
  else if (why) snprintf(why, why_size, "%s: error %d", what, e);
  return -1;
}

int mx_workers_start(void *mem, size_t threads, char *why, size_t why_size) {
  workers *p = mem;
  p->task = NULL;
  p->ctx = NULL;
  p->n = 0;
  p->jobs = 0;
  atomic_init(&p->door, DOOR_CLOSED);
  atomic_init(&p->done, 0);
  atomic_init(&p->job, 0);
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->waiting, 0);
  atomic_init(&p->stop, 0);
  p->threads = threads > 1 ? threads : 1;
  p->shares = (share *)(void *)&p->slot[p->threads];
  for (size_t k = 0; k < p->threads; k++) {
    p->slot[k].p = p;
    p->slot[k].index = k;
    atomic_init(&p->shares[k].span, 0);
  }
  int e = pthread_mutex_init(&p->turn, NULL);
  if (e) return refused(why, why_size, "a mutex", e);
  if ((e = pthread_mutex_init(&p->lock, NULL))) {
    pthread_mutex_destroy(&p->turn);
    return refused(why, why_size, "a mutex", e);
  }
  if ((e = pthread_cond_init(&p->wake, NULL))) {
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->turn);
    return refused(why, why_size, "a condition variable", e);
  }
  if ((e = pthread_cond_init(&p->finished, NULL))) {
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->turn);
    return refused(why, why_size, "a condition variable", e);
  }
  for (size_t i = 1; i < p->threads; i++)
    if ((e = pthread_create(&p->slot[i].thread, NULL, worker_main, &p->slot[i]))) {
      halt(p, i - 1);
      char what[64];
      snprintf(what, sizeof what, "worker thread %zu of %zu", i, p->threads - 1);
      return refused(why, why_size, what, e);
    }
  return 0;
}

void mx_workers_stop(void *state) {
  workers *p = state;
  halt(p, p->threads - 1);
}
