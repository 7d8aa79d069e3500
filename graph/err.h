/* Error reporting: a status plus a formatted one-line message. */
#ifndef MX_ERR_H
#define MX_ERR_H

#include "minnx.h"

typedef minnx_error mx_err;

#ifndef MX_NO_MESSAGES
/* Records status and message in err (if not NULL) and returns status. */
minnx_status mx_fail(mx_err *err, minnx_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Puts the words of fmt before the message a callee recorded in err (the
 * caller's context, e.g. which node), in place, and sets the status. */
minnx_status mx_fail_prefix(mx_err *err, minnx_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#else
/* Built without messages (MINNX_MESSAGES=OFF): the message is the status's
 * name, and the format strings and their arguments are left out of the
 * binary. They are still type-checked: sizeof does not evaluate its operand. */
minnx_status mx_fail_status(mx_err *err, minnx_status status);
int mx_format_check(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
#define mx_fail(err, status, ...) ((void)sizeof(mx_format_check(__VA_ARGS__)), mx_fail_status((err), (status)))
#define mx_fail_prefix(err, status, ...) ((void)sizeof(mx_format_check(__VA_ARGS__)), mx_fail_status((err), (status)))
#endif

#endif
