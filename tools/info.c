/* minnx info: what a model holds (opsets, nodes with their schema versions,
 * values with dtypes and shapes) and the memory it needs, at the cost of its
 * loads and the printing: the model is loaded once into caller memory, as a
 * program giving minnx all its memory would (the copy that is printed), and
 * once more with its weights left in place, each into a reservation of
 * address space so large that one load tells the exact size
 * (minnx_model_memory_peak) instead of the dry runs of
 * minnx_model_memory_needed (a load per doubling of the region: 13 loads on a
 * 10^6-node chain). The kernel gives a page only when the load touches it. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, madvise */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "files.h"
#include "tensor_io.h"

/* Caller memory holding a model: mapped (a reservation), or from aligned_alloc. */
typedef struct {
  void *mem;
  size_t size;
  int mapped;
} region;

static void region_free(region *r) {
  if (r->mapped) munmap(r->mem, r->size);
  else free(r->mem);
  memset(r, 0, sizeof *r);
}

/* The model of `size` bytes loaded in caller memory: first in a reservation
 * of 64 times its size plus 1 GiB (a 10^6-node chain needs 17 times), else,
 * when the system refuses the reservation (strict overcommit, a limit on
 * address space) or the model needs more (external data), in a region of
 * the exact size minnx_model_memory_needed finds. */
static minnx_status load_measured(const unsigned char *bytes, size_t size, const minnx_load_options *o, region *r,
                                  minnx_model **m, minnx_error *err) {
  memset(r, 0, sizeof *r);
  size_t reserve = size < (SIZE_MAX / 2 - ((size_t)1 << 30)) / 64 ? 64 * size + ((size_t)1 << 30) : 0;
  void *p = reserve ? mmap(NULL, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                    : MAP_FAILED;
  if (p != MAP_FAILED) {
    *r = (region){p, reserve, 1};
    minnx_status st = minnx_model_load_in(bytes, size, p, reserve, o, m, err);
    if (st != MINNX_E_NOMEM) {
      /* What the load needed only while it ran goes back to the system. */
      long page = sysconf(_SC_PAGESIZE);
      size_t kept = page > 0 ? (minnx_model_memory_used(*m) + (size_t)page - 1) / (size_t)page * (size_t)page : reserve;
      if (!st && kept < reserve) madvise((unsigned char *)p + kept, reserve - kept, MADV_DONTNEED);
      if (st) region_free(r);
      return st;
    }
    region_free(r);
  }
  size_t needed;
  minnx_status st = minnx_model_memory_needed(bytes, size, o, &needed, err);
  if (st) return st;
  size_t rounded = (needed + MINNX_REGION_ALIGN - 1) / MINNX_REGION_ALIGN * MINNX_REGION_ALIGN;
  if (!(r->mem = aligned_alloc(MINNX_REGION_ALIGN, rounded ? rounded : MINNX_REGION_ALIGN))) {
    snprintf(err->message, sizeof err->message, "out of memory for a region of %zu bytes", needed);
    return err->status = MINNX_E_NOMEM;
  }
  r->size = needed;
  st = minnx_model_load_in(bytes, size, r->mem, needed, o, m, err);
  if (st) region_free(r);
  return st;
}

/* Whether a value is a graph input, and a graph output (it may be both). */
static void value_role(const minnx_model *m, const char *name, int *input, int *output) {
  *input = *output = 0;
  for (size_t k = 0; k < minnx_model_input_count(m); k++) *input |= strcmp(minnx_model_input_name(m, k), name) == 0;
  for (size_t k = 0; k < minnx_model_output_count(m); k++) *output |= strcmp(minnx_model_output_name(m, k), name) == 0;
}

static void print_value(const minnx_model *m, size_t i) {
  const char *name;
  minnx_tensor t;
  minnx_model_value_info(m, i, &name, &t);
  int in, output;
  value_role(m, name, &in, &output);
  printf("  %s: %s ", name, minnx_dtype_name(t.dtype));
  if (t.rank < 0) {
    fputs("[?]", stdout);
  } else { /* a dim unknown at load by the name the model declares for it, if any */
    putchar('[');
    for (int d = 0; d < t.rank; d++) {
      const char *param = minnx_model_value_dim_param(m, i, d);
      if (t.dims[d] >= 0) printf("%s%" PRId64, d ? "," : "", t.dims[d]);
      else printf("%s%s", d ? "," : "", param ? param : "?");
    }
    putchar(']');
  }
  /* what is known only once the inputs are bound: the bytes of values made
   * from the inputs' shapes (a symbolic batch's Shape -> Gather -> Concat),
   * and shapes with a symbolic dim; the rest is known at load */
  int unknown = t.rank < 0;
  for (int d = 0; d < t.rank; d++) unknown |= t.dims[d] < 0;
  const char *when = minnx_model_value_known(m, i) == MINNX_KNOWN_BIND ? "  (computed at bind)"
                     : unknown && !in                                   ? "  (shape at bind)"
                                                                        : "";
  printf("%s%s%s%s\n", in ? "  (graph input)" : "", output ? "  (graph output)" : "", t.data ? "  (initializer)" : "",
         when);
}

static void print_graph(const minnx_model *m) {
  printf("opset imports:\n");
  for (size_t i = 0; i < minnx_model_opset_count(m); i++) {
    const char *d;
    int64_t v;
    minnx_model_opset(m, i, &d, &v);
    printf("  %s %" PRId64 "\n", d[0] ? d : "ai.onnx", v);
  }
  printf("nodes (execution order):\n");
  for (size_t i = 0; i < minnx_model_node_count(m); i++) {
    const char *name, *op, *dom;
    int since;
    minnx_model_node_info(m, i, &name, &op, &dom, &since);
    printf("  %s: %s%s%s-%d", name, dom[0] ? dom : "", dom[0] ? "." : "", op, since);
    /* a Relu or Clip done by the Conv before it, as it stores (README, "Conv") */
    int64_t f = minnx_model_node_fused(m, i);
    const char *other = NULL, *other_op = NULL;
    if (f) minnx_model_node_info(m, (size_t)(f > 0 ? f - 1 : -f - 1), &other, &other_op, NULL, NULL);
    if (f > 0) printf("  (+ %s '%s', fused)", other_op, other);
    else if (f < 0) printf("  (fused into %s '%s': runs nothing)", other_op, other);
    putchar('\n');
  }
  printf("values:\n");
  for (size_t i = 0; i < minnx_model_value_count(m); i++) print_value(m, i);
}

/* The -i files as the model's inputs, in its order: 1 when every input is
 * given (then the session's bytes for those shapes are printed), 0 when
 * some is not, -1 after an error was reported. The -i strings stay as they
 * are (--profile reads them again). */
static int given_inputs(cli *c, const minnx_model *m, file_tensor *ins, size_t n_in) {
  char why[512];
  for (int k = 0; k < c->n_inputs; k++) {
    const char *arg = c->inputs[k], *eq = strchr(arg, '=');
    size_t at = n_in;
    for (size_t j = 0; j < n_in; j++) {
      const char *name = minnx_model_input_name(m, j);
      if (strlen(name) == (size_t)(eq - arg) && strncmp(name, arg, (size_t)(eq - arg)) == 0) at = j;
    }
    if (at == n_in) return die(EXIT_LOAD, "-i %.*s: the model has no input named '%.*s'", (int)(eq - arg), arg,
                               (int)(eq - arg), arg), -1;
    if (!read_tensor(eq + 1, &ins[at], why, sizeof why)) return die(EXIT_LOAD, "input '%s': %s", arg, why), -1;
  }
  return (size_t)c->n_inputs == n_in; /* each name at most once (options.c) */
}

/* The session's bytes for the inputs in `ins` (n_in of them), or 0 with the
 * error reported. */
static size_t needed_for(const minnx_model *m, const file_tensor *ins, size_t n_in, int *rc) {
  minnx_tensor *t = calloc(n_in ? n_in : 1, sizeof *t);
  size_t bytes = 0;
  minnx_error err;
  if (!t) {
    *rc = die(EXIT_LOAD, "out of memory");
    return 0;
  }
  for (size_t j = 0; j < n_in; j++) t[j] = ins[j].t;
  if (minnx_session_memory_needed_for(m, t, n_in, &bytes, &err)) *rc = die(EXIT_LOAD, "%s", err.message);
  free(t);
  return bytes;
}

int cmd_info(cli *c) {
  const char *path = c->positional[0];
  unsigned char *bytes = NULL;
  size_t size = 0;
  int e = read_file(path, &bytes, &size);
  if (e) return die(EXIT_LOAD, "cannot read '%s': %s", path, strerror(e));
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  region r;
  file_tensor *ins = NULL;
  size_t n_in = 0;
  int rc = EXIT_OK, bound = 0;
  /* What a program giving minnx all its memory must provide, with the weights
   * left in the model's bytes (measured first, and let go, so that its
   * pages and the printed copy's are not held at once), and copied. With -i
   * for every input, the session's bytes are those for the shapes given
   * (minnx_session_memory_needed_for), the arena included. */
  minnx_load_options in_place = load_options(c); /* (--isa: the level whose plans size the session) */
  in_place.weights_in_place = 1;
  if (load_measured(bytes, size, &in_place, &r, &m, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
    goto out;
  }
  size_t needed_in_place = minnx_model_memory_peak(m), kept_in_place = minnx_model_memory_used(m);
  size_t session_in_place = minnx_session_memory_needed(m); /* no packed copies of the weights */
  n_in = minnx_model_input_count(m);
  if (!(ins = calloc(n_in ? n_in : 1, sizeof *ins))) {
    rc = die(EXIT_LOAD, "out of memory");
    region_free(&r);
    goto out;
  }
  if (c->n_inputs && (bound = given_inputs(c, m, ins, n_in)) < 0) rc = EXIT_LOAD;
  if (bound == 1) session_in_place = needed_for(m, ins, n_in, &rc);
  region_free(&r);
  if (rc) goto out;
  minnx_load_options opts = load_options(c);
  if (load_measured(bytes, size, &opts, &r, &m, &err) || minnx_session_create(m, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
    goto out;
  }
  size_t session = bound == 1 ? needed_for(m, ins, n_in, &rc) : minnx_session_memory_needed(m);
  if (rc) goto out;
  print_graph(m);
  int planned = minnx_session_planned(s);
  if (planned)
    printf("arena: %zu bytes (values without reuse: %zu bytes)\n", minnx_session_arena_size(s),
           minnx_session_values_size(s));
  else if (bound == 1)
    printf("arena: planned when the inputs are bound (symbolic dims); the session's bytes below are for the "
           "inputs given\n");
  else
    printf("arena: planned when the inputs are bound (symbolic dims)\n");
  const char *tail = planned || bound == 1 ? "" : " + the arena";
  printf("caller memory: model %zu bytes to load (%zu kept), session %zu bytes%s\n", minnx_model_memory_peak(m),
         minnx_model_memory_used(m), session, tail);
  printf("caller memory, weights in place: model %zu bytes to load (%zu kept), session %zu bytes%s\n", needed_in_place,
         kept_in_place, session_in_place, tail);
  if (c->profile) rc = profile_model(c, m);
out:
  for (size_t j = 0; ins && j < n_in; j++) file_tensor_free(&ins[j]);
  free(ins);
  minnx_session_free(s);
  region_free(&r);
  free(bytes);
  return rc;
}
