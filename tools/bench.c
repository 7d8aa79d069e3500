/* minnx bench: times session runs on given, a case folder's, or generated
 * inputs; the last line is `ns_per_run=<median>`. With --profile (bench and
 * info), the time of each node, through minnx_session_set_node_hook. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "files.h"
#include "tensor_io.h"

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define BENCH_BATCH_NS 20000

/* splitmix64: the generated inputs' numbers, the same for a seed everywhere. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Fills t (dtype, shape and nbytes set; data allocated) from the seed:
 * floats uniform in [-1,1), integers over their whole range, bool 0/1. */
static void generate(minnx_tensor *t, uint64_t *state) {
  size_t es = minnx_dtype_size(t->dtype), n = t->nbytes / es;
  unsigned char *p = t->data;
  for (size_t i = 0; i < n; i++, p += es) {
    uint64_t r = next_random(state);
    double u = (double)(r >> 11) * 0x1p-52 - 1.0; /* [-1,1) */
    float f = (float)u;
    uint32_t fb;
    memcpy(&fb, &f, 4);
    uint16_t h;
    switch (t->dtype) {
      case MINNX_FLOAT: memcpy(p, &f, 4); break;
      case MINNX_DOUBLE: memcpy(p, &u, 8); break;
      case MINNX_BFLOAT16: h = (uint16_t)(fb >> 16); memcpy(p, &h, 2); break;
      case MINNX_FLOAT16: { /* |u| < 1: a normal half from the float's bits, or a subnormal/zero */
        int e = (int)((fb >> 23) & 0xff) - 127 + 15;
        uint16_t sign = (uint16_t)((fb >> 16) & 0x8000);
        h = e <= 0 ? sign : (uint16_t)(sign | (e << 10) | ((fb >> 13) & 0x3ff));
        memcpy(p, &h, 2);
        break;
      }
      case MINNX_BOOL: *p = (unsigned char)(r & 1); break;
      default: memcpy(p, &r, es); break; /* integers: the low bytes (little-endian host) */
    }
  }
}

/* The bench's inputs: -i files by name, then files of the case folder by
 * position, then generated ones. */
static int bench_inputs(cli *c, const minnx_model *m, minnx_session *s, const char *data_dir, file_tensor *ins,
                        size_t n_in) {
  minnx_error err;
  char why[512];
  int from_dir = 0;
  if (data_dir && !read_series(data_dir, "input", ins, (int)n_in, &from_dir, why, sizeof why))
    return die(EXIT_LOAD, "%s", why);
  for (int k = 0; k < c->n_inputs; k++) {
    char *eq = strchr(c->inputs[k], '=');
    *eq = '\0';
    size_t at = n_in;
    for (size_t j = 0; j < n_in; j++)
      if (strcmp(minnx_model_input_name(m, j), c->inputs[k]) == 0) at = j;
    if (at == n_in) return die(EXIT_LOAD, "-i %s: the model has no input named '%s'", c->inputs[k], c->inputs[k]);
    file_tensor_free(&ins[at]);
    if (!read_tensor(eq + 1, &ins[at], why, sizeof why)) return die(EXIT_LOAD, "input '%s': %s", c->inputs[k], why);
  }
  uint64_t state = c->seed;
  for (size_t k = 0; k < n_in; k++) {
    if (!ins[k].t.data && !ins[k].t.nbytes) {
      minnx_tensor *t = &ins[k].t;
      minnx_model_input_info(m, k, t);
      int64_t count = 1;
      for (int d = 0; d < t->rank; d++) {
        if (t->dims[d] < 0)
          return die(EXIT_LOAD, "input '%s' has a symbolic dim: give it with -i %s=FILE",
                     minnx_model_input_name(m, k), minnx_model_input_name(m, k));
        count = t->dims[d] && count > INT64_MAX / t->dims[d] ? -1 : count * t->dims[d];
      }
      size_t es = minnx_dtype_size(t->dtype);
      if (t->rank < 0 || count < 0 || (uint64_t)count > SIZE_MAX / es)
        return die(EXIT_LOAD, "input '%s' has no shape that can be generated: give it with -i",
                   minnx_model_input_name(m, k));
      t->nbytes = (size_t)count * es;
      if (!(t->data = data_alloc(t->nbytes))) return die(EXIT_LOAD, "out of memory");
      generate(t, &state);
    }
    if (minnx_session_bind_input(s, k, &ins[k].t, &err)) return die(EXIT_LOAD, "%s", err.message);
  }
  return EXIT_OK;
}

/* --profile: each node's time in each of `runs` runs, the clock read at
 * every call of the hook (before each node, and after the last); a node's
 * figure is its median over the runs (a run the machine interrupted moves
 * a mean, not a median). */
typedef struct {
  uint64_t *ns;       /* [run][node]: the time in ns, 0 where it did not run */
  unsigned char *ran; /* per node: the hook was called for it */
  uint64_t last;      /* when the node `at` started */
  size_t at, n;       /* at == n: no node started */
  long run;
} profile_clock;

static void profile_hook(void *user, size_t node) {
  profile_clock *p = user;
  uint64_t t = now_ns();
  if (p->at < p->n) p->ns[(size_t)p->run * p->n + p->at] += t - p->last;
  if (node < p->n) p->ran[node] = 1;
  p->at = node;
  p->last = t;
}

typedef struct {
  uint64_t ns;
  size_t node; /* or, by operator, the number of nodes */
  const char *op, *domain;
} profile_row;

static int by_ns(const void *a, const void *b) {
  const profile_row *x = a, *y = b;
  return x->ns != y->ns ? (x->ns < y->ns ? 1 : -1) : (x->node > y->node) - (x->node < y->node);
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts it; of an even count, the lower middle). */
static uint64_t median(uint64_t *v, size_t n) {
  qsort(v, n, sizeof *v, by_value);
  return v[(n - 1) / 2];
}

/* The table from each node's median (`col` holds one node's runs while it is
 * taken) and the runs' own median total. */
static void profile_print(const minnx_model *m, const profile_clock *p, long runs, size_t threads, size_t top,
                          profile_row *rows, profile_row *ops, uint64_t *col) {
  size_t n = p->n, n_rows = 0, n_ops = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    if (!p->ran[i]) continue; /* a view, or folded */
    for (long r = 0; r < runs; r++) col[r] = p->ns[(size_t)r * n + i];
    uint64_t ns = median(col, (size_t)runs);
    total += ns;
    const char *op, *dom;
    minnx_model_node_info(m, i, NULL, &op, &dom, NULL);
    rows[n_rows++] = (profile_row){ns, i, op, dom};
    size_t k = 0;
    while (k < n_ops && (strcmp(ops[k].op, op) != 0 || strcmp(ops[k].domain, dom) != 0)) k++;
    if (k == n_ops) ops[n_ops++] = (profile_row){0, 0, op, dom};
    ops[k].ns += ns;
    ops[k].node++;
  }
  for (long r = 0; r < runs; r++) {
    col[r] = 0;
    for (size_t i = 0; i < n; i++) col[r] += p->ns[(size_t)r * n + i];
  }
  uint64_t run_median = median(col, (size_t)runs);
  qsort(rows, n_rows, sizeof *rows, by_ns);
  qsort(ops, n_ops, sizeof *ops, by_ns);
  double share = total ? 100.0 / (double)total : 0.0;
  printf("profile: %zu of %zu nodes ran, %ld runs at %zu thread%s; ns per run (a node's median over the runs), "
         "the share of the medians' sum\n",
         n_rows, n, runs, threads, threads == 1 ? "" : "s");
  uint64_t rest = 0;
  for (size_t r = 0; r < n_rows; r++) {
    if (top && r >= top) {
      rest += rows[r].ns;
      continue;
    }
    const char *name;
    int since;
    minnx_model_node_info(m, rows[r].node, &name, NULL, NULL, &since);
    printf("  %12llu %5.1f%%  node %zu '%s' (%s%s%s-%d)\n", (unsigned long long)rows[r].ns, (double)rows[r].ns * share,
           rows[r].node, name, rows[r].domain, rows[r].domain[0] ? "." : "", rows[r].op, since);
  }
  if (top && n_rows > top)
    printf("  %12llu %5.1f%%  the other %zu nodes\n", (unsigned long long)rest, (double)rest * share,
           n_rows - top);
  printf("profile by operator:\n");
  for (size_t k = 0; k < n_ops; k++)
    printf("  %12llu %5.1f%%  %s%s%s (%zu node%s)\n", (unsigned long long)ops[k].ns, (double)ops[k].ns * share,
           ops[k].domain, ops[k].domain[0] ? "." : "", ops[k].op, ops[k].node, ops[k].node == 1 ? "" : "s");
  printf("profile total: %llu ns, the medians' sum; %llu ns, the median run (the clock is read between nodes: tens of "
         "ns each, counted in)\n",
         (unsigned long long)total, (unsigned long long)run_median);
}

/* `runs` runs of s with the hook, then the table; the hook is removed. */
static int profile_runs(const minnx_model *m, minnx_session *s, long runs, size_t top) {
  size_t n = minnx_model_node_count(m), rn = n ? n : 1;
  minnx_error err;
  if ((size_t)runs > SIZE_MAX / sizeof(uint64_t) / rn)
    return die(EXIT_RUN, "--profile keeps every run's time of every node: %ld runs of %zu nodes are too many", runs, n);
  profile_clock p = {calloc((size_t)runs * rn, sizeof(uint64_t)), calloc(rn, 1), 0, n, n, 0};
  profile_row *rows = malloc(rn * sizeof *rows), *ops = malloc(rn * sizeof *ops);
  uint64_t *col = malloc((size_t)runs * sizeof *col);
  int rc = EXIT_OK;
  if (!p.ns || !p.ran || !rows || !ops || !col)
    rc = die(EXIT_RUN, "out of memory: --profile keeps every run's time of every node (%ld runs of %zu nodes)", runs, n);
  else if (minnx_session_set_node_hook(s, profile_hook, &p, &err)) rc = die(EXIT_LOAD, "--profile: %s", err.message);
  for (long i = 0; !rc && i < runs; i++) {
    p.at = n;
    p.run = i;
    if (minnx_session_run(s, &err)) rc = die(EXIT_RUN, "%s", err.message);
  }
  minnx_session_set_node_hook(s, NULL, NULL, NULL);
  if (!rc) profile_print(m, &p, runs, minnx_session_threads(s), top, rows, ops, col);
  free(p.ns);
  free(p.ran);
  free(rows);
  free(ops);
  free(col);
  return rc;
}

int profile_model(cli *c, const minnx_model *m) {
  minnx_error err;
  minnx_session *s = NULL;
  size_t n_in = minnx_model_input_count(m);
  file_tensor *ins = calloc(n_in ? n_in : 1, sizeof *ins);
  int rc = EXIT_OK;
  if (!ins) rc = die(EXIT_LOAD, "out of memory");
  else if (open_session(m, c->threads, &s, &err)) rc = die(EXIT_LOAD, "%s", err.message);
  if (!rc) rc = bench_inputs(c, m, s, NULL, ins, n_in);
  for (long i = 0; !rc && i < c->warmup; i++)
    if (minnx_session_run(s, &err)) rc = die(EXIT_RUN, "%s", err.message);
  if (!rc) rc = profile_runs(m, s, c->repeat, (size_t)c->profile_top);
  for (size_t k = 0; ins && k < n_in; k++) file_tensor_free(&ins[k]);
  free(ins);
  minnx_session_free(s);
  return rc;
}

int cmd_bench(cli *c) {
  const char *arg = c->positional[0];
  long repeat = c->repeat, warmup = c->warmup;
  /* MODEL, or a folder holding model.onnx and input_N.pb (there or in test_data_set_0/) */
  int folder = is_dir(arg);
  char *model_path = folder ? path_join(arg, "model.onnx") : strdup(arg);
  char *set0 = path_join(arg, "test_data_set_0");
  char *input0 = path_join(arg, "input_0.pb");
  if (!model_path || !set0 || !input0) return die(EXIT_LOAD, "out of memory");
  const char *data_dir = !folder ? NULL : is_file(input0) ? arg : is_dir(set0) ? set0 : NULL;
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor *ins = NULL;
  size_t n_in = 0;
  int rc = EXIT_OK;
  uint64_t *times = NULL;
  minnx_load_options opts = load_options(c);
  if (minnx_model_load_file(model_path, &opts, &m, &err) || open_session(m, c->threads, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  n_in = minnx_model_input_count(m);
  if (!(ins = calloc(n_in ? n_in : 1, sizeof *ins))) {
    rc = die(EXIT_LOAD, "out of memory");
    goto out;
  }
  if ((rc = bench_inputs(c, m, s, data_dir, ins, n_in))) goto out;
  times = malloc((size_t)repeat * sizeof *times);
  if (!times) {
    rc = die(EXIT_RUN, "out of memory");
    goto out;
  }
  /* Warm up (at least one run, the last of which sizes the batch), then time
   * N samples. A sample is a batch of runs lasting at least BENCH_BATCH_NS,
   * so that the clock's own cost (tens of ns) does not swamp a tiny graph. */
  uint64_t batch = 1, t0;
  for (long i = 0; i <= warmup; i++) {
    t0 = now_ns();
    if (minnx_session_run(s, &err)) {
      rc = die(EXIT_RUN, "%s", err.message);
      goto out;
    }
    uint64_t one = now_ns() - t0;
    batch = one >= BENCH_BATCH_NS ? 1 : BENCH_BATCH_NS / (one ? one : 1);
  }
  for (long i = 0; i < repeat; i++) {
    t0 = now_ns();
    for (uint64_t b = 0; b < batch; b++)
      if (minnx_session_run(s, &err)) {
        rc = die(EXIT_RUN, "%s", err.message);
        goto out;
      }
    times[i] = now_ns() - t0;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
  /* the profile after the timed runs (its clock reads would slow them), and before the lines scripts read */
  if (c->profile && (rc = profile_runs(m, s, repeat, (size_t)c->profile_top))) goto out;
  printf("runs=%ld batch=%" PRIu64 " min_ns=%.1f arena_bytes=%zu\n", repeat, batch, (double)times[0] / (double)batch,
         minnx_session_arena_size(s));
  printf("ns_per_run=%" PRIu64 "\n", (times[repeat / 2] + batch / 2) / batch);
out:
  free(times);
  for (size_t k = 0; ins && k < n_in; k++) file_tensor_free(&ins[k]);
  free(ins);
  minnx_session_free(s);
  minnx_model_free(m);
  free(model_path);
  free(set0);
  free(input0);
  return rc;
}
