/* Conv (ops/nn/conv.c): the geometry of one convolution, the im2col that
 * lays its input out as the B operand of the matrix products (ops/math/gemm.h),
 * and the reference loop the kernels are held to.
 *
 * The order (README, "Conv"): every output element y[n, m, o...] is
 *   acc = 0; for c in the group's channels, for each kernel offset
 *   (kd, kh, kw, the last fastest): acc = fma(w[m, c, kd, kh, kw], x', acc)
 * with x' the input element under that offset, or 0 where it falls in the
 * padding (so an infinite or NaN weight there still gives NaN, as the
 * zero-padded definition does), then y = acc + b[m] with a bias (one more
 * rounding). float16 computes this in float32 and rounds once into the
 * output; double in double. It is exactly a matrix product W[m, K] x
 * col[K, P] whose k runs over (c, kd, kh, kw), which is how the kernels run it.
 * (ConvTranspose shares this geometry; its order is convt.h's.) */
#ifndef MX_CONV_H
#define MX_CONV_H

#include <stddef.h>
#include <stdint.h>

#include "graph/ir.h"
#include "ops/math/gemm.h"
#include "ops/tensor/convert.h"

/* Spatial ranks 1 to 3; fewer dims are padded at the front with a dim of 1
 * (input, kernel and output 1, stride and dilation 1, no padding), so that
 * every loop is the 3-D one. */
#define MX_CONV_MAX_SPATIAL 3
typedef struct mx_conv_geom {
  int64_t n, c, m, group; /* batch, input channels, output channels, groups */
  int64_t in[3], k[3], out[3], stride[3], dil[3], pad[3]; /* pad: before each dim */
} mx_conv_geom;

/* Elements of one kernel window (kd x kh x kw), of one output plane, of one
 * input plane. */
static inline int64_t mx_conv_window(const mx_conv_geom *g) { return g->k[0] * g->k[1] * g->k[2]; }
static inline int64_t mx_conv_plane(const mx_conv_geom *g) { return g->out[0] * g->out[1] * g->out[2]; }
static inline int64_t mx_conv_in_plane(const mx_conv_geom *g) { return g->in[0] * g->in[1] * g->in[2]; }
/* p + off, or NULL where p is: an empty tensor or scratch has no buffer, and
 * even a zero offset from NULL is undefined. */
static inline unsigned char *mx_conv_at(const void *p, size_t off) { return p ? (unsigned char *)p + off : NULL; }

/* Rows [r0, r1) of one image's col matrix [C * window, plane] (row r is
 * channel r / window at kernel offset r % window; padding gives 0) from
 * x, that image's [C, in...]; es: 4 (float) or 8 (double). */
void mx_conv_im2col(const mx_conv_geom *g, size_t es, const void *x, void *col, int64_t r0, int64_t r1);

/* The product's B of one float32 image without col (mx_sgemm_pack_b_fn,
 * ctx an mx_conv_panel): steps [k0, k0 + kc) x output positions [j0, j0 +
 * nc) of group gi's col, laid out in slivers of nr positions as the tiles
 * read them (the positions past nc zeros): im2col straight into the panel,
 * the values col would hold. */
#define MX_PANEL_MAX_NR 32 /* the widest sliver a kernel reads (gemm.h: 16 or 32) */
typedef struct mx_conv_panel {
  const mx_conv_geom *g;
  const float *x; /* the image [C, in...] */
  int avx512;     /* slivers of 32 at stride 1 or 2 made in registers (AVX-512F: the plan's level), else piece by piece */
#if MX_X86_AVX2
  const float *xp;      /* the image zero-padded (mx_conv_pad_image), for mx_conv_taps */
  const int64_t *tap;   /* its taps' offsets (mx_conv_pad_taps) */
#endif
} mx_conv_panel;
void mx_conv_pack_panel(const void *ctx, int64_t gi, int64_t k0, int64_t kc, int64_t j0, int64_t nc, int nr, float *bp);

/* B read where it lies (gemm.h's taps) for a float32 convolution of 1 or 2
 * spatial dims at stride 1 or 2 along its rows, output rows of 16
 * positions or more (so that a vector of 16 crosses one row's end at
 * most): the image zero-padded, each channel's plane mx_conv_pad_plane(g)
 * floats of mx_conv_pad_width(g) a row, where output (oh, ow)'s tap (kh,
 * kw) is element (oh stride + kh dil) of row (ow stride + kw dil);
 * MX_CONV_PAD_MORE floats (zeros) past the last plane for the lanes that
 * run past a sliver (at stride 2 two vectors' loads a vector). */
#define MX_CONV_PAD_MORE 64
#if MX_X86_AVX2 /* (x86-64 builds only: no other level has a taps kernel) */
int mx_conv_taps_ok(const mx_conv_geom *g);
int64_t mx_conv_pad_width(const mx_conv_geom *g);
int64_t mx_conv_pad_rows(const mx_conv_geom *g); /* (the plane: rows x width) */
int64_t mx_conv_pad_plane(const mx_conv_geom *g);
/* Rows [r0, r1) of every channel's padded plane of image x into xp (and the
 * floats past the last plane with the last rows); tap[at] = each kernel
 * offset's element offset in a padded plane (window of them). */
void mx_conv_pad_image(const mx_conv_geom *g, const float *x, float *xp, int64_t r0, int64_t r1);
void mx_conv_pad_taps(const mx_conv_geom *g, int64_t *tap);
/* mx_sgemm_taps_fn (ctx an mx_conv_panel with xp and tap) */
int mx_conv_taps(const void *ctx, int64_t gi, int64_t j0, int64_t cols, mx_sgemm_taps *t);
#endif

/* Depthwise (dwconv.c): channels [c0, c1) of one float32 image, each output
 * channel from the input channel of its own number (group == C == M), in the
 * order above, without im2col; the bias b (or NULL) added last, then the
 * fused activation act (NULL: none; ops/math/act.h) on each output row while
 * it is in L1. buf: the task's scratch, mx_dwconv_scratch(g) floats. */
#define MX_DWCONV_MAX_TAPS 64 /* kd x kh and kw at most (larger kernels take the im2col path) */
typedef void (*mx_dwconv_fn)(const mx_conv_geom *g, const float *x, const float *w, const float *b, float *y,
                             int64_t c0, int64_t c1, float *buf, const mx_act *act);
/* The kernel for g at an MX_GEMM_ level (clamped to what this build has), or NULL when g's kernel is too large. */
mx_dwconv_fn mx_dwconv_kernel(const mx_conv_geom *g, int isa);
/* Floats of one phase of a padded tap row. */
int64_t mx_dwconv_phase(const mx_conv_geom *g);
/* Floats of a task's scratch for mx_dwconv_kernel(g)'s kernel (-1 on overflow): kd x kh x stride padded
 * rows (each phase rounded up to whole vectors of 8 floats), or for short rows (the plane path) the padded
 * plane, the outputs over its width and 8 floats; on x86-64 at least what its AVX2 and AVX-512F kernels for
 * g take (rows of at most 8 that keep their width: two channels' planes between rows of zeros, and each
 * vector's lanes for each kw). */
int64_t mx_dwconv_scratch(const mx_conv_geom *g);
/* The tasks one image's depthwise node is cut into (by channels, at most C and MX_MAX_TASKS), fixed by
 * g's shape: 1 below DW_SPLIT_TASKS tasks' worth of work (dwconv.c). */
int64_t mx_dwconv_tasks(const mx_conv_geom *g);

/* What prepare chooses for a convolution of geometry g (its shapes known):
 * the product of one image (float and float16: the packed float32 kernels
 * at an instruction-set level; double: the row kernel), its tasks, and where
 * eval's scratch puts col and float16's float32 copies. */
typedef struct mx_conv_plan {
  mx_conv_geom g;
  mx_dtype t;
  mx_act act; /* float: a Relu or Clip fused into the stores (conv_fuse.c; set after mx_conv_plan_init) */
  int pointwise, bias; /* pointwise: 1x1, stride 1, no padding: the image is col itself */
  mx_dwconv_fn dw;      /* float and float16, depthwise (group == C == M, not 1x1): no im2col, no product */
  int64_t dw_tasks;
  size_t dw_bytes;      /* a task's padded rows */
  int direct;           /* float32, group 1, 2-D, stride 1, no padding, small (conv_run.c): over the input's grid */
  int64_t direct_tasks;
  size_t direct_bytes;  /* a task's grids of outputs (two blocks') */
  int wide;             /* float32, group 1, 2-D, few input channels, AVX-512F (conv_run.c): over the phase planes */
  int64_t wide_tasks, wide_prep; /* the blocks' tasks; the planes' and weights' units */
  const float *wide_w;  /* W packed once at prepare (mx_conv_wide_pack), or NULL: packed by each run */
  mx_sgemm_plan sg;     /* float, float16 (sg.d: the product's dims for double too) */
  mx_gemm_rows_fn rows; /* double */
  int64_t row_tasks, col_tasks, bias_tasks;
  mx_convert_params to_f32, from_f32; /* float16 */
#if MX_X86_AVX2 /* (x86-64 builds only: a firmware's sessions keep no room for them) */
  /* float32 through the product's taps kernels (sg.window not 0): at off_pad the taps' offsets (window int64,
   * 64-byte rounded), then the padded image, made in pad_tasks */
  int64_t pad_tasks;
  size_t off_pad;
#endif
  /* scratch: the product's, col (or the depthwise tasks' rows), then float16's float32 copies of X, W, B, Y */
  size_t off_col, off_x, off_w, off_b, off_y, scratch;
} mx_conv_plan;

/* The wide path's weights W [m, k] (group 1) in blocks of 8 output channels, step t's 8 weights together:
 * packed[m k + 8 t + i] = W[m + i, t] (m a multiple of 8; floats m k). x86-64 builds only. */
void mx_conv_wide_pack(const mx_conv_geom *g, const float *w, float *packed);
/* Plans a convolution of dtype t (float16, float, double) at level isa
 * (prepare: its context's isa, the MX_GEMM_ levels being mx_isa's; tests: each level); 0 when the scratch's bytes
 * overflow or the dtype is not in this build. */
int mx_conv_plan_init(mx_conv_plan *p, const mx_conv_geom *g, mx_dtype t, int bias, int isa);
/* Bytes of float32 weights W [group * m, k] packed once (mx_sgemm_pack_a) for
 * the products of m rows and k steps in `group` batch items, at whichever
 * level this build and CPU run them (the largest). */
size_t mx_conv_packed_size(int64_t m, int64_t k, int64_t group);
/* Y = the convolution of X by W (+ B) through x's parallel-for (NULL:
 * inline), in p->scratch bytes of scratch (64-byte aligned). */
void mx_conv_run(const mx_conv_plan *p, const mx_exec *x, const void *xs, const void *w, const void *b, void *y,
                 void *scratch);

/* The Conv + Relu / Clip fusion (conv_fuse.c), at load after inference and
 * before the arena is planned: each float32 Conv whose output is not a graph
 * output and is read by one node only, a Relu or a Clip with constant bounds
 * (attributes, or float32 initializers), takes that node's work (mx_node's
 * fused records the pair; the node's output becomes a view of the Conv's: it
 * runs nothing); scratch (by node, or NULL): the fused node's set to 0. Only where
 * the build has views (MX_OPS_VIEWS). */
#if MX_OPS_VIEWS
minnx_status mx_conv_fuse(mx_graph *g, struct mx_pool *pool, size_t *scratch, mx_err *err);
#endif
/* The activation fused into node conv of g (prepare), or MX_ACT_NONE. */
void mx_conv_fused_act(const mx_graph *g, const mx_node *conv, mx_act *act);

/* The reference loop: the order above for float16, float and double, one
 * output element at a time. b may be NULL. */
void mx_conv_ref(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, void *y);
/* The same with a fused activation (float only; NULL: none) applied to each
 * output as it is stored. */
void mx_conv_ref_act(mx_dtype t, const mx_conv_geom *g, const void *x, const void *w, const void *b, const mx_act *act,
                     void *y);

#endif
