/* TensorProto decoding: raw_data and every typed field, with the rules of
 * onnx.proto (int8/int16 carried sign-extended in int32_data, float16 and
 * bfloat16 as bit patterns, uint32 in uint64_data). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "minnx.h"
#include "onnx.pb-c.h"

static minnx_status decode(Onnx__TensorProto *t, minnx_tensor *out) {
  size_t size = onnx__tensor_proto__get_packed_size(t);
  uint8_t *buf = malloc(size);
  onnx__tensor_proto__pack(t, buf);
  minnx_error err;
  minnx_status st = minnx_tensor_decode(buf, size, NULL, out, NULL, &err);
  free(buf);
  return st;
}

static Onnx__TensorProto tensor(int dtype, int64_t *dims, size_t rank) {
  Onnx__TensorProto t = ONNX__TENSOR_PROTO__INIT;
  t.has_data_type = 1;
  t.data_type = dtype;
  t.dims = dims;
  t.n_dims = rank;
  return t;
}

int main(void) {
  int64_t d3[] = {3};
  minnx_tensor out;

  /* int8 in int32_data: sign-extended values, not packed bytes */
  int32_t i8[] = {-128, -1, 127};
  Onnx__TensorProto t = tensor(MINNX_INT8, d3, 1);
  t.int32_data = i8, t.n_int32_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK_EQ_INT(out.nbytes, 3);
  CHECK_EQ_INT(((int8_t *)out.data)[0], -128);
  CHECK_EQ_INT(((int8_t *)out.data)[1], -1);
  CHECK_EQ_INT(((int8_t *)out.data)[2], 127);
  minnx_tensor_free(NULL, out.data);

  /* int16 out of range is refused, not truncated */
  int32_t big[] = {40000, 0, 0};
  t = tensor(MINNX_INT16, d3, 1);
  t.int32_data = big, t.n_int32_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);

  /* float16 bit patterns in int32_data: -2.0 is 0xC000, NaN 0x7E00 */
  int32_t h[] = {0xC000, 0x3C00, 0x7E00};
  t = tensor(MINNX_FLOAT16, d3, 1);
  t.int32_data = h, t.n_int32_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK_EQ_INT(((uint16_t *)out.data)[0], 0xC000);
  CHECK_EQ_INT(((uint16_t *)out.data)[2], 0x7E00);
  minnx_tensor_free(NULL, out.data);

  /* uint32 in uint64_data */
  uint64_t u[] = {4294967295u, 0, 7};
  t = tensor(MINNX_UINT32, d3, 1);
  t.uint64_data = u, t.n_uint64_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK_EQ_INT(((uint32_t *)out.data)[0], 4294967295u);
  minnx_tensor_free(NULL, out.data);

  /* int64 and double fields */
  int64_t i64[] = {INT64_MIN, INT64_MAX, 0};
  t = tensor(MINNX_INT64, d3, 1);
  t.int64_data = i64, t.n_int64_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK(((int64_t *)out.data)[0] == INT64_MIN && ((int64_t *)out.data)[1] == INT64_MAX);
  minnx_tensor_free(NULL, out.data);
  double dd[] = {-INFINITY, -0.0, 1.5};
  t = tensor(MINNX_DOUBLE, d3, 1);
  t.double_data = dd, t.n_double_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK(((double *)out.data)[0] == -INFINITY && signbit(((double *)out.data)[1]));
  minnx_tensor_free(NULL, out.data);

  /* raw_data: little-endian, exact length */
  uint8_t raw[12] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0x80, 0xff}; /* 1.0, -2.0, -inf */
  t = tensor(MINNX_FLOAT, d3, 1);
  t.has_raw_data = 1, t.raw_data.data = raw, t.raw_data.len = 12;
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK(((float *)out.data)[0] == 1.0f && ((float *)out.data)[1] == -2.0f && ((float *)out.data)[2] == -INFINITY);
  minnx_tensor_free(NULL, out.data);
  t.raw_data.len = 11; /* short raw_data is an error, not zero-filled */
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);

  /* refusals: wrong count, both raw and typed, the wrong typed field, hostile dims */
  float f2[] = {1, 2};
  t = tensor(MINNX_FLOAT, d3, 1);
  t.float_data = f2, t.n_float_data = 2;
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);
  t.has_raw_data = 1, t.raw_data.data = raw, t.raw_data.len = 12, t.n_float_data = 1;
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);
  t = tensor(MINNX_FLOAT, d3, 1);
  t.int64_data = i64, t.n_int64_data = 3;
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);
  int64_t huge[] = {INT64_MAX, INT64_MAX};
  t = tensor(MINNX_FLOAT, huge, 2);
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_LIMIT);
  int64_t neg[] = {-1};
  t = tensor(MINNX_FLOAT, neg, 1);
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_MODEL);
  t = tensor(8 /* string */, d3, 1);
  CHECK_EQ_INT(decode(&t, &out), MINNX_E_TYPE);

  /* an empty tensor decodes with no data */
  int64_t d0[] = {0, 4};
  t = tensor(MINNX_FLOAT, d0, 2);
  CHECK_EQ_INT(decode(&t, &out), MINNX_OK);
  CHECK_EQ_INT(out.nbytes, 0);

  /* garbage bytes */
  minnx_error err;
  CHECK_EQ_INT(minnx_tensor_decode("\xff\xff\xff", 3, NULL, &out, NULL, &err), MINNX_E_PARSE);
  return check_report("test_tensor");
}
