/* What every fuzz target does with a model that loaded: introspect it, make
 * a session, bind inputs synthesized from the declared dtypes and shapes
 * (unknown dims get one size per run, so the second run plans again), run,
 * and check what the API promises. A broken promise aborts, which libFuzzer
 * reports as a crash. */
#ifndef MINNX_FUZZ_EXERCISE_H
#define MINNX_FUZZ_EXERCISE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "minnx.h"

#define FUZZ_MAX_MEMORY ((size_t)64 << 20) /* max_memory for every fuzzed model */
#define FUZZ_MAX_ELEMENTS 4096             /* per synthesized input */
/* A session whose arena is larger is bound but not run: memory does not bound
 * a run's work (a cubic Resize of 4 axes to 9.2M floats, 37 MB, reads 256
 * inputs an output: 2.4 s in a release build, 158 s for the two runs under
 * ASan and UBSan, past libFuzzer's 25 s). 4 MiB of floats at 256 reads each is
 * some 17 s there for the two runs. The arena counted is the one planned at
 * creation or, when a dim is symbolic, the one the bound shapes need. */
#define FUZZ_MAX_RUN_ARENA ((size_t)4 << 20)

/* A failed call must say why: a known status and a message. */
static inline void fuzz_check_error(minnx_status st, const minnx_error *err) {
  if (st == MINNX_OK) return;
  if (st != err->status || st < MINNX_E_ARG || st > MINNX_E_FEATURE || !err->message[0] ||
      !memchr(err->message, '\0', sizeof err->message))
    abort();
}

static inline int64_t fuzz_elements(const minnx_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] < 0) abort();
    if (t->dims[i] == 0) return 0; /* a 0 dim empties the tensor, whatever the others (as minnx counts) */
  }
  for (int i = 0; i < t->rank; i++) {
    if (n > INT64_MAX / t->dims[i]) return -1;
    n *= t->dims[i];
  }
  return n;
}

/* Values that reach the interesting branches of every dtype: NaN and
 * infinity patterns, zeros of both signs, extremes. */
static inline void fuzz_fill(void *data, size_t nbytes, uint32_t seed) {
  static const uint8_t special[] = {0x00, 0x80, 0xff, 0x7f, 0x7c, 0x7e, 0xc0, 0x01};
  uint8_t *p = data;
  for (size_t i = 0; i < nbytes; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (seed >> 16) & 1 ? special[(seed >> 20) & 7] : (uint8_t)(seed >> 24);
  }
}

/* Binds every input with unknown dims set to `unknown`, each tensor also kept
 * in ts; 0 when one is too big. */
static inline int fuzz_bind(minnx_session *s, const minnx_model *m, int64_t unknown, void **bufs, minnx_tensor *ts) {
  for (size_t i = 0; i < minnx_model_input_count(m); i++) {
    minnx_tensor t;
    if (minnx_model_input_info(m, i, &t) != MINNX_OK) abort();
    if (t.rank < 0) t.rank = 1, t.dims[0] = -1; /* rank not declared */
    for (int d = 0; d < t.rank; d++)
      if (t.dims[d] < 0) t.dims[d] = unknown;
    int64_t n = fuzz_elements(&t);
    size_t es = minnx_dtype_size(t.dtype);
    if (n < 0 || n > FUZZ_MAX_ELEMENTS || es == 0) return 0;
    t.nbytes = (size_t)n * es;
    t.data = bufs[i] = malloc(t.nbytes ? t.nbytes : 1);
    if (!t.data) return 0;
    fuzz_fill(t.data, t.nbytes, (uint32_t)(i * 7919 + (size_t)unknown));
    ts[i] = t;
    minnx_error err;
    minnx_status st = minnx_session_bind_input(s, i, &t, &err);
    fuzz_check_error(st, &err);
    if (st) return 0;
  }
  return 1;
}

static inline void fuzz_check_outputs(const minnx_session *s, const minnx_model *m) {
  for (size_t k = 0; k < minnx_model_output_count(m); k++) {
    minnx_tensor y;
    if (minnx_session_output(s, k, &y) != MINNX_OK) abort();
    int64_t n = fuzz_elements(&y);
    if (n < 0 || (size_t)n * minnx_dtype_size(y.dtype) != y.nbytes || (y.nbytes && !y.data)) abort();
    /* touch the last byte and one in every 64: a wrong size shows under ASan
     * (every byte, through the coverage counters, took seconds on outputs of
     * tens of MB, the harness's own time counted in libFuzzer's timeout) */
    volatile uint8_t sink = 0;
    for (size_t b = 0; b < y.nbytes; b += 64) sink ^= ((const uint8_t *)y.data)[b];
    if (y.nbytes) sink ^= ((const uint8_t *)y.data)[y.nbytes - 1];
    (void)sink;
  }
}

/* For a session planned at its run: whether the arena for the shapes in ts,
 * bounded by the whole they need less what creation took, is small enough to
 * run (an error here is the run's to report). */
static inline int fuzz_bound_arena_ok(const minnx_model *m, const minnx_tensor *ts, size_t n) {
  size_t whole = 0;
  minnx_error err;
  return minnx_session_memory_needed_for(m, ts, n, &whole, &err) ||
         whole <= minnx_session_memory_needed(m) + FUZZ_MAX_RUN_ARENA;
}

static inline void fuzz_exercise(const minnx_model *m) {
  for (size_t i = 0; i < minnx_model_node_count(m); i++) {
    const char *name, *op, *domain;
    int since;
    if (minnx_model_node_info(m, i, &name, &op, &domain, &since) || !name || !op || !domain || since < 1) abort();
  }
  for (size_t i = 0; i < minnx_model_value_count(m); i++) {
    const char *name;
    minnx_tensor t;
    if (minnx_model_value_info(m, i, &name, &t) || !name) abort();
  }
  minnx_session *s;
  minnx_error err;
  minnx_status st = minnx_session_create(m, &s, &err);
  fuzz_check_error(st, &err);
  if (st) return;
  size_t n_in = minnx_model_input_count(m);
  void **bufs = calloc(n_in ? n_in : 1, sizeof *bufs);
  minnx_tensor *ts = calloc(n_in ? n_in : 1, sizeof *ts);
  static const int64_t unknown[2] = {2, 3};
  int planned = minnx_session_planned(s);
  int runs = !planned || minnx_session_arena_size(s) <= FUZZ_MAX_RUN_ARENA;
  for (int r = 0; bufs && ts && r < 2; r++) {
    if (fuzz_bind(s, m, unknown[r], bufs, ts) && runs && (planned || fuzz_bound_arena_ok(m, ts, n_in))) {
      st = minnx_session_run(s, &err);
      fuzz_check_error(st, &err);
      if (!st) fuzz_check_outputs(s, m);
    }
    for (size_t i = 0; i < n_in; i++) free(bufs[i]), bufs[i] = NULL;
  }
  free(ts);
  free(bufs);
  minnx_session_free(s);
}

/* Stands in for a file system: the bytes depend only on where they are. */
static inline minnx_status fuzz_read_external(void *user, const char *location, uint64_t offset, uint64_t length, void *dst,
                                       minnx_error *err) {
  (void)user, (void)err;
  fuzz_fill(dst, (size_t)length, (uint32_t)(offset + strlen(location)));
  return MINNX_OK;
}

/* Loads bytes with the fuzzing options and exercises what loads. */
static inline minnx_status fuzz_model_bytes(const uint8_t *data, size_t size) {
  minnx_load_options o = {.read_external = fuzz_read_external, .max_memory = FUZZ_MAX_MEMORY};
  minnx_model *m = NULL;
  minnx_error err;
  minnx_status st = minnx_model_load_buffer(data, size, &o, &m, &err);
  fuzz_check_error(st, &err);
  if ((st == MINNX_OK) != (m != NULL)) abort();
  if (m) fuzz_exercise(m);
  minnx_model_free(m);
  return st;
}

#endif
