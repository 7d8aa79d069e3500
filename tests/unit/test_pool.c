/* The pools' kernel (ops/nn/pool.h) against its reference loop, bit for
 * bit, Indices too: max and average, float16, float, double, int8 and uint8
 * (max), 1-D to 3-D, strides, dilations, asymmetric padding, windows cut by
 * ceil_mode, count_include_pad both ways, storage_order both ways, values
 * with NaN, ties and signed zeros, planes split in two as tasks would; at
 * every ISA level the CPU has, float32's row and whole-plane paths
 * (pool_rows.c.in) and the general code alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/core/half.h"
#include "ops/nn/pool.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* 0: NaN among the specials; 1: none (rows without a NaN); 2: +0, -0 and whole negatives */
static int mode;

static void fill(mx_dtype t, void *p, int64_t n) {
  static const double specials[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY, 1.5, 1.5, -2.0};
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next();
    double v = r % 8 == 0 ? specials[(r >> 8) % 8] : (double)((int)(r >> 16) % 2001 - 1000) / 37.0;
    if (mode == 1 && v != v) v = 1.5; /* no NaN: the vector max's own compare */
    if (mode == 2) v = r % 4 ? ((r >> 8) % 2 ? -0.0 : 0.0) : -(double)(r >> 16 & 7); /* ties of +0 and -0 */
    switch (t) {
      case MINNX_DOUBLE: ((double *)p)[i] = v; break;
      case MINNX_FLOAT: ((float *)p)[i] = (float)v; break;
      case MINNX_FLOAT16: ((uint16_t *)p)[i] = mx_f32_to_f16((float)v); break;
      case MINNX_INT8: ((int8_t *)p)[i] = (int8_t)(r >> 24); break;
      default: ((uint8_t *)p)[i] = (uint8_t)(r >> 24); break;
    }
  }
}

static int failed;

static int is_nan(mx_dtype t, const unsigned char *p) {
  switch (t) {
    case MINNX_FLOAT: { float f; memcpy(&f, p, 4); return f != f; }
    case MINNX_DOUBLE: { double d; memcpy(&d, p, 8); return d != d; }
    case MINNX_FLOAT16: { uint16_t h; memcpy(&h, p, 2); return (h & 0x7fff) > 0x7c00; }
    default: return 0;
  }
}

/* y as the reference gave it: byte for byte, but for an average any two NaNs
 * are the same (README, "Numbers": which operand's NaN an addition passes
 * on is the instruction's; a vectorized sum may order the operands its own
 * way). A max gives the first NaN's own bits. */
static int same_as(mx_dtype t, int avg, const unsigned char *y, const unsigned char *want, int64_t n) {
  size_t es = mx_dtype_size(t);
  for (int64_t i = 0; i < n; i++, y += es, want += es)
    if (memcmp(y, want, es) != 0 && !(avg && is_nan(t, y) && is_nan(t, want))) return 0;
  return 1;
}

static void pool(mx_dtype t, int avg, int sp, const int64_t *in, const int64_t *k, const int64_t *st, const int64_t *dl,
                 const int64_t *pb, const int64_t *pe, int ceil_mode, int flag) {
  mx_pool_geom g = {.planes = 19, /* two groups of the whole-plane path's 8, and 3 more */ .avg = avg, .include_pad = avg && flag, .storage_order = !avg && flag};
  mx_window *w = &g.w;
  for (int d = 0; d < 3; d++) w->in[d] = w->k[d] = w->out[d] = w->stride[d] = w->dil[d] = 1, w->pad[d] = w->pad_end[d] = 0;
  for (int d = 0; d < sp; d++) {
    int a = 3 - sp + d;
    int64_t span = in[d] + pb[d] + pe[d] - (k[d] - 1) * dl[d] - 1;
    w->in[a] = in[d], w->k[a] = k[d], w->stride[a] = st[d], w->dil[a] = dl[d], w->pad[a] = pb[d], w->pad_end[a] = pe[d];
    w->out[a] = span / st[d] + 1;
    if (ceil_mode && span % st[d] && w->out[a] * st[d] < in[d] + pb[d]) w->out[a]++;
  }
  size_t es = mx_dtype_size(t);
  int64_t nx = g.planes * mx_pool_in_plane(&g), ny = g.planes * mx_pool_out_plane(&g);
  void *x = malloc((size_t)nx * es + 8);
  unsigned char *y = malloc((size_t)ny * es + 8), *want = malloc((size_t)ny * es + 8);
  int64_t *ind = malloc((size_t)ny * 8 + 8), *want_ind = malloc((size_t)ny * 8 + 8);
  fill(t, x, nx);
  mx_pool_ref(t, &g, x, want, avg ? NULL : want_ind);
  /* level -1: the general code alone; then each level's row paths, with Indices (which they leave to the
   * general code) and without */
  for (int isa = -1; isa <= (int)mx_cpu_isa(); isa++)
    for (int with_ind = avg ? 0 : isa >= 0; with_ind >= 0; with_ind--) {
      const struct mx_pool_row_set *rk = isa < 0 ? NULL : mx_pool_row_kernels(t, (mx_isa)isa);
      if (t == MINNX_FLOAT) CHECK(isa < 0 || rk != NULL);
      int64_t *yi = avg || !with_ind ? NULL : ind;
      memset(y, 0xff, (size_t)ny * es);
      mx_pool_planes(t, &g, rk, x, y, yi, 10, g.planes); /* as two tasks, the second first */
      mx_pool_planes(t, &g, rk, x, y, yi, 0, 10);
      int same = same_as(t, avg, y, want, ny) && (!yi || memcmp(ind, want_ind, (size_t)ny * 8) == 0);
      CHECK(same);
      if (!same && failed++ < 10)
        fprintf(stderr, "  %s %s %d-D in %lld k %lld stride %lld dil %lld pads %lld,%lld ceil %d flag %d isa %d indices %d\n",
                avg ? "avg" : "max", mx_dtype_name(t), sp, (long long)in[sp - 1], (long long)k[sp - 1],
                (long long)st[sp - 1], (long long)dl[sp - 1], (long long)pb[sp - 1], (long long)pe[sp - 1], ceil_mode,
                flag, isa, with_ind);
    }
  free(x), free(y), free(want), free(ind), free(want_ind);
}

#define L(...) ((const int64_t[]){__VA_ARGS__})

int main(void) {
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_FLOAT16, MINNX_DOUBLE, MINNX_INT8, MINNX_UINT8};
  for (int ti = 0; ti < 5; ti++)
    for (int avg = 0; avg < 2; avg++) {
      mx_dtype t = types[ti];
      if (avg && ti > 2) continue;
      for (int flag = 0; flag < 2; flag++) {
        pool(t, avg, 2, L(6, 7), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 0, flag);
        pool(t, avg, 2, L(6, 6), L(3, 3), L(2, 2), L(1, 1), L(0, 0), L(0, 0), 1, flag);
        pool(t, avg, 2, L(5, 5), L(2, 2), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, flag);
        pool(t, avg, 2, L(7, 8), L(2, 3), L(1, 2), L(2, 2), L(1, 0), L(1, 1), 0, flag);
        pool(t, avg, 1, L(17), L(3), L(2), L(2), L(2), L(1), 1, flag);
        pool(t, avg, 3, L(4, 5, 6), L(2, 3, 2), L(1, 2, 1), L(1, 1, 2), L(1, 0, 1), L(0, 1, 1), 0, flag);
        pool(t, avg, 2, L(9, 9), L(9, 9), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 0, flag); /* global */
        pool(t, avg, 2, L(4, 5), L(3, 2), L(3, 2), L(1, 1), L(2, 1), L(2, 1), 1, flag);
        /* rows longer than the row path's chunk of 64, strides 1, 2 and 3, a dilation along them */
        pool(t, avg, 2, L(5, 150), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 0, flag);
        pool(t, avg, 2, L(7, 203), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 1, flag);
        pool(t, avg, 2, L(6, 260), L(2, 4), L(2, 3), L(1, 2), L(0, 2), L(1, 3), 1, flag);
        pool(t, avg, 1, L(300), L(5), L(2), L(3), L(4), L(4), 0, flag);
        pool(t, avg, 2, L(3, 130), L(3, 130), L(1, 1), L(1, 1), L(0, 0), L(0, 0), 0, flag); /* global, wide */
      }
    }
  /* float32's AVX2 rows (8 outputs at a time, strides 1 and 2) without NaN, and over ties of signed zeros:
   * ResNet-18's MaxPool rows, 8 to 15 outputs inside (blocks overlapping), ends of more than 8 outputs (left
   * to the general code), a dilation along the row */
  for (mode = 1; mode <= 2; mode++)
    for (int avg = 0; avg < 2; avg++)
      for (int flag = 0; flag < 2; flag++) {
        pool(MINNX_FLOAT, avg, 2, L(8, 112), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 0, flag);
        /* 3x3/2 rows of 550 outputs: 69 strips of 8, more than the 64 walked across a row at once; 9 rows, the last window cut */
        pool(MINNX_FLOAT, avg, 2, L(9, 1100), L(3, 3), L(2, 2), L(1, 1), L(1, 1), L(1, 1), 0, flag);
        pool(MINNX_FLOAT, avg, 2, L(5, 150), L(3, 3), L(1, 1), L(1, 1), L(1, 1), L(1, 1), 0, flag);
        pool(MINNX_FLOAT, avg, 2, L(5, 21), L(3, 3), L(2, 2), L(1, 1), L(0, 1), L(0, 2), 1, flag);
        pool(MINNX_FLOAT, avg, 2, L(5, 12), L(2, 3), L(1, 1), L(1, 1), L(1, 0), L(0, 1), 0, flag);
        pool(MINNX_FLOAT, avg, 2, L(4, 60), L(2, 12), L(2, 1), L(1, 1), L(0, 11), L(0, 11), 0, flag);
        pool(MINNX_FLOAT, avg, 2, L(4, 70), L(3, 3), L(1, 2), L(1, 3), L(1, 2), L(1, 2), 1, flag);
        pool(MINNX_FLOAT, avg, 1, L(40), L(4), L(2), L(1), L(3), L(3), 0, flag);
      }
  return check_report("test_pool");
}
