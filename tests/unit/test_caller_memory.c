/* Every case given on the command line (a folder holding model.onnx and
 * test_data_set_*) run with all memory from the caller and the C library's
 * malloc made to fail:
 *   - the model's size comes from minnx_model_memory_needed, a session's from
 *     minnx_session_memory_needed (with malloc working: a host's job);
 *   - then malloc fails and counts its calls. One byte less than reported must
 *     be refused cleanly (MINNX_E_NOMEM, no model or session); the exact size
 *     must load, run and give the expected outputs bit for bit (within
 *     ONNX's tolerance for a model with an inexact node; NaN matches NaN, -0
 *     matches +0), or the expected error for a refused case;
 *   - malloc must not have been called at all.
 * Files are read and decoded before malloc is stopped. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "files.h"
#include "minnx.h"
#include "test_case.h"

/* ---- malloc that fails on demand ---- */

static volatile int malloc_blocked;
static volatile long malloc_calls;

#ifdef MX_TEST_WRAP_MALLOC
/* Sanitizer builds own malloc: there the references linked into this binary
 * (minnx's included) are redirected with -Wl,--wrap. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
#define REAL(f) __real_##f
#define HOOK(f) __wrap_##f
#else
/* Elsewhere the C library's own malloc is replaced for the whole process. */
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *malloc(size_t n);
void *calloc(size_t n, size_t m);
void *realloc(void *p, size_t n);
void free(void *p);
void free(void *p) { __libc_free(p); }
#define REAL(f) __libc_##f
#define HOOK(f) f
#endif

void *HOOK(malloc)(size_t n) {
  if (malloc_blocked) return malloc_calls++, NULL;
  return REAL(malloc)(n);
}
void *HOOK(calloc)(size_t n, size_t m) {
  if (malloc_blocked) return malloc_calls++, NULL;
  return REAL(calloc)(n, m);
}
void *HOOK(realloc)(void *p, size_t n) {
  if (malloc_blocked) return malloc_calls++, NULL;
  return REAL(realloc)(p, n);
}

static void block_malloc(void) {
  malloc_calls = 0;
  malloc_blocked = 1;
}
static long unblock_malloc(void) {
  malloc_blocked = 0;
  return malloc_calls;
}

/* ---- the memory: one static buffer, as firmware would have ---- */

#define MEM_SIZE (64u << 20)
static _Alignas(MINNX_REGION_ALIGN) unsigned char mem[MEM_SIZE];

static size_t align_up(size_t v) { return (v + MINNX_REGION_ALIGN - 1) & ~(size_t)(MINNX_REGION_ALIGN - 1); }

/* ---- a case's files ---- */

static int read_tensor(const char *dir, const char *prefix, int i, minnx_tensor *t, char **name) {
  char file[64];
  snprintf(file, sizeof file, "%s_%d.pb", prefix, i);
  char *path = path_join(dir, file);
  unsigned char *bytes = NULL;
  size_t size = 0;
  int found = path && is_file(path) && read_file(path, &bytes, &size) == 0;
  free(path);
  if (!found) return 0;
  minnx_error err;
  int ok = minnx_tensor_decode(bytes, size, NULL, t, name, &err) == MINNX_OK;
  free(bytes);
  return ok ? 1 : -1;
}

/* 1 read, 0 broken (why says) */
static int read_case(const char *dir, test_case *c, char *why, size_t wn) {
  memset(c, 0, sizeof *c);
  char *path = path_join(dir, "model.onnx");
  int e = path ? read_file(path, &c->model, &c->model_size) : 1;
  free(path);
  if (e) return snprintf(why, wn, "cannot read model.onnx"), 0;
  read_expectation(dir, c->stage, sizeof c->stage, c->word, sizeof c->word);
  size_t count = 0;
  char **names = list_dir(dir, &count);
  for (size_t i = 0; names && i < count; i++) {
    if (strncmp(names[i], "test_data_set_", 14) != 0) continue;
    if (c->n_sets == MAX_SETS) return snprintf(why, wn, "too many data sets"), free_list(names, count), 0;
    char *sd = path_join(dir, names[i]);
    data_set *d = &c->sets[c->n_sets++];
    int r;
    while (d->n_in < MAX_TENSORS && (r = read_tensor(sd, "input", d->n_in, &d->in[d->n_in], &d->in_name[d->n_in])) == 1)
      d->n_in++;
    while (d->n_out < MAX_TENSORS && (r = read_tensor(sd, "output", d->n_out, &d->out[d->n_out], NULL)) == 1) d->n_out++;
    free(sd);
  }
  free_list(names, count);
  if (!c->n_sets && !c->stage[0]) return snprintf(why, wn, "no data set"), 0;
  return 1;
}

/* ---- one case, malloc blocked ---- */

/* Some shape is not known at load (symbolic dims, or a shape given by an
 * input's bytes, as Reshape's shape input): the arena waits for the inputs. */
static int symbolic(const minnx_model *m) {
  for (size_t i = 0; i < minnx_model_value_count(m); i++) {
    minnx_tensor t;
    minnx_model_value_info(m, i, NULL, &t);
    if (t.rank < 0) return 1;
    for (int d = 0; d < t.rank; d++)
      if (t.dims[d] < 0) return 1;
  }
  return 0;
}

/* 1 pass, 0 fail (why says). An error is expected or not as the case says. */
/* For a model with symbolic dims, the exact session bytes for each data set's
 * shapes (minnx_session_memory_needed_for, with malloc working: a host's job);
 * 0 where it cannot say (a set the run must refuse). */
static void needs_for_sets(const test_case *c, size_t need[MAX_SETS]) {
  minnx_model *m;
  minnx_error err;
  for (int si = 0; si < MAX_SETS; si++) need[si] = 0;
  if (minnx_model_load_buffer(c->model, c->model_size, NULL, &m, &err)) return;
  size_t n = minnx_model_input_count(m);
  for (int si = 0; si < c->n_sets && symbolic(m); si++) {
    const data_set *d = &c->sets[si];
    minnx_tensor in[MAX_TENSORS];
    int ok = n <= MAX_TENSORS && (size_t)d->n_in == n;
    for (int k = 0; k < d->n_in && ok; k++) { /* in the model's order: a named tensor goes where its name is */
      size_t at = (size_t)k;
      for (size_t j = 0; d->in_name[k] && j < n; j++)
        if (strcmp(minnx_model_input_name(m, j), d->in_name[k]) == 0) at = j;
      in[at] = d->in[k];
    }
    if (ok && minnx_session_memory_needed_for(m, in, n, &need[si], &err)) need[si] = 0;
  }
  minnx_model_free(m);
}

static int run_blocked(const test_case *c, size_t needed, const size_t need_for[MAX_SETS], char *why, size_t wn) {
  minnx_error err = {0};
  minnx_model *m = (minnx_model *)&err; /* must be reset to NULL on failure */
  int expect_load = strcmp(c->stage, "load") == 0, expect_run = strcmp(c->stage, "run") == 0;
  if (expect_load) {
    minnx_status st = minnx_model_load_in(c->model, c->model_size, mem, MEM_SIZE, NULL, &m, &err);
    if (st == MINNX_OK || m) return snprintf(why, wn, "loaded, but must be refused"), 0;
    if (!contains_ci(err.message, c->word)) return snprintf(why, wn, "refused without '%s': %s", c->word, err.message), 0;
    return 1;
  }
  /* a load into more memory than it needs tells the size exactly (minnx info's way) */
  if (minnx_model_load_in(c->model, c->model_size, mem, MEM_SIZE, NULL, &m, &err))
    return snprintf(why, wn, "load in %d bytes: %s", (int)MEM_SIZE, err.message), 0;
  if (minnx_model_memory_peak(m) != needed)
    return snprintf(why, wn, "peak %zu of a load into %d bytes, needed %zu", minnx_model_memory_peak(m), (int)MEM_SIZE,
                    needed), 0;
  /* one byte short: refused, and no model */
  if (minnx_model_load_in(c->model, c->model_size, mem, needed - 1, NULL, &m, &err) != MINNX_E_NOMEM || m)
    return snprintf(why, wn, "a region of %zu bytes, one short, was not refused", needed - 1), 0;
  memset(mem, 0xA5, needed); /* no state may survive from the failed load */
  if (minnx_model_load_in(c->model, c->model_size, mem, needed, NULL, &m, &err))
    return snprintf(why, wn, "load in %zu bytes: %s", needed, err.message), 0;
  size_t used = minnx_model_memory_used(m);
  if (minnx_model_memory_peak(m) != needed)
    return snprintf(why, wn, "peak %zu of a load into %zu bytes", minnx_model_memory_peak(m), needed), 0;
  if (used == 0 || used > needed || used % MINNX_REGION_ALIGN)
    return snprintf(why, wn, "memory used %zu of %zu", used, needed), 0;
  /* the session goes where the load's temporaries were */
  unsigned char *smem = mem + used;
  size_t sneed = minnx_session_memory_needed(m), avail = MEM_SIZE - used;
  if (sneed == 0 || sneed > avail) return snprintf(why, wn, "session needs %zu bytes", sneed), 0;
  int exact = !symbolic(m); /* symbolic dims: the arena is not known before binding */
  size_t ssize = exact ? sneed : avail;
  for (int si = 0; si < c->n_sets; si++) {
    const data_set *d = &c->sets[si];
    minnx_session *s = (minnx_session *)&err;
    if (exact && (minnx_session_create_in(m, smem, sneed - 1, &s, &err) != MINNX_E_NOMEM || s))
      return snprintf(why, wn, "a session region of %zu bytes, one short, was not refused", sneed - 1), 0;
    if (!exact && need_for[si]) { /* the bytes for these shapes: exact too, refused one short at the run that plans */
      ssize = need_for[si];
      if (ssize > avail) return snprintf(why, wn, "session needs %zu bytes for set %d", ssize, si), 0;
      minnx_status st = minnx_session_create_in(m, smem, ssize - 1, &s, &err);
      for (int k = 0; k < d->n_in && !st; k++)
        st = d->in_name[k] ? minnx_session_bind_input_name(s, d->in_name[k], &d->in[k], &err)
                           : minnx_session_bind_input(s, (size_t)k, &d->in[k], &err);
      if (!st) st = minnx_session_run(s, &err);
      if (st != MINNX_E_NOMEM)
        return snprintf(why, wn, "a session region of %zu bytes for set %d, one short, was not refused (%s)", ssize - 1,
                        si, st ? err.message : "it ran"), 0;
    } else if (!exact) {
      ssize = avail;
    }
    if (minnx_session_create_in(m, smem, ssize, &s, &err)) {
      if (expect_run && contains_ci(err.message, c->word)) return 1;
      return snprintf(why, wn, "session in %zu bytes: %s", ssize, err.message), 0;
    }
    minnx_status st = MINNX_OK;
    for (int k = 0; k < d->n_in && !st; k++)
      st = d->in_name[k] ? minnx_session_bind_input_name(s, d->in_name[k], &d->in[k], &err)
                         : minnx_session_bind_input(s, (size_t)k, &d->in[k], &err);
    if (!st) st = minnx_session_run(s, &err);
    if (st) {
      if (expect_run && contains_ci(err.message, c->word)) return 1;
      return snprintf(why, wn, "run: %s", err.message), 0;
    }
    if (expect_run) return snprintf(why, wn, "ran, but must be refused"), 0;
    if ((size_t)d->n_out != minnx_model_output_count(m)) return snprintf(why, wn, "output count"), 0;
    for (int k = 0; k < d->n_out; k++) {
      minnx_tensor got;
      char detail[128];
      minnx_session_output(s, (size_t)k, &got);
      compare_errors e = {0, 0, 0}; /* as minnx test compares: an inexact node's model within the tolerance */
      int match = minnx_model_exact(m) ? same_tensor(&d->out[k], &got, detail, sizeof detail)
                                       : close_tensor(&d->out[k], &got, COMPARE_RTOL, COMPARE_ATOL, &e, detail,
                                                      sizeof detail);
      if (!match) return snprintf(why, wn, "output %d: %s", k, detail), 0;
    }
    minnx_session_free(s); /* a no-op in caller memory */
  }
  minnx_model_free(m);
  return 1;
}

static const char *base_name(const char *path) {
  const char *p = strrchr(path, '/');
  return p && p[1] ? p + 1 : path;
}

int main(int argc, char **argv) {
  /* The failing malloc is really in use: a call while blocked returns NULL and is counted. */
  void *(*volatile mal)(size_t) = malloc;
  block_malloc();
  void *probe = mal(16);
  if (probe || unblock_malloc() != 1) {
    fprintf(stderr, "the failing malloc is not in effect\n");
    return 1;
  }
  int passed = 0, failed = 0;
  size_t largest = 0;
  for (int i = 1; i < argc; i++) {
    const char *name = base_name(argv[i]);
    char why[512] = "";
    test_case c;
    size_t needed = 0;
    int ok = read_case(argv[i], &c, why, sizeof why);
    if (ok && strcmp(c.stage, "load") != 0) {
      minnx_error err;
      if (minnx_model_memory_needed(c.model, c.model_size, NULL, &needed, &err)) {
        ok = 0;
        snprintf(why, sizeof why, "memory needed: %s", err.message);
      } else if (needed % 16 || needed > MEM_SIZE / 2) {
        ok = 0;
        snprintf(why, sizeof why, "memory needed: %zu bytes", needed);
      }
    }
    size_t need_for[MAX_SETS] = {0};
    if (ok && strcmp(c.stage, "load") != 0) needs_for_sets(&c, need_for);
    if (ok) {
      block_malloc();
      ok = run_blocked(&c, needed, need_for, why, sizeof why);
      long calls = unblock_malloc();
      if (ok && calls) ok = 0, snprintf(why, sizeof why, "malloc was called %ld times", calls);
    }
    if (ok) passed++;
    else failed++, printf("FAIL %s: %s\n", name, why);
    if (align_up(needed) > largest) largest = align_up(needed);
    free_test_case(&c);
  }
  printf("largest model region: %zu bytes\n", largest);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0 || passed == 0;
}
