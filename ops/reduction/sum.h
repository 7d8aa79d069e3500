/* The sums: ReduceSum, ReduceMean, ReduceProd, ReduceL1, ReduceL2,
 * ReduceSumSquare, ReduceLogSum, ReduceLogSumExp, Softmax and LogSoftmax.
 *
 * The order (README, "The sums"): each output's set of reduced elements is
 * taken in row-major order, j = 0, 1, ...; element j goes into partial
 * (j mod 16), each partial accumulating sequentially from 0 (1 for a
 * product); the 16 partials are then combined in a fixed tree, p[l] op=
 * p[l + h] for h = 8, 4, 2, 1, and p[0] is the result. Sixteen partials,
 * whatever the ISA's width: the portable loop, its AVX2 and AVX-512
 * compilations, aarch64's and the Cortex-M4's all do these operations, and
 * the reference loop (sum_ref.c) too. float32, float16 and bfloat16
 * accumulate in float32, double in double, integers in unsigned integers of
 * their width (so they wrap).
 *
 * The walk: the input's dims grouped (dims of 1 dropped, neighbours both
 * kept or both reduced merged). The last reduced group is the "main" one:
 * when it is the last group, an output's elements in it are a contiguous
 * row (the `rows` kernels); when a kept group of `units` elements follows
 * it, they are `len` elements `units` apart, and a block of neighbouring
 * outputs is taken at once (the `fold` kernels: 16 partial rows as wide as
 * the block). A block of the sums (ReduceSum ... ReduceLogSum) is a span of
 * up to MX_SUM_SPAN_BYTES of accumulators (4096 float32 outputs: a fold
 * streams whole rows where it can), its partials in session scratch, and
 * so is Softmax's of float32 and double (its largest and sums there too);
 * of ReduceLogSumExp, LogSoftmax and the other Softmax 32 bytes (W
 * outputs). The
 * groups before are walked as odometers: the kept ones give the block's
 * outputs, the reduced ones (in row-major order) the rows of its set. Tasks
 * take whole blocks (threads split outputs), or, a fold of the sums in few
 * wide blocks, a block's partial rows (sum_walk.c's share: the same
 * operations per partial, the tree after the join).
 *
 * Pieces: one output whose set is the whole input (every dim reduced, or
 * the others 1) of at least 2 x MX_SUM_PIECE elements, for every op but
 * ReduceLogSumExp (and Softmax's), is cut by its size alone into pieces of
 * MX_SUM_PIECE elements in row-major order (the last may be shorter). Each
 * piece has 16 partials of its own, element j of the set into partial
 * j mod 16 (MX_SUM_PIECE is a multiple of 16), each from 0 (1); partial l
 * of the set is then 0 (1) joined with partial l of piece 0, 1, 2, ... in
 * that order, and the tree follows. Tasks take pieces, the caller joins
 * them: the same operations at every thread count. */
#ifndef MX_SUM_H
#define MX_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "graph/ir.h"
#include "ops/core/cpu.h"
#include "ops/core/half.h"
#include "ops/core/kernel.h"
#include "ops/core/mathd.h"
#include "ops/core/mathf.h"

enum { MX_SUM_LANES = 16 };
/* Elements of a piece of one large set (above); a multiple of MX_SUM_LANES. */
#define MX_SUM_PIECE ((int64_t)1 << 15)
/* an accumulator block: 16 partials of 32 bytes (W = 32 / sizeof(acc) lanes) */
#define MX_SUM_ACC_BYTES (MX_SUM_LANES * 32)
/* A fold block's partial row of the sums (above), in bytes: 16 KB (4096
 * float32 outputs; scaled with MX_TASK_BYTES, so that the fuzz build's
 * small shapes take several blocks of 64 bytes, in scratch), 32 on a
 * Cortex-M (one W-wide block on the stack, as before: no scratch, no DRAM
 * streams to feed). */
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define MX_SUM_SPAN_BYTES 32
#else
#define MX_SUM_SPAN_BYTES (MX_TASK_BYTES / 4 < 64 ? 64 : MX_TASK_BYTES / 4)
#endif

/* The kernels' paths that hold 16 lanes as one vector (GCC's vector
 * extension) and Softmax's exp written once (exp_rows_store): where the CPU
 * has vectors. Not on a Cortex-M: there the vectors are lowered to the same
 * scalar operations, and the build would only grow (about 12 KB over the
 * sums' dtypes); the loops beside them do the same operations. */
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
#define MX_SUM_VEC 0
#else
#define MX_SUM_VEC 1
#endif

typedef enum mx_sum_op {
  MX_SUM_SUM, MX_SUM_MEAN, MX_SUM_PROD, MX_SUM_L1, MX_SUM_SUMSQ, MX_SUM_L2, /* sum.c.in, every dtype */
  MX_SUM_LOGSUM, MX_SUM_LOGSUMEXP, MX_SUM_SOFTMAX, MX_SUM_LOGSOFTMAX,       /* expsum.c.in, floats */
  MX_SUM_OPS
} mx_sum_op;
#define MX_SUM_OWN 6 /* the ops of sum.c.in */

/* sum.c.in's kernels for one dtype: acc is 16 partial rows of `as`
 * accumulators each (as = W for rows: MX_SUM_ACC_BYTES, aligned). start
 * fills n accumulators with 0 (1 for ReduceProd); rows adds the n elements
 * of x, element i into partial (phase + i) mod 16 (lane 0 of each row);
 * fold adds n rows of w <= as elements, `stride` elements apart, row i into
 * partial row (phase + i) mod 16; finish combines the partials (the tree)
 * and writes the w results of a set of `count` elements (ReduceMean
 * divides, ReduceL2 takes the root). */
typedef void (*mx_sum_rows_fn)(void *acc, const void *x, int64_t n, int64_t phase, const void *m);
typedef void (*mx_sum_fold_fn)(void *acc, int64_t as, const void *x, int64_t n, int64_t stride, int64_t phase, int w,
                               const void *m);
struct mx_sum_set {
  int w;
  void (*start)(void *acc, int64_t n, mx_sum_op op);
  mx_sum_rows_fn rows[MX_SUM_OWN];
  mx_sum_fold_fn fold[MX_SUM_OWN];
  void (*finish[MX_SUM_OWN])(void *y, void *acc, int64_t as, int w, int64_t count);
  /* pieces: partial l (lane 0 of acc's row l) joined with piece[l], l < 16 */
  void (*merge)(void *acc, const void *piece, mx_sum_op op);
#if MX_SUM_VEC
  /* fold's rows going into the partial rows lo <= p < hi only (not on a
   * Cortex-M, whose fold blocks are 32 bytes: never shared) */
  void (*fold_share[MX_SUM_OWN])(void *acc, int64_t as, const void *x, int64_t n, int64_t stride, int64_t phase,
                                 int w, int lo, int hi);
#endif
};

/* expsum.c.in's, floats only: the largest element of each of w lanes (NaN
 * ignored; `finite`: infinities too; folded into m, started with `first`;
 * none: 0), then the sums of exp(x - m) (rows and
 * fold as above, m the lanes' largest), the results: ReduceLogSum's log of
 * a sum.c.in sum, ReduceLogSumExp's, and Softmax's and LogSoftmax's outputs
 * from a set's largest and sum. */
struct mx_expsum_set {
  void (*max_rows)(void *m, const void *x, int64_t n, int finite, int first);
  void (*max_fold)(void *m, const void *x, int64_t n, int64_t stride, int w, int finite, int first);
  void (*max_done)(void *m, int w);
  mx_sum_rows_fn exp_rows;
  mx_sum_fold_fn exp_fold;
  void (*total)(void *s, void *acc, int64_t as, int w); /* the tree: w sums (w <= W) */
  void (*finish_log)(void *y, void *acc, int64_t as, int w, const void *m); /* m NULL: ReduceLogSum */
  void (*out_rows[2])(void *y, const void *x, int64_t n, const void *m, const void *s);
  void (*out_fold[2])(void *y, const void *x, int64_t n, int64_t stride, int w, const void *m, const void *s);
  /* Softmax of a contiguous row whose output holds the accumulator's type
   * (float32, double; NULL for the others): y = exp(x - m) written and
   * added to acc's partials (phase 0) in exp_rows' order, then y / s after
   * total: the same bits as exp_rows and out_rows, one exp per element. */
  void (*exp_rows_store)(void *acc, void *y, const void *x, int64_t n, const void *m);
  /* the row's largest for exp_rows_store, as max_rows and max_done give it
   * (but +0 for -0 or the converse: Softmax does not see it); float32's
   * AVX-512 level only, NULL elsewhere (max_rows and max_done); n >= 16 */
  void (*max_rows4)(void *m, const void *x, int64_t n);
  void (*scale_rows)(void *y, int64_t n, const void *s);
  /* the same along a non-last axis: a fold block of w <= as lanes, n rows
   * `stride` apart (exp_fold's order, phase 0) */
  void (*exp_fold_store)(void *acc, int64_t as, void *y, const void *x, int64_t n, int64_t stride, int w,
                         const void *m);
  void (*scale_fold)(void *y, int64_t n, int64_t stride, int w, const void *s);
};

/* ---- per-dtype traits the templates call by suffix ---- */

typedef float mx_acc_f32;
typedef double mx_acc_f64;
typedef float mx_acc_f16;
typedef float mx_acc_bf16;

/* a signed integer of the float accumulators' width (vector masks) */
typedef int32_t mx_accbits_f32;
typedef int64_t mx_accbits_f64;
typedef int32_t mx_accbits_f16;
typedef int32_t mx_accbits_bf16;
typedef uint32_t mx_acc_i32;
typedef uint64_t mx_acc_i64;
typedef uint32_t mx_acc_u32;
typedef uint64_t mx_acc_u64;

static inline float mx_sum_load_f32(float x) { return x; }
static inline double mx_sum_load_f64(double x) { return x; }
static inline float mx_sum_load_f16(uint16_t x) { return mx_f16_to_f32(x); }
static inline float mx_sum_load_bf16(uint16_t x) { return mx_bf16_to_f32(x); }
static inline uint32_t mx_sum_load_i32(int32_t x) { return (uint32_t)x; }
static inline uint64_t mx_sum_load_i64(int64_t x) { return (uint64_t)x; }
static inline uint32_t mx_sum_load_u32(uint32_t x) { return x; }
static inline uint64_t mx_sum_load_u64(uint64_t x) { return x; }

static inline float mx_sum_store_f32(float a) { return a; }
static inline double mx_sum_store_f64(double a) { return a; }
static inline uint16_t mx_sum_store_f16(float a) { return mx_f32_to_f16(a); }
static inline uint16_t mx_sum_store_bf16(float a) { return mx_f32_to_bf16(a); }
static inline int32_t mx_sum_store_i32(uint32_t a) { return (int32_t)a; } /* modulo 2^32 (gcc, clang) */
static inline int64_t mx_sum_store_i64(uint64_t a) { return (int64_t)a; }
static inline uint32_t mx_sum_store_u32(uint32_t a) { return a; }
static inline uint64_t mx_sum_store_u64(uint64_t a) { return a; }

/* |x|: the sign bit cleared (an IEEE operation); integers wrap (|INT_MIN| is INT_MIN) */
static inline float mx_sum_abs_f32(float a) { return __builtin_fabsf(a); }
static inline double mx_sum_abs_f64(double a) { return __builtin_fabs(a); }
static inline float mx_sum_abs_f16(float a) { return __builtin_fabsf(a); }
static inline float mx_sum_abs_bf16(float a) { return __builtin_fabsf(a); }
static inline uint32_t mx_sum_abs_i32(uint32_t a) { return a >> 31 ? 0u - a : a; }
static inline uint64_t mx_sum_abs_i64(uint64_t a) { return a >> 63 ? 0u - a : a; }
static inline uint32_t mx_sum_abs_u32(uint32_t a) { return a; }
static inline uint64_t mx_sum_abs_u64(uint64_t a) { return a; }

/* ReduceMean: the sum divided by the count (one IEEE division; integers:
 * the wrapped sum divided, truncating toward 0; an empty set gives NaN for
 * floats, 0 for integers) */
static inline float mx_sum_div_f32(float a, int64_t n) { return a / (float)n; }
static inline double mx_sum_div_f64(double a, int64_t n) { return a / (double)n; }
static inline float mx_sum_div_f16(float a, int64_t n) { return a / (float)n; }
static inline float mx_sum_div_bf16(float a, int64_t n) { return a / (float)n; }
static inline uint32_t mx_sum_div_i32(uint32_t a, int64_t n) { return n ? (uint32_t)((int32_t)a / n) : 0; }
static inline uint64_t mx_sum_div_i64(uint64_t a, int64_t n) { return n ? (uint64_t)((int64_t)a / n) : 0; }
static inline uint32_t mx_sum_div_u32(uint32_t a, int64_t n) { return n ? (uint32_t)(a / (uint64_t)n) : 0; }
static inline uint64_t mx_sum_div_u64(uint64_t a, int64_t n) { return n ? a / (uint64_t)n : 0; }

/* floor(sqrt(m 2^shift)) to n bits (m 2^shift < 4^n, n <= 54), digit by
 * digit; *rest: the remainder is not 0. Integer operations only: no libm
 * (the Cortex-M4 has none, and its double has no instruction). */
static inline uint64_t mx_root_bits(uint64_t m, int shift, int n, int *rest) {
  uint64_t rem = 0, root = 0;
  for (int i = n - 1; i >= 0; i--) {
    int lo = 2 * i - shift;
    uint64_t pair = lo >= 64 ? 0 : lo >= 0 ? (m >> lo) & 3 : lo == -1 ? (m << 1) & 2 : 0;
    rem = rem << 2 | pair;
    uint64_t trial = root << 2 | 1;
    root <<= 1;
    if (rem >= trial) rem -= trial, root |= 1;
  }
  *rest = rem != 0;
  return root;
}

/* The square root, correctly rounded (an IEEE operation, computed here from
 * the bits: __builtin_sqrt would call libm for a NaN, or on the Cortex-M4
 * for any double). One guard bit below the result decides the rounding:
 * a root is never halfway between two floats. mant: the significand with
 * its hidden bit (`bits` of it), e: x = mant 2^e. */
static inline double mx_sqrt_parts(uint64_t mant, int e, int bits) {
  int s = bits - 1 + ((e & 1) != ((bits - 1) & 1)); /* e - s even; the root has bits + 1 bits */
  int rest;
  uint64_t q = (mx_root_bits(mant, s + 2, bits + 1, &rest) + 1) >> 1;
  int k = (e - s) / 2;
  double scale = 1.0;
  for (; k > 0; k--) scale *= 2.0; /* exact powers of two, |k| < 600 */
  for (; k < 0; k++) scale *= 0.5;
  return (double)q * scale;
}
static inline float mx_sum_sqrt_f32(float x) {
  if (!(x > 0) || x - x != 0) return x < 0 ? (x - x) / (x - x) : x; /* +-0, NaN, +inf; negative: NaN */
  uint32_t u;
  __builtin_memcpy(&u, &x, 4);
  int E = (int)(u >> 23);
  uint64_t m = u & 0x7fffff;
  int e = E - 150;
  if (E) m |= 0x800000;
  else
    for (e++; !(m & 0x800000); m <<= 1) e--;
  return (float)mx_sqrt_parts(m, e, 24); /* exact: 24 bits */
}
static inline double mx_sum_sqrt_f64(double x) {
  if (!(x > 0) || x - x != 0) return x < 0 ? (x - x) / (x - x) : x;
  uint64_t u;
  __builtin_memcpy(&u, &x, 8);
  int E = (int)(u >> 52);
  uint64_t m = u & 0xfffffffffffffull;
  int e = E - 1075;
  if (E) m |= 1ull << 52;
  else
    for (e++; !(m >> 52); m <<= 1) e--;
  return mx_sqrt_parts(m, e, 53);
}
static inline float mx_sum_sqrt_f16(float x) { return mx_sum_sqrt_f32(x); }
static inline float mx_sum_sqrt_bf16(float x) { return mx_sum_sqrt_f32(x); }
/* integers: floor of the root of the wrapped sum; a signed sum that wrapped
 * negative gives 0 */
static inline uint32_t mx_sum_sqrt_i32(uint32_t a) {
  int rest;
  return a >> 31 ? 0 : (uint32_t)mx_root_bits(a, 0, 16, &rest);
}
static inline uint64_t mx_sum_sqrt_i64(uint64_t a) {
  int rest;
  return a >> 63 ? 0 : mx_root_bits(a, 0, 32, &rest);
}
static inline uint32_t mx_sum_sqrt_u32(uint32_t a) {
  int rest;
  return (uint32_t)mx_root_bits(a, 0, 16, &rest);
}
static inline uint64_t mx_sum_sqrt_u64(uint64_t a) {
  int rest;
  return mx_root_bits(a, 0, 32, &rest);
}

/* exp and log: mathf.h's float32 functions, double's mathd.h's double ones */
static inline float mx_sum_exp_f32(float x) { return mx_expf(x); }
static inline double mx_sum_exp_f64(double x) { return mx_exp64(x); }
static inline float mx_sum_exp_f16(float x) { return mx_expf(x); }
static inline float mx_sum_exp_bf16(float x) { return mx_expf(x); }
/* the same for an x known to lie in [-64, 64] (expsum.c.in's exp_rows_store): float32's
 * cheaper form with mx_expf's bits there (mathf.h) */
static inline float mx_sum_exp_mid_f32(float x) { return mx_expf_mid(x); }
static inline double mx_sum_exp_mid_f64(double x) { return mx_exp64(x); }
static inline float mx_sum_exp_mid_f16(float x) { return mx_expf_mid(x); }
static inline float mx_sum_exp_mid_bf16(float x) { return mx_expf_mid(x); }
static inline float mx_sum_log_f32(float x) { return mx_logf(x); }
static inline double mx_sum_log_f64(double x) { return mx_log64(x); }
static inline float mx_sum_log_f16(float x) { return mx_logf(x); }
static inline float mx_sum_log_bf16(float x) { return mx_logf(x); }

/* ---- the walk (sum_walk.c) ---- */

typedef struct mx_sum_walk {
  mx_sum_op op;
  const struct mx_sum_set *k;     /* sum.c.in's (ReduceLogSum's sum too) */
  const struct mx_expsum_set *e;  /* expsum.c.in's, for the ops that need it */
  size_t esize;
  int w;                          /* lanes of a fold block: 1 for rows */
  int wide_softmax;               /* Softmax's fold in blocks of the sums' width (exp_fold_store) */
  size_t acc_bytes;               /* a fold block's partials in scratch, per task (0: on the stack) */
  int fold;                       /* a kept group follows the main reduced one */
  int64_t len, stride, units;     /* the main reduced group, its step, the kept elements after it */
  int nk, nr;                     /* outer kept and reduced groups */
  int64_t kdims[MX_MAX_RANK], ksteps[MX_MAX_RANK], rdims[MX_MAX_RANK], rsteps[MX_MAX_RANK];
  int64_t count;                  /* elements of each output's set */
  int64_t ublocks, blocks, tasks;
  int share;                      /* > 1: each block's 16 partial rows split in `share` units (sum_walk.c) */
  int64_t piece, pieces;          /* one large set cut into pieces (above); 0: none */
} mx_sum_walk;

/* The kernels of dtype t at the highest level <= isa (NULL: none). */
const struct mx_sum_set *mx_sum_kernels(mx_dtype t, mx_isa isa);
const struct mx_expsum_set *mx_expsum_kernels(mx_dtype t, mx_isa isa);
/* A reduction of a `rank`-dim shape over the axes whose bit is set in `axes`. */
void mx_sum_init(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, mx_isa isa);
/* The same with pieces of `piece` elements (a multiple of 16) in place of
 * MX_SUM_PIECE: the tests' way to reach the pieces with small shapes. */
void mx_sum_init_pieces(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes,
                        mx_isa isa, int64_t piece);
/* Softmax and LogSoftmax over axis `axis` (coerced: over every dim from it on,
 * the versions before 13). */
void mx_softmax_init(mx_sum_walk *w, mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, int axis, int coerced,
                     mx_isa isa);
/* Bytes of scratch the pieces or the fold blocks' partials need (64-byte
 * multiple; 0 for none). */
size_t mx_sum_scratch(const mx_sum_walk *w);
/* Blocks [part * blocks / parts, ...) of the output (tasks: mx_sum_part);
 * with pieces, pieces [part * pieces / parts, ...) into scratch, and then
 * mx_sum_done (after every part) joins them into the output. mx_sum_run does
 * it all. scratch: mx_sum_scratch bytes (NULL when 0). Parts run at once
 * only when parts <= tasks (a fold's part takes the scratch of task
 * part mod tasks). */
void mx_sum_part(const mx_sum_walk *w, const void *in, void *out, int64_t part, int64_t parts, void *scratch);
void mx_sum_done(const mx_sum_walk *w, void *out, const void *scratch);
void mx_sum_run(const mx_sum_walk *w, const void *in, void *out, void *scratch);

/* ---- the reference loops (sum_ref.c): one element at a time, the same order ---- */
void mx_sum_ref(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, const void *in, void *out);
void mx_sum_ref_pieces(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, const void *in,
                       void *out, int64_t piece);
void mx_softmax_ref(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, int axis, int coerced, const void *in,
                    void *out);

#endif
