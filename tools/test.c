/* minnx test: runs ONNX test cases (a case folder, or a folder of them)
 * and prints one line per case, then the tally (DESIGN.md's contract). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "digest.h"
#include "divergence.h"
#include "files.h"
#include "tensor_io.h"

typedef struct {
  int passed, failed, skipped, diverged;
} tally;

#define MAX_CASE_TENSORS 64

/* Runs one data set of a loaded model in *sp (opened at the first: the data
 * sets of a case run in one session, which plans again for new input shapes):
 * 1 pass, 0 fail (why says), -1 run error (err).
 * Outputs compare by the one rule (compare.h): exactly when the model is
 * exact, else within tol (atol, rtol: ONNX's, or the case's own), the
 * errors folded into e. A case with
 * a known divergence (kd) has its data repaired and compared as
 * divergence.h says, and what it needed noted. */
static int run_data_set(const minnx_model *m, long threads, minnx_session **sp, const char *dir, const double tol[2],
                        char *why, size_t wn, minnx_error *err, compare_errors *e, const divergence *kd,
                        divergence_note *note, uint64_t *digest) {
  file_tensor ins[MAX_CASE_TENSORS] = {0}, outs[MAX_CASE_TENSORS] = {0};
  int n_in = 0, n_out = 0, result = 0;
  if (!read_series(dir, "input", ins, MAX_CASE_TENSORS, &n_in, why, wn) ||
      !read_series(dir, "output", outs, MAX_CASE_TENSORS, &n_out, why, wn))
    goto out;
  if (!*sp && open_session(m, threads, sp, err)) {
    result = -1;
    goto out;
  }
  for (int k = 0; k < n_in; k++) {
    minnx_tensor t = ins[k].t;
    if (kd && !divergence_repair_input(kd, m, (size_t)k, &t, note, why, wn)) goto out;
    /* A named input .pb binds by name; an unnamed one by position. */
    minnx_status st = ins[k].name ? minnx_session_bind_input_name(*sp, ins[k].name, &t, err)
                                  : minnx_session_bind_input(*sp, (size_t)k, &t, err);
    if (st) {
      result = -1;
      goto out;
    }
  }
  if (minnx_session_run(*sp, err)) {
    result = -1;
    goto out;
  }
  if ((size_t)n_out != minnx_model_output_count(m)) {
    snprintf(why, wn, "the data set has %d outputs, the model %zu", n_out, minnx_model_output_count(m));
    goto out;
  }
  for (int k = 0; k < n_out; k++) {
    minnx_tensor got;
    minnx_session_output(*sp, (size_t)k, &got);
    *digest = digest_tensor(*digest, &got);
    char detail[256];
    if (kd) divergence_relabel_expected(kd, &outs[k].t, &got, note);
    int match = minnx_model_exact(m) ? same_tensor(&outs[k].t, &got, detail, sizeof detail)
                                     : close_tensor(&outs[k].t, &got, tol[1], tol[0], e, detail, sizeof detail);
    if (!match &&
        !(kd && n_in > 0 && divergence_truncation(kd, &ins[0].t, &outs[k].t, &got, note, detail, sizeof detail))) {
      snprintf(why, wn, "output '%s': %s", minnx_model_output_name(m, (size_t)k), detail);
      goto out;
    }
  }
  result = 1;
out:
  for (int k = 0; k < MAX_CASE_TENSORS; k++) file_tensor_free(&ins[k]), file_tensor_free(&outs[k]);
  return result;
}

static void test_case(const char *dir, const char *name, const cli *c, tally *t) {
  char stage[16], word[64], why[512];
  int expect_error = read_expectation(dir, stage, sizeof stage, word, sizeof word);
  char *model_path = path_join(dir, "model.onnx");
  minnx_model *m = NULL;
  minnx_error err = {0};
  minnx_load_options opts = load_options(c);
  minnx_status st = model_path ? minnx_model_load_file(model_path, &opts, &m, &err) : MINNX_E_NOMEM;
  free(model_path);
  int outcome = 0; /* 1 pass, 0 fail, 2 skip, 3 a known divergence */
  why[0] = '\0';
  const divergence *kd = divergence_find(name);
  divergence_note note = {0};
  compare_errors errors = {0, 0, 0};
  uint64_t digest = 0; /* of every data set's outputs in turn */
  double tol[2] = {COMPARE_ATOL, COMPARE_RTOL};
  int own_tol = read_tolerance(dir, &tol[0], &tol[1]);
  if (own_tol < 0) {
    snprintf(why, sizeof why, "the case's tolerance file is not one line 'ATOL RTOL' of two numbers >= 0");
  } else if (st) {
    if (expect_error && strcmp(stage, "load") == 0) {
      outcome = contains_ci(err.message, word);
      if (!outcome) snprintf(why, sizeof why, "refused at load, but the message lacks '%s': %s", word, err.message);
    } else if (!expect_error && (st == MINNX_E_UNSUPPORTED || st == MINNX_E_FEATURE)) {
      /* an operator, or a feature (sequence values, strings...), minnx does not have */
      outcome = 2;
      snprintf(why, sizeof why, "%s", err.message);
    } else {
      snprintf(why, sizeof why, "load: %s", err.message);
    }
  } else {
    size_t n = 0;
    char **sets = list_dir(dir, &n);
    minnx_session *session = NULL;
    int ran = 0;
    outcome = 1;
    for (size_t i = 0; sets && i < n && outcome == 1; i++) {
      if (strncmp(sets[i], "test_data_set_", 14) != 0) continue;
      char *sd = path_join(dir, sets[i]);
      int r = sd ? run_data_set(m, c->threads, &session, sd, tol, why, sizeof why, &err, &errors, kd, &note, &digest) : 0;
      free(sd);
      ran++;
      if (r == -1 && expect_error && strcmp(stage, "run") == 0) {
        outcome = contains_ci(err.message, word);
        if (!outcome) snprintf(why, sizeof why, "refused at run, but the message lacks '%s': %s", word, err.message);
        expect_error = 2; /* met */
        break;
      }
      if (r == -1 && !expect_error && (err.status == MINNX_E_UNSUPPORTED || err.status == MINNX_E_FEATURE)) {
        outcome = 2; /* a feature the bound inputs ask for (Dropout's training_mode true) */
        snprintf(why, sizeof why, "%s", err.message);
        break;
      }
      if (r == -1) snprintf(why, sizeof why, "run: %s", err.message);
      if (r != 1) outcome = 0;
    }
    free_list(sets, n);
    minnx_session_free(session);
    if (outcome == 1 && expect_error == 1) {
      outcome = 0;
      snprintf(why, sizeof why, "expected an error at %s, but it %s", stage, ran ? "ran" : "loaded");
    } else if (outcome == 1 && !ran) {
      outcome = 0;
      snprintf(why, sizeof why, "no test_data_set_* directory");
    }
  }
  minnx_model_free(m);
  if (outcome == 1 && kd && divergence_describe(kd, &note, why, sizeof why)) outcome = 3;
  divergence_note_free(&note);
  char errs[96] = "";
  if (errors.compared) snprintf(errs, sizeof errs, " (max abs err %.2g, max rel err %.2g)", errors.max_abs, errors.max_rel);
  char dig[40] = "";
  if (c->digest) snprintf(dig, sizeof dig, " digest=%016llx", (unsigned long long)digest);
  if (outcome == 1) printf("PASS %s%s%s\n", name, errs, dig), t->passed++;
  else if (outcome == 3) printf("DIVERGE %s: %s\n", name, why), t->diverged++;
  else if (outcome == 2) printf("SKIP %s: %s\n", name, why), t->skipped++;
  else printf("FAIL %s: %s%s\n", name, why, errs), t->failed++;
  fflush(stdout);
}

static const char *base_name(const char *path) {
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') n--;
  const char *p = path + n;
  while (p > path && p[-1] != '/') p--;
  return p;
}

/* --filter: a shell glob, or without glob characters a substring. */
static int matches(const char *filter, const char *name) {
  if (!filter) return 1;
  if (strpbrk(filter, "*?[")) return fnmatch(filter, name, 0) == 0;
  return strstr(name, filter) != NULL;
}

int cmd_test(cli *c) {
  tally t = {0, 0, 0, 0};
  for (int i = 0; i < c->n_positional; i++) {
    const char *path = c->positional[i];
    char *model = path_join(path, "model.onnx");
    int single = model && is_file(model);
    free(model);
    if (single) {
      /* the case name without a trailing slash */
      char name[512];
      snprintf(name, sizeof name, "%s", base_name(path));
      name[strcspn(name, "/")] = '\0';
      if (matches(c->filter, name)) test_case(path, name, c, &t);
      continue;
    }
    if (!is_dir(path)) return die(EXIT_LOAD, "'%s' is neither a test case nor a folder of them", path);
    size_t n = 0;
    char **names = list_dir(path, &n);
    if (!names) return die(EXIT_LOAD, "cannot list '%s': %s", path, strerror(errno));
    for (size_t k = 0; k < n; k++) {
      if (!matches(c->filter, names[k])) continue;
      char *dir = path_join(path, names[k]);
      char *mp = dir ? path_join(dir, "model.onnx") : NULL;
      if (mp && is_file(mp)) test_case(dir, names[k], c, &t);
      free(mp);
      free(dir);
    }
    free_list(names, n);
  }
  if (t.diverged) printf("%d known divergence%s (see README)\n", t.diverged, t.diverged == 1 ? "" : "s");
  printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  if (t.passed + t.failed + t.skipped + t.diverged == 0) {
    if (c->filter) return die(EXIT_TEST_FAILED, "no test case matched --filter '%s'", c->filter);
    return die(EXIT_TEST_FAILED, "no test case found (a case is a folder holding model.onnx)");
  }
  return t.failed ? EXIT_TEST_FAILED : EXIT_OK;
}
