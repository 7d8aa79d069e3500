/* How loading and planning grow with the node count: chains of Max nodes and
 * wide graphs (a rolling window: node i reads node i-1's and node i-W's
 * outputs, so about W values are alive at once), from 10^3 to 10^6 nodes.
 * The models are written here in protobuf's wire format (no python: a
 * 10^6-node model takes python-onnx minutes). Printed per graph: the load
 * (decode, validate, order, infer and plan), the plan alone (the planner run
 * again on the loaded graph), each in wall and CPU time, the growth of each
 * per 10x nodes (in CPU time), and the peak
 * bytes the allocator held per node while loading, and those the loaded model
 * keeps.
 *
 *   build/tests/bench_load_scale [--min N] [--max N] [--rounds R] [--once] [--width W]... [--keep-heap]
 *
 * Each --width picks a graph (0: the chain); without one: the chain and
 * W = 100 and 1000, from 10 W nodes. Each figure is the best of R runs (3 by default), and of
 * more for small graphs, where a run takes under a millisecond and one
 * preemption on a shared machine would otherwise be the figure: at least
 * 300,000 nodes loaded per size. --once takes one run per size, which
 * checks that it works and measures nothing (ctest's run under a wrapper).
 *
 * By default each run is in a process of its own (forked after the model is
 * written), as `minnx info` on a file is: every page the load takes is fresh
 * from the kernel, which faults it in and zeroes it, at every size. Run in
 * one process, glibc would instead serve the smaller graphs' blocks from
 * pages the rounds before freed, and blocks of 32 MB or more (from about
 * 10^5 nodes on) with fresh pages each time, so the best of the rounds would
 * compare a cold 10^6 with a warm 10^5. --keep-heap runs every round in this
 * process and makes glibc keep every freed block (no mmap, no trim), so that
 * every size is measured warm: the loader's own growth, without the kernel's
 * share. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "minnx.h"
#include "runtime/model.h"

/* ---- protobuf wire format, just what a model of Max nodes needs ---- */

typedef struct {
  unsigned char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    if (!b->p) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
}

static void varint(buf *b, uint64_t v) {
  unsigned char t[10];
  size_t n = 0;
  do {
    t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  put(b, t, n);
}

static void field_varint(buf *b, int field, uint64_t v) {
  varint(b, (uint64_t)field << 3);
  varint(b, v);
}

static void field_bytes(buf *b, int field, const void *p, size_t n) {
  varint(b, (uint64_t)field << 3 | 2);
  varint(b, n);
  put(b, p, n);
}

static void field_str(buf *b, int field, const char *s) { field_bytes(b, field, s, strlen(s)); }

static void field_msg(buf *b, int field, buf *m) {
  field_bytes(b, field, m->p, m->n);
  m->n = 0;
}

/* ValueInfoProto of a float32 [4] tensor. */
static void value_info(buf *graph, int field, const char *name) {
  buf dim = {0}, shape = {0}, tensor = {0}, type = {0}, vi = {0};
  field_varint(&dim, 1, 4);
  field_msg(&shape, 1, &dim);
  field_varint(&tensor, 1, MINNX_FLOAT);
  field_msg(&tensor, 2, &shape);
  field_msg(&type, 1, &tensor);
  field_str(&vi, 1, name);
  field_msg(&vi, 2, &type);
  field_msg(graph, field, &vi);
  free(dim.p), free(shape.p), free(tensor.p), free(type.p), free(vi.p);
}

/* n Max nodes; node i reads v(i-1) and v(i-width) (width 0: the input x),
 * where v(j) for j < 0 is x. */
static buf make_model(long n, long width) {
  buf model = {0}, graph = {0}, node = {0}, opset = {0};
  char a[32], b[32], out[32];
  for (long i = 0; i < n; i++) {
    long j = width ? i - width : -1;
    snprintf(a, sizeof a, i ? "v%ld" : "x", i - 1);
    snprintf(b, sizeof b, j >= 0 ? "v%ld" : "x", j);
    snprintf(out, sizeof out, "v%ld", i);
    field_str(&node, 1, a);
    field_str(&node, 1, b);
    field_str(&node, 2, out);
    field_str(&node, 4, "Max");
    field_msg(&graph, 1, &node);
  }
  field_str(&graph, 2, "scale");
  value_info(&graph, 11, "x");
  snprintf(out, sizeof out, "v%ld", n - 1);
  value_info(&graph, 12, out);
  field_varint(&model, 1, 8); /* ir_version */
  field_varint(&opset, 2, 13);
  field_msg(&model, 8, &opset);
  field_msg(&model, 7, &graph);
  free(graph.p), free(node.p), free(opset.p);
  return model;
}

/* ---- peak memory through the hooks ---- */

typedef struct {
  size_t now, peak;
} tally;

typedef union {
  size_t size;
  max_align_t align;
} header;

static void *tally_alloc(void *user, size_t size) {
  tally *t = user;
  header *h = malloc(sizeof *h + size);
  if (!h) return NULL;
  h->size = size;
  t->now += size;
  if (t->now > t->peak) t->peak = t->now;
  return h + 1;
}

static void tally_free(void *user, void *p) {
  if (!p) return;
  header *h = (header *)p - 1;
  ((tally *)user)->now -= h->size;
  free(h);
}

static double seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall time, and the process's CPU time (user and system: page faults
 * included), which is what the growth is taken on: on a shared machine the
 * other jobs take this one's wall time, not its CPU time. */
typedef struct {
  double wall, cpu;
} stamp;

static stamp now(void) { return (stamp){seconds(CLOCK_MONOTONIC), seconds(CLOCK_PROCESS_CPUTIME_ID)}; }

static void keep_best(stamp *best, stamp t0, stamp t1) {
  if (t1.wall - t0.wall < best->wall) best->wall = t1.wall - t0.wall;
  if (t1.cpu - t0.cpu < best->cpu) best->cpu = t1.cpu - t0.cpu;
}

typedef struct {
  stamp load, plan;
  size_t peak, kept;
} figures;

/* One load of the model and a plan again, in this process. */
static int one_round(const buf *model, long n, figures *f) {
  tally t = {0, 0};
  minnx_load_options o = {.allocator = {tally_alloc, tally_free, &t}};
  minnx_model *m = NULL;
  minnx_error err;
  stamp t0 = now();
  if (minnx_model_load_buffer(model->p, model->n, &o, &m, &err)) {
    fprintf(stderr, "load of %ld nodes failed: %s\n", n, err.message);
    return 1;
  }
  keep_best(&f->load, t0, now());
  f->peak = t.peak;
  f->kept = minnx_model_memory_used(m);
  /* The planner alone, again on the loaded graph, twice: the figure is the
   * better run, whose memory is warm, so that it is the planner's time at
   * every size and not the kernel's faulting in the work arrays (which the
   * load's figure includes). glibc keeps the freed blocks from here on, so
   * the second run gets the first one's pages. */
#ifdef __GLIBC__
  mallopt(M_MMAP_MAX, 0), mallopt(M_TRIM_THRESHOLD, -1);
#endif
  mx_graph *g = &m->g;
  mx_plan plan = {malloc((size_t)g->n_values * sizeof(size_t)), malloc((size_t)g->n_nodes * sizeof(size_t) + 1), 0, 0};
  if (!plan.offsets || !plan.scratch) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  minnx_allocator heap = {tally_alloc, tally_free, &t};
  mx_err perr;
  int bad = 0;
  for (int run = 0; run < 2 && !bad; run++) {
    t0 = now();
    /* as the load plans: from the values' shapes; Max nodes ask no scratch */
    minnx_status st = mx_plan_arena(g, NULL, NULL, NULL, &heap, &plan, &perr);
    keep_best(&f->plan, t0, now());
    bad = st || plan.arena_size != m->plan.arena_size;
  }
  if (bad) fprintf(stderr, "re-planning %ld nodes failed or differs\n", n);
  free(plan.offsets), free(plan.scratch);
  minnx_model_free(m);
  return bad;
}

/* One round in a child process of its own, whose figures come back through a pipe. */
static int fresh_round(const buf *model, long n, figures *f) {
  int fd[2];
  if (pipe(fd)) return perror("pipe"), 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return perror("fork"), 1;
  if (pid == 0) {
    close(fd[0]);
    int bad = one_round(model, n, f);
    _exit(bad || write(fd[1], f, sizeof *f) != (ssize_t)sizeof *f);
  }
  close(fd[1]);
  figures got;
  ssize_t r = read(fd[0], &got, sizeof got);
  close(fd[0]);
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) || r != (ssize_t)sizeof got) {
    fprintf(stderr, "the run of %ld nodes in a child process failed\n", n);
    return 1;
  }
  *f = got;
  return 0;
}

/* The best of `rounds` runs (a shared machine's noise only adds time). */
static int measure(long n, long width, int rounds, int fresh, figures *f) {
  buf model = make_model(n, width);
  f->load = f->plan = (stamp){1e30, 1e30};
  int bad = 0;
  for (int r = 0; r < rounds && !bad; r++) bad = fresh ? fresh_round(&model, n, f) : one_round(&model, n, f);
  free(model.p);
  return bad;
}

int main(int argc, char **argv) {
  long min = 1000, max = 1000000, widths[8];
  int rounds = 3;
  int n_widths = 0, fresh = 1, once = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--min") == 0 && i + 1 < argc) min = atol(argv[++i]);
    else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) max = atol(argv[++i]);
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) rounds = atoi(argv[++i]);
    else if (strcmp(argv[i], "--once") == 0) once = 1, rounds = 1;
    else if (strcmp(argv[i], "--width") == 0 && i + 1 < argc && n_widths < 8) widths[n_widths++] = atol(argv[++i]);
#ifdef __GLIBC__
    else if (strcmp(argv[i], "--keep-heap") == 0) mallopt(M_MMAP_MAX, 0), mallopt(M_TRIM_THRESHOLD, -1), fresh = 0;
#endif
    else {
      fprintf(stderr, "usage: %s [--min NODES] [--max NODES] [--rounds R] [--once] [--width W]... [--keep-heap]\n",
              argv[0]);
      return 2;
    }
  }
  if (!n_widths) widths[n_widths++] = 0, widths[n_widths++] = 100, widths[n_widths++] = 1000;
  printf("%-12s %8s %9s %9s %7s %9s %9s %7s %6s %6s\n", "", "", "load", "", "", "plan", "", "", "peak", "kept");
  printf("%-12s %8s %9s %9s %7s %9s %9s %7s %6s %6s\n", "graph", "nodes", "wall s", "cpu s", "growth", "wall s",
         "cpu s", "growth", "B/node", "B/node");
  for (int w = 0; w < n_widths; w++) {
    figures prev = {{0, 0}, {0, 0}, 0, 0};
    for (long n = min > 0 ? min : 1; n <= max; n *= 10) {
      if (n < 10 * widths[w]) continue; /* W nodes reading the input x: a window full for most of the graph only */
      figures f = {{0, 0}, {0, 0}, 0, 0};
      long more = once ? 0 : 300000 / n;
      if (measure(n, widths[w], more > rounds ? (int)more : rounds, fresh, &f)) return 1;
      char name[32];
      snprintf(name, sizeof name, widths[w] ? "wide W=%ld" : "chain", widths[w]);
      char gl[16] = "", gp[16] = "";
      if (prev.load.cpu > 0) snprintf(gl, sizeof gl, "%.1fx", f.load.cpu / prev.load.cpu);
      if (prev.plan.cpu > 0) snprintf(gp, sizeof gp, "%.1fx", f.plan.cpu / prev.plan.cpu);
      printf("%-12s %8ld %9.4f %9.4f %7s %9.4f %9.4f %7s %6.0f %6.0f\n", name, n, f.load.wall, f.load.cpu, gl,
             f.plan.wall, f.plan.cpu, gp, (double)f.peak / (double)n, (double)f.kept / (double)n);
      fflush(stdout);
      prev = f;
    }
  }
  return 0;
}
