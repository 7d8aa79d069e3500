/* One ONNX test case held in memory (model bytes, data sets, expected
 * refusal), as the tests that run cases outside the CLI read it: the
 * caller-memory test from files, the Cortex-M4 firmware over semihosting.
 * Each reads it its own way; the layout and its release are shared. */
#ifndef MINNX_TOOLS_TEST_CASE_H
#define MINNX_TOOLS_TEST_CASE_H

#include <stddef.h>
#include <stdlib.h>

#include "minnx.h"

#define MAX_TENSORS 16
#define MAX_SETS 4

typedef struct {
  int n_in, n_out;
  minnx_tensor in[MAX_TENSORS], out[MAX_TENSORS];
  char *in_name[MAX_TENSORS]; /* from minnx_tensor_decode, malloc'd */
} data_set;

typedef struct {
  unsigned char *model; /* malloc'd */
  size_t model_size;
  int n_sets;
  data_set sets[MAX_SETS];
  int expect_error;
  char stage[16], word[64]; /* expect_error: "load" or "run", and a word of the message */
} test_case;

/* Frees what reading the case allocated (tensors decoded with the default allocator). */
static inline void free_test_case(test_case *c) {
  free(c->model);
  for (int s = 0; s < c->n_sets; s++) {
    data_set *d = &c->sets[s];
    for (int k = 0; k < d->n_in; k++) minnx_tensor_free(NULL, d->in[k].data), minnx_tensor_free(NULL, d->in_name[k]);
    for (int k = 0; k < d->n_out; k++) minnx_tensor_free(NULL, d->out[k].data);
  }
}

#endif
