/* minnx run: binds inputs from files, runs once, and prints, writes (-o) or
 * prints in full (--print) the outputs, only after a successful run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "files.h"
#include "npy.h"
#include "tensor_io.h"

/* The files -o writes: encoded in memory first, written after the run. */
typedef struct {
  char *path, *tmp;
  unsigned char *bytes;
  size_t size;
} out_file;

static int make_dirs(const char *dir) {
  char *p = strdup(dir);
  if (!p) return ENOMEM;
  int e = 0;
  for (char *q = p + 1; !e; q++) {
    int last = *q == '\0';
    if (*q == '/' || last) {
      *q = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST) e = errno;
      else if (!is_dir(p)) e = ENOTDIR;
      if (last) break;
      *q = '/';
    }
  }
  free(p);
  return e;
}

/* Writes every file under a temporary name, then renames them all: on error
 * no file of this run is left (those already renamed are removed too). */
static int write_outputs(const char *dir, out_file *f, size_t n) {
  int e = make_dirs(dir);
  if (e) return die(EXIT_RUN, "-o %s: cannot create the folder: %s", dir, strerror(e));
  size_t written = 0, renamed = 0;
  while (written < n && !(e = write_file(f[written].tmp, f[written].bytes, f[written].size))) written++;
  while (!e && renamed < n && !(e = rename(f[renamed].tmp, f[renamed].path) ? errno : 0)) renamed++;
  if (!e) return EXIT_OK;
  size_t bad = written < n ? written : renamed;
  for (size_t j = 0; j < renamed; j++) remove(f[j].path);
  for (size_t j = renamed; j <= written && j < n; j++) remove(f[j].tmp); /* the one that failed included */
  return die(EXIT_RUN, "cannot write '%s': %s", f[bad].path, strerror(e));
}

int cmd_run(cli *c) {
  const char *model_path = c->positional[0];
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor *ins = calloc((size_t)(c->n_inputs ? c->n_inputs : 1), sizeof *ins);
  out_file *files = NULL;
  size_t n_out = 0;
  int rc = EXIT_OK, all_npy = c->n_inputs > 0;
  minnx_load_options opts = load_options(c);
  if (!ins) return die(EXIT_LOAD, "out of memory");
  if (minnx_model_load_file(model_path, &opts, &m, &err) || open_session(m, c->threads, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  for (int k = 0; k < c->n_inputs; k++) {
    char *eq = strchr(c->inputs[k], '=');
    *eq = '\0';
    char why[320];
    all_npy &= ends_with(eq + 1, ".npy");
    if (!read_tensor(eq + 1, &ins[k], why, sizeof why)) {
      rc = die(EXIT_LOAD, "input '%s': %s", c->inputs[k], why);
      goto out;
    }
    if (minnx_session_bind_input_name(s, c->inputs[k], &ins[k].t, &err)) {
      rc = die(EXIT_LOAD, "%s", err.message);
      goto out;
    }
  }
  n_out = minnx_model_output_count(m);
  const char *ext = c->format ? c->format : all_npy ? "npy" : "pb";
  if (c->out_dir) {
    for (size_t k = 0; k < n_out; k++) {
      const char *name = minnx_model_output_name(m, k);
      if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        rc = die(EXIT_LOAD, "output name '%s' cannot be a file name: -o cannot write it", name);
        goto out;
      }
    }
    if (!(files = calloc(n_out ? n_out : 1, sizeof *files))) {
      rc = die(EXIT_LOAD, "out of memory");
      goto out;
    }
  }
  if (minnx_session_run(s, &err)) {
    rc = die(err.status == MINNX_E_ARG ? EXIT_LOAD : EXIT_RUN, "%s", err.message);
    goto out;
  }
  for (size_t k = 0; files && k < n_out; k++) {
    minnx_tensor t;
    const char *name = minnx_model_output_name(m, k);
    minnx_session_output(s, k, &t);
    size_t len = strlen(c->out_dir) + strlen(name) + 16;
    files[k].path = malloc(len);
    files[k].tmp = malloc(len + 8);
    int ok = files[k].path && files[k].tmp;
    if (ok) {
      snprintf(files[k].path, len, "%s/%s.%s", c->out_dir, name, ext);
      snprintf(files[k].tmp, len + 8, "%s/.%s.%s.tmp", c->out_dir, name, ext);
      if (strcmp(ext, "npy") == 0) ok = npy_encode(&t, &files[k].bytes, &files[k].size);
      else ok = minnx_tensor_encode(&t, name, NULL, (void **)&files[k].bytes, &files[k].size, &err) == MINNX_OK;
    }
    if (!ok) {
      rc = die(EXIT_RUN, "output '%s': out of memory", name);
      goto out;
    }
  }
  if (files && (rc = write_outputs(c->out_dir, files, n_out))) goto out;
  for (size_t k = 0; k < n_out; k++) {
    minnx_tensor t;
    const char *name = minnx_model_output_name(m, k);
    minnx_session_output(s, k, &t);
    if (files) printf("wrote %s (", files[k].path), print_type(stdout, &t), puts(")");
    if (c->print) print_tensor(name, &t);
    else if (!files) printf("%s: ", name), print_type(stdout, &t), putchar('\n');
  }
out:
  for (size_t k = 0; files && k < n_out; k++) free(files[k].path), free(files[k].tmp), free(files[k].bytes);
  free(files);
  for (int k = 0; k < c->n_inputs; k++) file_tensor_free(&ins[k]);
  free(ins);
  minnx_session_free(s);
  minnx_model_free(m);
  return rc;
}
