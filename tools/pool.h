/* The command-line tool's one thread pool, shared by all its sessions. */
#ifndef MINNX_TOOLS_POOL_H
#define MINNX_TOOLS_POOL_H

#include "minnx.h"

/* Whether this build has the pool (MINNX_THREADS); without it, the tool's
 * default is one thread. */
int cli_pool_available(void);
/* Runs s over `threads` threads (> 1) in the process's pool, started on the
 * first call with that many threads: a pool per session cost more to start
 * and stop than most test cases take to run. */
minnx_status cli_pool_attach(minnx_session *s, size_t threads, minnx_error *err);
/* Stops the pool, after the last session that used it was freed. */
void cli_pool_stop(void);

#endif
