/* TensorProto decoding, shared by initializers and .pb input files. */
#ifndef MX_LOADER_TENSOR_H
#define MX_LOADER_TENSOR_H

#include "graph/err.h"
#include "graph/ir.h"
#include "loader/loader.h"
#include "onnx.pb-c.h"

typedef void *(*mx_alloc_fn)(void *ctx, size_t size);

typedef struct mx_tensor_data {
  mx_dtype dtype;
  mx_shape shape;
  void *data; /* from alloc, or in place (never to be written); NULL when nbytes is 0 */
  size_t nbytes;
} mx_tensor_data;

/* Decodes t's dtype, dims and data (raw_data little-endian, the typed field
 * for its dtype, or external data read through ext: NULL where tensors may
 * not use it); `what` names the tensor in messages. With `in_place`, raw_data
 * that needs no byte swap and is aligned to its element size is not copied:
 * out->data then points into the bytes t was decoded from. */
minnx_status mx_tensor_from_proto(const Onnx__TensorProto *t, const char *what, mx_alloc_fn alloc, void *ctx,
                                  const mx_external *ext, int in_place, mx_tensor_data *out, mx_err *err);

/* Densifies a SparseTensorProto (Constant's sparse_value): values [NNZ] of
 * any numeric dtype, indices int64 [NNZ, rank] or [NNZ] (linearized), in
 * ascending order without repeats, each inside dims; anything else is
 * refused naming `what`. The dense bytes (zeros elsewhere) come from alloc. */
minnx_status mx_sparse_from_proto(const Onnx__SparseTensorProto *s, const char *what, mx_alloc_fn alloc, void *ctx,
                                  const mx_external *ext, mx_tensor_data *out, mx_err *err);

/* protobuf-c allocation through hooks (an mx_mem's, or a region's top);
 * `failed` records a refused allocation, so that a failed unpack is told
 * apart from bad bytes. */
typedef struct mx_pb_mem {
  minnx_allocator a;
  int failed;
} mx_pb_mem;
ProtobufCAllocator mx_protobuf_allocator(mx_pb_mem *m);

#endif
