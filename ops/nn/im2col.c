/* im2col (conv.h): one image's input laid out as the matrix product's B
 * operand, row r = (channel, kernel offset), column = output position. It
 * only copies elements and writes zeros: the arithmetic is all in the
 * product's kernels. */
#include <stdint.h>

#include "ops/core/kernel.h"
#include "ops/nn/conv.h"

/* The outputs o in [*lo, *hi) of a row of `out` whose input index
 * o * stride + off lies in [0, in). */
static void valid_span(int64_t out, int64_t stride, int64_t off, int64_t in, int64_t *lo, int64_t *hi) {
  int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride; /* first o with o*stride + off >= 0 */
  int64_t b = in - off <= 0 ? 0 : (in - off + stride - 1) / stride; /* first o with o*stride + off >= in */
  *lo = a < out ? a : out;
  *hi = b < out ? b : out;
  if (*hi < *lo) *hi = *lo;
}

/* gcc turns the copy and zero loops below back into memcpy and memset calls
 * (loop distribution); for the rows here, often of 7 to 56 elements, a call
 * per row cost more than its bytes (about a fifth of ResNet-18's run went to
 * im2col's calls), so this file keeps them as loops. */
#if defined(__GNUC__) && !defined(__clang__)
#define MX_KEEP_LOOPS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define MX_KEEP_LOOPS
#endif

/* One output row (ow running) of one col row: zeros, the strided copy, zeros;
 * elements moved as their bits (T: an unsigned integer of their size). */
#define FILL_ROW(T)                                                                                               \
  static MX_ALWAYS_INLINE void fill_row_##T(T *dst, const T *src, int64_t out, int64_t lo, int64_t hi,           \
                                            int64_t stride, int64_t off) {                                      \
    for (int64_t o = 0; o < lo; o++) dst[o] = 0;                                                                \
    if (stride == 1)                                                                                            \
      for (int64_t o = lo; o < hi; o++) dst[o] = src[o + off];                                                  \
    else                                                                                                        \
      for (int64_t o = lo; o < hi; o++) dst[o] = src[o * stride + off];                                         \
    for (int64_t o = hi; o < out; o++) dst[o] = 0;                                                              \
  }
FILL_ROW(uint32_t)
FILL_ROW(uint64_t)

#define IM2COL(T)                                                                                                 \
  static MX_KEEP_LOOPS void im2col_##T(const mx_conv_geom *g, const T *x, T *col, int64_t r0, int64_t r1) {      \
    int64_t window = mx_conv_window(g), plane = mx_conv_plane(g), in_plane = mx_conv_in_plane(g);                \
    for (int64_t r = r0; r < r1; r++) {                                                                         \
      int64_t c = r / window, at = r % window;                                                                  \
      int64_t kw = at % g->k[2], kh = at / g->k[2] % g->k[1], kd = at / (g->k[2] * g->k[1]);                     \
      int64_t offw = kw * g->dil[2] - g->pad[2], lo, hi;                                                        \
      valid_span(g->out[2], g->stride[2], offw, g->in[2], &lo, &hi);                                            \
      const T *xc = x + c * in_plane;                                                                           \
      T *dst = col + r * plane;                                                                                 \
      for (int64_t od = 0; od < g->out[0]; od++) {                                                              \
        int64_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];                                            \
        for (int64_t oh = 0; oh < g->out[1]; oh++, dst += g->out[2]) {                                          \
          int64_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];                                          \
          if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {                                           \
            for (int64_t o = 0; o < g->out[2]; o++) dst[o] = 0;                                                 \
            continue;                                                                                           \
          }                                                                                                     \
          /* (an empty span reads nothing: its lo + off may lie before the row) */                              \
          fill_row_##T(dst, xc + (id * g->in[1] + ih) * g->in[2], g->out[2], lo, hi, g->stride[2], offw);       \
        }                                                                                                       \
      }                                                                                                         \
    }                                                                                                           \
  }
IM2COL(uint32_t)
IM2COL(uint64_t)

void mx_conv_im2col(const mx_conv_geom *g, size_t es, const void *x, void *col, int64_t r0, int64_t r1) {
  if (es == 8) im2col_uint64_t(g, x, col, r0, r1);
  else im2col_uint32_t(g, x, col, r0, r1);
}
