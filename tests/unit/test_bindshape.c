/* Shapes known at bind (README, "Shapes known at bind"), through the C API,
 * over the own cases bindshape_* (onnx_backend_data/gen_bindshape.py, whose
 * expected outputs are numpy's):
 * - the data sets of a case (batches 1, 2 and 7) run in ONE session, in turn
 *   and back again, each matching bit for bit;
 * - a run with the input shapes of the last plans nothing, computes nothing
 *   at bind again and allocates nothing (counting hooks and
 *   minnx_session_plan_count); a run with new shapes plans once;
 * - minnx_session_memory_needed_for is exact: a session in caller memory of
 *   that size runs, one byte less is refused with MINNX_E_NOMEM (at the
 *   run that plans, every time);
 * - minnx_model_value_known tells the values computed at bind;
 * - a batch for which a Reshape is impossible fails the run with
 *   MINNX_E_SHAPE naming the node, and the session runs the next batch.
 *   usage: test_bindshape OWN_CASES_DIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "counting.h"
#include "files.h"
#include "minnx.h"

#define MAX_SETS 3

typedef struct {
  unsigned char *model;
  size_t size;
  int n_sets, n_out;
  minnx_tensor in[MAX_SETS], out[MAX_SETS][3];
} bcase;

static minnx_tensor read_tensor(const char *dir, int set, const char *kind, int k) {
  char path[1100];
  snprintf(path, sizeof path, "%s/test_data_set_%d/%s_%d.pb", dir, set, kind, k);
  unsigned char *bytes = NULL;
  size_t size = 0;
  minnx_tensor t = {0};
  if (read_file(path, &bytes, &size)) return t;
  minnx_error err;
  if (minnx_tensor_decode(bytes, size, NULL, &t, NULL, &err)) memset(&t, 0, sizeof t);
  free(bytes);
  return t;
}

static int read_bcase(const char *root, const char *name, int n_out, bcase *c) {
  char dir[512], path[1100];
  snprintf(dir, sizeof dir, "%s/%s", root, name);
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  memset(c, 0, sizeof *c);
  if (read_file(path, &c->model, &c->size)) return 0;
  c->n_out = n_out;
  for (int s = 0; s < MAX_SETS; s++) {
    snprintf(path, sizeof path, "%s/test_data_set_%d", dir, s);
    if (!is_dir(path)) break;
    c->in[s] = read_tensor(dir, s, "input", 0);
    for (int k = 0; k < n_out; k++) c->out[s][k] = read_tensor(dir, s, "output", k);
    c->n_sets = s + 1;
  }
  return c->n_sets > 0;
}

static void free_bcase(bcase *c) {
  free(c->model);
  for (int s = 0; s < c->n_sets; s++) {
    minnx_tensor_free(NULL, c->in[s].data);
    for (int k = 0; k < c->n_out; k++) minnx_tensor_free(NULL, c->out[s][k].data);
  }
}

/* Binds set s, runs, compares every output bit for bit. */
static int run_set(minnx_session *ss, const bcase *c, int s, const char *name) {
  minnx_error err;
  if (minnx_session_bind_input(ss, 0, &c->in[s], &err) || minnx_session_run(ss, &err)) {
    fprintf(stderr, "%s set %d: %s\n", name, s, err.message);
    return 0;
  }
  for (int k = 0; k < c->n_out; k++) {
    minnx_tensor got;
    char why[256];
    if (minnx_session_output(ss, (size_t)k, &got) || !same_tensor(&c->out[s][k], &got, why, sizeof why)) {
      fprintf(stderr, "%s set %d output %d: %s\n", name, s, k, why);
      return 0;
    }
  }
  return 1;
}

/* Every data set in one session on counting hooks; shapes repeated plan nothing and allocate nothing. */
static void one_session(const bcase *c, const char *name) {
  minnx_load_options hooks = {.allocator = {count_alloc, count_free, NULL}};
  minnx_model *m;
  minnx_session *s;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(c->model, c->size, &hooks, &m, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(m, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_plan_count(s), 0); /* symbolic: planned when bound */
  size_t plans = 0;
  static const int order[] = {0, 1, 2, 1, 0, 2};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    int set = order[i];
    if (set >= c->n_sets) continue;
    CHECK(run_set(s, c, set, name));
    CHECK_EQ_INT(minnx_session_plan_count(s), ++plans); /* new shapes: one plan */
    long before = allocs;
    for (int r = 0; r < 3; r++) CHECK(run_set(s, c, set, name)); /* the same shapes, bound again */
    CHECK_EQ_INT(minnx_session_plan_count(s), plans);
    CHECK_EQ_INT(allocs - before, 0);
  }
  minnx_session_free(s);
  minnx_model_free(m);
  CHECK_EQ_INT(allocs, frees);
}

/* minnx_session_memory_needed_for, exactly, for each set's shapes. */
static void exact_memory(const bcase *c, const char *name) {
  minnx_model *m;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(c->model, c->size, NULL, &m, &err), MINNX_OK);
  size_t bytes = 1;
  CHECK_EQ_INT(minnx_session_memory_needed_for(m, c->in, 2, &bytes, &err), MINNX_E_ARG);
  CHECK_EQ_INT(bytes, 0);
  for (int set = 0; set < c->n_sets; set++) {
    minnx_tensor shape_only = c->in[set];
    shape_only.data = NULL; /* the bytes are not read */
    shape_only.nbytes = 0;
    CHECK_EQ_INT(minnx_session_memory_needed_for(m, &shape_only, 1, &bytes, &err), MINNX_OK);
    CHECK(bytes % 16 == 0 && bytes >= minnx_session_memory_needed(m));
    void *mem = aligned_alloc(MINNX_REGION_ALIGN, (bytes + MINNX_REGION_ALIGN - 1) / MINNX_REGION_ALIGN * MINNX_REGION_ALIGN);
    minnx_session *s;
    CHECK_EQ_INT(minnx_session_create_in(m, mem, bytes, &s, &err), MINNX_OK);
    CHECK(run_set(s, c, set, name));
    CHECK(run_set(s, c, set, name));
    /* one byte less: refused when the run plans */
    CHECK_EQ_INT(minnx_session_create_in(m, mem, bytes - 1, &s, &err), MINNX_OK);
    minnx_status st = minnx_session_bind_input(s, 0, &c->in[set], &err);
    if (!st) st = minnx_session_run(s, &err);
    CHECK_EQ_INT(st, MINNX_E_NOMEM);
    if (st != MINNX_E_NOMEM) fprintf(stderr, "%s set %d in %zu bytes: %s\n", name, set, bytes - 1, err.message);
    CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_E_NOMEM); /* again, the same: nothing half-planned kept */
    free(mem);
  }
  minnx_model_free(m);
}

/* The values computed at bind are told apart from those known at load and at run. */
static void known(const bcase *c) {
  minnx_model *m;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(c->model, c->size, NULL, &m, &err), MINNX_OK);
  int bind = 0, load = 0, run = 0;
  for (size_t i = 0; i < minnx_model_value_count(m); i++) {
    const char *name;
    minnx_model_value_info(m, i, &name, NULL);
    minnx_known k = minnx_model_value_known(m, i);
    if (strcmp(name, "b_s") == 0 || strcmp(name, "shape") == 0 || strcmp(name, "b_u") == 0) bind += k == MINNX_KNOWN_BIND;
    if (strcmp(name, "minus1") == 0) load += k == MINNX_KNOWN_LOAD;
    if (strcmp(name, "x") == 0 || strcmp(name, "y") == 0) run += k == MINNX_KNOWN_RUN;
  }
  CHECK_EQ_INT(bind, 3);
  CHECK_EQ_INT(load, 1);
  CHECK_EQ_INT(run, 2); /* y is a view of x (Reshape) */
  CHECK_EQ_INT(minnx_model_value_known(m, minnx_model_value_count(m)), 0);
  CHECK_EQ_INT(minnx_model_value_known(NULL, 0), 0);
  minnx_model_free(m);
}

/* Reshape [N, 2, 3] to [N / 2, 12]: impossible for an odd N, at the run that binds it. */
static void impossible_reshape(const char *root) {
  bcase c;
  CHECK(read_bcase(root, "bindshape_err_reshape_odd", 0, &c));
  minnx_model *m;
  minnx_session *s;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(c.model, c.size, NULL, &m, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(m, &s, &err), MINNX_OK);
  static float x[4 * 6];
  for (int i = 0; i < 4 * 6; i++) x[i] = (float)i - 7.5f;
  static const int batches[] = {2, 3, 4, 3, 2};
  for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) {
    int n = batches[i];
    minnx_tensor t = {MINNX_FLOAT, 3, {n, 2, 3}, x, (size_t)n * 6 * sizeof(float)};
    CHECK_EQ_INT(minnx_session_bind_input(s, 0, &t, &err), MINNX_OK);
    minnx_status st = minnx_session_run(s, &err);
    if (n % 2) {
      CHECK_EQ_INT(st, MINNX_E_SHAPE);
      CHECK(strstr(err.message, "reshape_y") != NULL);
      minnx_tensor y;
      CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_E_ARG);
      continue;
    }
    CHECK_EQ_INT(st, MINNX_OK);
    minnx_tensor y;
    CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
    CHECK_EQ_INT(y.rank, 2);
    CHECK_EQ_INT(y.dims[0], n / 2);
    CHECK_EQ_INT(y.dims[1], 12);
    CHECK(y.nbytes == t.nbytes && memcmp(y.data, x, t.nbytes) == 0);
  }
  size_t bytes;
  minnx_tensor odd = {MINNX_FLOAT, 3, {3, 2, 3}, NULL, 0};
  CHECK_EQ_INT(minnx_session_memory_needed_for(m, &odd, 1, &bytes, &err), MINNX_E_SHAPE);
  minnx_session_free(s);
  minnx_model_free(m);
  free_bcase(&c);
}

/* if_known_sr (an If whose cond is Equal(sr, 16000), a graph input read when
 * bound): a run whose sr and x shape are the last plan's plans nothing again
 * and allocates nothing; a new sr plans once and takes the other branch. The
 * expected output is x's bytes in the branch's shape (Reshape to [2, -1] or
 * [3, -1]). */
static void same_sr(const char *root) {
  char path[1100];
  snprintf(path, sizeof path, "%s/if_known_sr/model.onnx", root);
  unsigned char *bytes = NULL;
  size_t size = 0;
  CHECK(read_file(path, &bytes, &size) == 0);
  if (!bytes) return;
  minnx_load_options hooks = {.allocator = {count_alloc, count_free, NULL}};
  minnx_model *m;
  minnx_session *s;
  minnx_error err;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, &hooks, &m, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(m, &s, &err), MINNX_OK);
  static float x[12];
  for (int i = 0; i < 12; i++) x[i] = (float)i * 0.25f - 1.0f;
  minnx_tensor xt = {MINNX_FLOAT, 2, {1, 12}, x, sizeof x};
  static const int64_t rates[] = {16000, 16000, 16000, 8000, 8000, 16000, 8000};
  size_t plans = 0;
  int64_t last = 0;
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
    int64_t sr = rates[i]; /* a fresh copy each run: the bytes count, not where they are */
    minnx_tensor st = {MINNX_INT64, 0, {0}, &sr, sizeof sr};
    CHECK_EQ_INT(minnx_session_bind_input(s, 0, &st, &err), MINNX_OK);
    CHECK_EQ_INT(minnx_session_bind_input(s, 1, &xt, &err), MINNX_OK);
    long before = allocs;
    CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
    plans += i == 0 || sr != last;
    last = sr;
    CHECK_EQ_INT(minnx_session_plan_count(s), plans);
    if (i && rates[i] == rates[i - 1]) CHECK_EQ_INT(allocs - before, 0);
    minnx_tensor y;
    CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
    CHECK_EQ_INT(y.rank, 2);
    CHECK_EQ_INT(y.dims[0], sr == 16000 ? 2 : 3);
    CHECK_EQ_INT(y.dims[1], sr == 16000 ? 6 : 4);
    CHECK(y.nbytes == sizeof x && memcmp(y.data, x, sizeof x) == 0);
  }
  minnx_session_free(s);
  minnx_model_free(m);
  CHECK_EQ_INT(allocs, frees);
  free(bytes);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_bindshape OWN_CASES_DIR\n");
    return 2;
  }
  static const struct {
    const char *name;
    int n_out;
  } cases[] = {{"bindshape_view_batch", 1},      {"bindshape_view_batch_v11", 1},     {"bindshape_slice_mul", 1},
               {"bindshape_div_add", 1},         {"bindshape_where_expand", 2},       {"bindshape_fill_range_cast", 3},
               {"bindshape_shape_of_computed", 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bcase c;
    int ok = read_bcase(argv[1], cases[i].name, cases[i].n_out, &c);
    CHECK(ok);
    if (!ok) {
      fprintf(stderr, "cannot read case %s under %s\n", cases[i].name, argv[1]);
      continue;
    }
    CHECK_EQ_INT(c.n_sets, 3);
    one_session(&c, cases[i].name);
    exact_memory(&c, cases[i].name);
    if (i == 0) known(&c);
    free_bcase(&c);
  }
  impossible_reshape(argv[1]);
  same_sr(argv[1]);
  return check_report("test_bindshape");
}
