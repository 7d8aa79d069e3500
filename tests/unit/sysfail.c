/* See sysfail.h. */
#define _POSIX_C_SOURCE 200809L
#include "sysfail.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
int __real_pthread_join(pthread_t t, void **ret);
int __real_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int __real_pthread_mutex_destroy(pthread_mutex_t *m);
int __real_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a);
int __real_pthread_cond_destroy(pthread_cond_t *c);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg);
int __wrap_pthread_join(pthread_t t, void **ret);
int __wrap_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int __wrap_pthread_mutex_destroy(pthread_mutex_t *m);
int __wrap_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a);
int __wrap_pthread_cond_destroy(pthread_cond_t *c);

sysfail_state sysfail = {-2, 0, 0, "", "", 0, 0, 0}; /* at -2: not read from the environment yet */

void sysfail_reset(long at) {
  sysfail = (sysfail_state){at, 0, 0, "", "", sysfail.threads, sysfail.mutexes, sysfail.conds};
}

/* A program driven by MINNX_SYSFAIL_AT says at exit what it left alive. */
static void report(void) {
  fprintf(stderr, "sysfail: %ld start calls; alive at exit: %ld threads, %ld mutexes, %ld condition variables\n",
          sysfail.calls, sysfail.threads, sysfail.mutexes, sysfail.conds);
}

/* Numbers a start call; nonzero when it is the one to refuse (with `error`). */
static int refuse(const char *what, const char *error) {
  if (sysfail.at == -2) {
    const char *v = getenv("MINNX_SYSFAIL_AT");
    sysfail.at = v ? atol(v) : -1;
    if (v) atexit(report);
  }
  if (sysfail.calls++ != sysfail.at) return 0;
  sysfail.failed = 1;
  sysfail.what = what;
  sysfail.error = error;
  return 1;
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
  if (refuse("worker thread", "EAGAIN")) return EAGAIN;
  int e = __real_pthread_create(t, a, f, arg);
  if (!e) sysfail.threads++;
  return e;
}

int __wrap_pthread_join(pthread_t t, void **ret) {
  int e = __real_pthread_join(t, ret);
  if (!e) sysfail.threads--;
  return e;
}

int __wrap_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
  if (refuse("a mutex", "ENOMEM")) return ENOMEM;
  int e = __real_pthread_mutex_init(m, a);
  if (!e) sysfail.mutexes++;
  return e;
}

int __wrap_pthread_mutex_destroy(pthread_mutex_t *m) {
  int e = __real_pthread_mutex_destroy(m);
  if (!e) sysfail.mutexes--;
  return e;
}

int __wrap_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
  if (refuse("a condition variable", "EAGAIN")) return EAGAIN;
  int e = __real_pthread_cond_init(c, a);
  if (!e) sysfail.conds++;
  return e;
}

int __wrap_pthread_cond_destroy(pthread_cond_t *c) {
  int e = __real_pthread_cond_destroy(c);
  if (!e) sysfail.conds--;
  return e;
}
