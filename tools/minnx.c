/* minnx: the command-line tool, a thin user of the public API.
 *
 *   minnx run MODEL [-i NAME=FILE]... [-o DIR] [--format npy|pb] [--print] [--threads N]
 *   minnx test PATH... [--filter PATTERN] [--threads N]
 *   minnx info MODEL
 *   minnx bench MODEL|DIR [-i NAME=FILE]... [--repeat N] [--warmup N] [--seed N] [--threads N]
 *   minnx help | --help | --version | COMMAND --help
 *
 * Exit status: 0 success; 1 a test failed (or none ran); 2 bad usage, or a
 * model/input refused at load; 3 an error while running. Options are one
 * table (below): an option is one row naming the commands that take it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "divergence.h"
#include "files.h"
#include "minnx.h"
#include "npy.h"
#include "pool.h"

enum { EXIT_OK = 0, EXIT_TEST_FAILED = 1, EXIT_LOAD = 2, EXIT_RUN = 3 };

static int die(int code, const char *fmt, ...) {
  va_list ap;
  fputs("minnx: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return code;
}

/* ---- the command line ---- */

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
  long threads; /* --threads: 0 until given, then the online CPUs */
  unsigned long long seed;
} cli;

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

static const option options[] = {
    {"run bench", "-i", "NAME=FILE", "bind graph input NAME to FILE (.npy, or a TensorProto .pb); once per input",
     set_input},
    {"run", "-o", "DIR", "write each output to DIR/<output name>.<format> (DIR is created when missing)",
     set_out_dir},
    {"run", "--format", "npy|pb", "the format of -o's files (default: npy when every -i file is .npy, else pb)",
     set_format},
    {"run", "--print", NULL, "print each output, nested like numpy", set_print},
    {"test", "--filter", "PATTERN", "run only the cases whose name matches PATTERN: a shell glob (* ? [...]), "
                                    "or without glob characters a substring", set_filter},
    {"bench", "--repeat", "N", "timed samples (default 100)", set_repeat},
    {"bench", "--warmup", "N", "untimed runs first (default 10)", set_warmup},
    {"bench", "--seed", "N", "seed of the generated inputs (default 1)", set_seed},
    {"run test bench", "--threads", "N", "threads each session runs on, 1 to 1024 (default: the online CPUs; 1 in a build without the thread pool)",
     set_threads},
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
} command;

static const command commands[] = {
    {"run", "MODEL", "Runs MODEL on the inputs given and prints each output's dtype and shape (or writes them with "
                     "-o, prints them with --print). Files are written only after a successful run.", 1, 1},
    {"test", "PATH...", "Runs ONNX test cases: PATH is a case folder (model.onnx and test_data_set_*/ with "
                        "input_N.pb, output_N.pb) or a folder of them. Prints 'PASS name', 'FAIL name: reason', "
                        "'SKIP name: reason' (an operator, dtype or model feature minnx does not implement) or "
                        "'DIVERGE name: what' (a known divergence of the test data, README; never a pass), then "
                        "'N known divergences (see README)' when there are any, and 'N passed, N failed, N "
                        "skipped'. Outputs must match exactly in dtype, shape and value (NaN matches NaN, -0.0 "
                        "matches 0.0). A run in which no case matched is an error.", 1, 1 << 30},
    {"info", "MODEL", "Prints the opset imports, each node with the schema version it resolved to, every value "
                      "with its dtype and shape (dim_param names kept; graph inputs, outputs and initializers "
                      "marked), the arena size and the caller memory a model and a session need.", 1, 1},
    {"bench", "MODEL|DIR", "Times session runs: MODEL is a .onnx file, or DIR holds model.onnx with input_N.pb "
                           "(there or in test_data_set_0/). Inputs not given with -i and not in DIR are generated "
                           "from the declared dtype and shape (uniform in [-1,1) for floats, full range for "
                           "integers, 0/1 for bool; reproducible from --seed). Prints 'runs=... min_ns=...' and "
                           "last 'ns_per_run=<median>'.", 1, 1},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char exit_text[] =
    "Exit status: 0 success; 1 a test failed, or no test case matched; 2 bad usage, or a model or input refused\n"
    "at load; 3 an error while running or writing outputs. Errors are one stderr line starting 'minnx: error: '.\n";

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

/* A session on m with the threads asked for (--threads), in the process's one pool. */
static minnx_status open_session(const minnx_model *m, long threads, minnx_session **s, minnx_error *err) {
  minnx_status st = minnx_session_create(m, s, err);
  if (!st && threads > 1 && (st = cli_pool_attach(*s, (size_t)threads, err))) {
    minnx_session_free(*s);
    *s = NULL;
  }
  return st;
}

/* ---- tensors from files ---- */

/* A tensor read from a file; its data is malloc'd and owned here. */
typedef struct {
  minnx_tensor t;
  char *name; /* from a .pb file, or NULL */
} file_tensor;

static void file_tensor_free(file_tensor *f) {
  free(f->t.data);
  free(f->name);
  memset(f, 0, sizeof *f);
}

static int ends_with(const char *s, const char *suffix) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Reads a .pb (TensorProto) or .npy file; on failure, why holds the cause. */
static int read_tensor(const char *path, file_tensor *out, char *why, size_t wn) {
  memset(out, 0, sizeof *out);
  unsigned char *bytes;
  size_t size;
  int e = read_file(path, &bytes, &size);
  if (e) {
    snprintf(why, wn, "cannot read '%s': %s", path, strerror(e));
    return 0;
  }
  int ok;
  if (ends_with(path, ".npy")) {
    ok = npy_parse(bytes, size, &out->t, why, wn);
    if (ok) { /* copy, so the data is aligned and owned */
      void *d = malloc(out->t.nbytes ? out->t.nbytes : 1);
      if (d && out->t.nbytes) memcpy(d, out->t.data, out->t.nbytes);
      out->t.data = d;
      if (!d) ok = 0, snprintf(why, wn, "out of memory");
    }
  } else {
    minnx_error err;
    ok = minnx_tensor_decode(bytes, size, NULL, &out->t, &out->name, &err) == MINNX_OK;
    if (!ok) snprintf(why, wn, "'%s': %s", path, err.message);
  }
  free(bytes);
  return ok;
}

static const char *shape_text(const minnx_tensor *t, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->rank && k < n; i++) {
    if (t->dims[i] < 0) k += (size_t)snprintf(buf + k, n - k, "%s?", i ? "," : "");
    else k += (size_t)snprintf(buf + k, n - k, "%s%" PRId64, i ? "," : "", t->dims[i]);
  }
  if (k < n) snprintf(buf + k, n - k, "]");
  return buf;
}

static void print_shape(FILE *f, const minnx_tensor *t) {
  char buf[256];
  fputs(t->rank < 0 ? "[?]" : shape_text(t, buf, sizeof buf), f);
}

static float half_to_float(uint16_t h, int bf16) {
  if (bf16) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v;
  if (exp == 0) v = ldexpf((float)man, -24);
  else if (exp == 31) v = man ? NAN : INFINITY;
  else v = ldexpf((float)(man | 0x400), exp - 25);
  return sign ? -v : v;
}

/* Element i of t as text. */
static void format_elem(const minnx_tensor *t, size_t i, char *buf, size_t n) {
  const void *d = t->data;
  switch (t->dtype) {
    case MINNX_FLOAT: snprintf(buf, n, "%.9g", ((const float *)d)[i]); break;
    case MINNX_DOUBLE: snprintf(buf, n, "%.17g", ((const double *)d)[i]); break;
    case MINNX_FLOAT16: snprintf(buf, n, "%.5g", half_to_float(((const uint16_t *)d)[i], 0)); break;
    case MINNX_BFLOAT16: snprintf(buf, n, "%.4g", half_to_float(((const uint16_t *)d)[i], 1)); break;
    case MINNX_INT8: snprintf(buf, n, "%d", ((const int8_t *)d)[i]); break;
    case MINNX_INT16: snprintf(buf, n, "%d", ((const int16_t *)d)[i]); break;
    case MINNX_INT32: snprintf(buf, n, "%" PRId32, ((const int32_t *)d)[i]); break;
    case MINNX_INT64: snprintf(buf, n, "%" PRId64, ((const int64_t *)d)[i]); break;
    case MINNX_UINT8: case MINNX_BOOL: snprintf(buf, n, "%u", ((const uint8_t *)d)[i]); break;
    case MINNX_UINT16: snprintf(buf, n, "%u", ((const uint16_t *)d)[i]); break;
    case MINNX_UINT32: snprintf(buf, n, "%" PRIu32, ((const uint32_t *)d)[i]); break;
    case MINNX_UINT64: snprintf(buf, n, "%" PRIu64, ((const uint64_t *)d)[i]); break;
    default: snprintf(buf, n, "?"); break;
  }
}

/* ---- exact comparison ---- */

static int is_nan_elem(minnx_dtype t, const unsigned char *p) {
  uint16_t h;
  switch (t) {
    case MINNX_FLOAT: { float f; memcpy(&f, p, 4); return f != f; }
    case MINNX_DOUBLE: { double f; memcpy(&f, p, 8); return f != f; }
    case MINNX_FLOAT16: memcpy(&h, p, 2); return (h & 0x7fff) > 0x7c00;
    case MINNX_BFLOAT16: memcpy(&h, p, 2); return (h & 0x7fff) > 0x7f80;
    default: return 0;
  }
}

static int is_zero_elem(minnx_dtype t, const unsigned char *p) {
  size_t es = minnx_dtype_size(t);
  unsigned char sign_cleared[8];
  memcpy(sign_cleared, p, es);
  sign_cleared[es - 1] &= 0x7f; /* little-endian: the sign is the top bit of the last byte */
  for (size_t i = 0; i < es; i++)
    if (sign_cleared[i]) return 0;
  return 1;
}

/* Equal in dtype, shape and every value: NaN matches NaN, -0.0 matches 0.0. */
static int tensors_match(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn) {
  if (want->dtype != got->dtype) {
    snprintf(why, wn, "dtype %s, expected %s", minnx_dtype_name(got->dtype), minnx_dtype_name(want->dtype));
    return 0;
  }
  int same_shape = want->rank == got->rank;
  for (int i = 0; same_shape && i < want->rank; i++) same_shape = want->dims[i] == got->dims[i];
  if (!same_shape) {
    char a[128], b[128];
    snprintf(why, wn, "shape %s, expected %s", shape_text(got, a, sizeof a), shape_text(want, b, sizeof b));
    return 0;
  }
  size_t es = minnx_dtype_size(want->dtype);
  if (want->nbytes != got->nbytes) {
    snprintf(why, wn, "%zu bytes, expected %zu", got->nbytes, want->nbytes);
    return 0;
  }
  int floating = want->dtype == MINNX_FLOAT || want->dtype == MINNX_DOUBLE || want->dtype == MINNX_FLOAT16 ||
                 want->dtype == MINNX_BFLOAT16;
  const unsigned char *w = want->data, *g = got->data;
  for (size_t i = 0; es && i < want->nbytes / es; i++) {
    const unsigned char *pw = w + i * es, *pg = g + i * es;
    if (memcmp(pw, pg, es) == 0) continue;
    if (floating && ((is_nan_elem(want->dtype, pw) && is_nan_elem(want->dtype, pg)) ||
                     (is_zero_elem(want->dtype, pw) && is_zero_elem(want->dtype, pg))))
      continue;
    char a[64], b[64];
    format_elem(got, i, a, sizeof a);
    format_elem(want, i, b, sizeof b);
    snprintf(why, wn, "element %zu is %s, expected %s", i, a, b);
    return 0;
  }
  return 1;
}

/* ---- run ---- */

/* Nested like numpy's repr (without its column padding): "[[1, 2],\n [3, 4]]". */
static void print_nested(const minnx_tensor *t, int axis, size_t *at, int depth) {
  if (t->rank == 0) {
    char buf[64];
    format_elem(t, (*at)++, buf, sizeof buf);
    fputs(buf, stdout);
    return;
  }
  putchar('[');
  for (int64_t i = 0; i < t->dims[axis]; i++) {
    if (i && axis == t->rank - 1) fputs(", ", stdout);
    else if (i) {
      putchar(',');
      for (int k = axis; k < t->rank - 1; k++) putchar('\n'); /* a blank line between blocks, as numpy */
      printf("%*s", depth + 1, "");
    }
    if (axis == t->rank - 1) {
      char buf[64];
      format_elem(t, (*at)++, buf, sizeof buf);
      fputs(buf, stdout);
    } else {
      print_nested(t, axis + 1, at, depth + 1);
    }
  }
  putchar(']');
}

static void print_tensor(const char *name, const minnx_tensor *t) {
  printf("%s: %s ", name, minnx_dtype_name(t->dtype));
  print_shape(stdout, t);
  fputs(t->rank > 1 ? " =\n" : " = ", stdout);
  size_t at = 0;
  print_nested(t, 0, &at, 0);
  putchar('\n');
}

/* The files -o writes: encoded in memory first, written after the run. */
typedef struct {
  char *path, *tmp;
  unsigned char *bytes;
  size_t size;
} out_file;

static int make_dirs(const char *dir) {
  char *p = strdup(dir);
  if (!p) return ENOMEM;
  int e = 0;
  for (char *q = p + 1; !e; q++) {
    int last = *q == '\0';
    if (*q == '/' || last) {
      *q = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST) e = errno;
      else if (!is_dir(p)) e = ENOTDIR;
      if (last) break;
      *q = '/';
    }
  }
  free(p);
  return e;
}

/* Writes every file under a temporary name, then renames them all: on error
 * no file of this run is left (those already renamed are removed too). */
static int write_outputs(const char *dir, out_file *f, size_t n) {
  int e = make_dirs(dir);
  if (e) return die(EXIT_RUN, "-o %s: cannot create the folder: %s", dir, strerror(e));
  size_t written = 0, renamed = 0;
  while (written < n && !(e = write_file(f[written].tmp, f[written].bytes, f[written].size))) written++;
  while (!e && renamed < n && !(e = rename(f[renamed].tmp, f[renamed].path) ? errno : 0)) renamed++;
  if (!e) return EXIT_OK;
  size_t bad = written < n ? written : renamed;
  for (size_t j = 0; j < renamed; j++) remove(f[j].path);
  for (size_t j = renamed; j <= written && j < n; j++) remove(f[j].tmp); /* the one that failed included */
  return die(EXIT_RUN, "cannot write '%s': %s", f[bad].path, strerror(e));
}

static int cmd_run(cli *c) {
  const char *model_path = c->positional[0];
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor *ins = calloc((size_t)(c->n_inputs ? c->n_inputs : 1), sizeof *ins);
  out_file *files = NULL;
  size_t n_out = 0;
  int rc = EXIT_OK, all_npy = c->n_inputs > 0;
  if (!ins) return die(EXIT_LOAD, "out of memory");
  if (minnx_model_load_file(model_path, NULL, &m, &err) || open_session(m, c->threads, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  for (int k = 0; k < c->n_inputs; k++) {
    char *eq = strchr(c->inputs[k], '=');
    *eq = '\0';
    char why[320];
    all_npy &= ends_with(eq + 1, ".npy");
    if (!read_tensor(eq + 1, &ins[k], why, sizeof why)) {
      rc = die(EXIT_LOAD, "input '%s': %s", c->inputs[k], why);
      goto out;
    }
    if (minnx_session_bind_input_name(s, c->inputs[k], &ins[k].t, &err)) {
      rc = die(EXIT_LOAD, "%s", err.message);
      goto out;
    }
  }
  n_out = minnx_model_output_count(m);
  const char *ext = c->format ? c->format : all_npy ? "npy" : "pb";
  if (c->out_dir) {
    for (size_t k = 0; k < n_out; k++) {
      const char *name = minnx_model_output_name(m, k);
      if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        rc = die(EXIT_LOAD, "output name '%s' cannot be a file name: -o cannot write it", name);
        goto out;
      }
    }
    if (!(files = calloc(n_out ? n_out : 1, sizeof *files))) {
      rc = die(EXIT_LOAD, "out of memory");
      goto out;
    }
  }
  if (minnx_session_run(s, &err)) {
    rc = die(err.status == MINNX_E_ARG ? EXIT_LOAD : EXIT_RUN, "%s", err.message);
    goto out;
  }
  for (size_t k = 0; files && k < n_out; k++) {
    minnx_tensor t;
    const char *name = minnx_model_output_name(m, k);
    minnx_session_output(s, k, &t);
    size_t len = strlen(c->out_dir) + strlen(name) + 16;
    files[k].path = malloc(len);
    files[k].tmp = malloc(len + 8);
    int ok = files[k].path && files[k].tmp;
    if (ok) {
      snprintf(files[k].path, len, "%s/%s.%s", c->out_dir, name, ext);
      snprintf(files[k].tmp, len + 8, "%s/.%s.%s.tmp", c->out_dir, name, ext);
      if (strcmp(ext, "npy") == 0) ok = npy_encode(&t, &files[k].bytes, &files[k].size);
      else ok = minnx_tensor_encode(&t, name, NULL, (void **)&files[k].bytes, &files[k].size, &err) == MINNX_OK;
    }
    if (!ok) {
      rc = die(EXIT_RUN, "output '%s': out of memory", name);
      goto out;
    }
  }
  if (files && (rc = write_outputs(c->out_dir, files, n_out))) goto out;
  for (size_t k = 0; k < n_out; k++) {
    minnx_tensor t;
    const char *name = minnx_model_output_name(m, k);
    minnx_session_output(s, k, &t);
    if (c->print) print_tensor(name, &t);
    else if (!c->out_dir) {
      printf("%s: %s ", name, minnx_dtype_name(t.dtype));
      print_shape(stdout, &t);
      putchar('\n');
    }
  }
out:
  for (size_t k = 0; files && k < n_out; k++) free(files[k].path), free(files[k].tmp), free(files[k].bytes);
  free(files);
  for (int k = 0; k < c->n_inputs; k++) file_tensor_free(&ins[k]);
  free(ins);
  minnx_session_free(s);
  minnx_model_free(m);
  return rc;
}

/* ---- test ---- */

typedef struct {
  int passed, failed, skipped, diverged;
} tally;

/* Reads the files prefix_0.pb, prefix_1.pb, ... of a data set; count at most max. */
static int read_series(const char *dir, const char *prefix, file_tensor *out, int max, int *count, char *why, size_t wn) {
  *count = 0;
  for (int i = 0; i < max; i++) {
    char name[64];
    snprintf(name, sizeof name, "%s_%d.pb", prefix, i);
    char *path = path_join(dir, name);
    if (!path) return snprintf(why, wn, "out of memory"), 0;
    int exists = is_file(path);
    int ok = !exists || read_tensor(path, &out[i], why, wn);
    free(path);
    if (!exists) break;
    if (!ok) return 0;
    (*count)++;
  }
  return 1;
}

#define MAX_CASE_TENSORS 64

/* Runs one data set of a loaded model: 1 pass, 0 fail (why says), -1 run error (err).
 * A case with a known divergence (kd) has its data repaired and compared as
 * divergence.h says, and what it needed noted. */
static int run_data_set(const minnx_model *m, long threads, const char *dir, char *why, size_t wn, minnx_error *err,
                        const divergence *kd, divergence_note *note) {
  file_tensor ins[MAX_CASE_TENSORS] = {0}, outs[MAX_CASE_TENSORS] = {0};
  int n_in = 0, n_out = 0, result = 0;
  minnx_session *s = NULL;
  if (!read_series(dir, "input", ins, MAX_CASE_TENSORS, &n_in, why, wn) ||
      !read_series(dir, "output", outs, MAX_CASE_TENSORS, &n_out, why, wn))
    goto out;
  if (open_session(m, threads, &s, err)) {
    result = -1;
    goto out;
  }
  for (int k = 0; k < n_in; k++) {
    minnx_tensor t = ins[k].t;
    if (kd && !divergence_repair_input(kd, m, (size_t)k, &t, note, why, wn)) goto out;
    /* A named input .pb binds by name; an unnamed one by position. */
    minnx_status st = ins[k].name ? minnx_session_bind_input_name(s, ins[k].name, &t, err)
                                  : minnx_session_bind_input(s, (size_t)k, &t, err);
    if (st) {
      result = -1;
      goto out;
    }
  }
  if (minnx_session_run(s, err)) {
    result = -1;
    goto out;
  }
  if ((size_t)n_out != minnx_model_output_count(m)) {
    snprintf(why, wn, "the data set has %d outputs, the model %zu", n_out, minnx_model_output_count(m));
    goto out;
  }
  for (int k = 0; k < n_out; k++) {
    minnx_tensor got;
    minnx_session_output(s, (size_t)k, &got);
    char detail[256];
    if (kd) divergence_relabel_expected(kd, &outs[k].t, &got, note);
    if (!tensors_match(&outs[k].t, &got, detail, sizeof detail) &&
        !(kd && n_in > 0 && divergence_truncation(kd, &ins[0].t, &outs[k].t, &got, note, detail, sizeof detail))) {
      snprintf(why, wn, "output '%s': %s", minnx_model_output_name(m, (size_t)k), detail);
      goto out;
    }
  }
  result = 1;
out:
  minnx_session_free(s);
  for (int k = 0; k < MAX_CASE_TENSORS; k++) file_tensor_free(&ins[k]), file_tensor_free(&outs[k]);
  return result;
}

static void test_case(const char *dir, const char *name, long threads, tally *t) {
  char stage[16], word[64], why[512];
  int expect_error = read_expectation(dir, stage, sizeof stage, word, sizeof word);
  char *model_path = path_join(dir, "model.onnx");
  minnx_model *m = NULL;
  minnx_error err = {0};
  minnx_status st = model_path ? minnx_model_load_file(model_path, NULL, &m, &err) : MINNX_E_NOMEM;
  free(model_path);
  int outcome = 0; /* 1 pass, 0 fail, 2 skip, 3 a known divergence */
  why[0] = '\0';
  const divergence *kd = divergence_find(name);
  divergence_note note = {0};
  if (st) {
    if (expect_error && strcmp(stage, "load") == 0) {
      outcome = contains_ci(err.message, word);
      if (!outcome) snprintf(why, sizeof why, "refused at load, but the message lacks '%s': %s", word, err.message);
    } else if (!expect_error && (st == MINNX_E_UNSUPPORTED || st == MINNX_E_FEATURE)) {
      /* an operator, or a feature (sequence values, strings...), minnx does not have */
      outcome = 2;
      snprintf(why, sizeof why, "%s", err.message);
    } else {
      snprintf(why, sizeof why, "load: %s", err.message);
    }
  } else {
    size_t n = 0;
    char **sets = list_dir(dir, &n);
    int ran = 0;
    outcome = 1;
    for (size_t i = 0; sets && i < n && outcome == 1; i++) {
      if (strncmp(sets[i], "test_data_set_", 14) != 0) continue;
      char *sd = path_join(dir, sets[i]);
      int r = sd ? run_data_set(m, threads, sd, why, sizeof why, &err, kd, &note) : 0;
      free(sd);
      ran++;
      if (r == -1 && expect_error && strcmp(stage, "run") == 0) {
        outcome = contains_ci(err.message, word);
        if (!outcome) snprintf(why, sizeof why, "refused at run, but the message lacks '%s': %s", word, err.message);
        expect_error = 2; /* met */
        break;
      }
      if (r == -1) snprintf(why, sizeof why, "run: %s", err.message);
      if (r != 1) outcome = 0;
    }
    free_list(sets, n);
    if (outcome == 1 && expect_error == 1) {
      outcome = 0;
      snprintf(why, sizeof why, "expected an error at %s, but it %s", stage, ran ? "ran" : "loaded");
    } else if (outcome == 1 && !ran) {
      outcome = 0;
      snprintf(why, sizeof why, "no test_data_set_* directory");
    }
  }
  minnx_model_free(m);
  if (outcome == 1 && kd && divergence_describe(kd, &note, why, sizeof why)) outcome = 3;
  divergence_note_free(&note);
  if (outcome == 1) printf("PASS %s\n", name), t->passed++;
  else if (outcome == 3) printf("DIVERGE %s: %s\n", name, why), t->diverged++;
  else if (outcome == 2) printf("SKIP %s: %s\n", name, why), t->skipped++;
  else printf("FAIL %s: %s\n", name, why), t->failed++;
  fflush(stdout);
}

static const char *base_name(const char *path) {
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') n--;
  const char *p = path + n;
  while (p > path && p[-1] != '/') p--;
  return p;
}

/* --filter: a shell glob, or without glob characters a substring. */
static int matches(const char *filter, const char *name) {
  if (!filter) return 1;
  if (strpbrk(filter, "*?[")) return fnmatch(filter, name, 0) == 0;
  return strstr(name, filter) != NULL;
}

static int cmd_test(cli *c) {
  tally t = {0, 0, 0, 0};
  for (int i = 0; i < c->n_positional; i++) {
    const char *path = c->positional[i];
    char *model = path_join(path, "model.onnx");
    int single = model && is_file(model);
    free(model);
    if (single) {
      /* the case name without a trailing slash */
      char name[512];
      snprintf(name, sizeof name, "%s", base_name(path));
      name[strcspn(name, "/")] = '\0';
      if (matches(c->filter, name)) test_case(path, name, c->threads, &t);
      continue;
    }
    if (!is_dir(path)) return die(EXIT_LOAD, "'%s' is neither a test case nor a folder of them", path);
    size_t n = 0;
    char **names = list_dir(path, &n);
    if (!names) return die(EXIT_LOAD, "cannot list '%s': %s", path, strerror(errno));
    for (size_t k = 0; k < n; k++) {
      if (!matches(c->filter, names[k])) continue;
      char *dir = path_join(path, names[k]);
      char *mp = dir ? path_join(dir, "model.onnx") : NULL;
      if (mp && is_file(mp)) test_case(dir, names[k], c->threads, &t);
      free(mp);
      free(dir);
    }
    free_list(names, n);
  }
  if (t.diverged) printf("%d known divergence%s (see README)\n", t.diverged, t.diverged == 1 ? "" : "s");
  printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  if (t.passed + t.failed + t.skipped + t.diverged == 0) {
    if (c->filter) return die(EXIT_TEST_FAILED, "no test case matched --filter '%s'", c->filter);
    return die(EXIT_TEST_FAILED, "no test case found (a case is a folder holding model.onnx)");
  }
  return t.failed ? EXIT_TEST_FAILED : EXIT_OK;
}

/* ---- info ---- */

/* The region minnx_model_load_in needs for the model (a dry run), and what a
 * load into exactly that keeps and its session needs. */
static int region_figures(const char *path, const unsigned char *bytes, size_t size, const minnx_load_options *load,
                          size_t *needed, size_t *kept, size_t *session) {
  minnx_error err;
  minnx_model *m = NULL;
  unsigned char *region = NULL;
  int rc = EXIT_OK;
  if (minnx_model_memory_needed(bytes, size, load, needed, &err))
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
  else if (!(region = aligned_alloc(MINNX_REGION_ALIGN, (*needed + MINNX_REGION_ALIGN - 1) & ~(size_t)(MINNX_REGION_ALIGN - 1))))
    rc = die(EXIT_LOAD, "out of memory");
  else if (minnx_model_load_in(bytes, size, region, *needed, load, &m, &err))
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
  else
    *kept = minnx_model_memory_used(m), *session = minnx_session_memory_needed(m);
  free(region);
  return rc;
}

/* Whether a value is a graph input, and a graph output (it may be both). */
static void value_role(const minnx_model *m, const char *name, int *input, int *output) {
  *input = *output = 0;
  for (size_t k = 0; k < minnx_model_input_count(m); k++) *input |= strcmp(minnx_model_input_name(m, k), name) == 0;
  for (size_t k = 0; k < minnx_model_output_count(m); k++) *output |= strcmp(minnx_model_output_name(m, k), name) == 0;
}

static int cmd_info(cli *c) {
  char **argv = c->positional;
  minnx_error err;
  minnx_model *m;
  if (minnx_model_load_file(argv[0], NULL, &m, &err)) return die(EXIT_LOAD, "%s: %s", argv[0], err.message);
  printf("opset imports:\n");
  for (size_t i = 0; i < minnx_model_opset_count(m); i++) {
    const char *d;
    int64_t v;
    minnx_model_opset(m, i, &d, &v);
    printf("  %s %" PRId64 "\n", d[0] ? d : "ai.onnx", v);
  }
  printf("nodes (execution order):\n");
  for (size_t i = 0; i < minnx_model_node_count(m); i++) {
    const char *name, *op, *dom;
    int since;
    minnx_model_node_info(m, i, &name, &op, &dom, &since);
    printf("  %s: %s%s%s-%d\n", name, dom[0] ? dom : "", dom[0] ? "." : "", op, since);
  }
  printf("values:\n");
  for (size_t i = 0; i < minnx_model_value_count(m); i++) {
    const char *name;
    minnx_tensor t;
    minnx_model_value_info(m, i, &name, &t);
    int in, output;
    value_role(m, name, &in, &output);
    printf("  %s: %s ", name, minnx_dtype_name(t.dtype));
    if (t.rank < 0) {
      fputs("[?]", stdout);
    } else { /* a dim unknown at load by the name the model declares for it, if any */
      putchar('[');
      for (int d = 0; d < t.rank; d++) {
        const char *param = minnx_model_value_dim_param(m, i, d);
        if (t.dims[d] >= 0) printf("%s%" PRId64, d ? "," : "", t.dims[d]);
        else printf("%s%s", d ? "," : "", param ? param : "?");
      }
      putchar(']');
    }
    printf("%s%s%s\n", in ? "  (graph input)" : "", output ? "  (graph output)" : "",
           t.data ? "  (initializer)" : "");
  }
  minnx_session *s;
  if (minnx_session_create(m, &s, &err)) {
    minnx_model_free(m);
    return die(EXIT_LOAD, "%s: %s", argv[0], err.message);
  }
  int planned = minnx_session_planned(s);
  if (planned)
    printf("arena: %zu bytes (values without reuse: %zu bytes)\n", minnx_session_arena_size(s), minnx_session_values_size(s));
  else
    printf("arena: planned when the inputs are bound (symbolic dims)\n");
  /* What a program giving minnx all its memory must provide, with the
   * weights copied into that memory and with them left in the model's bytes. */
  unsigned char *bytes = NULL;
  size_t size = 0, needed, kept, session;
  int e = read_file(argv[0], &bytes, &size);
  int rc = EXIT_OK;
  minnx_load_options in_place = {.weights_in_place = 1};
  if (e) rc = die(EXIT_LOAD, "cannot read '%s': %s", argv[0], strerror(e));
  else if ((rc = region_figures(argv[0], bytes, size, NULL, &needed, &kept, &session)) == EXIT_OK)
    printf("caller memory: model %zu bytes to load (%zu kept), session %zu bytes%s\n", needed, kept, session,
           planned ? "" : " + the arena");
  if (rc == EXIT_OK && (rc = region_figures(argv[0], bytes, size, &in_place, &needed, &kept, &session)) == EXIT_OK)
    printf("caller memory, weights in place: model %zu bytes to load (%zu kept)\n", needed, kept);
  free(bytes);
  minnx_session_free(s);
  minnx_model_free(m);
  return rc;
}

/* ---- bench ---- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define BENCH_BATCH_NS 20000

/* splitmix64: the generated inputs' numbers, the same for a seed everywhere. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Fills t (dtype, shape and nbytes set; data allocated) from the seed:
 * floats uniform in [-1,1), integers over their whole range, bool 0/1. */
static void generate(minnx_tensor *t, uint64_t *state) {
  size_t es = minnx_dtype_size(t->dtype), n = t->nbytes / es;
  unsigned char *p = t->data;
  for (size_t i = 0; i < n; i++, p += es) {
    uint64_t r = next_random(state);
    double u = (double)(r >> 11) * 0x1p-52 - 1.0; /* [-1,1) */
    float f = (float)u;
    uint32_t fb;
    memcpy(&fb, &f, 4);
    uint16_t h;
    switch (t->dtype) {
      case MINNX_FLOAT: memcpy(p, &f, 4); break;
      case MINNX_DOUBLE: memcpy(p, &u, 8); break;
      case MINNX_BFLOAT16: h = (uint16_t)(fb >> 16); memcpy(p, &h, 2); break;
      case MINNX_FLOAT16: { /* |u| < 1: a normal half from the float's bits, or a subnormal/zero */
        int e = (int)((fb >> 23) & 0xff) - 127 + 15;
        uint16_t sign = (uint16_t)((fb >> 16) & 0x8000);
        h = e <= 0 ? sign : (uint16_t)(sign | (e << 10) | ((fb >> 13) & 0x3ff));
        memcpy(p, &h, 2);
        break;
      }
      case MINNX_BOOL: *p = (unsigned char)(r & 1); break;
      default: memcpy(p, &r, es); break; /* integers: the low bytes (little-endian host) */
    }
  }
}

/* The bench's inputs: -i files by name, then files of the case folder by
 * position, then generated ones. */
static int bench_inputs(cli *c, const minnx_model *m, minnx_session *s, const char *data_dir, file_tensor *ins,
                        size_t n_in) {
  minnx_error err;
  char why[512];
  int from_dir = 0;
  if (data_dir && !read_series(data_dir, "input", ins, (int)n_in, &from_dir, why, sizeof why))
    return die(EXIT_LOAD, "%s", why);
  for (int k = 0; k < c->n_inputs; k++) {
    char *eq = strchr(c->inputs[k], '=');
    *eq = '\0';
    size_t at = n_in;
    for (size_t j = 0; j < n_in; j++)
      if (strcmp(minnx_model_input_name(m, j), c->inputs[k]) == 0) at = j;
    if (at == n_in) return die(EXIT_LOAD, "-i %s: the model has no input named '%s'", c->inputs[k], c->inputs[k]);
    file_tensor_free(&ins[at]);
    if (!read_tensor(eq + 1, &ins[at], why, sizeof why)) return die(EXIT_LOAD, "input '%s': %s", c->inputs[k], why);
  }
  uint64_t state = c->seed;
  for (size_t k = 0; k < n_in; k++) {
    if (!ins[k].t.data && !ins[k].t.nbytes) {
      minnx_tensor *t = &ins[k].t;
      minnx_model_input_info(m, k, t);
      int64_t count = 1;
      for (int d = 0; d < t->rank; d++) {
        if (t->dims[d] < 0)
          return die(EXIT_LOAD, "input '%s' has a symbolic dim: give it with -i %s=FILE",
                     minnx_model_input_name(m, k), minnx_model_input_name(m, k));
        count = t->dims[d] && count > INT64_MAX / t->dims[d] ? -1 : count * t->dims[d];
      }
      size_t es = minnx_dtype_size(t->dtype);
      if (t->rank < 0 || count < 0 || (uint64_t)count > SIZE_MAX / es)
        return die(EXIT_LOAD, "input '%s' has no shape that can be generated: give it with -i",
                   minnx_model_input_name(m, k));
      t->nbytes = (size_t)count * es;
      if (!(t->data = malloc(t->nbytes ? t->nbytes : 1))) return die(EXIT_LOAD, "out of memory");
      generate(t, &state);
    }
    if (minnx_session_bind_input(s, k, &ins[k].t, &err)) return die(EXIT_LOAD, "%s", err.message);
  }
  return EXIT_OK;
}

static int cmd_bench(cli *c) {
  const char *arg = c->positional[0];
  long repeat = c->repeat, warmup = c->warmup;
  /* MODEL, or a folder holding model.onnx and input_N.pb (there or in test_data_set_0/) */
  int folder = is_dir(arg);
  char *model_path = folder ? path_join(arg, "model.onnx") : strdup(arg);
  char *set0 = path_join(arg, "test_data_set_0");
  char *input0 = path_join(arg, "input_0.pb");
  if (!model_path || !set0 || !input0) return die(EXIT_LOAD, "out of memory");
  const char *data_dir = !folder ? NULL : is_file(input0) ? arg : is_dir(set0) ? set0 : NULL;
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor *ins = NULL;
  size_t n_in = 0;
  int rc = EXIT_OK;
  uint64_t *times = NULL;
  if (minnx_model_load_file(model_path, NULL, &m, &err) || open_session(m, c->threads, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  n_in = minnx_model_input_count(m);
  if (!(ins = calloc(n_in ? n_in : 1, sizeof *ins))) {
    rc = die(EXIT_LOAD, "out of memory");
    goto out;
  }
  if ((rc = bench_inputs(c, m, s, data_dir, ins, n_in))) goto out;
  times = malloc((size_t)repeat * sizeof *times);
  if (!times) {
    rc = die(EXIT_RUN, "out of memory");
    goto out;
  }
  /* Warm up (at least one run, the last of which sizes the batch), then time
   * N samples. A sample is a batch of runs lasting at least BENCH_BATCH_NS,
   * so that the clock's own cost (tens of ns) does not swamp a tiny graph. */
  uint64_t batch = 1, t0;
  for (long i = 0; i <= warmup; i++) {
    t0 = now_ns();
    if (minnx_session_run(s, &err)) {
      rc = die(EXIT_RUN, "%s", err.message);
      goto out;
    }
    uint64_t one = now_ns() - t0;
    batch = one >= BENCH_BATCH_NS ? 1 : BENCH_BATCH_NS / (one ? one : 1);
  }
  for (long i = 0; i < repeat; i++) {
    t0 = now_ns();
    for (uint64_t b = 0; b < batch; b++)
      if (minnx_session_run(s, &err)) {
        rc = die(EXIT_RUN, "%s", err.message);
        goto out;
      }
    times[i] = now_ns() - t0;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
  printf("runs=%ld batch=%" PRIu64 " min_ns=%.1f arena_bytes=%zu\n", repeat, batch, (double)times[0] / (double)batch,
         minnx_session_arena_size(s));
  printf("ns_per_run=%" PRIu64 "\n", (times[repeat / 2] + batch / 2) / batch);
out:
  free(times);
  for (size_t k = 0; ins && k < n_in; k++) file_tensor_free(&ins[k]);
  free(ins);
  minnx_session_free(s);
  minnx_model_free(m);
  free(model_path);
  free(set0);
  free(input0);
  return rc;
}

typedef int (*command_fn)(cli *c);
static const command_fn command_fns[N_COMMANDS] = {cmd_run, cmd_test, cmd_info, cmd_bench};

int main(int argc, char **argv) {
  if (argc < 2) return bad_usage(NULL, "no command given (run, test, info, bench, help)");
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
    cli c = {.cmd = name, .repeat = 100, .warmup = 10, .seed = 1};
    c.positional = calloc((size_t)argc, sizeof *c.positional);
    c.inputs = calloc((size_t)argc, sizeof *c.inputs);
    int rc = c.positional && c.inputs ? parse_args(&commands[i], argc - 2, argv + 2, &c) : die(EXIT_LOAD, "out of memory");
    if (rc < 0 && !c.threads) {
      long cpus = cli_pool_available() ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
      c.threads = cpus > 0 ? cpus : 1;
    }
    if (rc < 0) rc = command_fns[i](&c);
    cli_pool_stop();
    free(c.positional);
    free(c.inputs);
    return rc;
  }
  return bad_usage(NULL, "unknown command '%s' (run, test, info, bench, help)", name);
}
