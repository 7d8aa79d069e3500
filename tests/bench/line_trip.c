/* How long one cache line takes to go from one CPU to another and back: a
 * thread pinned to each of two CPUs, each waiting for the other's write to
 * a shared flag before writing its own, many times over. The time of a
 * round trip tells whether two threads of a session share their data
 * cheaply (about 100 ns: cores that share a cache) or not (several hundred:
 * cores far apart, or a host that has moved them so). README, "The fourth
 * run of 2026-12-07", tags its 2-thread timings by it. Linux only.
 *   cc -O2 -pthread tests/bench/line_trip.c -o line_trip && ./line_trip [CPU_A CPU_B [TRIPS]]
 * Output: `round trip <ns> ns`, the mean over TRIPS (200000). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) _Atomic int flag;
static _Alignas(64) _Atomic int ready; /* the answering thread: 1 pinned, -1 not */
static long trips = 200000;

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *answer(void *arg) {
  if (pin(*(int *)arg)) {
    atomic_store(&ready, -1);
    return NULL;
  }
  atomic_store(&ready, 1);
  for (long i = 0; i < trips; i++) {
    while (atomic_load_explicit(&flag, memory_order_acquire) != 1) {
    }
    atomic_store_explicit(&flag, 0, memory_order_release);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int a = argc > 2 ? atoi(argv[1]) : 0, b = argc > 2 ? atoi(argv[2]) : 1;
  if (argc > 3) trips = atol(argv[3]);
  if (argc == 2 || trips < 1) {
    fprintf(stderr, "usage: line_trip [CPU_A CPU_B [TRIPS]]\n");
    return 2;
  }
  if (pin(a)) {
    fprintf(stderr, "line_trip: cannot run on CPU %d\n", a);
    return 1;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, answer, &b)) {
    fprintf(stderr, "line_trip: cannot start a thread\n");
    return 1;
  }
  while (!atomic_load(&ready)) {
  }
  if (atomic_load(&ready) < 0) {
    pthread_join(t, NULL);
    fprintf(stderr, "line_trip: cannot run on CPU %d\n", b);
    return 1;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < trips; i++) {
    atomic_store_explicit(&flag, 1, memory_order_release);
    while (atomic_load_explicit(&flag, memory_order_acquire) != 0) {
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_join(t, NULL);
  printf("round trip %.1f ns\n", ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)trips);
  return 0;
}
