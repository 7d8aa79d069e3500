/* im2col (conv.h): one image's input laid out as the matrix product's B
 * operand, row r = (channel, kernel offset), column = output position. It
 * only copies elements and writes zeros: the arithmetic is all in the
 * product's kernels. */
#include <string.h>

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

/* One output row (ow running) of one col row: zeros, the strided copy, zeros. */
static MX_ALWAYS_INLINE void fill_row(size_t es, unsigned char *dst, const unsigned char *src, int64_t out, int64_t lo,
                                      int64_t hi, int64_t stride, int64_t off) {
  memset(dst, 0, (size_t)lo * es);
  if (stride == 1 && hi > lo) /* (an empty span's lo + off may lie before the row) */
    memcpy(dst + (size_t)lo * es, src + (size_t)(lo + off) * es, (size_t)(hi - lo) * es);
  else
    for (int64_t o = lo; o < hi; o++) memcpy(dst + (size_t)o * es, src + (size_t)(o * stride + off) * es, es);
  memset(dst + (size_t)hi * es, 0, (size_t)(out - hi) * es);
}

static MX_ALWAYS_INLINE void im2col_es(const mx_conv_geom *g, size_t es, const unsigned char *x, unsigned char *col,
                                       int64_t r0, int64_t r1) {
  int64_t window = mx_conv_window(g), plane = mx_conv_plane(g), in_plane = mx_conv_in_plane(g);
  for (int64_t r = r0; r < r1; r++) {
    int64_t c = r / window, at = r % window;
    int64_t kw = at % g->k[2], kh = at / g->k[2] % g->k[1], kd = at / (g->k[2] * g->k[1]);
    int64_t offw = kw * g->dil[2] - g->pad[2], lo, hi;
    valid_span(g->out[2], g->stride[2], offw, g->in[2], &lo, &hi);
    const unsigned char *xc = x + (size_t)(c * in_plane) * es;
    unsigned char *dst = col + (size_t)(r * plane) * es;
    for (int64_t od = 0; od < g->out[0]; od++) {
      int64_t id = od * g->stride[0] + kd * g->dil[0] - g->pad[0];
      for (int64_t oh = 0; oh < g->out[1]; oh++, dst += (size_t)g->out[2] * es) {
        int64_t ih = oh * g->stride[1] + kh * g->dil[1] - g->pad[1];
        if (id < 0 || id >= g->in[0] || ih < 0 || ih >= g->in[1]) {
          memset(dst, 0, (size_t)g->out[2] * es);
          continue;
        }
        const unsigned char *src = xc + (size_t)((id * g->in[1] + ih) * g->in[2]) * es;
        fill_row(es, dst, src, g->out[2], lo, hi, g->stride[2], offw);
      }
    }
  }
}

void mx_conv_im2col(const mx_conv_geom *g, size_t es, const void *x, void *col, int64_t r0, int64_t r1) {
  if (es == 8) im2col_es(g, 8, x, col, r0, r1);
  else im2col_es(g, 4, x, col, r0, r1);
}
