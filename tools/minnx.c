/* minnx: the command-line tool, a thin user of the public API (minnx.h).
 *
 *   minnx run MODEL [-i NAME=FILE]... [-o DIR] [--format npy|pb] [--print] [--threads N]
 *   minnx test PATH... [--filter PATTERN] [--threads N]
 *   minnx info MODEL
 *   minnx bench MODEL|DIR [-i NAME=FILE]... [--repeat N] [--warmup N] [--seed N] [--threads N]
 *   minnx ops MODEL
 *   minnx help | --help | --version | COMMAND --help
 *
 * Exit status: 0 success; 1 a test failed (or none ran), or ops found an
 * operator this build lacks; 2 bad usage, or a
 * model/input refused at load; 3 an error while running. The options and
 * help are options.c; each command is its own file. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int die(int code, const char *fmt, ...) {
  va_list ap;
  fputs("minnx: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return code;
}

int main(int argc, char **argv) {
  cli c = {.repeat = 100, .warmup = 10, .seed = 1, .profile_top = 25};
  c.positional = calloc((size_t)argc, sizeof *c.positional);
  c.inputs = calloc((size_t)argc, sizeof *c.inputs);
  command_fn fn = NULL;
  int rc = c.positional && c.inputs ? parse_command_line(argc, argv, &c, &fn) : die(EXIT_LOAD, "out of memory");
  if (rc < 0) rc = fn(&c);
  close_workers();
  free(c.positional);
  free(c.inputs);
  return rc;
}
