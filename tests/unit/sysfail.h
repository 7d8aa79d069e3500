/* The pthread calls that start and stop minnx's default pool, made to fail on
 * demand: a binary linked with -Wl,--wrap for each (tests/CMakeLists.txt,
 * SYSFAIL_WRAP) sends its references to them, the static library's included,
 * to tests/unit/sysfail.c. The start calls (pthread_create,
 * pthread_mutex_init, pthread_cond_init) are numbered from 0 in the order
 * made; the one numbered `at` returns an error instead of starting anything.
 * The counts show what is alive, so that a test sees nothing was left
 * behind, and that the calls were reached at all. Not thread-safe: the pool
 * is started and stopped by the caller's thread. A program whose `at` came
 * from the environment prints the calls made and what is alive at its exit. */
#ifndef MINNX_TEST_SYSFAIL_H
#define MINNX_TEST_SYSFAIL_H

typedef struct {
  long at;            /* the start call that fails (-1: none); set by sysfail_reset, or
                       * from the environment's MINNX_SYSFAIL_AT before the first call */
  long calls;         /* start calls made so far */
  int failed;         /* the call numbered `at` was made, and refused */
  const char *what;   /* what was refused, as minnx's message names it ("worker thread"...) */
  const char *error;  /* the error returned, by name ("EAGAIN"...) */
  long threads;       /* threads created and not yet joined */
  long mutexes, conds; /* initialized and not yet destroyed */
} sysfail_state;

extern sysfail_state sysfail;

/* Counts from 0 again, the call numbered `at` to fail. */
void sysfail_reset(long at);

#endif
