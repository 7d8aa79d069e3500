/* Every allocation can fail (SQLite's discipline): for each model, the Nth
 * allocation through the hooks fails, for every N from the first to one past
 * the last; each attempt must end in MINNX_E_NOMEM with a message, leave
 * nothing allocated, and the attempt where nothing fails must succeed. So can
 * every thread, mutex and condition variable the default pool starts (with
 * MX_TEST_SYSFAIL, tests/unit/sysfail.h): the session's set call must then
 * end in MINNX_E_NOMEM naming what the system refused, leave nothing alive,
 * and the session keep running as before, outputs exact. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"
#ifdef MX_TEST_SYSFAIL
#include "sysfail.h"
#endif

typedef struct {
  long calls, fail_at, live;
  int failed; /* the injected failure happened */
} hooks_state;

static void *failing_alloc(void *user, size_t size) {
  hooks_state *h = user;
  if (h->calls++ == h->fail_at) {
    h->failed = 1;
    return NULL;
  }
  void *p = malloc(size);
  if (p) h->live++;
  return p;
}

static void counting_free(void *user, void *p) {
  hooks_state *h = user;
  if (p) h->live--;
  free(p);
}

/* One pipeline under test; returns the first failing status. */
typedef minnx_status (*pipeline)(const minnx_load_options *o, minnx_error *err);

static uint8_t *bytes;
static size_t size;
static char model_path[64];

static float in_a[2 * 3], in_b[2 * 3];
static size_t session_threads; /* > 1: each session starts its pool (minnx_session_set_threads) */

/* A session on m: bind every input as in_a/in_b of [2,3], run, read output 0. */
static minnx_status run_model(minnx_model *m, minnx_error *err) {
  minnx_session *s = NULL;
  minnx_status st = minnx_session_create(m, &s, err);
  if (!st && session_threads > 1) st = minnx_session_set_threads(s, session_threads, err);
  for (size_t i = 0; !st && i < minnx_model_input_count(m); i++) {
    minnx_tensor t = {MINNX_FLOAT, 2, {2, 3}, i ? in_b : in_a, sizeof in_a};
    st = minnx_session_bind_input(s, i, &t, err);
  }
  if (!st) st = minnx_session_run(s, err);
  minnx_tensor y;
  if (!st) st = minnx_session_output(s, 0, &y);
  if (!st && (y.data == NULL || y.nbytes == 0)) st = MINNX_E_ARG;
  minnx_session_free(s);
  return st;
}

/* Loads the model from `bytes` (or from model_path), then runs `sessions` sessions on it. */
static minnx_status load_and_run(const minnx_load_options *o, int from_path, int sessions, minnx_error *err) {
  minnx_model *m = NULL;
  minnx_status st = from_path ? minnx_model_load_file(model_path, o, &m, err)
                              : minnx_model_load_buffer(bytes, size, o, &m, err);
  for (int i = 0; !st && i < sessions; i++) st = run_model(m, err);
  minnx_model_free(m);
  return st;
}

static minnx_status from_buffer(const minnx_load_options *o, minnx_error *err) { return load_and_run(o, 0, 1, err); }
static minnx_status from_file(const minnx_load_options *o, minnx_error *err) { return load_and_run(o, 1, 1, err); }
static minnx_status two_sessions(const minnx_load_options *o, minnx_error *err) { return load_and_run(o, 0, 2, err); }

static minnx_status tensor_roundtrip(const minnx_load_options *o, minnx_error *err) {
  minnx_tensor t = {MINNX_FLOAT, 2, {2, 3}, in_a, sizeof in_a}, back;
  void *buf = NULL;
  size_t n = 0;
  char *name = NULL;
  minnx_status st = minnx_tensor_encode(&t, "x", &o->allocator, &buf, &n, err);
  if (!st) st = minnx_tensor_decode(buf, n, &o->allocator, &back, &name, err);
  if (!st) {
    CHECK(back.nbytes == sizeof in_a && memcmp(back.data, in_a, sizeof in_a) == 0 && strcmp(name, "x") == 0);
    minnx_tensor_free(&o->allocator, back.data);
    minnx_tensor_free(&o->allocator, name);
  }
  minnx_tensor_free(&o->allocator, buf);
  return st;
}

static minnx_status external_reader(void *user, const char *location, uint64_t offset, uint64_t length, void *dst,
                                    minnx_error *err) {
  (void)user, (void)location, (void)offset, (void)err;
  memset(dst, 0, length);
  return MINNX_OK;
}

/* Runs p with the Nth allocation failing, for every N. */
static void every_failure(const char *what, pipeline p, const minnx_load_options *base) {
  long attempts = 0;
  for (long n = 0;; n++) {
    hooks_state h = {0, n, 0, 0};
    minnx_load_options o = *base;
    o.allocator = (minnx_allocator){failing_alloc, counting_free, &h};
    minnx_error err = {MINNX_OK, ""};
    minnx_status st = p(&o, &err);
    attempts++;
    if (h.live != 0) fprintf(stderr, "%s: failing allocation %ld leaks %ld blocks\n", what, n, h.live);
    CHECK_EQ_INT(h.live, 0);
    if (!h.failed) { /* past the last allocation: the whole pipeline must work */
      if (st) fprintf(stderr, "%s: %s\n", what, err.message);
      CHECK_EQ_INT(st, MINNX_OK);
      CHECK(n > 0);
      break;
    }
    if (st != MINNX_E_NOMEM || !err.message[0])
      fprintf(stderr, "%s: failing allocation %ld of %ld gave status %d: '%s'\n", what, n, h.calls, st, err.message);
    CHECK_EQ_INT(st, MINNX_E_NOMEM);
    CHECK(err.message[0] != '\0');
  }
  printf("%s: %ld attempts\n", what, attempts);
}

/* Max(a, b) -> m; Max(m, w) with w an initializer (external when ext) -> y; ArgMax(y) -> i;
 * inputs [2,3], or ["N",3] when symbolic. */
typedef struct {
  int ext;
  Onnx__TensorProto w, *wp;
  int64_t dims[2];
  float data[6];
  Onnx__StringStringEntryProto e, *ep;
} init_spec;

static void add_w(Onnx__ModelProto *m, void *ctx) {
  init_spec *s = ctx;
  onnx__tensor_proto__init(&s->w);
  s->w.name = "w";
  s->w.has_data_type = 1;
  s->w.data_type = MINNX_FLOAT;
  s->dims[0] = 2, s->dims[1] = 3;
  s->w.n_dims = 2;
  s->w.dims = s->dims;
  if (s->ext) {
    s->w.has_data_location = 1;
    s->w.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    onnx__string_string_entry_proto__init(&s->e);
    s->e.key = "location";
    s->e.value = "w.bin";
    s->ep = &s->e;
    s->w.n_external_data = 1;
    s->w.external_data = &s->ep;
  } else {
    s->w.n_float_data = 6;
    s->w.float_data = s->data;
  }
  s->wp = &s->w;
  m->graph->n_initializer = 1;
  m->graph->initializer = &s->wp;
}

static void build(int symbolic, int ext) {
  test_model m = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                  .dtype = MINNX_FLOAT, .rank = 2, .dims = {symbolic ? -1 : 2, 3}, .n_nodes = 3, .output = "i"};
  m.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "m", NULL, 0};
  m.nodes[1] = (test_node){"Max", "", 2, {"m", "w"}, "y", NULL, 0};
  m.nodes[2] = (test_node){"ArgMax", "", 1, {"y"}, "i", "axis", 1};
  static init_spec w;
  memset(&w, 0, sizeof w);
  w.ext = ext;
  free(bytes);
  size = build_model_edit(&m, add_w, &w, &bytes);
}

#ifdef MX_TEST_SYSFAIL
/* Max of two float [256,256]: 256 KiB each, cut into tasks (from 128 KiB on). */
#define BIG 256
static float big_a[BIG * BIG], big_b[BIG * BIG], big_want[BIG * BIG];

/* A hook that runs the tasks inline and keeps the largest count it was given. */
static void count_tasks(void *most, minnx_task_fn task, void *ctx, size_t n) {
  if (n > *(size_t *)most) *(size_t *)most = n;
  for (size_t i = 0; i < n; i++) task(ctx, i);
}

/* Binds big_a and big_b, runs, and compares the output with big_want bit for bit. */
static void run_big(minnx_session *s, const char *what, long n) {
  minnx_error err = {MINNX_OK, ""};
  minnx_tensor a = {MINNX_FLOAT, 2, {BIG, BIG}, big_a, sizeof big_a}, b = a, y = {0};
  b.data = big_b;
  minnx_status st = minnx_session_bind_input(s, 0, &a, &err);
  if (!st) st = minnx_session_bind_input(s, 1, &b, &err);
  if (!st) st = minnx_session_run(s, &err);
  if (!st) st = minnx_session_output(s, 0, &y);
  if (st) fprintf(stderr, "%s, refusing start call %ld: the run failed: %s\n", what, n, err.message);
  CHECK_EQ_INT(st, MINNX_OK);
  CHECK(y.nbytes == sizeof big_want && y.data && memcmp(y.data, big_want, sizeof big_want) == 0);
}

/* Sets a session's threads to counts[0], counts[1]... in turn, with the
 * system refusing its Nth pthread start call, for every N from the first to
 * one past the last. */
static void every_start_failure(const char *what, const size_t *counts, int n_counts) {
  long calls = 0; /* start calls when none fails: per pool, 2 mutexes, 2 condition variables, its workers */
  for (int i = 0; i < n_counts; i++) calls += counts[i] > 1 ? 4 + (long)counts[i] - 1 : 0;
  long attempts = 0;
  for (long n = 0;; n++) {
    hooks_state h = {0, -1, 0, 0};
    minnx_load_options o = {.allocator = {failing_alloc, counting_free, &h}};
    minnx_error err = {MINNX_OK, ""};
    minnx_model *m = NULL;
    minnx_session *s = NULL;
    minnx_status st = minnx_model_load_buffer(bytes, size, &o, &m, &err);
    if (!st) st = minnx_session_create(m, &s, &err);
    CHECK_EQ_INT(st, MINNX_OK);
    if (st) {
      minnx_model_free(m);
      return;
    }
    sysfail_reset(n);
    size_t expect = 1; /* the threads the session must have */
    for (int i = 0; i < n_counts; i++) {
      int failed_before = sysfail.failed;
      err = (minnx_error){MINNX_OK, ""};
      st = minnx_session_set_threads(s, counts[i], &err);
      if (sysfail.failed && !failed_before) {
        if (st != MINNX_E_NOMEM || !strstr(err.message, "could not start") || !strstr(err.message, sysfail.what) ||
            !strstr(err.message, sysfail.error))
          fprintf(stderr, "%s, refusing start call %ld (%s, %s): status %d: '%s'\n", what, n, sysfail.what,
                  sysfail.error, st, err.message);
        CHECK_EQ_INT(st, MINNX_E_NOMEM);
        CHECK(strstr(err.message, "could not start") && strstr(err.message, sysfail.what) &&
              strstr(err.message, sysfail.error));
      } else {
        if (st) fprintf(stderr, "%s, refusing start call %ld: %s\n", what, n, err.message);
        CHECK_EQ_INT(st, MINNX_OK);
        expect = counts[i] > 1 ? counts[i] : 1;
      }
      /* the session has what it had before a refused call, and nothing of the new pool is left */
      CHECK_EQ_INT(minnx_session_threads(s), expect);
      CHECK_EQ_INT(sysfail.threads, (long)expect - 1);
      CHECK_EQ_INT(sysfail.mutexes, expect > 1 ? 2 : 0);
      CHECK_EQ_INT(sysfail.conds, expect > 1 ? 2 : 0);
    }
    run_big(s, what, n);
    minnx_session_free(s);
    minnx_model_free(m);
    attempts++;
    CHECK_EQ_INT(h.live, 0);
    CHECK_EQ_INT(sysfail.threads, 0);
    CHECK_EQ_INT(sysfail.mutexes, 0);
    CHECK_EQ_INT(sysfail.conds, 0);
    if (!sysfail.failed) { /* past the last start call: the wrappers saw every one */
      CHECK_EQ_INT(n, calls);
      CHECK_EQ_INT(sysfail.calls, calls);
      break;
    }
    if (n > calls) { /* more start calls than a pool makes */
      CHECK(n <= calls);
      break;
    }
  }
  printf("%s: %ld attempts\n", what, attempts);
}

/* Workers shared by two sessions (minnx_workers_create from the hooks), with
 * its one block refused, then each of its pthread start calls refused in turn:
 * an error naming what was refused, nothing left allocated or alive, and the
 * sessions running inline; once nothing is refused, both run in the pool. */
static void workers_failures(size_t threads) {
  long calls = 4 + (long)threads - 1;
  for (long n = -1; n <= calls; n++) { /* -1: the block refused */
    hooks_state h = {0, n < 0 ? 0 : -1, 0, 0};
    minnx_allocator a = {failing_alloc, counting_free, &h};
    minnx_error err = {MINNX_OK, ""};
    minnx_model *m = NULL;
    minnx_session *s[2] = {NULL, NULL};
    minnx_workers *w = (minnx_workers *)&h; /* must be set to NULL on failure */
    CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, &m, &err), MINNX_OK);
    for (int k = 0; k < 2 && m; k++) CHECK_EQ_INT(minnx_session_create(m, &s[k], &err), MINNX_OK);
    if (!s[0] || !s[1]) break;
    sysfail_reset(n < 0 ? -1 : n);
    minnx_status st = minnx_workers_create(threads, &a, &w, &err);
    int refused = n < 0 || n < calls;
    CHECK_EQ_INT(st, refused ? MINNX_E_NOMEM : MINNX_OK);
    if (refused) {
      CHECK(w == NULL);
      CHECK(strstr(err.message, n < 0 ? "out of memory" : sysfail.what) != NULL);
      if (n >= 0) CHECK(strstr(err.message, sysfail.error) != NULL);
      CHECK_EQ_INT(h.live, 0);
      CHECK_EQ_INT(sysfail.threads, 0);
      CHECK_EQ_INT(sysfail.mutexes, 0);
      CHECK_EQ_INT(sysfail.conds, 0);
    } else {
      CHECK_EQ_INT(sysfail.calls, calls);
      CHECK_EQ_INT(minnx_workers_threads(w), threads);
      CHECK_EQ_INT(sysfail.threads, (long)threads - 1);
    }
    for (int k = 0; k < 2; k++) {
      CHECK_EQ_INT(minnx_session_use_workers(s[k], w, &err), MINNX_OK);
      CHECK_EQ_INT(minnx_session_threads(s[k]), refused ? 1 : threads);
      run_big(s[k], "workers shared by two sessions", n);
      minnx_session_free(s[k]);
    }
    minnx_workers_free(w);
    minnx_model_free(m);
    CHECK_EQ_INT(h.live, 0);
    CHECK_EQ_INT(sysfail.threads, 0);
    CHECK_EQ_INT(sysfail.mutexes, 0);
    CHECK_EQ_INT(sysfail.conds, 0);
  }
}

static void thread_start_failures(void) {
  for (int i = 0; i < BIG * BIG; i++) { /* ties and infinities (no NaN, no signed zeros: one answer each) */
    big_a[i] = (float)(i % 97) - 48.0f;
    big_b[i] = (float)(i % 89) - 44.0f;
    if (i % 1001 == 0) big_b[i] = i % 2 ? INFINITY : -INFINITY;
    big_want[i] = big_a[i] > big_b[i] ? big_a[i] : big_b[i];
  }
  test_model mx = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                   .dtype = MINNX_FLOAT, .rank = 2, .dims = {BIG, BIG}, .n_nodes = 1, .output = "y"};
  mx.nodes[0] = (test_node){"Max", "", 2, {"a", "b"}, "y", NULL, 0};
  free(bytes);
  size = build_model(&mx, &bytes);

  /* the node really is cut into tasks, which the pool then runs */
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  size_t most = 0;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, &m, NULL), MINNX_OK);
  if (m) CHECK_EQ_INT(minnx_session_create(m, &s, NULL), MINNX_OK);
  if (s) {
    CHECK_EQ_INT(minnx_session_set_parallel(s, count_tasks, &most, 4, NULL), MINNX_OK);
    run_big(s, "Max [256,256] through a counting hook", -1);
    CHECK(most > 1);
  }
  minnx_session_free(s);
  minnx_model_free(m);

  every_start_failure("a pool of 2 threads", (const size_t[]){2}, 1);
  every_start_failure("a pool of 3 threads", (const size_t[]){3}, 1);
  every_start_failure("a pool of 4 threads", (const size_t[]){4}, 1);
  /* a pool of 4 refused while one of 2 runs: the pool of 2 keeps running */
  every_start_failure("a pool of 2 threads, then one of 4", (const size_t[]){2, 4}, 2);
  every_start_failure("a pool of 3 threads, then 1 thread, then 2", (const size_t[]){3, 1, 2}, 3);
  workers_failures(2);
  workers_failures(3);
}
#endif

int main(void) {
  for (int i = 0; i < 6; i++) in_a[i] = (float)i, in_b[i] = (float)(5 - i);
  minnx_load_options plain = {0}, with_reader = {.read_external = external_reader};

  build(0, 0);
  every_failure("static shapes", from_buffer, &plain);
  every_failure("two sessions", two_sessions, &plain);
#ifdef MX_TEST_THREADS
  session_threads = 3; /* the pool's bookkeeping comes from the hooks */
  every_failure("two sessions with 3 threads each", two_sessions, &plain);
  session_threads = 1;
#endif
  build(1, 0);
  every_failure("symbolic dim, planned at run", from_buffer, &plain);
  build(0, 1);
  every_failure("external data through read_external", from_buffer, &with_reader);

  /* a file load, its external data read from the folder */
  char dir[] = "/tmp/minnx-allocfail-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  snprintf(model_path, sizeof model_path, "%s/model.onnx", dir);
  char data_path[64];
  snprintf(data_path, sizeof data_path, "%s/w.bin", dir);
  FILE *f = fopen(model_path, "wb");
  if (f) fwrite(bytes, 1, size, f), fclose(f);
  f = fopen(data_path, "wb");
  if (f) fwrite(in_a, 1, sizeof in_a, f), fclose(f);
  every_failure("file with external data", from_file, &plain);
  remove(model_path);
  remove(data_path);
  rmdir(dir);

  /* Maximum-1 with its string attribute */
  test_model mx = {.n_opsets = 1, .opset_domain = {"org.openvinotoolkit"}, .opset_version = {1}, .n_inputs = 2,
                   .inputs = {"a", "b"}, .dtype = MINNX_FLOAT, .rank = 2, .dims = {2, 3}, .n_nodes = 1, .output = "y"};
  mx.nodes[0] = (test_node){"Maximum", "org.openvinotoolkit", 2, {"a", "b"}, "y", NULL, 0};
  free(bytes);
  size = build_model(&mx, &bytes);
  every_failure("Maximum-1", from_buffer, &plain);

  every_failure("TensorProto encode and decode", tensor_roundtrip, &plain);
#ifdef MX_TEST_SYSFAIL
  thread_start_failures();
#endif
  free(bytes);
  return check_report("test_allocfail");
}
