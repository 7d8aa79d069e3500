/* Resize's kernel (resize.h) cut into tasks, run in reverse order as
 * another thread would, against one pass over every element, byte for byte:
 * random shapes, modes, coordinate modes, nearest modes, antialias and
 * exclude_outside, in float, float16, double, uint8 and int32, large
 * enough to be cut. And the rounding once from double: a float16 result
 * just above a tie of float16 that double -> float -> float16 would round
 * to even, and the integers' saturation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/dtype.h"
#include "ops/tensor/resize.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void reversed(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  (void)pool;
  for (size_t i = n; i-- > 0;) task(ctx, i);
}

/* The taps per axis (resize_ref.c's count, which prepare uses) and the tables' places. */
static void lay_out(mx_resize_params *p) {
  size_t total = 0;
  for (int d = 0; d < p->rank; d++) {
    int64_t k = mx_resize_taps(p->mode, p->antialias, p->scale[d]);
    p->taps[d] = k;
    p->table[d] = total;
    total += (size_t)p->out_dims[d] * (size_t)k;
  }
  p->n_taps = total;
}

static void one(int dtype) {
  mx_resize_params p = {.rank = 1 + (int)(next() % 4), .dtype = dtype, .elem = mx_dtype_size(dtype)};
  p.mode = (int)(next() % 3);
  p.coord = (int)(next() % 7);
  p.nearest = (int)(next() % 5);
  p.antialias = p.mode != MX_RESIZE_NEAREST && next() % 3 == 0;
  p.exclude_outside = p.mode == MX_RESIZE_CUBIC && next() % 2;
  p.cubic_a = -0.75, p.extrapolation = 3.5;
  /* shapes drawn again while the output's tap reads pass 2^18: cut into several tasks (one per 64 KiB of
   * output x taps), yet seconds, not minutes, under valgrind and qemu */
  int64_t in_count, out_count, reads;
  do {
    in_count = 1, out_count = 1, reads = 1;
    for (int d = 0; d < p.rank; d++) {
      int64_t n = 1 + (int64_t)(next() % (d == p.rank - 1 ? 60 : 9));
      double s = 0.2 + (double)(next() % 40) / 10.0;
      p.in_dims[d] = n, p.scale[d] = s, p.length[d] = (double)n * s;
      p.out_dims[d] = (int64_t)p.length[d];
      if (p.out_dims[d] < 1) p.out_dims[d] = 1;
      p.roi_start[d] = -0.1, p.roi_end[d] = 1.05;
      in_count *= n, out_count *= p.out_dims[d];
    }
    lay_out(&p);
    for (int d = 0; d < p.rank; d++) reads *= p.taps[d] ? p.taps[d] : 1;
    reads *= out_count;
  } while (reads > (1 << 18));
  unsigned char *src = malloc((size_t)in_count * p.elem), *got = calloc((size_t)out_count, p.elem),
                *want = calloc((size_t)out_count, p.elem);
  mx_resize_tap *tabs = malloc(p.n_taps * sizeof *tabs);
  if (!src || !got || !want || !tabs) abort();
  for (int64_t i = 0; i < in_count; i++) {
    double v = (double)(int64_t)(next() % 2001) / 8.0 - 125.0;
    if (dtype == MINNX_FLOAT) ((float *)src)[i] = (float)v;
    else if (dtype == MINNX_DOUBLE) ((double *)src)[i] = v;
    else if (dtype == MINNX_FLOAT16) ((uint16_t *)src)[i] = (uint16_t)(0x3c00u + next() % 0x1000u);
    else if (dtype == MINNX_UINT8) src[i] = (unsigned char)next();
    else ((int32_t *)src)[i] = (int32_t)(next() % 200001) - 100000;
  }
  mx_resize_tables(&p, tabs);
  mx_resize_ref(&p, tabs, src, want, 0, out_count);
  mx_exec x = {.parallel = reversed, .scratch = tabs};
  mx_resize_run(&p, &x, src, got);
  CHECK(memcmp(got, want, (size_t)out_count * p.elem) == 0);
  free(src);
  free(got);
  free(want);
  free(tabs);
}

/* Linear, asymmetric, 2 -> 3 elements at scale s: output 1 reads
 * x_original = 1 / s. */
static void linear_pair(int dtype, const void *in, double s, void *out) {
  mx_resize_params p = {.rank = 1, .dtype = dtype, .elem = mx_dtype_size(dtype), .mode = MX_RESIZE_LINEAR,
                        .coord = MX_RESIZE_ASYMMETRIC};
  p.in_dims[0] = 2, p.out_dims[0] = 3, p.scale[0] = s, p.length[0] = 2 * s;
  lay_out(&p);
  mx_resize_tap tabs[6];
  mx_resize_tables(&p, tabs);
  mx_resize_ref(&p, tabs, in, out, 0, 3);
}

int main(void) {
  static const int dtypes[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_UINT8, MINNX_INT32};
  for (int t = 0; t < 5; t++)
    for (int k = 0; k < 150; k++) one(dtypes[t]);
  /* 1 + r 2^-10 with r = 1 / 1.99999 = 0.5 + 2.5e-6: above float16's tie between 1 and 1 + 2^-10 by
   * 2.4e-9, below float's half unit (6e-8): through float it would tie and round to even, 1.0 */
  uint16_t h_in[2] = {0x3c00, 0x3c01}, h_out[3];
  linear_pair(MINNX_FLOAT16, h_in, 1.99999, h_out);
  CHECK(h_out[0] == 0x3c00 && h_out[1] == 0x3c01);
  /* exactly the tie: to even */
  linear_pair(MINNX_FLOAT16, h_in, 2.0, h_out);
  CHECK(h_out[1] == 0x3c00);
  /* integers: to nearest, ties to even (0.5 x 1 + 0.5 x 2 = 1.5 -> 2; 2.5 -> 2), saturated by cubic's overshoot */
  uint8_t u_in[2] = {1, 2}, u_out[3];
  linear_pair(MINNX_UINT8, u_in, 2.0, u_out);
  CHECK(u_out[0] == 1 && u_out[1] == 2 && u_out[2] == 2);
  int8_t i_in[2] = {2, 3}, i_out[3];
  linear_pair(MINNX_INT8, i_in, 2.0, i_out);
  CHECK(i_out[1] == 2);
  return check_report("test_resize");
}
