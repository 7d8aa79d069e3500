#include "graph/err.h"

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

const char *minnx_status_name(minnx_status status) {
  static const char *const names[] = {"ok",    "argument",    "out of memory", "io",    "parse",
                                      "model", "unsupported operator", "dtype", "shape", "limit", "unsupported feature"};
  unsigned s = (unsigned)status;
  return s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}
