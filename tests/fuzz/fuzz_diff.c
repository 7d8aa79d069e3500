/* Fuzz target (d), differential: the bytes choose an op version (Max and
 * Min 1, 6, 8, 12, 13; ArgMax and ArgMin 1, 11, 12, 13; OpenVINO Maximum
 * and Minimum 1; ReduceMax and ReduceMin 1, 11, 13 with axes and keepdims,
 * and 18 over all axes), a dtype, shapes
 * (broadcasts, size-0 dims, odd sizes), where each input starts (not on a
 * cache line), and values (NaN of both signs, +-0, +-inf, the dtype's
 * extremes, ties). One session runs the node on the calling thread, then
 * through hooks that run its tasks as 2 and 3 threads would (in another
 * order each), and through the plain reference loops of ops/
 * (extremum_ref.c). Across thread counts the outputs must be byte for byte
 * the same; against the reference loops too, but for what the rules leave
 * open (ops/extremum.h): which NaN, and which zero (+0 and -0 are equal). (Real threads are
 * test_threads' business, under ThreadSanitizer: starting a pool for each
 * input would leave the fuzzer a few inputs a second.) (The fuzz build splits nodes from
 * 128 bytes on, so that small shapes are cut into tasks too.) A difference,
 * or a model accepted at load that then fails to run, aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/builder.h"
#include "minnx.h"
#include "ops/extremum_ref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  const uint8_t *p;
  size_t n;
} bytes;

static unsigned take(bytes *b) {
  if (!b->n) return 0;
  b->n--;
  return *b->p++;
}

/* ---- the node ---- */

typedef struct {
  const char *op, *domain;
  int version, broadcasts;
} version;

static const version versions[] = {
    {"Max", "", 1, 0},     {"Max", "", 6, 0},     {"Max", "", 8, 1},     {"Max", "", 12, 1},
    {"Max", "", 13, 1},    {"ArgMax", "", 1, 0},  {"ArgMax", "", 11, 0}, {"ArgMax", "", 12, 0},
    {"ArgMax", "", 13, 0}, {"Maximum", "org.openvinotoolkit", 1, 1},
    {"Min", "", 1, 0},     {"Min", "", 6, 0},     {"Min", "", 8, 1},     {"Min", "", 12, 1},
    {"Min", "", 13, 1},    {"ArgMin", "", 1, 0},  {"ArgMin", "", 11, 0}, {"ArgMin", "", 12, 0},
    {"ArgMin", "", 13, 0}, {"Minimum", "org.openvinotoolkit", 1, 1},
    {"ReduceMax", "", 1, 0}, {"ReduceMax", "", 11, 0}, {"ReduceMax", "", 13, 0}, {"ReduceMax", "", 18, 0},
    {"ReduceMin", "", 1, 0}, {"ReduceMin", "", 11, 0}, {"ReduceMin", "", 13, 0}, {"ReduceMin", "", 18, 0},
};

static const minnx_dtype dtypes[] = {MINNX_FLOAT,  MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16, MINNX_INT8,
                                     MINNX_INT16,  MINNX_INT32,  MINNX_INT64,   MINNX_UINT8,    MINNX_UINT16,
                                     MINNX_UINT32, MINNX_UINT64};

/* Dims: mostly small and odd, some 0, some long enough for a vector loop's body and remainder. */
static const int64_t dim_choices[] = {1, 2, 3, 5, 7, 0, 1, 16, 17, 33, 64, 65, 4, 9, 100, 1};

typedef struct {
  const version *v;
  minnx_dtype t;
  int n_in, out_rank;
  int64_t out_dims[4];
  int rank[4];
  int64_t dims[4][4];
  int64_t axis, keepdims, last;
  uint32_t axes;         /* the reductions': bit d reduces axis d (none: all) */
  int64_t axes_list[4];
  /* the protobuf objects the edit points the model at */
  Onnx__TensorShapeProto__Dimension dim[4][4], *dimp[4][4];
  Onnx__TensorShapeProto shape[4];
  Onnx__TypeProto__Tensor tt[4];
  Onnx__TypeProto type[4];
  Onnx__ValueInfoProto *in_vi[4];
  Onnx__AttributeProto attr[3], *attrp[3];
} node_spec;

static void set_type(node_spec *s, int k) {
  onnx__tensor_shape_proto__init(&s->shape[k]);
  for (int d = 0; d < s->rank[k]; d++) {
    onnx__tensor_shape_proto__dimension__init(&s->dim[k][d]);
    s->dim[k][d].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    s->dim[k][d].dim_value = s->dims[k][d];
    s->dimp[k][d] = &s->dim[k][d];
  }
  s->shape[k].n_dim = (size_t)s->rank[k];
  s->shape[k].dim = s->dimp[k];
  onnx__type_proto__tensor__init(&s->tt[k]);
  s->tt[k].has_elem_type = 1;
  s->tt[k].elem_type = (int32_t)s->t;
  s->tt[k].shape = &s->shape[k];
  onnx__type_proto__init(&s->type[k]);
  s->type[k].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  s->type[k].tensor_type = &s->tt[k];
}

static void int_attr(node_spec *s, int i, const char *name, int64_t v) {
  onnx__attribute_proto__init(&s->attr[i]);
  s->attr[i].name = (char *)name;
  s->attr[i].has_type = 1;
  s->attr[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  s->attr[i].has_i = 1;
  s->attr[i].i = v;
  s->attrp[i] = &s->attr[i];
}

/* Each input with its own shape; ArgMax's attributes. */
static void edit(Onnx__ModelProto *m, void *ctx) {
  node_spec *s = ctx;
  for (int k = 0; k < s->n_in; k++) {
    set_type(s, k);
    m->graph->input[k]->type = &s->type[k];
  }
  if (strncmp(s->v->op, "Arg", 3) == 0) {
    int n = 0;
    int_attr(s, n++, "axis", s->axis);
    int_attr(s, n++, "keepdims", s->keepdims);
    if (s->v->version >= 12) int_attr(s, n++, "select_last_index", s->last);
    m->graph->node[0]->n_attribute = (size_t)n;
    m->graph->node[0]->attribute = s->attrp;
  }
  if (strncmp(s->v->op, "Reduce", 6) == 0) {
    int n = 0;
    int_attr(s, n++, "keepdims", s->keepdims);
    if (s->v->version < 18 && s->axes) { /* listed from the last, negative ones from 11 */
      size_t k = 0;
      for (int d = s->rank[0]; d-- > 0;)
        if (s->axes >> d & 1) s->axes_list[k++] = s->v->version >= 11 && (s->last || d % 2) ? d - s->rank[0] : d;
      int_attr(s, n, "axes", 0);
      s->attr[n].has_i = 0;
      s->attr[n].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
      s->attr[n].n_ints = k;
      s->attr[n++].ints = s->axes_list;
    }
    m->graph->node[0]->n_attribute = (size_t)n;
    m->graph->node[0]->attribute = s->attrp;
  }
}

static void choose(bytes *b, node_spec *s) {
  s->v = &versions[take(b) % (sizeof versions / sizeof versions[0])];
  s->t = dtypes[take(b) % (sizeof dtypes / sizeof dtypes[0])];
  int arg = strncmp(s->v->op, "Arg", 3) == 0, reduce = strncmp(s->v->op, "Reduce", 6) == 0;
  s->n_in = arg || reduce ? 1 : s->v->domain[0] ? 2 : 1 + (int)(take(b) % 4);
  s->out_rank = (int)(take(b) % 5);
  if (arg && s->out_rank == 0) s->out_rank = 1;
  for (int d = 0; d < s->out_rank; d++) s->out_dims[d] = dim_choices[take(b) % 16];
  for (int k = 0; k < s->n_in; k++) {
    unsigned m = s->v->broadcasts ? take(b) : 0;
    /* broadcast: drop leading dims, and make others 1 */
    s->rank[k] = s->out_rank - (int)(m % (unsigned)(s->out_rank + 1) * ((m >> 3) & 1));
    for (int d = 0; d < s->rank[k]; d++) {
      int od = d + s->out_rank - s->rank[k];
      s->dims[k][d] = (m >> (4 + d % 4)) & 1 ? 1 : s->out_dims[od];
    }
  }
  unsigned a = take(b);
  s->axis = s->out_rank ? (int64_t)(a % (unsigned)s->out_rank) : 0;
  if (s->v->version >= 11 && (a & 0x80)) s->axis -= s->out_rank; /* negative axes, from ArgMax-11 */
  s->keepdims = (a >> 5) & 1;
  s->last = (a >> 6) & 1;
  s->axes = reduce && s->v->version < 18 ? take(b) & ((1u << s->out_rank) - 1) : 0;
}

/* ---- values ---- */

/* Bit patterns of the specials, per element size (floats by their width;
 * integers get the extremes and ties from the same table). */
static uint64_t special(minnx_dtype t, unsigned i) {
  static const uint64_t f32[] = {0x7fc00000, 0xffc00000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                 0x7f7fffff, 0xff7fffff, 0x00000001, 0x3f800000, 0xbf800000, 0x7fa00001};
  static const uint64_t f64[] = {0x7ff8000000000000, 0xfff8000000000000, 0, 0x8000000000000000,
                                 0x7ff0000000000000, 0xfff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
                                 1, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff4000000000001};
  static const uint64_t f16[] = {0x7e00, 0xfe00, 0, 0x8000, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 1, 0x3c00, 0xbc00, 0x7d01};
  static const uint64_t bf16[] = {0x7fc0, 0xffc0, 0, 0x8000, 0x7f80, 0xff80, 0x7f7f, 0xff7f, 1, 0x3f80, 0xbf80, 0x7fa1};
  static const uint64_t ints[] = {0, ~0ull, 1, 2, 0x7fffffffffffffff, 0x8000000000000000, 0x7f, 0x80, 0x7fff,
                                  0x8000, 0x7fffffff, 0x80000000};
  i %= 12;
  switch (t) {
    case MINNX_FLOAT: return f32[i];
    case MINNX_DOUBLE: return f64[i];
    case MINNX_FLOAT16: return f16[i];
    case MINNX_BFLOAT16: return bf16[i];
    default: return ints[i];
  }
}

static void fill(bytes *b, minnx_dtype t, unsigned char *x, int64_t count) {
  size_t es = minnx_dtype_size(t);
  for (int64_t i = 0; i < count; i++) {
    unsigned sel = take(b);
    uint64_t v = 0;
    if (sel < 128) {
      v = special(t, sel); /* half the elements: specials, and so many ties */
    } else {
      for (size_t k = 0; k < es; k++) v |= (uint64_t)take(b) << (8 * k);
    }
    memcpy(x + (size_t)i * es, &v, es); /* little-endian: the low bytes */
  }
}

/* ---- running ---- */

/* Tasks run as k threads might: thread j takes i = j, j + k, ...; the last
 * thread's tasks go first, in reverse. */
static void as_threads(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  size_t k = *(const size_t *)pool;
  for (size_t j = k; j-- > 0;) {
    if (j >= n) continue;
    size_t top = j + (n - 1 - j) / k * k; /* thread j's last task */
    for (size_t i = j; i <= top; i += k) task(ctx, j == k - 1 ? top - (i - j) : i);
  }
}

static int64_t count_of(const int64_t *dims, int rank) {
  int64_t c = 1;
  for (int d = 0; d < rank; d++) c *= dims[d];
  return c;
}

static mx_shape shape_of(const int64_t *dims, int rank) {
  mx_shape s = {.rank = rank};
  memcpy(s.dims, dims, (size_t)rank * sizeof *dims);
  return s;
}

/* Two elements the rules do not tell apart: any two NaNs, +0 and -0. */
static int same_value(minnx_dtype t, const unsigned char *a, const unsigned char *b) {
  size_t es = minnx_dtype_size(t);
  if (memcmp(a, b, es) == 0) return 1;
  uint64_t x = 0, y = 0, mag, inf;
  memcpy(&x, a, es);
  memcpy(&y, b, es);
  switch (t) {
    case MINNX_FLOAT: mag = 0x7fffffff, inf = 0x7f800000; break;
    case MINNX_DOUBLE: mag = 0x7fffffffffffffff, inf = 0x7ff0000000000000; break;
    case MINNX_FLOAT16: mag = 0x7fff, inf = 0x7c00; break;
    case MINNX_BFLOAT16: mag = 0x7fff, inf = 0x7f80; break;
    default: return 0;
  }
  return ((x & mag) > inf && (y & mag) > inf) || ((x & mag) == 0 && (y & mag) == 0);
}

/* The node through the reference loops, into ref (the output's bytes). */
static void reference(const node_spec *s, void *const *in, const minnx_tensor *y, void *ref) {
  mx_shape shapes[4], out = shape_of(y->dims, y->rank);
  const mx_shape *sp[4];
  for (int k = 0; k < s->n_in; k++) shapes[k] = shape_of(s->dims[k], s->rank[k]), sp[k] = &shapes[k];
  mx_dir dir = strstr(s->v->op, "Min") ? MX_MIN : MX_MAX;
  if (strncmp(s->v->op, "Reduce", 6) == 0)
    mx_ref_reduce(s->t, dir, &shapes[0], s->axes ? s->axes : (1u << s->rank[0]) - 1, in[0], ref);
  else if (strncmp(s->v->op, "Arg", 3) == 0)
    mx_ref_arg(s->t, dir, (int)s->last && s->v->version >= 12, &shapes[0],
               (int)(s->axis < 0 ? s->axis + s->rank[0] : s->axis), in[0], ref);
  else
    mx_ref_elementwise(s->t, dir, s->n_in, sp, (const void *const *)in, &out, ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bytes b = {data, size};
  static node_spec s;
  memset(&s, 0, sizeof s);
  choose(&b, &s);
  if (count_of(s.out_dims, s.out_rank) > 1 << 16) return 0; /* enough to be split; larger only costs time */
  test_model tm = {.n_opsets = 1, .opset_domain = {s.v->domain}, .opset_version = {s.v->version},
                   .n_inputs = s.n_in, .inputs = {"a", "b", "c", "d"}, .dtype = (int)s.t, .n_nodes = 1, .output = "y"};
  tm.nodes[0] = (test_node){s.v->op, s.v->domain, s.n_in, {"a", "b", "c", "d"}, "y", NULL, 0};
  uint8_t *model_bytes = NULL;
  size_t model_size = build_model_edit(&tm, edit, &s, &model_bytes);
  minnx_model *m = NULL;
  minnx_session *ses = NULL;
  minnx_error err;
  void *buf[4] = {0}, *in[4] = {0};
  unsigned char *first = NULL, *ref = NULL;
  if (!model_bytes || minnx_model_load_buffer(model_bytes, model_size, NULL, &m, &err)) goto done; /* refused: fine */
  if (minnx_session_create(m, &ses, &err)) goto done;
  size_t es = minnx_dtype_size(s.t);
  for (int k = 0; k < s.n_in; k++) {
    int64_t count = count_of(s.dims[k], s.rank[k]);
    size_t skew = (take(&b) % 8) * es; /* inputs start off a cache line */
    buf[k] = malloc((size_t)count * es + skew + 64);
    if (!buf[k]) goto done;
    unsigned char *x = (unsigned char *)buf[k] + skew;
    in[k] = x;
    fill(&b, s.t, x, count);
    minnx_tensor t = {s.t, s.rank[k], {0}, x, (size_t)count * es};
    memcpy(t.dims, s.dims[k], sizeof s.dims[k]);
    if (minnx_session_bind_input(ses, (size_t)k, &t, &err)) abort(); /* the shapes declared */
  }
  size_t out_bytes = 0;
  static size_t two = 2, three = 3;
  for (int run = 0; run < 3; run++) {
    if (run == 1 && minnx_session_set_parallel(ses, as_threads, &two, 2, &err)) abort();
    if (run == 2 && minnx_session_set_parallel(ses, as_threads, &three, 3, &err)) abort();
    if (minnx_session_run(ses, &err)) {
      fprintf(stderr, "fuzz_diff: a model accepted at load failed to run: %s\n", err.message);
      abort();
    }
    minnx_tensor y;
    if (minnx_session_output(ses, 0, &y)) abort();
    if (run == 0) {
      out_bytes = y.nbytes;
      first = malloc(out_bytes + 1);
      if (!first) goto done;
      if (out_bytes) memcpy(first, y.data, out_bytes);
      if (!(ref = malloc(out_bytes + 1))) goto done;
      reference(&s, in, &y, ref);
      size_t es_out = minnx_dtype_size(y.dtype);
      for (size_t i = 0; i < out_bytes; i += es_out)
        if (!same_value(y.dtype, first + i, ref + i)) {
          uint64_t got = 0, want = 0;
          memcpy(&got, first + i, es_out);
          memcpy(&want, ref + i, es_out);
          fprintf(stderr, "fuzz_diff: %s-%d %s: element %zu is 0x%llx, the reference loop's 0x%llx\n", s.v->op,
                  s.v->version, minnx_dtype_name(s.t), i / es_out, (unsigned long long)got, (unsigned long long)want);
          abort();
        }
    } else if (y.nbytes != out_bytes || (out_bytes && memcmp(first, y.data, out_bytes) != 0)) {
      fprintf(stderr, "fuzz_diff: %s-%d %s: the output with %d threads differs from one thread's\n", s.v->op,
              s.v->version, minnx_dtype_name(s.t), run == 1 ? 2 : 3);
      abort();
    }
  }
done:
  free(ref);
  free(first);
  for (int k = 0; k < 4; k++) free(buf[k]);
  minnx_session_free(ses);
  minnx_model_free(m);
  free(model_bytes);
  return 0;
}
