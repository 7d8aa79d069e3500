/* A pass over protobuf wire bytes before they are decoded (loader/unpack.c).
 * The decoder recurses once per nested message, and ONNX messages can nest
 * without end (graphs in attributes, types in types): bytes nested deeper
 * than MX_MAX_NESTING are refused here, so that decoding uses bounded stack. */
#ifndef MX_LOADER_WIRE_H
#define MX_LOADER_WIRE_H

#include <protobuf-c/protobuf-c.h>

#include "graph/err.h"

/* A model minnx can run nests 6 levels below ModelProto (GraphProto >
 * ValueInfoProto > TypeProto > Tensor > TensorShapeProto > Dimension); the
 * margin lets what minnx refuses later get a clearer message. */
#define MX_MAX_NESTING 32

/* Checks that `size` bytes are a well-formed message of type `desc` whose
 * submessages nest at most MX_MAX_NESTING deep. `what` names the bytes in
 * messages ("ONNX model"). */
minnx_status mx_wire_check(const void *bytes, size_t size, const ProtobufCMessageDescriptor *desc, const char *what,
                           mx_err *err);

/* The field numbered id in d, or NULL. Where the fields are numbered from 1
 * without gaps it is the id-th; else *hint (0 at first), the index of the
 * field found before, is tried, and the next one (fields mostly come in
 * their order, a repeated one many times), before protobuf-c's binary search. */
const ProtobufCFieldDescriptor *mx_pb_field(const ProtobufCMessageDescriptor *d, uint32_t id, unsigned *hint);

#endif
