/* Protobuf wire bytes into protobuf-c's generated structs, with protobuf-c's
 * descriptors but not its unpacker, for two reasons:
 *   - bytes fields (a tensor's raw_data) point into the caller's buffer
 *     instead of being copied: the message costs the model's structure, not
 *     its weights, and the weights can stay where they are;
 *   - the stack stays small: protobuf-c's unpacker takes about 500 bytes per
 *     level of nesting on a Cortex-M4, and a model nests 7 levels deep.
 * Strings are copied (a C string needs its NUL). Repeated scalars are read
 * packed or not, whatever the schema says, as protobuf requires; of a
 * non-repeated field given twice the last one counts (protobuf would merge two
 * occurrences of a submessage; no ONNX writer emits them). Unknown fields are
 * skipped. The message must be released with mx_pb_free, never with
 * protobuf-c's free_unpacked. */
#ifndef MX_LOADER_UNPACK_H
#define MX_LOADER_UNPACK_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>

/* The message of type `desc` in the `size` bytes at `data`, which must have
 * passed mx_wire_check (well-formed, nesting bounded) and outlive the message.
 * NULL when the bytes do not fit the schema (a field with the wrong wire
 * type, a truncated packed field) or memory runs out: *nomem then says which. */
ProtobufCMessage *mx_pb_unpack(const ProtobufCMessageDescriptor *desc, const void *data, size_t size,
                               ProtobufCAllocator *a, int *nomem);
/* Releases what mx_pb_unpack returned (NULL allowed). */
void mx_pb_free(ProtobufCMessage *m, ProtobufCAllocator *a);

#endif
