/* Allocator hooks that count their calls, for tests that check when the
 * library allocates (use: .allocator = {count_alloc, count_free, NULL}). */
#ifndef MX_TEST_COUNTING_H
#define MX_TEST_COUNTING_H

#include <stddef.h>
#include <stdlib.h>

static long allocs, frees;

static void *count_alloc(void *user, size_t size) {
  (void)user;
  allocs++;
  return malloc(size);
}

static void count_free(void *user, void *p) {
  (void)user;
  frees++;
  free(p);
}

#endif
