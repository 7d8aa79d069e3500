#include "loader/tensor.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "loader/unpack.h"
#include "loader/wire.h"

static void *pb_alloc(void *data, size_t size) {
  mx_pb_mem *m = data;
  void *p = m->a.alloc(m->a.user, size);
  if (!p) m->failed = 1;
  return p;
}

static void pb_free(void *data, void *ptr) {
  mx_pb_mem *m = data;
  if (ptr) m->a.free(m->a.user, ptr);
}

ProtobufCAllocator mx_protobuf_allocator(mx_pb_mem *m) {
  ProtobufCAllocator p = {pb_alloc, pb_free, m};
  return p;
}

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* raw_data and external data are little-endian whatever the host. */
static void le_to_host(void *data, size_t nbytes, size_t elem) {
  if (elem == 1 || host_is_little_endian()) return;
  unsigned char *p = data;
  for (size_t i = 0; i < nbytes; i += elem)
    for (size_t a = 0, b = elem - 1; a < b; a++, b--) {
      unsigned char t = p[i + a];
      p[i + a] = p[i + b];
      p[i + b] = t;
    }
}

static void copy_le(void *dst, const void *src, size_t nbytes, size_t elem) {
  memcpy(dst, src, nbytes);
  le_to_host(dst, nbytes, elem);
}

/* The typed field that carries each dtype, by ONNX's rules. */
typedef enum { F_NONE, F_FLOAT, F_INT32, F_INT64, F_DOUBLE, F_UINT64 } field;

static field field_of(mx_dtype t) {
  switch (t) {
    case MINNX_FLOAT: return F_FLOAT;
    case MINNX_INT32: case MINNX_INT16: case MINNX_INT8: case MINNX_UINT16: case MINNX_UINT8:
    case MINNX_BOOL: case MINNX_FLOAT16: case MINNX_BFLOAT16: return F_INT32;
    case MINNX_INT64: return F_INT64;
    case MINNX_DOUBLE: return F_DOUBLE;
    case MINNX_UINT32: case MINNX_UINT64: return F_UINT64;
    default: return F_NONE;
  }
}

static const char *field_name(field f) {
  static const char *const n[] = {"none", "float_data", "int32_data", "int64_data", "double_data", "uint64_data"};
  return n[f];
}

static size_t field_count(const Onnx__TensorProto *t, field f) {
  switch (f) {
    case F_FLOAT: return t->n_float_data;
    case F_INT32: return t->n_int32_data;
    case F_INT64: return t->n_int64_data;
    case F_DOUBLE: return t->n_double_data;
    case F_UINT64: return t->n_uint64_data;
    default: return 0;
  }
}

/* Narrows int32_data values into their dtype, refusing values that do not fit. */
static int narrow_int32(const int32_t *src, size_t n, mx_dtype t, void *dst) {
  for (size_t i = 0; i < n; i++) {
    int32_t v = src[i];
    switch (t) {
      case MINNX_INT32: ((int32_t *)dst)[i] = v; break;
      case MINNX_INT16:
        if (v < INT16_MIN || v > INT16_MAX) return 0;
        ((int16_t *)dst)[i] = (int16_t)v;
        break;
      case MINNX_INT8:
        if (v < INT8_MIN || v > INT8_MAX) return 0;
        ((int8_t *)dst)[i] = (int8_t)v;
        break;
      case MINNX_UINT16:
        if (v < 0 || v > UINT16_MAX) return 0;
        ((uint16_t *)dst)[i] = (uint16_t)v;
        break;
      case MINNX_UINT8:
        if (v < 0 || v > UINT8_MAX) return 0;
        ((uint8_t *)dst)[i] = (uint8_t)v;
        break;
      case MINNX_BOOL:
        if (v < 0 || v > 1) return 0;
        ((uint8_t *)dst)[i] = (uint8_t)v;
        break;
      default: /* float16, bfloat16: the bit pattern, written zero- or sign-extended */
        if (v < INT16_MIN || v > UINT16_MAX) return 0;
        ((uint16_t *)dst)[i] = (uint16_t)(v & 0xFFFF);
        break;
    }
  }
  return 1;
}

static int narrow_uint64(const uint64_t *src, size_t n, mx_dtype t, void *dst) {
  if (t == MINNX_UINT64) {
    memcpy(dst, src, n * sizeof *src);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    if (src[i] > UINT32_MAX) return 0;
    ((uint32_t *)dst)[i] = (uint32_t)src[i];
  }
  return 1;
}

/* ---- external data ---- */

/* A decimal uint64, as external_data's "offset" and "length" hold; 0 when s is not one. */
static int parse_u64(const char *s, uint64_t *v) {
  uint64_t r = 0;
  if (!*s) return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    unsigned d = (unsigned)(*s - '0');
    if (r > (UINT64_MAX - d) / 10) return 0;
    r = r * 10 + d;
  }
  *v = r;
  return 1;
}

/* Whether a location names a file inside the model's folder: relative, and
 * never going up. What the file system makes of it (symbolic links) is the
 * reader's to check. */
static const char *location_problem(const char *loc) {
  if (!loc[0]) return "is empty";
  if (loc[0] == '/') return "is an absolute path";
  for (const char *c = loc; *c;) {
    size_t n = strcspn(c, "/");
    if (n == 2 && c[0] == '.' && c[1] == '.') return "goes up out of the model's folder ('..')";
    c += n;
    c += *c == '/';
  }
  return NULL;
}

/* Reads the external data of t (nbytes long) into memory from alloc. */
static minnx_status read_external(const Onnx__TensorProto *t, const char *what, size_t nbytes, size_t esize,
                                  mx_alloc_fn alloc, void *ctx, const mx_external *ext, mx_tensor_data *out,
                                  mx_err *err) {
  if (!ext || !ext->read)
    return mx_fail(err, MINNX_E_FEATURE, "tensor '%s' uses external data, which %s", what,
                   ext ? "a model loaded from memory reads only through minnx_load_options.read_external"
                       : "minnx reads only for a model's initializers");
  const char *location = NULL;
  uint64_t offset = 0, length = nbytes;
  for (size_t i = 0; i < t->n_external_data; i++) {
    const char *key = t->external_data[i]->key ? t->external_data[i]->key : "";
    const char *value = t->external_data[i]->value ? t->external_data[i]->value : "";
    int ok = 1;
    if (strcmp(key, "location") == 0) ok = !location, location = value;
    else if (strcmp(key, "offset") == 0) ok = parse_u64(value, &offset);
    else if (strcmp(key, "length") == 0) ok = parse_u64(value, &length);
    else if (strcmp(key, "checksum") != 0) /* a digest minnx does not verify */
      return mx_fail(err, MINNX_E_MODEL, "tensor '%s': external_data has an unknown key '%s'", what, key);
    if (!ok) return mx_fail(err, MINNX_E_MODEL, "tensor '%s': external_data '%s' has a bad value '%s'", what, key, value);
  }
  if (!location) return mx_fail(err, MINNX_E_MODEL, "tensor '%s' uses external data but gives no location", what);
  const char *problem = location_problem(location);
  if (problem) return mx_fail(err, MINNX_E_MODEL, "tensor '%s': external data location '%s' %s", what, location, problem);
  if (length != nbytes)
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s': external data length is %llu bytes, its shape needs %zu", what,
                   (unsigned long long)length, nbytes);
  if (offset > UINT64_MAX - length)
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s': external data offset %llu + length %llu overflows", what,
                   (unsigned long long)offset, (unsigned long long)length);
  out->nbytes = nbytes;
  if (nbytes == 0) return MINNX_OK;
  if (!(out->data = alloc(ctx, nbytes)))
    return mx_fail(err, MINNX_E_NOMEM, "out of memory for tensor '%s' (%zu bytes)", what, nbytes);
  mx_err why = {MINNX_OK, ""};
  minnx_status st = ext->read(ext->user, location, offset, length, out->data, &why);
  if (st) /* the reader's own message (it may give none), naming the tensor */
    return mx_fail(err, st >= MINNX_E_ARG && st <= MINNX_E_FEATURE ? st : MINNX_E_IO, "tensor '%s': %s", what,
                   why.message[0] ? why.message : "reading its external data failed");
  le_to_host(out->data, nbytes, esize);
  return MINNX_OK;
}

minnx_status mx_tensor_from_proto(const Onnx__TensorProto *t, const char *what, mx_alloc_fn alloc, void *ctx,
                                  const mx_external *ext, int in_place, mx_tensor_data *out, mx_err *err) {
  memset(out, 0, sizeof *out);
  if (!t->has_data_type || t->data_type == MINNX_UNDEFINED)
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s' has no data_type", what);
  mx_dtype dt = (mx_dtype)t->data_type;
  size_t esize = mx_dtype_size(dt);
  if (esize == 0) return mx_fail(err, MINNX_E_TYPE, "tensor '%s' has dtype %s (%d), which minnx does not support", what, mx_dtype_name(dt), (int)dt);
  if (t->n_dims > MX_MAX_RANK)
    return mx_fail(err, MINNX_E_LIMIT, "tensor '%s' has rank %zu, above minnx's maximum %d", what, t->n_dims, MX_MAX_RANK);
  out->dtype = dt;
  out->shape.rank = (int)t->n_dims;
  for (size_t i = 0; i < t->n_dims; i++) {
    if (t->dims[i] < 0) return mx_fail(err, MINNX_E_MODEL, "tensor '%s' has negative dim %lld", what, (long long)t->dims[i]);
    out->shape.dims[i] = t->dims[i];
  }
  size_t nbytes = mx_shape_bytes(&out->shape, dt);
  if (nbytes == SIZE_MAX) return mx_fail(err, MINNX_E_LIMIT, "tensor '%s': element count overflows", what);
  size_t n = nbytes / esize;
  if (t->segment) return mx_fail(err, MINNX_E_FEATURE, "tensor '%s' is segmented, which minnx does not support", what);
  int external = t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  if (t->has_data_location && !external && t->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT)
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s' has an unknown data_location %d", what, (int)t->data_location);

  field f = field_of(dt);
  static const field all[] = {F_FLOAT, F_INT32, F_INT64, F_DOUBLE, F_UINT64};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i] != f && field_count(t, all[i]) != 0)
      return mx_fail(err, MINNX_E_MODEL, "tensor '%s' of dtype %s carries %s, which is not its field", what,
                     mx_dtype_name(dt), field_name(all[i]));
  if (t->n_string_data) return mx_fail(err, MINNX_E_MODEL, "tensor '%s' of dtype %s carries string_data", what, mx_dtype_name(dt));

  size_t typed = field_count(t, f);
  if (external && (t->has_raw_data || typed))
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s' has both external data and %s", what,
                   t->has_raw_data ? "raw_data" : field_name(f));
  if (external) return read_external(t, what, nbytes, esize, alloc, ctx, ext, out, err);
  if (t->has_raw_data && typed)
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s' has both raw_data and %s", what, field_name(f));
  if (t->has_raw_data) {
    if (t->raw_data.len != nbytes)
      return mx_fail(err, MINNX_E_MODEL, "tensor '%s': raw_data has %zu bytes, its shape needs %zu", what, t->raw_data.len, nbytes);
  } else if (typed != n) {
    return mx_fail(err, MINNX_E_MODEL, "tensor '%s': %s has %zu values, its shape needs %zu", what, field_name(f), typed, n);
  }
  out->nbytes = nbytes;
  if (nbytes == 0) return MINNX_OK;
  if (in_place && t->has_raw_data && (esize == 1 || host_is_little_endian()) &&
      (uintptr_t)t->raw_data.data % esize == 0) {
    out->data = t->raw_data.data; /* the decoder points bytes fields into the model's bytes */
    return MINNX_OK;
  }
  out->data = alloc(ctx, nbytes);
  if (!out->data) return mx_fail(err, MINNX_E_NOMEM, "out of memory for tensor '%s' (%zu bytes)", what, nbytes);

  int ok = 1;
  if (t->has_raw_data) {
    copy_le(out->data, t->raw_data.data, nbytes, esize);
  } else if (f == F_INT32) {
    ok = narrow_int32(t->int32_data, n, dt, out->data);
  } else if (f == F_UINT64) {
    ok = narrow_uint64(t->uint64_data, n, dt, out->data);
  } else {
    const void *src = f == F_FLOAT ? (const void *)t->float_data : f == F_INT64 ? (const void *)t->int64_data : (const void *)t->double_data;
    memcpy(out->data, src, nbytes);
  }
  if (!ok) return mx_fail(err, MINNX_E_MODEL, "tensor '%s': a value in %s does not fit dtype %s", what, field_name(f), mx_dtype_name(dt));
  return MINNX_OK;
}

/* ---- sparse tensors ---- */

minnx_status mx_sparse_from_proto(const Onnx__SparseTensorProto *s, const char *what, mx_alloc_fn alloc, void *ctx,
                                  const mx_external *ext, mx_tensor_data *out, mx_err *err) {
  mx_tensor_data v, ix;
  memset(out, 0, sizeof *out);
  if (!s->values || !s->indices) return mx_fail(err, MINNX_E_MODEL, "sparse tensor '%s' lacks its values or indices", what);
  if (s->n_dims > MX_MAX_RANK)
    return mx_fail(err, MINNX_E_LIMIT, "sparse tensor '%s' has rank %zu, above minnx's maximum %d", what, s->n_dims, MX_MAX_RANK);
  minnx_status st = mx_tensor_from_proto(s->values, what, alloc, ctx, ext, 0, &v, err);
  if (!st) st = mx_tensor_from_proto(s->indices, what, alloc, ctx, ext, 0, &ix, err);
  if (st) return st;
  out->dtype = v.dtype;
  out->shape.rank = (int)s->n_dims;
  for (size_t d = 0; d < s->n_dims; d++) {
    if (s->dims[d] < 0) return mx_fail(err, MINNX_E_MODEL, "sparse tensor '%s' has negative dim %lld", what, (long long)s->dims[d]);
    out->shape.dims[d] = s->dims[d];
  }
  int64_t count = mx_shape_count(&out->shape), nnz = v.shape.rank == 1 ? v.shape.dims[0] : -1;
  size_t esize = mx_dtype_size(v.dtype);
  out->nbytes = mx_shape_bytes(&out->shape, v.dtype);
  if (count < 0 || out->nbytes == SIZE_MAX) return mx_fail(err, MINNX_E_LIMIT, "sparse tensor '%s': element count overflows", what);
  int per = ix.shape.rank == 2 ? out->shape.rank : 1; /* int64s per index */
  if (nnz < 0 || ix.dtype != MINNX_INT64 || ix.shape.rank < 1 || ix.shape.rank > 2 || ix.shape.dims[0] != nnz ||
      (ix.shape.rank == 2 && ix.shape.dims[1] != out->shape.rank))
    return mx_fail(err, MINNX_E_MODEL, "sparse tensor '%s': values must be [NNZ] and indices int64 [NNZ] or [NNZ, %d]", what,
                   out->shape.rank);
  out->data = alloc(ctx, out->nbytes ? out->nbytes : 1);
  if (!out->data) return mx_fail(err, MINNX_E_NOMEM, "out of memory for sparse tensor '%s' (%zu bytes)", what, out->nbytes);
  memset(out->data, 0, out->nbytes);
  const int64_t *idx = ix.data;
  int64_t prev = -1;
  for (int64_t k = 0; k < nnz; k++) {
    int64_t at = 0; /* the linear index, every coordinate checked before it is used */
    for (int j = 0; j < per; j++) {
      int64_t c = idx[k * per + j], dim = per == 1 ? count : out->shape.dims[j];
      if (c < 0 || c >= dim)
        return mx_fail(err, MINNX_E_MODEL, "sparse tensor '%s': index %lld of value %lld is out of range [0, %lld)", what,
                       (long long)c, (long long)k, (long long)dim);
      at = at * dim + c;
    }
    if (at <= prev)
      return mx_fail(err, MINNX_E_MODEL, "sparse tensor '%s': value %lld's index is not after the one before (indices must "
                     "ascend without repeats)", what, (long long)k);
    prev = at;
    memcpy((unsigned char *)out->data + (size_t)at * esize, (const unsigned char *)v.data + (size_t)k * esize, esize);
  }
  return MINNX_OK;
}

/* ---- public: .pb files ---- */

typedef struct {
  minnx_allocator a;
} hook_ctx;

static void *hook_alloc(void *ctx, size_t size) {
  hook_ctx *h = ctx;
  return h->a.alloc(h->a.user, size);
}

minnx_status minnx_tensor_decode(const void *data, size_t size, const minnx_allocator *allocator,
                                 minnx_tensor *out, char **name, minnx_error *err) {
  if (!out || (!data && size)) return mx_fail(err, MINNX_E_ARG, "minnx_tensor_decode: NULL argument");
  memset(out, 0, sizeof *out);
  if (name) *name = NULL;
  minnx_status st = mx_allocator_check(allocator, err);
  if (st) return st;
  hook_ctx h = {mx_allocator_or_default(allocator)};
  st = mx_wire_check(data, size, &onnx__tensor_proto__descriptor, "TensorProto", err);
  if (st) return st;
  mx_mem mem;
  mx_mem_init(&mem, &h.a, 0);
  mx_pb_mem pm = {mx_mem_allocator(&mem), 0};
  ProtobufCAllocator pa = mx_protobuf_allocator(&pm);
  int nomem;
  Onnx__TensorProto *t = (Onnx__TensorProto *)mx_pb_unpack(&onnx__tensor_proto__descriptor, data, size, &pa, &nomem);
  if (!t && nomem) return mx_fail(err, MINNX_E_NOMEM, "out of memory decoding a TensorProto");
  if (!t) return mx_fail(err, MINNX_E_PARSE, "not a valid TensorProto (%zu bytes)", size);
  mx_tensor_data td;
  const char *label = t->name && t->name[0] ? t->name : "(unnamed)";
  st = mx_tensor_from_proto(t, label, hook_alloc, &h, NULL, 0, &td, err);
  if (st == MINNX_OK && name && t->name && t->name[0]) {
    size_t len = strlen(t->name);
    *name = h.a.alloc(h.a.user, len + 1);
    if (!*name) st = mx_fail(err, MINNX_E_NOMEM, "out of memory");
    else memcpy(*name, t->name, len + 1);
  }
  mx_pb_free(&t->base, &pa);
  if (st != MINNX_OK) {
    if (td.data) h.a.free(h.a.user, td.data);
    return st;
  }
  out->dtype = td.dtype;
  out->rank = td.shape.rank;
  memcpy(out->dims, td.shape.dims, sizeof out->dims);
  out->data = td.data;
  out->nbytes = td.nbytes;
  return MINNX_OK;
}

minnx_status minnx_tensor_encode(const minnx_tensor *tensor, const char *name, const minnx_allocator *allocator,
                                 void **out, size_t *out_size, minnx_error *err) {
  if (!tensor || !out || !out_size || tensor->rank < 0 || tensor->rank > MINNX_MAX_RANK)
    return mx_fail(err, MINNX_E_ARG, "minnx_tensor_encode: bad argument");
  minnx_status st = mx_allocator_check(allocator, err);
  if (st) return st;
  minnx_allocator a = mx_allocator_or_default(allocator);
  Onnx__TensorProto t = ONNX__TENSOR_PROTO__INIT;
  int64_t dims[MINNX_MAX_RANK];
  memcpy(dims, tensor->dims, sizeof dims);
  t.n_dims = (size_t)tensor->rank;
  t.dims = dims;
  t.has_data_type = 1;
  t.data_type = (int32_t)tensor->dtype;
  t.name = (char *)(name ? name : "");
  t.has_raw_data = 1;
  void *le = NULL;
  if (tensor->nbytes) {
    le = a.alloc(a.user, tensor->nbytes);
    if (!le) return mx_fail(err, MINNX_E_NOMEM, "out of memory");
    copy_le(le, tensor->data, tensor->nbytes, mx_dtype_size(tensor->dtype) ? mx_dtype_size(tensor->dtype) : 1);
  }
  t.raw_data.data = le;
  t.raw_data.len = tensor->nbytes;
  size_t size = onnx__tensor_proto__get_packed_size(&t);
  uint8_t *buf = a.alloc(a.user, size ? size : 1);
  if (!buf) {
    if (le) a.free(a.user, le);
    return mx_fail(err, MINNX_E_NOMEM, "out of memory");
  }
  onnx__tensor_proto__pack(&t, buf);
  if (le) a.free(a.user, le);
  *out = buf;
  *out_size = size;
  return MINNX_OK;
}

void minnx_tensor_free(const minnx_allocator *allocator, void *ptr) {
  if (!ptr) return;
  minnx_allocator a = mx_allocator_or_default(allocator);
  a.free(a.user, ptr);
}
