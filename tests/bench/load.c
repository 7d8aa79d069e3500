/* Loads a model file once with minnx_model_load_file and prints the time the
 * load took and the process's peak resident memory: the weights-in-place
 * benchmark's program (tests/bench/in_place.py).
 *   usage: bench_load MODEL [--in-place] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "minnx.h"

/* The process's peak resident memory in KiB (Linux's VmHWM), -1 if unknown.
 * Not getrusage's ru_maxrss: that keeps the peak of the process before exec
 * (the Python script that wrote the model). */
static long peak_rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
  if (f) fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--in-place") != 0)) {
    fprintf(stderr, "usage: bench_load MODEL [--in-place]\n");
    return 2;
  }
  minnx_load_options options = {.weights_in_place = argc == 3};
  struct timespec t0, t1;
  minnx_model *m;
  minnx_error err;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  minnx_status st = minnx_model_load_file(argv[1], &options, &m, &err);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (st) {
    fprintf(stderr, "bench_load: %s\n", err.message);
    return 2;
  }
  double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("load_ms=%.3f peak_rss_kib=%ld model_bytes=%zu\n", ms, peak_rss_kib(), minnx_model_memory_used(m));
  minnx_model_free(m);
  return 0;
}
