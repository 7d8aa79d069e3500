/* External data: an initializer's bytes in another file. From a buffer they
 * come only through read_external; from a file only from inside the model's
 * folder. Every refusal happens without reading the decoy placed outside. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"

/* y = Max(a, w), w a [3] float initializer whose data is external. */
static const test_model base = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 1,
                                .inputs = {"a"}, .dtype = MINNX_FLOAT, .rank = 1, .dims = {3}, .n_nodes = 1,
                                .nodes = {{"Max", "", 2, {"a", "w"}, "y", NULL, 0}}, .output = "y"};

typedef struct {
  const char *keys[4], *values[4];
  int raw; /* also carries raw_data */
  Onnx__TensorProto t, *tp;
  Onnx__StringStringEntryProto e[4], *ep[4];
  int64_t dim;
} ext_spec;

static void add_initializer(Onnx__ModelProto *m, void *ctx) {
  ext_spec *x = ctx;
  onnx__tensor_proto__init(&x->t);
  x->t.name = "w";
  x->t.has_data_type = 1;
  x->t.data_type = MINNX_FLOAT;
  x->dim = 3;
  x->t.n_dims = 1;
  x->t.dims = &x->dim;
  x->t.has_data_location = 1;
  x->t.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  static uint8_t raw[12];
  if (x->raw) x->t.has_raw_data = 1, x->t.raw_data.data = raw, x->t.raw_data.len = sizeof raw;
  for (int i = 0; i < 4 && x->keys[i]; i++) {
    onnx__string_string_entry_proto__init(&x->e[i]);
    x->e[i].key = (char *)x->keys[i];
    x->e[i].value = (char *)x->values[i];
    x->ep[i] = &x->e[i];
    x->t.n_external_data = (size_t)i + 1;
  }
  x->t.external_data = x->ep;
  x->tp = &x->t;
  m->graph->n_initializer = 1;
  m->graph->initializer = &x->tp;
}

static size_t model_bytes(ext_spec *x, uint8_t **out) { return build_model_edit(&base, add_initializer, x, out); }

/* ---- through the callback ---- */

static const float w_data[3] = {5.0f, -1.0f, 2.5f};

typedef struct {
  int calls;
  char location[64];
  uint64_t offset, length;
  minnx_status fail; /* what to return */
  const char *message;
} reader_log;

static minnx_status reader(void *user, const char *location, uint64_t offset, uint64_t length, void *dst,
                           minnx_error *err) {
  reader_log *r = user;
  r->calls++;
  snprintf(r->location, sizeof r->location, "%s", location);
  r->offset = offset;
  r->length = length;
  if (r->fail) {
    if (r->message) snprintf(err->message, sizeof err->message, "%s", r->message);
    return r->fail;
  }
  if (length != sizeof w_data) return MINNX_E_IO;
  memcpy(dst, w_data, sizeof w_data);
  return MINNX_OK;
}

/* Loads spec x from a buffer with the reader; returns the status, message in err. */
static minnx_status load_cb(ext_spec *x, reader_log *log, minnx_model **out, minnx_error *err) {
  uint8_t *bytes;
  size_t size = model_bytes(x, &bytes);
  minnx_load_options o = {.read_external = log ? reader : NULL, .read_external_user = log};
  minnx_model *m = NULL;
  minnx_status st = minnx_model_load_buffer(bytes, size, &o, &m, err);
  free(bytes);
  if (out) *out = m;
  else minnx_model_free(m);
  return st;
}

static minnx_status refused_cb(const char *key, const char *value, const char *word) {
  ext_spec x = {.keys = {"location", key}, .values = {"w.bin", value}};
  reader_log log = {0};
  minnx_error err;
  minnx_status st = load_cb(&x, &log, NULL, &err);
  CHECK(st != MINNX_OK && strstr(err.message, word) != NULL);
  CHECK_EQ_INT(log.calls, 0);
  return st;
}

/* Runs y = Max(a, w) and checks it against w_data. */
static void check_run(minnx_model *m) {
  minnx_session *s;
  minnx_error err;
  float a[3] = {0.0f, 0.0f, 3.0f};
  minnx_tensor ta = {MINNX_FLOAT, 1, {3}, a, sizeof a}, y;
  CHECK_EQ_INT(minnx_session_create(m, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_bind_input(s, 0, &ta, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_run(s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_output(s, 0, &y), MINNX_OK);
  const float *v = y.data;
  CHECK(v[0] == 5.0f && v[1] == 0.0f && v[2] == 3.0f);
  minnx_session_free(s);
}

static void callback_cases(void) {
  minnx_error err;
  minnx_model *m;
  ext_spec x = {.keys = {"location", "offset", "length", "checksum"}, .values = {"data/w.bin", "16", "12", "ab12"}};
  reader_log log = {0};
  CHECK_EQ_INT(load_cb(&x, &log, &m, &err), MINNX_OK);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(strcmp(log.location, "data/w.bin") == 0);
  CHECK_EQ_INT(log.offset, 16);
  CHECK_EQ_INT(log.length, 12);
  check_run(m);
  minnx_model_free(m);

  /* no reader: a buffer load never falls back to the file system */
  CHECK_EQ_INT(load_cb(&x, NULL, NULL, &err), MINNX_E_FEATURE);
  CHECK(strstr(err.message, "read_external") != NULL);

  /* the reader's failure, with its message or without one */
  reader_log failing = {.fail = MINNX_E_IO, .message = "disk on fire"};
  CHECK_EQ_INT(load_cb(&x, &failing, NULL, &err), MINNX_E_IO);
  CHECK(strcmp(err.message, "tensor 'w': disk on fire") == 0);
  reader_log silent = {.fail = (minnx_status)77};
  CHECK_EQ_INT(load_cb(&x, &silent, NULL, &err), MINNX_E_IO);
  CHECK(strstr(err.message, "tensor 'w'") != NULL);

  /* locations that leave the folder never reach the reader */
  const char *escapes[] = {"../w.bin", "/etc/passwd", "data/../../w.bin", "..", "a/.."};
  for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
    ext_spec e = {.keys = {"location"}, .values = {escapes[i]}};
    reader_log l = {0};
    CHECK_EQ_INT(load_cb(&e, &l, NULL, &err), MINNX_E_MODEL);
    CHECK_EQ_INT(l.calls, 0);
    CHECK(strstr(err.message, escapes[i]) != NULL);
  }
  ext_spec dots = {.keys = {"location"}, .values = {"..w.bin"}}; /* a name, not a step up */
  reader_log l = {0};
  CHECK_EQ_INT(load_cb(&dots, &l, NULL, &err), MINNX_OK);
  CHECK_EQ_INT(l.calls, 1);

  /* ranges and keys */
  refused_cb("length", "13", "length is 13 bytes");
  refused_cb("length", "-12", "bad value");
  refused_cb("offset", "12abc", "bad value");
  refused_cb("offset", "", "bad value");
  refused_cb("offset", "18446744073709551616", "bad value");       /* 2^64 */
  refused_cb("offset", "18446744073709551610", "overflows");       /* + 12 */
  refused_cb("basepath", "/", "unknown key 'basepath'");
  refused_cb("location", "other.bin", "bad value");                 /* twice */
  ext_spec none = {.keys = {"offset"}, .values = {"0"}};
  CHECK_EQ_INT(load_cb(&none, &log, NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "no location") != NULL);
  ext_spec both = {.keys = {"location"}, .values = {"w.bin"}, .raw = 1};
  CHECK_EQ_INT(load_cb(&both, &log, NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "both external data and raw_data") != NULL);
}

/* ---- from a file: the model's folder and nothing outside it ---- */

static char root[64];

static void put(const char *rel, const void *data, size_t n) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) fwrite(data, 1, n, f), fclose(f);
}

static minnx_status load_file(const char *location, const char *offset, minnx_error *err) {
  ext_spec x = {.keys = {"location", offset ? "offset" : NULL}, .values = {location, offset}};
  uint8_t *bytes;
  size_t size = model_bytes(&x, &bytes);
  put("model/model.onnx", bytes, size);
  free(bytes);
  char path[256];
  snprintf(path, sizeof path, "%s/model/model.onnx", root);
  minnx_model *m = NULL;
  minnx_status st = minnx_model_load_file(path, NULL, &m, err);
  if (m) check_run(m);
  minnx_model_free(m);
  return st;
}

static void file_cases(void) {
  minnx_error err;
  snprintf(root, sizeof root, "/tmp/minnx-ext-XXXXXX");
  CHECK(mkdtemp(root) != NULL);
  char path[256], target[256];
  snprintf(path, sizeof path, "%s/model", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/model/sub", root);
  mkdir(path, 0755);
  unsigned char padded[28] = {0};
  memcpy(padded + 16, w_data, sizeof w_data);
  put("model/w.bin", padded, sizeof padded);
  put("model/sub/w.bin", w_data, sizeof w_data);
  put("decoy.bin", w_data, sizeof w_data); /* right size: reading it would make a load succeed */
  snprintf(path, sizeof path, "%s/model/link.bin", root);
  CHECK(symlink("../decoy.bin", path) == 0);
  snprintf(path, sizeof path, "%s/model/up", root);
  CHECK(symlink("..", path) == 0);
  snprintf(path, sizeof path, "%s/model/inside.bin", root); /* a link that stays inside is refused too */
  CHECK(symlink("w.bin", path) == 0);
  snprintf(path, sizeof path, "%s/model/fifo", root);
  CHECK(mkfifo(path, 0644) == 0);

  CHECK_EQ_INT(load_file("w.bin", "16", &err), MINNX_OK);
  CHECK_EQ_INT(load_file("sub/w.bin", NULL, &err), MINNX_OK);
  CHECK_EQ_INT(load_file("./sub//w.bin", NULL, &err), MINNX_OK);

  CHECK_EQ_INT(load_file("../decoy.bin", NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "'..'") != NULL);
  snprintf(target, sizeof target, "%s/decoy.bin", root);
  CHECK_EQ_INT(load_file(target, NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "absolute") != NULL);
  CHECK_EQ_INT(load_file("link.bin", NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "symbolic link") != NULL);
  CHECK_EQ_INT(load_file("up/decoy.bin", NULL, &err), MINNX_E_MODEL);
  CHECK(strstr(err.message, "'up' is a symbolic link") != NULL);
  CHECK_EQ_INT(load_file("inside.bin", "16", &err), MINNX_E_MODEL);
  CHECK_EQ_INT(load_file("fifo", NULL, &err), MINNX_E_MODEL); /* refused, without blocking on the open */
  CHECK(strstr(err.message, "not a regular file") != NULL);
  CHECK_EQ_INT(load_file("sub", NULL, &err), MINNX_E_MODEL);
  CHECK_EQ_INT(load_file("sub/", NULL, &err), MINNX_E_MODEL);
  CHECK_EQ_INT(load_file("w.bin", "17", &err), MINNX_E_MODEL); /* 12 bytes at 17 of 28 */
  CHECK(strstr(err.message, "has 28 bytes") != NULL);
  CHECK_EQ_INT(load_file("w.bin", "29", &err), MINNX_E_MODEL);
  CHECK_EQ_INT(load_file("missing.bin", NULL, &err), MINNX_E_IO);
  CHECK(strstr(err.message, "missing.bin") != NULL);

  const char *names[] = {"model/model.onnx", "model/w.bin", "model/sub/w.bin", "model/link.bin", "model/up",
                         "model/inside.bin", "model/fifo", "decoy.bin", "model/sub", "model"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", root, names[i]);
    CHECK(remove(path) == 0);
  }
  CHECK(rmdir(root) == 0);
}

int main(void) {
  callback_cases();
  file_cases();
  return check_report("test_external");
}
