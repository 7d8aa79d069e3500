/* ConvTranspose's plan and run (convt.h): each image is one batch of matrix
 * products, one per group, col[g] = W[g]^T x X[g] through MatMul's and
 * Gemm's kernels (ops/math/gemm.h: each element's fma chain over the group's
 * input channels from zero, threads split elements), then col2im: each output
 * channel's plane zeroed and col's rows added into it offset by offset, in
 * the kernel's order, one task per run of output channels (threads split
 * outputs, never a sum), the bias last. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/nn/convt.h"

static size_t round64_size(size_t n) { return (n + 63) & ~(size_t)63; }

/* Tasks of at least MX_TASK_BYTES of work each, at most MX_MAX_TASKS and units. */
static int64_t tasks_for(double work, int64_t units) {
  double t = work / MX_TASK_BYTES;
  int64_t n = t < 2 ? 1 : t > MX_MAX_TASKS ? MX_MAX_TASKS : (int64_t)t;
  return n > units ? (units > 0 ? units : 1) : n;
}

/* *at = the scratch so far, which grows by count elements of es bytes; 0 on overflow. */
static int take_bytes(size_t *total, size_t *at, int64_t count, size_t es) {
  size_t bytes;
  if (count < 0 || __builtin_mul_overflow((size_t)count, es, &bytes) || bytes > SIZE_MAX - 64) return 0;
  *at = *total;
  return !__builtin_add_overflow(*total, round64_size(bytes), total);
}

static int mul3(int64_t a, int64_t b, int64_t c, int64_t *r) {
  return !__builtin_mul_overflow(a, b, r) && !__builtin_mul_overflow(*r, c, r);
}

int mx_convt_plan_init(mx_convt_plan *p, const mx_conv_geom *g, mx_dtype t, int bias, int isa) {
  memset(p, 0, sizeof *p);
  p->g = *g;
  p->t = t;
  p->bias = bias;
  if (!MX_DTYPE_ON(t) || (t != MINNX_FLOAT && t != MINNX_FLOAT16 && t != MINNX_DOUBLE) || g->group < 1) return 0;
  int64_t window, plane, in_plane, cg = g->c / g->group, mg = g->m / g->group, rows, col, xs, ws, ys;
  if (!mul3(g->k[0], g->k[1], g->k[2], &window) || !mul3(g->out[0], g->out[1], g->out[2], &plane) ||
      !mul3(g->in[0], g->in[1], g->in[2], &in_plane) || __builtin_mul_overflow(g->m, window, &rows) ||
      __builtin_mul_overflow(rows, in_plane, &col) || !mul3(g->n, g->c, in_plane, &xs) || !mul3(g->c, mg, window, &ws) ||
      !mul3(g->n, g->m, plane, &ys))
    return 0;
  /* col[g] [mg * window, in_plane] = W[g]^T [mg * window, cg] x X[g] [cg, in_plane], g over the groups */
  mx_gemm_dims d = {.m = mg * window, .n = in_plane, .k = cg, .rsa = 1, .csa = mg * window, .rsb = in_plane, .csb = 1,
                    .batch = g->group, .brank = 1};
  d.bdims[0] = g->group;
  d.bsa[0] = cg * mg * window;
  d.bsb[0] = cg * in_plane;
  size_t total = 0, es = t == MINNX_DOUBLE ? 8 : 4;
  if (t == MINNX_DOUBLE) {
    p->rows = mx_gemm_rows_kernel_isa(MINNX_DOUBLE, isa >= MX_GEMM_FMA);
    p->sg.d = d;
    p->row_tasks = tasks_for((double)rows * (double)in_plane * (double)(cg ? cg : 1), rows);
    if (!p->rows) return 0;
  } else {
    mx_sgemm_plan_init(&p->sg, &d, isa);
    total = round64_size(mx_sgemm_scratch(&p->sg));
  }
  if (!take_bytes(&total, &p->off_col, col, es)) return 0;
  if (t == MINNX_FLOAT16) {
    if (!mx_convert_choose_isa(&p->to_f32, MINNX_FLOAT16, MINNX_FLOAT, (mx_isa)isa) ||
        !mx_convert_choose_isa(&p->from_f32, MINNX_FLOAT, MINNX_FLOAT16, (mx_isa)isa) || !take_bytes(&total, &p->off_x, xs, 4) ||
        !take_bytes(&total, &p->off_w, ws, 4) || !take_bytes(&total, &p->off_b, g->m, 4) || !take_bytes(&total, &p->off_y, ys, 4))
      return 0;
  }
  p->scatter_tasks = tasks_for(((double)col + (double)g->m * (double)plane) * (double)es, g->m);
  p->scratch = total;
  return 1;
}

typedef struct {
  const mx_convt_plan *p;
  const unsigned char *x, *w, *b; /* one image's input; the weights; the bias */
  unsigned char *col, *y;         /* one image's col and output */
} convt_image;

/* The inputs i in [*lo, *hi) of a dim of `in` whose output i * stride + off lies in [0, out). */
static void landing_span(int64_t in, int64_t stride, int64_t off, int64_t out, int64_t *lo, int64_t *hi) {
  int64_t a = off >= 0 ? 0 : (-off + stride - 1) / stride;            /* first i with i*stride + off >= 0 */
  int64_t b = out - off <= 0 ? 0 : (out - off + stride - 1) / stride; /* first i with i*stride + off >= out */
  *lo = a < in ? a : in;
  *hi = b < in ? b : in;
  if (*hi < *lo) *hi = *lo;
}

/* col2im of output channels [m0, m1): each plane zeroed, then every offset's
 * row of col added where it lands, offset by offset, then the bias. One
 * function per element type: the arithmetic is the type's own. */
#define SCATTER(NAME, T)                                                                                                   \
  static void NAME(const mx_conv_geom *g, const T *col, const T *bias, T *y, int64_t m0, int64_t m1) {                    \
    int64_t window = mx_conv_window(g), plane = mx_conv_plane(g), in_plane = mx_conv_in_plane(g);                        \
    for (int64_t m = m0; m < m1; m++) {                                                                                    \
      T *ym = y + m * plane;                                                                                               \
      for (int64_t i = 0; i < plane; i++) ym[i] = 0;                                                                       \
      for (int64_t at = 0; in_plane > 0 && at < window; at++) { /* an empty X leaves col empty, maybe NULL */              \
        int64_t tw = at % g->k[2], th = at / g->k[2] % g->k[1], td = at / (g->k[2] * g->k[1]);                             \
        int64_t offw = tw * g->dil[2] - g->pad[2], lo, hi;                                                                 \
        landing_span(g->in[2], g->stride[2], offw, g->out[2], &lo, &hi);                                                   \
        const T *src = col + (m * window + at) * in_plane;                                                                 \
        for (int64_t id = 0; id < g->in[0]; id++) {                                                                        \
          int64_t od = id * g->stride[0] + td * g->dil[0] - g->pad[0];                                                     \
          if (od < 0 || od >= g->out[0]) continue;                                                                         \
          for (int64_t ih = 0; ih < g->in[1]; ih++) {                                                                      \
            int64_t oh = ih * g->stride[1] + th * g->dil[1] - g->pad[1];                                                   \
            if (oh < 0 || oh >= g->out[1]) continue;                                                                       \
            const T *s = src + (id * g->in[1] + ih) * g->in[2];                                                            \
            T *dst = ym + (od * g->out[1] + oh) * g->out[2];                                                               \
            if (g->stride[2] == 1)                                                                                         \
              for (int64_t iw = lo; iw < hi; iw++) dst[iw + offw] = dst[iw + offw] + s[iw];                                \
            else                                                                                                           \
              for (int64_t iw = lo; iw < hi; iw++) dst[iw * g->stride[2] + offw] = dst[iw * g->stride[2] + offw] + s[iw];  \
          }                                                                                                                \
        }                                                                                                                  \
      }                                                                                                                    \
      if (bias)                                                                                                            \
        for (int64_t i = 0; i < plane; i++) ym[i] = ym[i] + bias[m];                                                       \
    }                                                                                                                      \
  }
SCATTER(scatter_f32, float)
SCATTER(scatter_f64, double)

static void scatter_task(void *ctx, size_t t) {
  const convt_image *r = ctx;
  int64_t m = r->p->g.m, n = r->p->scatter_tasks, m0 = m * (int64_t)t / n, m1 = m * ((int64_t)t + 1) / n;
  if (r->p->t == MINNX_DOUBLE)
    scatter_f64(&r->p->g, (const double *)r->col, (const double *)r->b, (double *)r->y, m0, m1);
  else
    scatter_f32(&r->p->g, (const float *)r->col, (const float *)r->b, (float *)r->y, m0, m1);
}

static void rows_task(void *ctx, size_t t) {
  const convt_image *r = ctx;
  int64_t rows = r->p->sg.d.m * r->p->sg.d.batch, n = r->p->row_tasks;
  r->p->rows(&r->p->sg.d, r->w, r->x, NULL, r->col, rows * (int64_t)t / n, rows * ((int64_t)t + 1) / n);
}

static void run_tasks(const mx_exec *x, minnx_task_fn task, void *ctx, int64_t n) {
  if (x) mx_parallel_for(x, task, ctx, (size_t)n);
  else
    for (int64_t t = 0; t < n; t++) task(ctx, (size_t)t);
}

void mx_convt_run(const mx_convt_plan *p, const mx_exec *x, const void *xs, const void *w, const void *b, void *y,
                  void *scratch) {
  const mx_conv_geom *g = &p->g;
  unsigned char *s = scratch, *yy = y;
  const unsigned char *xx = xs, *ww = w, *bb = b;
  size_t es = p->t == MINNX_DOUBLE ? 8 : 4;
  int64_t in_image = g->c * mx_conv_in_plane(g), out_image = g->m * mx_conv_plane(g);
  if (p->t == MINNX_FLOAT16) { /* float32 copies, the result rounded once at the end */
    mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_x), xx, g->n * in_image);
    mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_w), ww, g->c * (g->m / g->group) * mx_conv_window(g));
    if (bb) mx_convert_run(&p->to_f32, mx_conv_at(s, p->off_b), bb, g->m);
    xx = mx_conv_at(s, p->off_x), ww = mx_conv_at(s, p->off_w), yy = mx_conv_at(s, p->off_y);
    bb = bb ? mx_conv_at(s, p->off_b) : NULL;
  }
  for (int64_t n = 0; n < g->n; n++) {
    convt_image r = {p, mx_conv_at(xx, (size_t)(n * in_image) * es), ww, bb, mx_conv_at(s, p->off_col),
                     mx_conv_at(yy, (size_t)(n * out_image) * es)};
    if (p->t == MINNX_DOUBLE) run_tasks(x, rows_task, &r, p->row_tasks);
    else mx_sgemm_run(&p->sg, x, (const float *)r.w, (const float *)r.x, NULL, (float *)r.col, s);
    run_tasks(x, scatter_task, &r, p->scatter_tasks);
  }
  if (p->t == MINNX_FLOAT16) mx_convert_run(&p->from_f32, y, yy, g->n * out_image);
}
