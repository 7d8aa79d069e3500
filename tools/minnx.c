/* minnx: the command-line tool, a thin user of the public API.
 *
 *   minnx run MODEL [-i NAME=FILE]... [-o DIR] [--print]
 *   minnx test PATH... [--filter GLOB]
 *   minnx info MODEL
 *   minnx bench DIR [--repeat N] [--warmup N]
 *
 * Exit status: 0 success; 1 a test failed; 2 bad usage, or a model/input
 * refused at load; 3 an error while running. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "files.h"
#include "minnx.h"
#include "npy.h"

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

static const char usage_text[] =
    "usage: minnx run MODEL [-i NAME=FILE]... [-o DIR] [--print]\n"
    "       minnx test PATH... [--filter GLOB]\n"
    "       minnx info MODEL\n"
    "       minnx bench DIR [--repeat N] [--warmup N]\n";

static int usage(void) { return die(EXIT_LOAD, "bad usage; see 'minnx --help'"); }

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

static void print_tensor(const char *name, const minnx_tensor *t) {
  printf("%s: %s ", name, minnx_dtype_name(t->dtype));
  print_shape(stdout, t);
  size_t es = minnx_dtype_size(t->dtype), n = es ? t->nbytes / es : 0;
  printf(" = [");
  for (size_t i = 0; i < n; i++) {
    char buf[64];
    format_elem(t, i, buf, sizeof buf);
    printf("%s%s", i ? ", " : "", buf);
  }
  printf("]\n");
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

static int cmd_run(int argc, char **argv) {
  const char *model_path = NULL, *out_dir = NULL;
  int print = 0;
  int n_in = 0;
  char **in_specs = calloc((size_t)argc, sizeof *in_specs);
  if (!in_specs) return die(EXIT_LOAD, "out of memory");
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) in_specs[n_in++] = argv[++i];
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_dir = argv[++i];
    else if (strcmp(argv[i], "--print") == 0) print = 1;
    else if (argv[i][0] != '-' && !model_path) model_path = argv[i];
    else {
      free(in_specs);
      return usage();
    }
  }
  if (!model_path) {
    free(in_specs);
    return usage();
  }
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor *ins = calloc((size_t)(n_in ? n_in : 1), sizeof *ins);
  int rc = EXIT_OK;
  if (!ins) {
    rc = die(EXIT_LOAD, "out of memory");
    goto out;
  }
  if (minnx_model_load_file(model_path, NULL, &m, &err) || minnx_session_create(m, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  for (int k = 0; k < n_in; k++) {
    char *eq = strchr(in_specs[k], '=');
    if (!eq) {
      rc = die(EXIT_LOAD, "-i takes NAME=FILE, got '%s'", in_specs[k]);
      goto out;
    }
    *eq = '\0';
    char why[320];
    if (!read_tensor(eq + 1, &ins[k], why, sizeof why)) {
      rc = die(EXIT_LOAD, "input '%s': %s", in_specs[k], why);
      goto out;
    }
    if (minnx_session_bind_input_name(s, in_specs[k], &ins[k].t, &err)) {
      rc = die(EXIT_LOAD, "%s", err.message);
      goto out;
    }
  }
  if (minnx_session_run(s, &err)) {
    rc = die(err.status == MINNX_E_ARG ? EXIT_LOAD : EXIT_RUN, "%s", err.message);
    goto out;
  }
  for (size_t k = 0; k < minnx_model_output_count(m); k++) {
    minnx_tensor t;
    const char *name = minnx_model_output_name(m, k);
    minnx_session_output(s, k, &t);
    if (print) print_tensor(name, &t);
    else if (!out_dir) {
      printf("%s: %s ", name, minnx_dtype_name(t.dtype));
      print_shape(stdout, &t);
      putchar('\n');
    }
    if (out_dir) {
      if (strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        rc = die(EXIT_RUN, "output name '%s' cannot be a file name", name);
        goto out;
      }
      char file[4096];
      snprintf(file, sizeof file, "%s/%s.pb", out_dir, name);
      void *buf;
      size_t size;
      if (minnx_tensor_encode(&t, name, NULL, &buf, &size, &err)) {
        rc = die(EXIT_RUN, "%s", err.message);
        goto out;
      }
      int e = write_file(file, buf, size);
      minnx_tensor_free(NULL, buf);
      if (e) {
        rc = die(EXIT_RUN, "cannot write '%s': %s", file, strerror(e));
        goto out;
      }
    }
  }
out:
  for (int k = 0; ins && k < n_in; k++) file_tensor_free(&ins[k]);
  free(ins);
  free(in_specs);
  minnx_session_free(s);
  minnx_model_free(m);
  return rc;
}

/* ---- test ---- */

typedef struct {
  int passed, failed, skipped;
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

/* Runs one data set of a loaded model: 1 pass, 0 fail (why says), -1 run error (err). */
static int run_data_set(const minnx_model *m, const char *dir, char *why, size_t wn, minnx_error *err) {
  file_tensor ins[MAX_CASE_TENSORS] = {0}, outs[MAX_CASE_TENSORS] = {0};
  int n_in = 0, n_out = 0, result = 0;
  minnx_session *s = NULL;
  if (!read_series(dir, "input", ins, MAX_CASE_TENSORS, &n_in, why, wn) ||
      !read_series(dir, "output", outs, MAX_CASE_TENSORS, &n_out, why, wn))
    goto out;
  if (minnx_session_create(m, &s, err)) {
    result = -1;
    goto out;
  }
  for (int k = 0; k < n_in; k++) {
    /* A named input .pb binds by name; an unnamed one by position. */
    minnx_status st = ins[k].name ? minnx_session_bind_input_name(s, ins[k].name, &ins[k].t, err)
                                  : minnx_session_bind_input(s, (size_t)k, &ins[k].t, err);
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
    if (!tensors_match(&outs[k].t, &got, detail, sizeof detail)) {
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

static void test_case(const char *dir, const char *name, tally *t) {
  char stage[16], word[64], why[512];
  int expect_error = read_expectation(dir, stage, sizeof stage, word, sizeof word);
  char *model_path = path_join(dir, "model.onnx");
  minnx_model *m = NULL;
  minnx_error err = {0};
  minnx_status st = model_path ? minnx_model_load_file(model_path, NULL, &m, &err) : MINNX_E_NOMEM;
  free(model_path);
  int outcome = 0; /* 1 pass, 0 fail, 2 skip */
  why[0] = '\0';
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
      int r = sd ? run_data_set(m, sd, why, sizeof why, &err) : 0;
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
  if (outcome == 1) printf("PASS %s\n", name), t->passed++;
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

static int cmd_test(int argc, char **argv) {
  const char *filter = NULL;
  int n_paths = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc) filter = argv[++i];
    else if (argv[i][0] == '-') return usage();
    else n_paths++;
  }
  if (!n_paths) return usage();
  tally t = {0, 0, 0};
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--filter") == 0) {
      i++;
      continue;
    }
    const char *path = argv[i];
    char *model = path_join(path, "model.onnx");
    int single = model && is_file(model);
    free(model);
    if (single) {
      /* the case name without a trailing slash */
      char name[512];
      snprintf(name, sizeof name, "%s", base_name(path));
      name[strcspn(name, "/")] = '\0';
      if (!filter || fnmatch(filter, name, 0) == 0) test_case(path, name, &t);
      continue;
    }
    if (!is_dir(path)) return die(EXIT_LOAD, "'%s' is neither a test case nor a folder of them", path);
    size_t n = 0;
    char **names = list_dir(path, &n);
    if (!names) return die(EXIT_LOAD, "cannot list '%s': %s", path, strerror(errno));
    for (size_t k = 0; k < n; k++) {
      if (filter && fnmatch(filter, names[k], 0) != 0) continue;
      char *dir = path_join(path, names[k]);
      char *mp = dir ? path_join(dir, "model.onnx") : NULL;
      if (mp && is_file(mp)) test_case(dir, names[k], &t);
      free(mp);
      free(dir);
    }
    free_list(names, n);
  }
  printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  return t.failed ? EXIT_TEST_FAILED : EXIT_OK;
}

/* ---- info ---- */

/* The region minnx_model_load_in needs for the model (a dry run), and what a
 * load into exactly that keeps and its session needs. */
static int region_figures(const char *path, const unsigned char *bytes, size_t size, const minnx_load_options *options,
                          size_t *needed, size_t *kept, size_t *session) {
  minnx_error err;
  minnx_model *m = NULL;
  unsigned char *region = NULL;
  int rc = EXIT_OK;
  if (minnx_model_memory_needed(bytes, size, options, needed, &err))
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
  else if (!(region = aligned_alloc(MINNX_REGION_ALIGN, (*needed + MINNX_REGION_ALIGN - 1) & ~(size_t)(MINNX_REGION_ALIGN - 1))))
    rc = die(EXIT_LOAD, "out of memory");
  else if (minnx_model_load_in(bytes, size, region, *needed, options, &m, &err))
    rc = die(EXIT_LOAD, "%s: %s", path, err.message);
  else
    *kept = minnx_model_memory_used(m), *session = minnx_session_memory_needed(m);
  free(region);
  return rc;
}

static int cmd_info(int argc, char **argv) {
  if (argc != 1) return usage();
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
    printf("  %s: %s ", name, minnx_dtype_name(t.dtype));
    print_shape(stdout, &t);
    putchar('\n');
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

static int parse_count(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0 || v > 100000000) return 0;
  *out = v;
  return 1;
}

static int cmd_bench(int argc, char **argv) {
  const char *dir = NULL;
  long repeat = 100, warmup = 10;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      if (!parse_count(argv[++i], &repeat) || repeat < 1) return usage();
    } else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
      if (!parse_count(argv[++i], &warmup)) return usage();
    } else if (argv[i][0] != '-' && !dir) {
      dir = argv[i];
    } else {
      return usage();
    }
  }
  if (!dir) return usage();
  char *model_path = path_join(dir, "model.onnx");
  char *set0 = path_join(dir, "test_data_set_0");
  char *input0 = path_join(dir, "input_0.pb");
  if (!model_path || !set0 || !input0) return die(EXIT_LOAD, "out of memory");
  const char *data_dir = is_file(input0) ? dir : set0;
  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  file_tensor ins[MAX_CASE_TENSORS] = {0};
  int n_in = 0, rc = EXIT_OK;
  uint64_t *times = NULL;
  char why[512];
  if (minnx_model_load_file(model_path, NULL, &m, &err) || minnx_session_create(m, &s, &err)) {
    rc = die(EXIT_LOAD, "%s: %s", model_path, err.message);
    goto out;
  }
  if (!read_series(data_dir, "input", ins, MAX_CASE_TENSORS, &n_in, why, sizeof why)) {
    rc = die(EXIT_LOAD, "%s", why);
    goto out;
  }
  for (int k = 0; k < n_in; k++)
    if (minnx_session_bind_input(s, (size_t)k, &ins[k].t, &err)) {
      rc = die(EXIT_LOAD, "%s", err.message);
      goto out;
    }
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
  for (int k = 0; k < MAX_CASE_TENSORS; k++) file_tensor_free(&ins[k]);
  minnx_session_free(s);
  minnx_model_free(m);
  free(model_path);
  free(set0);
  free(input0);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  const char *cmd = argv[1];
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
  if (strcmp(cmd, "test") == 0) return cmd_test(argc - 2, argv + 2);
  if (strcmp(cmd, "info") == 0) return cmd_info(argc - 2, argv + 2);
  if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(usage_text, stdout);
    return EXIT_OK;
  }
  return usage();
}
