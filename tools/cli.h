/* What the command-line tool's files share: the parsed command line, the
 * exit statuses, the one error line, and a session on the process's workers.
 * Each command is a file of its own (run.c, test.c, info.c, bench.c, ops.c); the
 * options and help are options.c, tensors from and to files tensor_io.h. */
#ifndef MINNX_TOOLS_CLI_H
#define MINNX_TOOLS_CLI_H

#include "minnx.h"

/* DESIGN.md's contract: scripts depend on these. */
enum { EXIT_OK = 0, EXIT_TEST_FAILED = 1, EXIT_LOAD = 2, EXIT_RUN = 3 };

/* Everything any command may be given; each command reads its own fields. */
typedef struct {
  const char *cmd;
  char **positional;
  int n_positional;
  char **inputs; /* the -i values, NAME=FILE */
  int n_inputs;
  const char *out_dir, *format, *filter;
  int print;
  long repeat, warmup;
  long threads; /* --threads: 0 when not given (the online CPUs, where the build has workers) */
  int isa;      /* --isa: a minnx_isa, 0 (native) when not given */
  int digest;   /* --digest: test's PASS lines end with the outputs' digest */
  int profile;  /* --profile: bench and info print each node's time */
  long profile_top; /* --profile-top: the nodes listed by name (0: all) */
  unsigned long long seed;
} cli;

/* Prints `minnx: error: ...` to stderr; returns code. */
int die(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

typedef int (*command_fn)(cli *c);

/* Finds the command named by argv[1] and parses the rest of argv into c (whose
 * positional and inputs arrays hold argc entries); returns -1 with *fn set
 * when the command is to run, else the exit status (help or version printed,
 * or bad usage reported). */
int parse_command_line(int argc, char **argv, cli *c, command_fn *fn);

/* Load options for c: the kernels' level (--isa). */
minnx_load_options load_options(const cli *c);

/* A session on m over the threads asked for (--threads, else the online
 * CPUs), in the process's one pool: a pool per session cost more to start
 * and stop than most test cases take to run. A pool that cannot start is an
 * error (never fewer threads than asked behind the user's back). */
minnx_status open_session(const minnx_model *m, long threads, minnx_session **s, minnx_error *err);
/* Stops the pool, after the last session that used it was freed. */
void close_workers(void);

int cmd_run(cli *c);
int cmd_test(cli *c);
int cmd_info(cli *c);
int cmd_bench(cli *c);
int cmd_ops(cli *c);

/* info --profile (bench.c): a session on m as bench opens it (--threads, -i or
 * generated inputs), --warmup runs, then --repeat runs timed node by node and
 * printed as bench --profile prints them. */
int profile_model(cli *c, const minnx_model *m);

#endif
