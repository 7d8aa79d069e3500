/* The command line: options (one table, a row per option naming the
 * commands that take it), the commands, their help, and the parse. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Sets an option from its value (NULL for a flag); returns NULL, or what was wrong. */
typedef const char *(*option_setter)(cli *c, const char *value);

typedef struct {
  const char *commands; /* the commands taking it, space-separated */
  const char *name, *metavar, *help;
  option_setter set;
} option;

static int parse_count(const char *s, long min, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > 100000000) return 0;
  *out = v;
  return 1;
}

static const char *set_input(cli *c, const char *v) {
  const char *eq = strchr(v, '=');
  if (!eq || eq == v || !eq[1]) return "-i takes NAME=FILE";
  for (int k = 0; k < c->n_inputs; k++)
    if (strncmp(c->inputs[k], v, (size_t)(eq - v) + 1) == 0) return "input name given twice";
  c->inputs[c->n_inputs++] = (char *)v;
  return NULL;
}
static const char *set_out_dir(cli *c, const char *v) { return c->out_dir = v, NULL; }
static const char *set_print(cli *c, const char *v) { return (void)v, c->print = 1, NULL; }
static const char *set_format(cli *c, const char *v) {
  if (strcmp(v, "npy") != 0 && strcmp(v, "pb") != 0) return "takes npy or pb";
  return c->format = v, NULL;
}
static const char *set_filter(cli *c, const char *v) { return c->filter = v, NULL; }
static const char *set_repeat(cli *c, const char *v) {
  return parse_count(v, 1, &c->repeat) ? NULL : "takes a count from 1 to 100000000";
}
static const char *set_warmup(cli *c, const char *v) {
  return parse_count(v, 0, &c->warmup) ? NULL : "takes a count from 0 to 100000000";
}
static const char *set_threads(cli *c, const char *v) {
  return parse_count(v, 1, &c->threads) && c->threads <= 1024 ? NULL : "takes a count from 1 to 1024";
}
static const char *set_seed(cli *c, const char *v) {
  char *end;
  errno = 0;
  c->seed = strtoull(v, &end, 10);
  return errno || end == v || *end || v[0] == '-' ? "takes a non-negative integer" : NULL;
}

static const char *set_isa(cli *c, const char *v) {
  static const char *const names[] = {"native", "portable", "avx2", "avx512"};
  int k = 0;
  while (k < 4 && strcmp(v, names[k]) != 0) k++;
  if (k == 4) return "takes native, portable, avx2 or avx512";
  if (k > (int)minnx_isa_available()) {
    static char why[64]; /* the CLI's own: it parses once */
    snprintf(why, sizeof why, "this build and CPU have up to %s", names[minnx_isa_available()]);
    return why;
  }
  return c->isa = k, NULL;
}
static const char *set_digest(cli *c, const char *v) { return (void)v, c->digest = 1, NULL; }
static const char *set_profile(cli *c, const char *v) { return (void)v, c->profile = 1, NULL; }
static const char *set_profile_top(cli *c, const char *v) {
  return parse_count(v, 0, &c->profile_top) ? NULL : "takes a count from 0 to 100000000";
}

minnx_load_options load_options(const cli *c) {
  minnx_load_options o = {0};
  o.max_isa = c->isa;
  return o;
}

static const option options[] = {
    {"run bench info", "-i", "NAME=FILE", "bind graph input NAME to FILE (.npy, or a TensorProto .pb); once per input",
     set_input},
    {"run", "-o", "DIR", "write each output to DIR/<output name>.<format> (DIR is created when missing)",
     set_out_dir},
    {"run", "--format", "npy|pb", "the format of -o's files (default: npy when every -i file is .npy, else pb)",
     set_format},
    {"run", "--print", NULL, "print each output, nested like numpy", set_print},
    {"test", "--filter", "PATTERN", "run only the cases whose name matches PATTERN: a shell glob (* ? [...]), "
                                    "or without glob characters a substring", set_filter},
    {"bench info", "--repeat", "N", "timed samples (default 100); with --profile, also the profiled runs", set_repeat},
    {"bench info", "--warmup", "N", "untimed runs first (default 10)", set_warmup},
    {"bench info", "--seed", "N", "seed of the generated inputs (default 1)", set_seed},
    {"run test bench info", "--threads", "N", "threads each session runs on, 1 to 1024 (default: the online CPUs; 1 in a build without the thread pool)",
     set_threads},
    {"run test bench info", "--isa", "LEVEL", "the highest instruction-set level of the kernels: native (default: the "
                                         "highest this build and CPU have), portable, avx2 or avx512; every level "
                                         "gives the same bits, and a level the CPU lacks is refused", set_isa},
    {"bench info", "--profile", NULL, "run the model --repeat more times with a clock read between nodes and print "
                                     "each node's time per run and share (the 25 slowest, then the rest), then each "
                                     "operator's (info: on -i's or generated inputs, as bench; its other options "
                                     "matter only with this one)", set_profile},
    {"bench info", "--profile-top", "N", "with --profile, the N slowest nodes by name (default 25; 0: every node)",
     set_profile_top},
    {"test", "--digest", NULL, "end each PASS line with ' digest=' and 16 hex digits: a hash of the outputs' "
                               "dtypes, shapes and bits (every NaN counted as one), to compare runs across ISA "
                               "levels and machines",
     set_digest},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static int takes(const option *o, const char *cmd) {
  size_t n = strlen(cmd);
  for (const char *p = o->commands; (p = strstr(p, cmd)); p += n)
    if ((p == o->commands || p[-1] == ' ') && (p[n] == ' ' || !p[n])) return 1;
  return 0;
}

typedef struct {
  const char *name, *args, *what;
  int min_pos, max_pos; /* positional arguments */
  command_fn fn;
} command;

static const command commands[] = {
    {"run", "MODEL", "Runs MODEL on the inputs given and prints each output's dtype and shape; with -o writes "
                     "them and prints 'wrote DIR/NAME.npy (dtype [shape])' per file instead; with --print prints "
                     "them. Files are written only after a successful run.", 1, 1, cmd_run},
    {"test", "PATH...", "Runs ONNX test cases: PATH is a case folder (model.onnx and test_data_set_*/ with "
                        "input_N.pb, output_N.pb) or a folder of them. Prints 'PASS name', 'FAIL name: reason', "
                        "'SKIP name: reason' (an operator, dtype or model feature minnx does not implement) or "
                        "'DIVERGE name: what' (a known divergence of the test data, README; never a pass), then "
                        "'N known divergences (see README)' when there are any, and 'N passed, N failed, N "
                        "skipped'. Outputs must match in dtype and shape, and in value exactly (NaN matches NaN, -0.0 "
                        "matches 0.0) when every node of the model is exact under the numeric contract; else "
                        "within ONNX's tolerance, |got - expected| <= 1e-7 + 1e-3 |expected| (NaN matches NaN, "
                        "an infinity the same infinity), with the case's largest absolute and relative errors "
                        "printed on its line. A run in which no case matched is an error.", 1, 1 << 30, cmd_test},
    {"info", "MODEL", "Prints the opset imports, each node with the schema version it resolved to, every value "
                      "with its dtype and shape (dim_param names kept; graph inputs, outputs and initializers "
                      "marked), the arena size and the caller memory a model and a session need (with -i for every input "
                      "of a model with symbolic dims, the session's for those shapes, arena included); with --profile, where a run's "
                      "time goes, node by node and operator by operator.", 1, 1, cmd_info},
    {"bench", "MODEL|DIR", "Times session runs: MODEL is a .onnx file, or DIR holds model.onnx with input_N.pb "
                           "(there or in test_data_set_0/). Inputs not given with -i and not in DIR are generated "
                           "from the declared dtype and shape (uniform in [-1,1) for floats, full range for "
                           "integers, 0/1 for bool; reproducible from --seed). Prints 'runs=... min_ns=...' and "
                           "last 'ns_per_run=<median>' (with --profile, the time of each node before them).", 1, 1, cmd_bench},
    {"ops", "MODEL", "Prints the operators MODEL's graph and subgraphs hold, sorted and ';'-separated as the "
                     "MINNX_OPS build option takes them (an operator outside the default domain as DOMAIN.OpType): "
                     "a firmware build of just these ops is cmake -DMINNX_OPS=\"$(minnx ops MODEL)\". The model "
                     "is not loaded, so a model this build refuses is listed too. When this build lacks some of "
                     "them (not implemented by minnx, left out by MINNX_OPS, or no version at the model's opset), "
                     "one error line names each with the reason and the exit status is 1; the list is printed "
                     "all the same.", 1, 1, cmd_ops},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char exit_text[] =
    "Exit status: 0 success; 1 a test failed, or no test case matched, or (ops) this build lacks an operator;\n"
    "2 bad usage, or a model or input refused at load; 3 an error while running or writing outputs. Errors are\n"
    "one stderr line starting 'minnx: error: '.\n";

/* Prints text wrapped at 100 columns, `first` columns already used on the
 * first line and continuation lines indented by `indent`. */
static void print_wrapped(const char *text, int first, int indent) {
  int col = first, fresh = 1; /* fresh: no word on this line yet */
  for (const char *p = text; *p;) {
    size_t w = strcspn(p, " ");
    if (!fresh && col + 1 + (int)w > 100) printf("\n%*s", indent, ""), col = indent, fresh = 1;
    if (!fresh) putchar(' '), col++;
    printf("%.*s", (int)w, p);
    col += (int)w, fresh = 0;
    p += w;
    while (*p == ' ') p++;
  }
  putchar('\n');
}

static void print_usage_line(FILE *f, const command *c) {
  fprintf(f, "minnx %s %s", c->name, c->args);
  for (size_t k = 0; k < N_OPTIONS; k++)
    if (takes(&options[k], c->name))
      fprintf(f, " [%s%s%s]%s", options[k].name, options[k].metavar ? " " : "",
              options[k].metavar ? options[k].metavar : "", options[k].set == set_input ? "..." : "");
  fputc('\n', f);
}

static void print_options(FILE *f, const command *c) {
  for (size_t k = 0; k < N_OPTIONS; k++)
    if (takes(&options[k], c->name)) {
      char left[64];
      snprintf(left, sizeof left, "%s%s%s", options[k].name, options[k].metavar ? " " : "",
               options[k].metavar ? options[k].metavar : "");
      fprintf(f, "  %-18s ", left);
      print_wrapped(options[k].help, 21, 21);
    }
}

static void print_command_help(const command *c) {
  printf("usage: ");
  print_usage_line(stdout, c);
  putchar('\n');
  print_wrapped(c->what, 0, 0);
  int any = 0;
  for (size_t k = 0; k < N_OPTIONS; k++) any |= takes(&options[k], c->name);
  if (any) printf("\noptions:\n"), print_options(stdout, c);
  printf("\n%s", exit_text);
}

static void print_help(void) {
  printf("minnx %s: a small, exact ONNX interpreter.\n\nusage:\n", minnx_version());
  for (size_t i = 0; i < N_COMMANDS; i++) printf("  "), print_usage_line(stdout, &commands[i]);
  printf("  minnx help | --help | --version | COMMAND --help\n");
  for (size_t i = 0; i < N_COMMANDS; i++) {
    printf("\n%s: ", commands[i].name);
    print_wrapped(commands[i].what, (int)strlen(commands[i].name) + 2, 2);
    print_options(stdout, &commands[i]);
  }
  printf("\nInput files: .npy (numpy; little-endian, C order) or a serialized TensorProto (.pb, any other name).\n"
         "Output files (run -o): DIR/<output name>.npy or .pb (bfloat16 in .npy: uint16 bit patterns).\n\n%s",
         exit_text);
}

static int bad_usage(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "minnx: error: %s%s", cmd ? cmd : "", cmd ? ": " : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "; see 'minnx %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
  return EXIT_LOAD;
}

/* Parses argv (after the command's name) into c; returns -1 when it is
 * fine, else the exit status (help printed, or bad usage reported). */
static int parse_args(const command *cmd, int argc, char **argv, cli *c) {
  const char *label = cmd->name;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      print_command_help(cmd);
      return EXIT_OK;
    }
    if (a[0] != '-' || !a[1]) {
      if (c->n_positional == cmd->max_pos) return bad_usage(label, "unexpected argument '%s'", a);
      c->positional[c->n_positional++] = argv[i];
      continue;
    }
    const option *o = NULL;
    for (size_t k = 0; k < N_OPTIONS && !o; k++)
      if (strcmp(options[k].name, a) == 0 && takes(&options[k], cmd->name)) o = &options[k];
    if (!o) return bad_usage(label, "unknown option '%s'", a);
    const char *value = NULL;
    if (o->metavar) {
      if (i + 1 >= argc) return bad_usage(label, "%s needs a value (%s)", a, o->metavar);
      value = argv[++i];
    }
    const char *why = o->set(c, value);
    if (why) return bad_usage(label, "%s %s: %s", a, value ? value : "", why);
  }
  if (c->n_positional < cmd->min_pos) return bad_usage(label, "missing %s", cmd->args);
  return -1;
}

/* Finds the command in argv[1] and parses the rest for it; -1 with *fn set
 * when it is to run, else the exit status (help or version printed, or bad
 * usage reported). */
int parse_command_line(int argc, char **argv, cli *c, command_fn *fn) {
  if (argc < 2) return bad_usage(NULL, "no command given (run, test, info, bench, ops, help)");
  const char *name = argv[1];
  if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    if (argc > 2) return bad_usage(NULL, "%s takes no argument; for a command's help: minnx COMMAND --help", name);
    print_help();
    return EXIT_OK;
  }
  if (strcmp(name, "--version") == 0) {
    if (argc > 2) return bad_usage(NULL, "--version takes no argument");
    printf("minnx %s\n", minnx_version());
    return EXIT_OK;
  }
  for (size_t i = 0; i < N_COMMANDS; i++) {
    if (strcmp(name, commands[i].name) != 0) continue;
    c->cmd = name;
    *fn = commands[i].fn;
    return parse_args(&commands[i], argc - 2, argv + 2, c);
  }
  return bad_usage(NULL, "unknown command '%s' (run, test, info, bench, ops, help)", name);
}
