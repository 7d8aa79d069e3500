#include "graph/dtype.h"

/* By ONNX DataType number. Two arrays rather than one of pairs, so that a
 * build that never names a dtype (MINNX_MESSAGES=OFF) links only the sizes. */
static const unsigned char sizes[MX_DTYPE_COUNT] = {
    [MINNX_FLOAT] = 4,   [MINNX_UINT8] = 1,   [MINNX_INT8] = 1,   [MINNX_UINT16] = 2,  [MINNX_INT16] = 2,
    [MINNX_INT32] = 4,   [MINNX_INT64] = 8,   [MINNX_BOOL] = 1,   [MINNX_FLOAT16] = 2, [MINNX_DOUBLE] = 8,
    [MINNX_UINT32] = 4,  [MINNX_UINT64] = 8,  [MINNX_BFLOAT16] = 2, /* string, complex: 0, not held */
};
static const char *const names[MX_DTYPE_COUNT] = {
    [MINNX_FLOAT] = "float",     [MINNX_UINT8] = "uint8",     [MINNX_INT8] = "int8",         [MINNX_UINT16] = "uint16",
    [MINNX_INT16] = "int16",     [MINNX_INT32] = "int32",     [MINNX_INT64] = "int64",       [8] = "string",
    [MINNX_BOOL] = "bool",       [MINNX_FLOAT16] = "float16", [MINNX_DOUBLE] = "double",     [MINNX_UINT32] = "uint32",
    [MINNX_UINT64] = "uint64",   [14] = "complex64",          [15] = "complex128",          [MINNX_BFLOAT16] = "bfloat16",
};

size_t mx_dtype_size(int dtype) { return dtype > 0 && dtype < MX_DTYPE_COUNT ? sizes[dtype] : 0; }

const char *mx_dtype_name(int dtype) {
  return dtype > 0 && dtype < MX_DTYPE_COUNT && names[dtype] ? names[dtype] : "unknown dtype";
}

size_t minnx_dtype_size(minnx_dtype dtype) { return mx_dtype_size(dtype); }
const char *minnx_dtype_name(minnx_dtype dtype) { return mx_dtype_name(dtype); }
