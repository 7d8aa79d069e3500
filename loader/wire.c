#include "loader/wire.h"

#include <stdint.h>

typedef struct {
  const uint8_t *start; /* of the whole buffer, for byte offsets in messages */
  const char *what;
  mx_err *err;
} scan;

/* A varint at *p (before end) into *v; 0 when it is truncated or longer than 10 bytes. */
static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    r |= (uint64_t)(b & 0x7f) << shift; /* the 10th byte's high bits fall off */
    if (!(b & 0x80)) {
      *v = r;
      return 1;
    }
  }
  return 0;
}

const ProtobufCFieldDescriptor *mx_pb_field(const ProtobufCMessageDescriptor *d, uint32_t id, unsigned *hint) {
  if (id - 1 < d->n_fields && d->fields[id - 1].id == id) return &d->fields[id - 1]; /* numbered 1, 2, 3... */
  for (unsigned i = *hint; i < d->n_fields && i <= *hint + 1; i++)
    if (d->fields[i].id == id) return *hint = i, &d->fields[i];
  const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, id);
  if (f) *hint = (unsigned)(f - d->fields);
  return f;
}

static minnx_status bad(const scan *s, const uint8_t *at, const ProtobufCMessageDescriptor *d, const char *why) {
  return mx_fail(s->err, MINNX_E_PARSE, "not a valid %s: the protobuf has %s in %s at byte %zu", s->what, why, d->short_name,
                 (size_t)(at - s->start));
}

static minnx_status walk(const scan *s, const uint8_t *p, const uint8_t *end, const ProtobufCMessageDescriptor *d,
                         int depth) {
  unsigned hint = 0;
  while (p < end) {
    const uint8_t *at = p;
    uint64_t key, len;
    if (!varint(&p, end, &key)) return bad(s, at, d, "a field key that is truncated or too long");
    if (key >> 3 == 0 || key >> 3 > UINT32_MAX) return bad(s, at, d, "a field number out of range");
    const ProtobufCFieldDescriptor *f = mx_pb_field(d, (uint32_t)(key >> 3), &hint);
    int message = f && f->type == PROTOBUF_C_TYPE_MESSAGE;
    switch (key & 7) {
      case 0:
        if (message) return bad(s, at, d, "a submessage field with a varint wire type");
        if (!varint(&p, end, &len)) return bad(s, at, d, "a varint that is truncated or too long");
        break;
      case 1:
      case 5: {
        size_t n = (key & 7) == 1 ? 8 : 4;
        if (message) return bad(s, at, d, "a submessage field with a fixed-size wire type");
        if ((size_t)(end - p) < n) return bad(s, at, d, "a truncated fixed-size field");
        p += n;
        break;
      }
      case 2:
        if (!varint(&p, end, &len)) return bad(s, at, d, "a length prefix that is truncated or too long");
        if (len > (uint64_t)(end - p)) return bad(s, at, d, "a length prefix beyond the end of its message");
        if (message) {
          if (depth + 1 > MX_MAX_NESTING)
            return mx_fail(s->err, MINNX_E_LIMIT, "the %s nests messages more than %d deep (at byte %zu, in %s)",
                           s->what, MX_MAX_NESTING, (size_t)(at - s->start), d->short_name);
          minnx_status st = walk(s, p, p + len, f->descriptor, depth + 1);
          if (st) return st;
        }
        p += len;
        break;
      default: return bad(s, at, d, "a group or unknown wire type");
    }
  }
  return MINNX_OK;
}

minnx_status mx_wire_check(const void *bytes, size_t size, const ProtobufCMessageDescriptor *desc, const char *what,
                           mx_err *err) {
  scan s = {bytes, what, err};
  return walk(&s, s.start, s.start + size, desc, 0);
}
