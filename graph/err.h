/* Error reporting: a status plus a formatted one-line message. */
#ifndef MX_ERR_H
#define MX_ERR_H

#include "minnx.h"

typedef minnx_error mx_err;

/* Records status and message in err (if not NULL) and returns status. */
minnx_status mx_fail(mx_err *err, minnx_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
