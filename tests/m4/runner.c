/* The test firmware: runs ONNX test cases on the Cortex-M4 as minnx_test does
 * on a host. The host's file (the semihosting command line names it) lists one
 * case folder per line; for each case the firmware reads model.onnx, the data
 * sets (test_data_set_N/input_K.pb, output_K.pb) and expect_error from the
 * host, then with all of minnx's memory in one static region:
 *   - measures the region (minnx_model_memory_needed), refuses one byte less,
 *     loads into exactly that much, and puts the session after the bytes the
 *     model keeps, in exactly what minnx_session_memory_needed says;
 *   - binds, runs, and compares every output by the host's one rule
 *     (compare.h: exactly, NaN matching NaN and -0 matching +0, or within
 *     ONNX's tolerance for a model with an inexact node), or checks the
 *     expected refusal; and takes the outputs' digest (digest.h), which
 *     tests/xarch/compare.py holds to the hosts' bit for bit;
 *   - records the stack that minnx's calls took (painted stack).
 * Each case runs twice: with the weights copied into the region, then with
 * them left in the model's bytes (minnx_load_options.weights_in_place).
 * The two ways must give the same bits. One line per case, `PASS name
 * region=R kept=K session=S stack_load=L stack_run=N in_place_region=P
 * digest=D`,
 * `FAIL name: reason` or `SKIP name: reason` (only by the rules below); then
 * the deepest stack and `N passed, N failed, N skipped`. The exit status is
 * 0 only when nothing failed and something passed.
 * A build without some dtypes (MINNX_DTYPES) skips the cases with an input of
 * a dtype it lacks; one without messages (MINNX_MESSAGES=OFF) skips the cases
 * whose expected refusal is told by a word of the message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "digest.h"
#include "graph/dtype.h"
#include "minnx.h"
#include "semihost.h"
#include "startup.h"
#include "test_case.h"

#define REGION_SIZE (512u * 1024u)
static _Alignas(MINNX_REGION_ALIGN) unsigned char region[REGION_SIZE];

/* Bytes; the stack is what minnx's calls took below the caller's frame, for
 * the load (the dry runs measuring the region included) and for the session
 * (create, bind, run). */
typedef struct {
  size_t region, kept, session, stack_load, stack_run;
  uint64_t digest; /* of the outputs of every data set in turn */
} figures;

/* A whole host file into malloc'd memory: 1 read, 0 absent or unreadable. */
static int read_host_file(const char *path, unsigned char **data, size_t *size) {
  int h = sh_open(path);
  if (h < 0) return 0;
  long n = sh_length(h);
  unsigned char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  int ok = buf && sh_read(h, buf, (size_t)n) == 0;
  sh_close(h);
  if (!ok) return free(buf), 0;
  buf[n] = '\0'; /* text files (the list, expect_error) are read as strings */
  *data = buf;
  *size = (size_t)n;
  return 1;
}

/* 1 read, 0 absent, -1 not a tensor */
static int read_tensor(const char *dir, int set, const char *kind, int k, minnx_tensor *t, char **name) {
  char path[512];
  unsigned char *bytes;
  size_t size;
  snprintf(path, sizeof path, "%s/test_data_set_%d/%s_%d.pb", dir, set, kind, k);
  if (!read_host_file(path, &bytes, &size)) return 0;
  int ok = minnx_tensor_decode(bytes, size, NULL, t, name, NULL) == MINNX_OK;
  free(bytes);
  return ok ? 1 : -1;
}

/* 1 read, 0 broken (why says). Data sets are numbered from 0 without gaps. */
static int read_case(const char *dir, test_case *c, char *why, size_t wn) {
  char path[512];
  unsigned char *text;
  size_t size;
  memset(c, 0, sizeof *c);
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  if (!read_host_file(path, &c->model, &c->model_size)) return snprintf(why, wn, "cannot read model.onnx"), 0;
  snprintf(path, sizeof path, "%s/expect_error", dir);
  if (read_host_file(path, &text, &size)) {
    c->expect_error = 1;
    sscanf((char *)text, "%15s %63s", c->stage, c->word);
    free(text);
  }
  for (int s = 0; s < MAX_SETS; s++) {
    data_set *d = &c->sets[s];
    int r = 1;
    while (d->n_in < MAX_TENSORS && (r = read_tensor(dir, s, "input", d->n_in, &d->in[d->n_in], &d->in_name[d->n_in])) == 1)
      d->n_in++;
    if (r < 0) return snprintf(why, wn, "data set %d: input %d is not a tensor", s, d->n_in), 0;
    while (d->n_out < MAX_TENSORS && (r = read_tensor(dir, s, "output", d->n_out, &d->out[d->n_out], NULL)) == 1)
      d->n_out++;
    if (r < 0) return snprintf(why, wn, "data set %d: output %d is not a tensor", s, d->n_out), 0;
    if (d->n_in == 0 && d->n_out == 0) break;
    c->n_sets++;
  }
  if (!c->n_sets && !c->expect_error) return snprintf(why, wn, "no data set"), 0;
  return 1;
}

/* The rules for SKIP: what this build leaves out. NULL: the case runs. */
static const char *skip_reason(const test_case *c, char *buf, size_t n) {
#ifdef MX_NO_MESSAGES
  if (c->expect_error) return "the expected refusal is told by its message: messages not built";
#endif
  for (int s = 0; s < c->n_sets; s++)
    for (int k = 0; k < c->sets[s].n_in; k++) {
      minnx_dtype t = c->sets[s].in[k].dtype;
      if (!MX_DTYPE_ON(t)) return snprintf(buf, n, "input dtype %s not built", minnx_dtype_name(t)), buf;
    }
  /* a float input may still lead to another dtype (Cast, Shape): such a
   * model is refused as a dtype this build leaves out */
  size_t bytes;
  static minnx_error err;
  if (MX_DTYPES_ENABLED != 0xFFFFFFFFu && !c->expect_error &&
      minnx_model_memory_needed(c->model, c->model_size, NULL, &bytes, &err) == MINNX_E_TYPE)
    return "a dtype of the model not built";
  return NULL;
}

/* Some shape is not known at load (symbolic dims, or a shape given by an
 * input's bytes, as ConstantOfShape's input): the arena waits for the inputs. */
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

static int refused_as_expected(const test_case *c, const char *stage, const minnx_error *err) {
  return c->expect_error && strcmp(c->stage, stage) == 0 && strstr(err->message, c->word) != NULL;
}

/* The case's library calls, with the load options o: 1 pass, 0 fail (why says). */
static int run_case(const test_case *c, const minnx_load_options *o, figures *f, char *why, size_t wn) {
  static minnx_error err; /* static: the stack figure is minnx's, not this frame's */
  minnx_model *m;
  uintptr_t top = m4_stack_paint();
  if (c->expect_error && strcmp(c->stage, "load") == 0) {
    minnx_status st = minnx_model_load_in(c->model, c->model_size, region, REGION_SIZE, o, &m, &err);
    f->stack_load = m4_stack_used(top);
    if (st == MINNX_OK || m) return snprintf(why, wn, "loaded, but must be refused"), 0;
    if (!refused_as_expected(c, "load", &err))
      return snprintf(why, wn, "refused without '%s': %.200s", c->word, err.message), 0;
    return 1;
  }
  if (minnx_model_memory_needed(c->model, c->model_size, o, &f->region, &err))
    return snprintf(why, wn, "memory needed: %.200s", err.message), 0;
  if (f->region > REGION_SIZE) return snprintf(why, wn, "needs %lu bytes", (unsigned long)f->region), 0;
  if (minnx_model_load_in(c->model, c->model_size, region, f->region - 1, o, &m, &err) != MINNX_E_NOMEM || m)
    return snprintf(why, wn, "a region one byte short was not refused"), 0;
  memset(region, 0xA5, f->region); /* nothing may survive from the failed load */
  if (minnx_model_load_in(c->model, c->model_size, region, f->region, o, &m, &err))
    return snprintf(why, wn, "load: %.200s", err.message), 0;
  f->stack_load = m4_stack_used(top);
  f->kept = minnx_model_memory_used(m);
  unsigned char *smem = region + f->kept;
  size_t avail = REGION_SIZE - f->kept;
  f->session = minnx_session_memory_needed(m);
  if (f->session == 0 || f->session > avail) return snprintf(why, wn, "session needs %lu bytes", (unsigned long)f->session), 0;
  int exact = !symbolic(m); /* symbolic dims: the arena is not known before binding */
  top = m4_stack_paint();
  for (int si = 0; si < c->n_sets; si++) {
    const data_set *d = &c->sets[si];
    minnx_session *s;
    if (minnx_session_create_in(m, smem, exact ? f->session : avail, &s, &err)) {
      if (refused_as_expected(c, "run", &err)) return 1;
      return snprintf(why, wn, "session: %.200s", err.message), 0;
    }
    minnx_status st = MINNX_OK;
    for (int k = 0; k < d->n_in && !st; k++)
      st = d->in_name[k] ? minnx_session_bind_input_name(s, d->in_name[k], &d->in[k], &err)
                         : minnx_session_bind_input(s, (size_t)k, &d->in[k], &err);
    if (!st) st = minnx_session_run(s, &err);
    if (st) {
      if (refused_as_expected(c, "run", &err)) return 1;
      return snprintf(why, wn, "run: %.200s", err.message), 0;
    }
    size_t used = m4_stack_used(top);
    if (used > f->stack_run) f->stack_run = used;
    if (c->expect_error) return snprintf(why, wn, "ran, but must be refused"), 0;
    if ((size_t)d->n_out != minnx_model_output_count(m)) return snprintf(why, wn, "output count"), 0;
    for (int k = 0; k < d->n_out; k++) {
      minnx_tensor got;
      char detail[96];
      minnx_session_output(s, (size_t)k, &got);
      f->digest = digest_tensor(f->digest, &got);
      compare_errors e = {0, 0, 0};
      if (!(minnx_model_exact(m) ? same_tensor(&d->out[k], &got, detail, sizeof detail)
                                 : close_tensor(&d->out[k], &got, COMPARE_RTOL, COMPARE_ATOL, &e, detail, sizeof detail)))
        return snprintf(why, wn, "data set %d, output %d: %s", si, k, detail), 0;
    }
  }
  return 1;
}

static const char *base_name(const char *path) {
  const char *p = strrchr(path, '/');
  return p && p[1] ? p + 1 : path;
}

int main(void) {
  char list_path[256], line[640];
  unsigned char *list;
  size_t list_size;
  if (sh_cmdline(list_path, sizeof list_path) || !read_host_file(list_path, &list, &list_size)) {
    sh_puts("firmware: the semihosting command line must name a readable list of case folders\n");
    return 2;
  }
  int passed = 0, failed = 0, skipped = 0;
  size_t deepest = 0;
  for (char *dir = strtok((char *)list, "\r\n"); dir; dir = strtok(NULL, "\r\n")) {
    static test_case c;
    figures f = {0}, f_in_place = {0};
    char why[320] = "", skip[96];
    const char *name = base_name(dir), *skip_why = NULL;
    int ok = read_case(dir, &c, why, sizeof why);
    if (ok) skip_why = skip_reason(&c, skip, sizeof skip);
    /* each case twice: the weights copied into the region, then left in the model's bytes */
    static const minnx_load_options in_place = {.weights_in_place = 1};
    int way = 0;
    for (; ok && !skip_why && way < 2; way++) {
      figures *fw = way ? &f_in_place : &f;
      ok = run_case(&c, way ? &in_place : NULL, fw, why, sizeof why);
      if (fw->stack_load > deepest) deepest = fw->stack_load;
      if (fw->stack_run > deepest) deepest = fw->stack_run;
    }
    if (ok && !skip_why && f.digest != f_in_place.digest) {
      ok = 0;
      snprintf(why, sizeof why, "other bits with the weights in place");
    }
    if (skip_why) {
      skipped++;
      snprintf(line, sizeof line, "SKIP %s: %s\n", name, skip_why);
    } else if (ok) {
      passed++;
      snprintf(line, sizeof line,
               "PASS %s region=%lu kept=%lu session=%lu stack_load=%lu stack_run=%lu in_place_region=%lu "
               "digest=%08lx%08lx\n", name, (unsigned long)f.region, (unsigned long)f.kept, (unsigned long)f.session,
               (unsigned long)f.stack_load, (unsigned long)f.stack_run, (unsigned long)f_in_place.region,
               (unsigned long)(f.digest >> 32), (unsigned long)(f.digest & 0xFFFFFFFFu));
    } else {
      failed++;
      snprintf(line, sizeof line, "FAIL %s%s: %s\n", name, way == 2 ? " (weights in place)" : "", why);
    }
    sh_puts(line);
    free_test_case(&c);
  }
  free(list);
  snprintf(line, sizeof line, "deepest stack: %lu bytes\n%d passed, %d failed, %d skipped\n", (unsigned long)deepest,
           passed, failed, skipped);
  sh_puts(line);
  return failed != 0 || passed == 0;
}
