/* The matrix products of MatMul and Gemm (ops/math/matmul.c): one
 * description of a batch of products, the kernels that compute it, and the
 * reference loop they are held to.
 *
 * The order (README, "Numbers"): every output element is
 *   acc = 0; for k = 0, 1, ..., K-1: acc = fma(a[i,k], b[k,j], acc)
 * (one rounding per step, fused multiply-add), then for Gemm
 *   y = alpha * acc, then y = y + beta * c   (two roundings: a product, a sum)
 * (or y = alpha * acc without C). float16 and bfloat16 compute this in float32
 * and round once into the output; double in double; integers wrap (unsigned
 * arithmetic, alpha and beta whole numbers). Every kernel, ISA level and
 * thread count gives these bits: a register-blocked microkernel holds one
 * output per lane and runs k innermost, threads split the outputs. */
#ifndef MX_GEMM_H
#define MX_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include "graph/ir.h"
#include "ops/core/cpu.h"
#include "ops/core/op.h"
#include "ops/math/act.h"

/* A batch of products y[b] = A[b] x B[b], y [batch, m, n] row-major. A[b]'s
 * element (i, k) is at a + offa(b) + i*rsa + k*csa (elements), B[b]'s (k, j)
 * at b + offb(b) + k*rsb + j*csb; offa(b) and offb(b) walk the batch index's
 * digits over bdims (brank of them, the last fastest) with strides bsa and
 * bsb (0 where an operand is broadcast). */
typedef struct mx_gemm_dims {
  int64_t m, n, k;
  int64_t rsa, csa, rsb, csb;
  int64_t batch;
  int brank;
  int64_t bdims[MX_MAX_RANK], bsa[MX_MAX_RANK], bsb[MX_MAX_RANK];
  /* Gemm (batch 1): y = alpha * acc (+ beta * c[i*rsc + j*csc] with has_c;
   * strides 0 where C is broadcast). MatMul: gemm 0, acc itself. For the
   * integers alpha and beta are whole numbers (ialpha, ibeta). */
  int gemm, has_c;
  double alpha, beta;
  int64_t ialpha, ibeta;
  int64_t rsc, csc;
} mx_gemm_dims;

/* Element offsets of batch item bi's A and B. */
void mx_gemm_offsets(const mx_gemm_dims *d, int64_t bi, int64_t *offa, int64_t *offb);

/* The reference loop: the order above, operation for operation, for every
 * dtype MatMul and Gemm take (float16, bfloat16, float, double, int32,
 * int64, uint32, uint64). The fuzzer's and the unit tests' oracle. */
void mx_gemm_ref(mx_dtype t, const mx_gemm_dims *d, const void *a, const void *b, const void *c, void *y);

/* double's fused multiply-add, rounded once: the instruction where the
 * target has one (__FP_FAST_FMA: aarch64; x86-64 kernels built for FMA call
 * __builtin_fma themselves), else minnx's own from integers (fma64.c: the
 * x86-64 baseline, the Cortex-M4, whose newlib fma rounds twice). */
double mx_fma64(double x, double y, double z);
#ifdef __FP_FAST_FMA
#define MX_FMA64(x, y, z) __builtin_fma(x, y, z)
#else
#define MX_FMA64(x, y, z) mx_fma64(x, y, z)
#endif

/* ---- float32: packed, register-blocked microkernels ---- */

/* Instruction-set levels of the float32 kernels: portable C (fmaf: one
 * instruction on aarch64 and the Cortex-M4, a libm call on an x86-64 without
 * FMA), AVX2+FMA, AVX-512F. */
enum { MX_GEMM_PORTABLE = 0, MX_GEMM_FMA = 1, MX_GEMM_AVX512 = 2 };
/* The highest level this build and CPU have. */
int mx_gemm_isa_available(void);

/* What prepare chooses for a float32 product: its level, blocking, tasks and
 * scratch (per task, then in all). */
typedef struct mx_sgemm_plan {
  mx_gemm_dims d;
  int isa, gemv; /* gemv: m == 1, B streamed once */
  int panel_b;   /* planned for mx_sgemm_run_packed_b: B's room one sliver; the last tile of columns runs to N's end */
  int b_in_place; /* B from memory read where it lies by its full slivers (only a partial one packed) */
  int window;       /* a taps plan (mx_sgemm_plan_init_taps) whose level reads B through its taps: taps a channel */
  int dots_wide;   /* gemv with B transposed: the level's dot kernel (else the portable one) */
  int mr, nr;
  int64_t mc, nc, kc;
  int64_t tiles_m, tiles_n, tiles; /* tiles of one batch item: tiles_m x tiles_n */
  int64_t tasks;
  size_t task_scratch; /* bytes, a multiple of 64 */
  int b_once;          /* a packer's B made once, all of it, before the tiles (gemm.c, even_tiles), shared by them */
  const float *packed_a; /* A packed once (mx_sgemm_pack_a), or NULL: each tile packs its block as it runs */
  int a_packed;          /* mx_sgemm_use_packed_a: no room for A in the scratch (packed_a NULL: a plan at load) */
} mx_sgemm_plan;

/* Plans d at level isa (clamped to what this build has; tests pass each
 * level the CPU has). */
void mx_sgemm_plan_init(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa);
/* The plan for mx_sgemm_run_packed_b, and only for it (each tile makes its
 * B sliver by sliver, so tiles span more rows and a task's room for B is
 * one sliver; m == 1 is no GEMV). */
void mx_sgemm_plan_init_packed_b(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa);
/* Scratch bytes the plan's run needs (64-byte aligned, tasks x task_scratch). */
size_t mx_sgemm_scratch(const mx_sgemm_plan *p);
/* A constant A (weights) packed once, at prepare, for every batch item, tile
 * of rows and block of steps, in the layout the tiles read: floats it takes
 * (0 for a plan that packs no A: GEMV, or no steps), and the packing into
 * `packed` (16-byte aligned); then set p->packed_a = packed. The blocks hold
 * A's values as each tile would pack them: the same products. */
size_t mx_sgemm_packed_a_floats(const mx_sgemm_plan *p);
void mx_sgemm_pack_a(const mx_sgemm_plan *p, const float *a, float *packed);
/* Sets p->packed_a = packed (what mx_sgemm_pack_a filled; NULL in a plan at
 * load, which only sizes the scratch, for sessions that will pack) and
 * leaves A's room out of the tasks' scratch, which no tile then packs
 * into: mx_sgemm_scratch is smaller after it. */
void mx_sgemm_use_packed_a(mx_sgemm_plan *p, const float *packed);
/* y = the products of a and b (and Gemm's epilogue with c), through x's
 * parallel-for (NULL: inline); scratch of mx_sgemm_scratch bytes, 64-byte
 * aligned. */
void mx_sgemm_run(const mx_sgemm_plan *p, const mx_exec *x, const float *a, const float *b, const float *c, float *y,
                  void *scratch);
/* The same for a product without Gemm's epilogue (d.gemm 0) whose rows get
 * a bias, y = acc + bias[bi m + i] (Conv's order: the bias added last, to
 * the finished sum), added to each block as its last stretch is stored
 * rather than in a pass of its own over y; then act (NULL: none), a fused
 * Relu or Clip (act.h), on the same registers before they are stored. The
 * GEMV path (m == 1) leaves act to its caller. */
void mx_sgemm_run_bias(const mx_sgemm_plan *p, const mx_exec *x, const float *a, const float *b, const float *bias,
                       const mx_act *act, float *y, void *scratch);
/* The same with B made by `pack_b` rather than read from memory (not for
 * GEMV plans): each tile asks it for its panel, steps [k0, k0 + kc) x
 * columns [j0, j0 + nc) of batch item bi, in slivers of nr columns (kc x nr
 * each, k-major, the columns past nc zeros), exactly the values pack_b would
 * copy from a B in memory, so that the products are the same. Conv lays
 * its input out this way (im2col into the panel), with no B in memory;
 * bias and act as mx_sgemm_run_bias's (or NULL). */
typedef void (*mx_sgemm_pack_b_fn)(const void *ctx, int64_t bi, int64_t k0, int64_t kc, int64_t j0, int64_t nc, int nr,
                                   float *bp);
void mx_sgemm_run_packed_b(const mx_sgemm_plan *p, const mx_exec *x, const float *a, mx_sgemm_pack_b_fn pack_b,
                           const void *ctx, const float *bias, const mx_act *act, float *y, void *scratch);

/* B read where it lies in an image (Conv at stride 1 or 2 along its rows,
 * the image zero-padded by its caller so that every tap's lanes lie in
 * it): a sliver of nr = 32 columns as its taps. Step k = c * window + at of
 * the sliver is the vector of its columns whose lane l (0 to 31; in vector
 * v = l / 16) is x[c * cstride + tap[at] + base[v][0] + stride l], or, in
 * the lanes of blend[v], x[c * cstride + tap[at] + base[v][1] + stride l]
 * (where the
 * sliver's columns cross into the next output row): exactly the values a
 * packer would copy (the same products), without the copy. The lanes past
 * the sliver's columns read the padded image's other values (its caller
 * leaves floats enough past its end) and are not stored. A builder fills a
 * sliver's (columns [j0, j0 + cols) of batch item bi) and returns 1, or 0
 * when a vector of it crosses more than one row (it is then packed by
 * pack_b). */
#define MX_SGEMM_TAPS_MAX_WINDOW 64
typedef struct mx_sgemm_taps {
  const float *x;      /* the batch item's channel 0 */
  int64_t cstride;     /* floats a channel */
  const int64_t *tap;  /* window of them */
  int64_t base[2][2];
  uint16_t blend[2];
  int stride;          /* 1 or 2 */
} mx_sgemm_taps;
typedef int (*mx_sgemm_taps_fn)(const void *ctx, int64_t bi, int64_t j0, int64_t cols, mx_sgemm_taps *t);
/* The plan for mx_sgemm_run_taps: mx_sgemm_plan_init_packed_b's, its
 * stretches of k whole channels (kc a multiple of window), p->window set
 * where the level has a taps kernel (else 0: mx_sgemm_run_taps packs every
 * sliver). */
void mx_sgemm_plan_init_taps(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa, int window);
/* mx_sgemm_run_packed_b with each sliver's B read through its taps where
 * `taps` builds them, packed by pack_b where it returns 0. */
void mx_sgemm_run_taps(const mx_sgemm_plan *p, const mx_exec *x, const float *a, mx_sgemm_taps_fn taps,
                       mx_sgemm_pack_b_fn pack_b, const void *ctx, const float *bias, const mx_act *act, float *y,
                       void *scratch);

/* ---- the other dtypes ---- */

/* double and the integers: one output row at a time, each element its own
 * accumulator (the order above), the row's k loop streaming B's rows; tasks
 * take whole rows. */
typedef void (*mx_gemm_rows_fn)(const mx_gemm_dims *d, const void *a, const void *b, const void *c, void *y,
                                int64_t row0, int64_t row1);
/* The kernel of dtype t (double, int32, int64, uint32, uint64), or NULL;
 * double's built for FMA when `fma` (prepare: its context's isa is AVX2 or
 * higher). */
mx_gemm_rows_fn mx_gemm_rows_kernel_isa(mx_dtype t, int fma);

/* The microkernels of one level (gemm.c, gemm_x86.c): an mr x nr tile of y
 * (row stride ldy) from kc steps of a packed A sliver (kc x mr) and a B
 * sliver of kc steps of nr columns, step k at bp + k ldb (ldb nr for a
 * packed sliver, B's row pitch for one read where it lies), starting from y's values (load) or from zero, row i's bias[i]
 * added to each sum before it is stored (bias not NULL: the last stretch of
 * a product with a bias; the same rounding as adding it after), then act
 * (not NULL: the last stretch of a product with a fused activation; the
 * bits of the activation's node, act.h); GEMV:
 * y[j] = the chain over s < k of a[s * inca] times b[s * ldb + j], for each
 * j < n (a block of columns' accumulators in registers while B's rows
 * stream past); and GEMV with B transposed:
 * y[r] = the chain over s < k of a[s * inca] times b[r * ldb + s], for each
 * r < rows (each lane one row's chain: AVX-512F transposes blocks of 16 rows
 * in registers, AVX2 gathers). */
typedef void (*mx_sgemm_tile_fn)(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y, int64_t ldy,
                                 int load, const float *bias, const mx_act *act);
typedef void (*mx_sgemv_fn)(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y, int64_t n);
typedef void (*mx_sdots_fn)(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y, int64_t rows);
typedef struct mx_sgemm_kernels {
  int mr, nr;
  /* 1: the plan reads B where it lies where it may (mx_sgemm_plan.b_in_place;
   * measured faster at this level), 0: B is always packed */
  int b_in_place;
  mx_sgemm_tile_fn tile;
  mx_sgemv_fn gemv;
  mx_sdots_fn dots;
  /* the first `rows` rows and `cols` columns of a block (at most mr, nr),
   * straight into y (1), or 0 when the level has no kernel for them (NULL:
   * none): the edge block's work without its copies */
  int (*tile_part)(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y, int64_t ldy, int load, int rows,
                   int cols, const float *bias, const mx_act *act);
  /* a sliver of B transposed (column j's kc steps at src + j * ld, one
   * after the other) packed k-major, bp[k * nr + j], the columns past cols
   * zeros; NULL: the driver's element-by-element copy */
  void (*pack_bt)(const float *src, int64_t ld, int64_t kc, int64_t cols, float *bp);
  /* a sliver of A (row i's kc steps at src + i * ld, one after the other)
   * packed k-major, ap[k * mr + i], the rows past `rows` zeros; NULL: the
   * driver's element-by-element copy */
  void (*pack_a)(const float *src, int64_t ld, int64_t kc, int64_t rows, float *ap);
  /* the first `rows` rows and `cols` columns of a block whose B sliver is
   * read through its taps t (kc / window channels from channel c0), the
   * vectors also stored packed into bp (bp[k nr + j]; not NULL: the first
   * of a tile's blocks, whose others then read the packed sliver); NULL:
   * the level packs every sliver */
  void (*tile_taps)(int64_t kc, const float *ap, const mx_sgemm_taps *t, int window, int64_t c0, float *y, int64_t ldy,
                    int load, int rows, int cols, const float *bias, const mx_act *act, float *bp);
} mx_sgemm_kernels;
extern const mx_sgemm_kernels mx_sgemm_portable;
#if MX_X86_AVX2
extern const mx_sgemm_kernels mx_sgemm_fma, mx_sgemm_avx512;
#endif

#endif
