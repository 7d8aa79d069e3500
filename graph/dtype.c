#include "graph/dtype.h"

static const struct {
  const char *name;
  unsigned char size;
} table[MX_DTYPE_COUNT] = {
    [MINNX_FLOAT] = {"float", 4},   [MINNX_UINT8] = {"uint8", 1},       [MINNX_INT8] = {"int8", 1},
    [MINNX_UINT16] = {"uint16", 2}, [MINNX_INT16] = {"int16", 2},       [MINNX_INT32] = {"int32", 4},
    [MINNX_INT64] = {"int64", 8},   [8] = {"string", 0},                [MINNX_BOOL] = {"bool", 1},
    [MINNX_FLOAT16] = {"float16", 2}, [MINNX_DOUBLE] = {"double", 8},   [MINNX_UINT32] = {"uint32", 4},
    [MINNX_UINT64] = {"uint64", 8}, [14] = {"complex64", 0},            [15] = {"complex128", 0},
    [MINNX_BFLOAT16] = {"bfloat16", 2},
};

size_t mx_dtype_size(int dtype) { return dtype > 0 && dtype < MX_DTYPE_COUNT ? table[dtype].size : 0; }

/* Types ONNX defined later, which minnx does not hold: named in messages. */
static const char *const later[] = {"float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
                                    "uint4",        "int4",           "float4e2m1"};

const char *mx_dtype_name(int dtype) {
  if (dtype >= MX_DTYPE_COUNT && dtype < MX_DTYPE_COUNT + (int)(sizeof later / sizeof later[0]))
    return later[dtype - MX_DTYPE_COUNT];
  return dtype > 0 && dtype < MX_DTYPE_COUNT && table[dtype].name ? table[dtype].name : "unknown dtype";
}

size_t minnx_dtype_size(minnx_dtype dtype) { return mx_dtype_size(dtype); }
const char *minnx_dtype_name(minnx_dtype dtype) { return mx_dtype_name(dtype); }
