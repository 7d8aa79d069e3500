/* What eval sees besides its plan: the parallel-for hook of the session. The
 * same definitions as the op contract's (ops/op.h), which takes this over
 * once every op is on the contract. */
#ifndef MX_EXEC_H
#define MX_EXEC_H

#include <stdint.h>

/* Runs task(ctx, i) for every i in [0, n), in any order, possibly at once on
 * several threads; returns when all are done. */
typedef void (*mx_task_fn)(void *ctx, int64_t i);
typedef void (*mx_parallel_fn)(void *pool, mx_task_fn task, void *ctx, int64_t n);

typedef struct mx_exec {
  mx_parallel_fn parallel; /* NULL: tasks run inline, in order */
  void *pool;              /* parallel's own state */
  void *scratch;           /* this node's scratch (prepare's c->scratch bytes), NULL when none */
} mx_exec;

/* What a kernel calls to split its work. */
static inline void mx_parallel_for(const mx_exec *x, mx_task_fn task, void *ctx, int64_t n) {
  if (x->parallel) {
    x->parallel(x->pool, task, ctx, n);
    return;
  }
  for (int64_t i = 0; i < n; i++) task(ctx, i);
}

/* How kernels split: bytes below which a node runs whole on the calling
 * thread (waking other threads costs microseconds), and that a task takes at
 * least; the most tasks of one node (handed out as threads free up). Tasks
 * depend on the data's size only, never on the thread count. */
#ifndef MX_TASK_BYTES /* the fuzz build splits small nodes too (CMakeLists.txt) */
#define MX_TASK_BYTES (64 * 1024)
#endif
#define MX_MAX_TASKS 256

#endif
