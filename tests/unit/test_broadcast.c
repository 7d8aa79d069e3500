/* The multidirectional broadcast rule (ONNX Broadcasting.md / numpy), with
 * expected shapes written from the rule's own examples. */
#include <string.h>

#include "check.h"
#include "graph/shape.h"
#include "ops/core/broadcast.h"

static mx_shape S(int rank, const int64_t *d) {
  mx_shape s = {.rank = rank};
  if (rank) memcpy(s.dims, d, (size_t)rank * sizeof *d);
  return s;
}

static void expect(int n, const mx_shape *in, int ok, mx_shape want) {
  const mx_shape *p[8];
  for (int i = 0; i < n; i++) p[i] = &in[i];
  mx_shape out;
  int got = mx_broadcast_shapes(p, n, &out);
  CHECK_EQ_INT(got, ok);
  if (!ok || !got) return;
  CHECK_EQ_INT(out.rank, want.rank);
  for (int i = 0; i < want.rank && i < out.rank; i++) CHECK_EQ_INT(out.dims[i], want.dims[i]);
}

int main(void) {
  /* the spec's example: [8,1,6,1] with [7,1,5] gives [8,7,6,5] */
  expect(2, (mx_shape[]){S(4, (int64_t[]){8, 1, 6, 1}), S(3, (int64_t[]){7, 1, 5})}, 1, S(4, (int64_t[]){8, 7, 6, 5}));
  /* scalars broadcast with anything */
  expect(2, (mx_shape[]){S(0, NULL), S(2, (int64_t[]){2, 3})}, 1, S(2, (int64_t[]){2, 3}));
  expect(2, (mx_shape[]){S(0, NULL), S(0, NULL)}, 1, S(0, NULL));
  /* [3,1] x [1,4] */
  expect(2, (mx_shape[]){S(2, (int64_t[]){3, 1}), S(2, (int64_t[]){1, 4})}, 1, S(2, (int64_t[]){3, 4}));
  /* [3] x [4] does not broadcast */
  expect(2, (mx_shape[]){S(1, (int64_t[]){3}), S(1, (int64_t[]){4})}, 0, S(0, NULL));
  /* a dimension of 0 pairs with 1 or 0 and gives 0; not with 2 */
  expect(2, (mx_shape[]){S(2, (int64_t[]){0, 3}), S(2, (int64_t[]){1, 3})}, 1, S(2, (int64_t[]){0, 3}));
  expect(2, (mx_shape[]){S(1, (int64_t[]){0}), S(1, (int64_t[]){2})}, 0, S(0, NULL));
  /* three inputs, each contributing a dimension */
  expect(3, (mx_shape[]){S(3, (int64_t[]){2, 1, 1}), S(3, (int64_t[]){1, 3, 1}), S(2, (int64_t[]){1, 4})}, 1,
         S(3, (int64_t[]){2, 3, 4}));
  /* a conflict visible only across all three */
  expect(3, (mx_shape[]){S(1, (int64_t[]){2}), S(1, (int64_t[]){1}), S(1, (int64_t[]){3})}, 0, S(0, NULL));
  /* unknown dims stay unknown unless another input fixes them */
  expect(2, (mx_shape[]){S(2, (int64_t[]){-1, 3}), S(1, (int64_t[]){1})}, 1, S(2, (int64_t[]){-1, 3}));
  expect(2, (mx_shape[]){S(1, (int64_t[]){-1}), S(1, (int64_t[]){5})}, 1, S(1, (int64_t[]){5}));

  /* The iterator collapses [4096,4096] x [4096] into rows of 4096 where the
   * second input steps by 1 inside a row and restarts at 0 for the next. */
  mx_shape a = S(2, (int64_t[]){4096, 4096}), b = S(1, (int64_t[]){4096}), o = a;
  const mx_shape *in[2] = {&a, &b};
  int64_t mem[128];
  mx_bplan *p = (mx_bplan *)mem;
  CHECK(mx_bplan_size(2) <= sizeof mem);
  mx_bplan_init(p, in, 2, &o);
  CHECK_EQ_INT(p->rank, 2);
  CHECK_EQ_INT(p->dims[1], 4096);
  CHECK_EQ_INT(mx_bplan_strides(p, 0)[1], 1);
  CHECK_EQ_INT(mx_bplan_strides(p, 1)[1], 1);
  CHECK_EQ_INT(mx_bplan_strides(p, 1)[0], 0);
  /* same shapes collapse to one row */
  const mx_shape *same[2] = {&a, &a};
  mx_bplan_init(p, same, 2, &o);
  CHECK_EQ_INT(p->rank, 1);
  CHECK_EQ_INT(p->dims[0], 4096 * 4096);
  /* Element counts: a 0 dim gives 0 wherever it stands, even beside dims
   * whose product overflows; an overflow without a 0 is -2, an unknown dim -1. */
  mx_shape big0 = S(3, (int64_t[]){INT64_C(1) << 62, 4, 0});
  mx_shape zero_first = S(3, (int64_t[]){0, INT64_C(1) << 62, 4});
  mx_shape big = S(2, (int64_t[]){INT64_C(1) << 62, 4});
  mx_shape unknown0 = S(2, (int64_t[]){-1, 0});
  mx_shape unknown = S(2, (int64_t[]){-1, 3});
  CHECK_EQ_INT(mx_shape_count(&big0), 0);
  CHECK_EQ_INT(mx_shape_count(&zero_first), 0);
  CHECK_EQ_INT(mx_shape_count(&big), -2);
  CHECK_EQ_INT(mx_shape_count(&unknown0), 0);
  CHECK_EQ_INT(mx_shape_count(&unknown), -1);
  return check_report("test_broadcast");
}
