#include "loader/unpack.h"

#include <stdint.h>
#include <string.h>

#include "loader/wire.h"

enum { WIRE_VARINT = 0, WIRE_I64 = 1, WIRE_LEN = 2, WIRE_I32 = 5 };

/* One field of a message on the wire: its number, wire type and payload
 * (a varint's bytes, a fixed value's bytes, or a length-delimited content). */
typedef struct {
  uint32_t id;
  int wire;
  const uint8_t *at, *end;
} wire_field;

typedef struct {
  ProtobufCAllocator *a;
  int nomem;
} unpacker;

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    r |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return *v = r, 1;
  }
  return 0;
}

/* The field at *p; 0 at the end or on bytes mx_wire_check would refuse. */
static int next_field(const uint8_t **p, const uint8_t *end, wire_field *f) {
  uint64_t key, len;
  if (*p >= end || !varint(p, end, &key)) return 0;
  f->id = (uint32_t)(key >> 3);
  f->wire = (int)(key & 7);
  f->at = *p;
  switch (f->wire) {
    case WIRE_VARINT:
      if (!varint(p, end, &len)) return 0;
      break;
    case WIRE_I64:
    case WIRE_I32:
      len = f->wire == WIRE_I64 ? 8 : 4;
      if ((uint64_t)(end - *p) < len) return 0;
      *p += len;
      break;
    case WIRE_LEN:
      if (!varint(p, end, &len) || len > (uint64_t)(end - *p)) return 0;
      f->at = *p;
      *p += len;
      break;
    default: return 0;
  }
  f->end = *p;
  return 1;
}

static int wire_of(ProtobufCType t) {
  switch (t) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_BOOL:
    case PROTOBUF_C_TYPE_ENUM: return WIRE_VARINT;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return WIRE_I64;
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT: return WIRE_I32;
    default: return WIRE_LEN;
  }
}

/* Bytes of one element in the struct (of an array, for a repeated field). */
static size_t element_size(ProtobufCType t) {
  switch (t) {
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return 8;
    default: return 4;
  }
}

/* One scalar of type t, read at *p with wire type `wire`, stored at dst. */
static int read_scalar(ProtobufCType t, int wire, const uint8_t **p, const uint8_t *end, void *dst) {
  uint64_t v = 0;
  if (wire == WIRE_VARINT) {
    if (!varint(p, end, &v)) return 0;
  } else {
    size_t n = wire == WIRE_I64 ? 8 : 4;
    if ((size_t)(end - *p) < n) return 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)(*p)[i] << (8 * i); /* little-endian on the wire */
    *p += n;
  }
  if (t == PROTOBUF_C_TYPE_SINT32 || t == PROTOBUF_C_TYPE_SINT64) v = (v >> 1) ^ (0 - (v & 1)); /* zigzag */
  if (t == PROTOBUF_C_TYPE_BOOL) {
    protobuf_c_boolean b = v != 0;
    memcpy(dst, &b, sizeof b);
  } else if (element_size(t) == 4) {
    uint32_t w = (uint32_t)v; /* int32's 10-byte negative varints keep their low half */
    memcpy(dst, &w, 4);
  } else {
    memcpy(dst, &v, 8);
  }
  return 1;
}

static void *alloc(unpacker *u, size_t size) {
  void *p = u->a->alloc(u->a->allocator_data, size);
  if (!p) u->nomem = 1;
  return p;
}

static void release(ProtobufCAllocator *a, void *p) {
  if (p) a->free(a->allocator_data, p);
}

static void free_value(const ProtobufCFieldDescriptor *f, void *value, ProtobufCAllocator *a) {
  if (f->type == PROTOBUF_C_TYPE_STRING) {
    char *s = *(char **)value;
    if (s != f->default_value) release(a, s);
  } else if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
    mx_pb_free(*(ProtobufCMessage **)value, a);
  }
}

static ProtobufCMessage *message(const ProtobufCMessageDescriptor *d, const uint8_t *p, const uint8_t *end,
                                 unpacker *u);


/* A length-delimited value (string, bytes, submessage) into dst. */
static int read_len(const ProtobufCFieldDescriptor *f, const wire_field *w, void *dst, unpacker *u) {
  size_t n = (size_t)(w->end - w->at);
  if (f->type == PROTOBUF_C_TYPE_BYTES) {
    ProtobufCBinaryData b = {n, (uint8_t *)(uintptr_t)w->at}; /* in place: never written through */
    memcpy(dst, &b, sizeof b);
    return 1;
  }
  if (f->type == PROTOBUF_C_TYPE_STRING) {
    char *s = alloc(u, n + 1);
    if (!s) return 0;
    memcpy(s, w->at, n);
    s[n] = '\0';
    memcpy(dst, &s, sizeof s);
    return 1;
  }
  ProtobufCMessage *m = message(f->descriptor, w->at, w->end, u);
  memcpy(dst, &m, sizeof m);
  return m != NULL;
}

/* How many elements a repeated field's occurrence holds: 1, or a packed run's count. */
static int count_elements(const ProtobufCFieldDescriptor *f, const wire_field *w, size_t *n) {
  int want = wire_of(f->type);
  if (w->wire == want) return *n = 1, 1;
  if (w->wire != WIRE_LEN || want == WIRE_LEN) return 0;
  size_t len = (size_t)(w->end - w->at);
  if (want != WIRE_VARINT) {
    size_t es = want == WIRE_I64 ? 8 : 4;
    return len % es == 0 ? (*n = len / es, 1) : 0;
  }
  *n = 0;
  for (const uint8_t *q = w->at; q < w->end; q++) *n += !(*q & 0x80);
  return w->end == w->at || !(w->end[-1] & 0x80);
}

static int fill_repeated(const ProtobufCFieldDescriptor *f, const wire_field *w, ProtobufCMessage *m, unpacker *u) {
  size_t *n = (size_t *)((char *)m + f->quantifier_offset);
  char *arr = *(char **)((char *)m + f->offset);
  size_t es = element_size(f->type);
  if (w->wire == wire_of(f->type)) {
    if (w->wire == WIRE_LEN) {
      if (!read_len(f, w, arr + *n * es, u)) return 0;
    } else {
      const uint8_t *q = w->at;
      if (!read_scalar(f->type, w->wire, &q, w->end, arr + *n * es)) return 0;
    }
    return ++*n, 1;
  }
  for (const uint8_t *q = w->at; q < w->end; ++*n) /* packed */
    if (!read_scalar(f->type, wire_of(f->type), &q, w->end, arr + *n * es)) return 0;
  return 1;
}

static int fill_single(const ProtobufCMessageDescriptor *d, const ProtobufCFieldDescriptor *f, const wire_field *w,
                       ProtobufCMessage *m, unpacker *u) {
  if (w->wire != wire_of(f->type)) return 0;
  char *value = (char *)m + f->offset;
  if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
    uint32_t *which = (uint32_t *)((char *)m + f->quantifier_offset);
    const ProtobufCFieldDescriptor *old = *which ? protobuf_c_message_descriptor_get_field(d, *which) : NULL;
    if (old) free_value(old, (char *)m + old->offset, u->a);
    *which = f->id;
  } else {
    free_value(f, value, u->a); /* the last occurrence counts */
    if (f->label == PROTOBUF_C_LABEL_OPTIONAL && f->type != PROTOBUF_C_TYPE_STRING &&
        f->type != PROTOBUF_C_TYPE_MESSAGE)
      *(protobuf_c_boolean *)((char *)m + f->quantifier_offset) = 1;
  }
  if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE) memset(value, 0, sizeof(void *));
  if (w->wire == WIRE_LEN) return read_len(f, w, value, u);
  const uint8_t *q = w->at;
  return read_scalar(f->type, w->wire, &q, w->end, value);
}

/* Two passes: the first counts each repeated field's elements so that its
 * array is allocated once, the second fills. */
static ProtobufCMessage *message(const ProtobufCMessageDescriptor *d, const uint8_t *p, const uint8_t *end,
                                 unpacker *u) {
  ProtobufCMessage *m = alloc(u, d->sizeof_message);
  if (!m) return NULL;
  d->message_init(m);
  wire_field w;
  unsigned hint = 0;
  for (const uint8_t *q = p; next_field(&q, end, &w);) {
    const ProtobufCFieldDescriptor *f = mx_pb_field(d, w.id, &hint);
    size_t n;
    if (!f || f->label != PROTOBUF_C_LABEL_REPEATED) continue;
    if (!count_elements(f, &w, &n)) goto fail;
    *(size_t *)((char *)m + f->quantifier_offset) += n;
  }
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *f = &d->fields[i];
    size_t *n = (size_t *)((char *)m + f->quantifier_offset);
    if (f->label != PROTOBUF_C_LABEL_REPEATED || *n == 0) continue;
    void *arr = alloc(u, *n * element_size(f->type));
    if (!arr) {
      *n = 0; /* this field and those after it hold nothing to free yet */
      for (unsigned k = i + 1; k < d->n_fields; k++)
        if (d->fields[k].label == PROTOBUF_C_LABEL_REPEATED) *(size_t *)((char *)m + d->fields[k].quantifier_offset) = 0;
      goto fail;
    }
    memset(arr, 0, *n * element_size(f->type));
    memcpy((char *)m + f->offset, &arr, sizeof arr);
    *n = 0;
  }
  for (const uint8_t *q = p; q < end;) {
    if (!next_field(&q, end, &w)) goto fail;
    const ProtobufCFieldDescriptor *f = mx_pb_field(d, w.id, &hint);
    if (f && !(f->label == PROTOBUF_C_LABEL_REPEATED ? fill_repeated(f, &w, m, u) : fill_single(d, f, &w, m, u)))
      goto fail;
  }
  return m;
fail:
  mx_pb_free(m, u->a);
  return NULL;
}

ProtobufCMessage *mx_pb_unpack(const ProtobufCMessageDescriptor *desc, const void *data, size_t size,
                               ProtobufCAllocator *a, int *nomem) {
  unpacker u = {a, 0};
  const uint8_t *p = size ? data : (const uint8_t *)"";
  ProtobufCMessage *m = message(desc, p, p + size, &u);
  *nomem = u.nomem;
  return m;
}

void mx_pb_free(ProtobufCMessage *m, ProtobufCAllocator *a) {
  if (!m) return;
  const ProtobufCMessageDescriptor *d = m->descriptor;
  for (unsigned i = 0; i < d->n_fields; i++) {
    const ProtobufCFieldDescriptor *f = &d->fields[i];
    char *value = (char *)m + f->offset;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
      size_t n = *(size_t *)((char *)m + f->quantifier_offset);
      char *arr = *(char **)value;
      if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE)
        for (size_t k = 0; arr && k < n; k++) free_value(f, arr + k * sizeof(void *), a);
      release(a, arr);
    } else if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
               *(uint32_t *)((char *)m + f->quantifier_offset) == f->id) {
      free_value(f, value, a);
    }
  }
  release(a, m);
}
