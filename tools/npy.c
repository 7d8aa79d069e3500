#include "npy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return 0;
}

/* The value text after 'key': in the header dict, or NULL. */
static const char *find_key(const char *h, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "'%s'", key);
  const char *p = strstr(h, pat);
  if (!p) return NULL;
  p += strlen(pat);
  while (*p == ' ') p++;
  if (*p != ':') return NULL;
  p++;
  while (*p == ' ') p++;
  return p;
}

static minnx_dtype dtype_of(const char *descr, size_t len) {
  static const struct {
    const char *code;
    minnx_dtype t;
  } codes[] = {{"f4", MINNX_FLOAT},  {"f8", MINNX_DOUBLE}, {"f2", MINNX_FLOAT16}, {"i1", MINNX_INT8},
               {"i2", MINNX_INT16},  {"i4", MINNX_INT32},  {"i8", MINNX_INT64},   {"u1", MINNX_UINT8},
               {"u2", MINNX_UINT16}, {"u4", MINNX_UINT32}, {"u8", MINNX_UINT64},  {"b1", MINNX_BOOL}};
  if (len != 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '=')) return MINNX_UNDEFINED;
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (memcmp(descr + 1, codes[i].code, 2) == 0) return codes[i].t;
  return MINNX_UNDEFINED;
}

int npy_parse(const unsigned char *data, size_t size, minnx_tensor *t, char *why, size_t wn) {
  memset(t, 0, sizeof *t);
  if (size < 10 || memcmp(data, "\x93NUMPY", 6) != 0) return fail(why, wn, "not a .npy file (bad magic)");
  unsigned major = data[6];
  size_t hlen, start;
  if (major == 1) {
    hlen = (size_t)data[8] | (size_t)data[9] << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return fail(why, wn, "truncated .npy header");
    hlen = (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 | (size_t)data[11] << 24;
    start = 12;
  } else {
    return fail(why, wn, "unsupported .npy format version");
  }
  if (hlen > size - start) return fail(why, wn, "truncated .npy header");
  char *h = malloc(hlen + 1);
  if (!h) return fail(why, wn, "out of memory");
  memcpy(h, data + start, hlen);
  h[hlen] = '\0';
  int ok = 0;
  const char *d = find_key(h, "descr"), *fo = find_key(h, "fortran_order"), *sh = find_key(h, "shape");
  if (!d || !fo || !sh || *d != '\'') {
    fail(why, wn, ".npy header lacks descr, fortran_order or shape");
    goto out;
  }
  const char *dend = strchr(d + 1, '\'');
  t->dtype = dend ? dtype_of(d + 1, (size_t)(dend - d - 1)) : MINNX_UNDEFINED;
  if (t->dtype == MINNX_UNDEFINED) {
    fail(why, wn, ".npy dtype is not a little-endian numeric type minnx knows");
    goto out;
  }
  if (strncmp(fo, "False", 5) != 0) {
    fail(why, wn, ".npy data in Fortran order is not supported");
    goto out;
  }
  if (*sh != '(') {
    fail(why, wn, ".npy shape is not a tuple");
    goto out;
  }
  const char *p = sh + 1;
  size_t count = 1;
  int overflow = 0;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    if (!isdigit((unsigned char)*p) || t->rank == MINNX_MAX_RANK) {
      fail(why, wn, ".npy shape is malformed or of too high a rank");
      goto out;
    }
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (v > (unsigned long long)INT64_MAX) overflow = 1;
    t->dims[t->rank++] = (int64_t)v;
    if (v && count > SIZE_MAX / v) overflow = 1;
    count *= (size_t)v;
    p = end;
  }
  size_t es = minnx_dtype_size(t->dtype);
  if (overflow || count > SIZE_MAX / es) {
    fail(why, wn, ".npy shape is too large");
    goto out;
  }
  t->nbytes = count * es;
  if (t->nbytes != size - start - hlen) {
    fail(why, wn, ".npy data size does not match its shape");
    goto out;
  }
  t->data = (void *)(data + start + hlen);
  ok = 1;
out:
  free(h);
  return ok;
}

int npy_encode(const minnx_tensor *t, unsigned char **out, size_t *out_size) {
  static const char *const descr[] = {[MINNX_FLOAT] = "<f4",   [MINNX_UINT8] = "|u1",  [MINNX_INT8] = "|i1",
                                      [MINNX_UINT16] = "<u2",  [MINNX_INT16] = "<i2",  [MINNX_INT32] = "<i4",
                                      [MINNX_INT64] = "<i8",   [MINNX_BOOL] = "|b1",   [MINNX_FLOAT16] = "<f2",
                                      [MINNX_DOUBLE] = "<f8",  [MINNX_UINT32] = "<u4", [MINNX_UINT64] = "<u8",
                                      [MINNX_BFLOAT16] = "<u2"}; /* bfloat16: its bit patterns */
  if (t->dtype <= 0 || t->dtype > MINNX_BFLOAT16 || !descr[t->dtype] || t->rank < 0) return 0;
  char dict[400];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr[t->dtype]);
  for (int i = 0; i < t->rank; i++) n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld,%s", (long long)t->dims[i],
                                                  i + 1 < t->rank ? " " : "");
  if (t->rank > 1) n--; /* numpy writes (2, 3) but (3,) */
  n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  /* version 1.0: magic, version, header length, then the dict padded with
   * spaces and a newline so that the data starts at a multiple of 64 */
  size_t header = 10 + (size_t)n + 1;
  size_t pad = (64 - header % 64) % 64;
  size_t hlen = (size_t)n + pad + 1;
  *out_size = 10 + hlen + t->nbytes;
  unsigned char *b = malloc(*out_size);
  if (!b) return 0;
  memcpy(b, "\x93NUMPY\x01\x00", 8);
  b[8] = (unsigned char)(hlen & 0xff);
  b[9] = (unsigned char)(hlen >> 8);
  memcpy(b + 10, dict, (size_t)n);
  memset(b + 10 + n, ' ', pad);
  b[10 + hlen - 1] = '\n';
  if (t->nbytes) memcpy(b + 10 + hlen, t->data, t->nbytes);
  *out = b;
  return 1;
}
