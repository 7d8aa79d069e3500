/* Loading a model from a file: the one place the library touches a file
 * system. Left out of builds with MINNX_FILE_IO=OFF (firmware). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "graph/err.h"
#include "graph/pool.h"

minnx_status minnx_model_load_file(const char *path, const minnx_load_options *options, minnx_model **out,
                                   minnx_error *err) {
  if (!path || !out) return mx_fail(err, MINNX_E_ARG, "minnx_model_load_file: NULL argument");
  *out = NULL;
  minnx_allocator a = mx_allocator_or_default(options ? &options->allocator : NULL);
  FILE *f = fopen(path, "rb");
  if (!f) return mx_fail(err, MINNX_E_IO, "cannot open '%s': %s", path, strerror(errno));
  /* Read in growing steps rather than trusting a size from fseek: works for pipes too. */
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = a.alloc(a.user, cap);
  minnx_status st = MINNX_OK;
  while (buf) {
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (len < cap) break;
    if (cap > SIZE_MAX / 2) {
      st = mx_fail(err, MINNX_E_LIMIT, "'%s' is too large", path);
      break;
    }
    unsigned char *bigger = a.alloc(a.user, cap * 2);
    if (bigger) memcpy(bigger, buf, len);
    a.free(a.user, buf);
    buf = bigger;
    cap *= 2;
  }
  if (!buf) st = mx_fail(err, MINNX_E_NOMEM, "out of memory reading '%s'", path);
  else if (!st && ferror(f)) st = mx_fail(err, MINNX_E_IO, "cannot read '%s': %s", path, strerror(errno));
  fclose(f);
  if (!st) st = minnx_model_load_buffer(buf, len, options, out, err);
  if (buf) a.free(a.user, buf);
  return st;
}
