/* A minimal test harness: CHECK records failures; main returns the verdict. */
#ifndef MINNX_TEST_CHECK_H
#define MINNX_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures, check_count;
static long check_cases, check_cases_run;

/* Whether the next case of a test of many runs. Under valgrind (ctest's
 * MINNX_WRAPPER names it: CI's memcheck stage, 20-100x slower) one case in
 * `every`, chosen by a hash of the case's number, so that the cases a list
 * repeats per dtype or instruction-set level are not always the same ones
 * left out; otherwise (qemu-user's aarch64 run included) every case.
 * check_report counts both. */
static inline int check_sample(unsigned every) {
  static int wrapped = -1;
  if (wrapped < 0) {
    const char *w = getenv("MINNX_WRAPPER");
    wrapped = w && strstr(w, "valgrind");
  }
  uint64_t h = (uint64_t)check_cases++ * 0x9e3779b97f4a7c15ull;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  int run = !wrapped || every < 2 || h % every == 0;
  check_cases_run += run;
  return run;
}

#define CHECK(cond)                                                          \
  do {                                                                       \
    check_count++;                                                           \
    if (!(cond)) {                                                           \
      check_failures++;                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                        \
  do {                                                                                            \
    long long va_ = (long long)(a), vb_ = (long long)(b);                                         \
    check_count++;                                                                                \
    if (va_ != vb_) {                                                                             \
      check_failures++;                                                                           \
      fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, va_, vb_);    \
    }                                                                                             \
  } while (0)

static int check_report(const char *name) {
  if (check_cases_run < check_cases)
    printf("%s: sampled under valgrind: %ld of %ld cases run\n", name, check_cases_run, check_cases);
  printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
  return check_failures != 0 || check_count == 0;
}

#endif
