#define _POSIX_C_SOURCE 200809L
#include "tensor_io.h"

#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "npy.h"
#include "text.h"

void *data_alloc(size_t n) {
  size_t whole = n ? (n + 63) / 64 * 64 : 64;
  return whole < n ? NULL : aligned_alloc(64, whole);
}

static void *hook_alloc(void *user, size_t n) {
  (void)user;
  return data_alloc(n);
}

static void hook_free(void *user, void *p) {
  (void)user;
  free(p);
}

void file_tensor_free(file_tensor *f) {
  free(f->t.data);
  free(f->name);
  memset(f, 0, sizeof *f);
}

int ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

int read_tensor(const char *path, file_tensor *out, char *why, size_t wn) {
  memset(out, 0, sizeof *out);
  unsigned char *bytes;
  size_t size;
  int e = read_file(path, &bytes, &size);
  if (e) {
    snprintf(why, wn, "cannot read '%s': %s", path, strerror(e));
    return 0;
  }
  int ok;
  if (ends_with(path, ".npy")) {
    ok = npy_parse(bytes, size, &out->t, why, wn);
    if (ok) { /* copy, so the data is aligned and owned */
      void *d = data_alloc(out->t.nbytes);
      if (d && out->t.nbytes) memcpy(d, out->t.data, out->t.nbytes);
      out->t.data = d;
      if (!d) ok = 0, snprintf(why, wn, "out of memory");
    }
  } else {
    minnx_error err;
    minnx_allocator lines = {hook_alloc, hook_free, NULL};
    ok = minnx_tensor_decode(bytes, size, &lines, &out->t, &out->name, &err) == MINNX_OK;
    if (!ok) snprintf(why, wn, "'%s': %s", path, err.message);
  }
  free(bytes);
  return ok;
}

int read_series(const char *dir, const char *prefix, file_tensor *out, int max, int *count, char *why, size_t wn) {
  *count = 0;
  for (int i = 0; i < max; i++) {
    char name[64];
    snprintf(name, sizeof name, "%s_%d.pb", prefix, i);
    char *path = path_join(dir, name);
    if (!path) return snprintf(why, wn, "out of memory"), 0;
    int exists = is_file(path);
    int ok = !exists || read_tensor(path, &out[i], why, wn);
    free(path);
    if (!exists) break;
    if (!ok) return 0;
    (*count)++;
  }
  return 1;
}

void print_type(FILE *f, const minnx_tensor *t) {
  char buf[256];
  fprintf(f, "%s %s", minnx_dtype_name(t->dtype), shape_text(t, buf, sizeof buf));
}

static void print_elem(const minnx_tensor *t, size_t *at) {
  char buf[64];
  elem_text(t, (*at)++, buf, sizeof buf);
  fputs(buf, stdout);
}

/* Nested like numpy's repr (without its column padding): "[[1, 2],\n [3, 4]]". */
static void print_nested(const minnx_tensor *t, int axis, size_t *at, int depth) {
  if (t->rank == 0) {
    print_elem(t, at);
    return;
  }
  putchar('[');
  for (int64_t i = 0; i < t->dims[axis]; i++) {
    if (i && axis == t->rank - 1) fputs(", ", stdout);
    else if (i) {
      putchar(',');
      for (int k = axis; k < t->rank - 1; k++) putchar('\n'); /* a blank line between blocks, as numpy */
      printf("%*s", depth + 1, "");
    }
    if (axis == t->rank - 1) print_elem(t, at);
    else print_nested(t, axis + 1, at, depth + 1);
  }
  putchar(']');
}

void print_tensor(const char *name, const minnx_tensor *t) {
  printf("%s: ", name);
  print_type(stdout, t);
  fputs(t->rank > 1 ? " =\n" : " = ", stdout);
  size_t at = 0;
  print_nested(t, 0, &at, 0);
  putchar('\n');
}
