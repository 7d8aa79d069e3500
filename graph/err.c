#include "graph/err.h"

#include <string.h>

#ifndef MX_NO_MESSAGES
#include <stdarg.h>
#include <stdio.h>

minnx_status mx_fail(mx_err *err, minnx_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
  }
  return status;
}

minnx_status mx_fail_prefix(mx_err *err, minnx_status status, const char *fmt, ...) {
  if (err) {
    char *m = err->message;
    size_t room = sizeof err->message - 1; /* characters the message holds */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t k = n < 0 ? 0 : (size_t)n < room ? (size_t)n : room; /* the prefix's characters kept */
    const char *end = memchr(m, '\0', room);
    size_t keep = end ? (size_t)(end - m) : room;
    if (keep > room - k) keep = room - k; /* the cause's, cut at the end as one long message would be */
    memmove(m + k, m, keep);
    m[k + keep] = '\0';
    char first = m[k]; /* vsnprintf ends the prefix with a NUL there */
    va_start(ap, fmt);
    vsnprintf(m, k + 1, fmt, ap);
    va_end(ap);
    m[k] = first;
    err->status = status;
  }
  return status;
}
#else
minnx_status mx_fail_status(mx_err *err, minnx_status status) {
  if (err) {
    const char *name = minnx_status_name(status);
    size_t n = strlen(name);
    memcpy(err->message, name, n + 1 < sizeof err->message ? n + 1 : sizeof err->message);
    err->status = status;
  }
  return status;
}
#endif

const char *minnx_status_name(minnx_status status) {
  static const char *const names[] = {"ok",    "argument",    "out of memory", "io",    "parse",
                                      "model", "unsupported operator", "dtype", "shape", "limit", "unsupported feature"};
  unsigned s = (unsigned)status;
  return s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}
