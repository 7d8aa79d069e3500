/* The min/max family's kernels: one implementation per (dtype, direction),
 * instantiated from templates by tables, that Max, Min, Maximum, Minimum,
 * ReduceMax and ReduceMin share (ArgMax's and ArgMin's: arg.h). */
#ifndef MX_EXTREMUM_KERNELS_H
#define MX_EXTREMUM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "graph/ir.h"
#include "ops/minmax/extremum.h"

/* ---- elementwise and reductions (extremum_pair.c) ---- */

/* How an operand steps through a row: not at all (one value for the row),
 * or one element at a time through data read once (read it ahead) or through
 * data in cache (a row that the tile reads again, the block being folded:
 * reading ahead of it would fetch bytes past its end for nothing). */
enum { MX_SCALAR = 0, MX_STREAM = 1, MX_CACHED = 2 };

/* For each of `rows` rows of n elements: out[i] = pick(a[i or 0], b[i or 0])
 * as sa, sb say, then out steps by n, a by da and b by db elements. out may
 * be a. Looping over rows in here keeps a short row's cost to its loop. */
typedef void (*mx_pair_fn)(void *out, const void *a, int sa, const void *b, int sb, int64_t n, int64_t rows,
                           int64_t da, int64_t db);
/* Three or four operands in one pass (every one steps, MX_STREAM or MX_CACHED):
 *   triple: out[i] = pick(out[i], b[i], c[i]);
 *   quad:   out[i] = pick(a[i], b[i], c[i], d[i]), a being out or another input. */
typedef void (*mx_triple_fn)(void *out, const void *b, int sb, const void *c, int sc, int64_t n);
typedef void (*mx_quad_fn)(void *out, const void *a, int sa, const void *b, int sb, const void *c, int sc,
                           const void *d, int sd, int64_t n);
/* out[r] = pick(out[r], the extreme of row r), for `rows` rows of n elements
 * of x one after the other. */
typedef void (*mx_rows_fn)(void *out, const void *x, int64_t n, int64_t rows);
/* out[j] = pick(out[j], x[r * stride + j]) for j < n, r = 0, 1, ... rows - 1
 * in turn: rows of x folded into a row of results that stays in cache. */
typedef void (*mx_fold_fn)(void *out, const void *x, int64_t n, int64_t rows, int64_t stride);

typedef struct mx_pair_kernels {
  mx_pair_fn pair;
  mx_triple_fn triple;
  mx_quad_fn quad;
  mx_rows_fn rows;
  mx_fold_fn fold; /* the reductions' (NULL in a build without them, as rows) */
} mx_pair_kernels;

/* The kernels of dtype t (bool is uint8's: false < true) in direction dir;
 * NULL for a dtype they do not cover or this build leaves out: the CPU's
 * (AVX2 ones for 64-bit integers and float16/bfloat16 where the CPU has
 * AVX2), the portable ones, or as asked (avx2 nonzero: AVX2 ones where this
 * build has them; tests run both). */
const mx_pair_kernels *mx_pair_kernels_for(mx_dtype t, mx_dir dir);
const mx_pair_kernels *mx_pair_kernels_port(mx_dtype t, mx_dir dir);
const mx_pair_kernels *mx_pair_kernels_isa(mx_dtype t, mx_dir dir, int avx2);

/* Writes one element of dtype t: the start of a reduction in direction dir,
 * which every value reaches (ONNX's result over an empty set): the lowest
 * value for MX_MAX (-inf for floats), the highest for MX_MIN. */
void mx_extremum_identity(mx_dtype t, mx_dir dir, void *out);

/* ---- reductions over a set of axes (extremum_reduce.c) ---- */

/* The input's dims as groups: dims of size 1 dropped (they move no element),
 * then neighbours that are both reduced or both kept merged; so groups
 * alternate between kept and reduced. A kernel call takes the last two
 * groups: when the last is reduced, `units` kept rows of `len` elements each
 * (the `rows` kernel); when it is kept, `len` reduced rows of `units`
 * elements folded into `units` results (the `fold` kernel). The groups
 * before those are walked like an odometer, a call at each step. One
 * reduced group (every element into one result) of some size is cut into
 * `chunks` pieces of fixed bounds, each reduced alone and the pieces'
 * results folded in order, so that tasks can take the pieces. */
typedef struct mx_reduce_walk {
  const mx_pair_kernels *k;
  size_t esize;
  int n;                        /* groups, >= 1 */
  int64_t dims[MX_MAX_RANK];    /* group sizes */
  uint32_t reduced;             /* bit g: group g is reduced */
  int64_t in_count, out_count;
  unsigned char identity[8];    /* mx_extremum_identity */
  int outer;                    /* groups walked outside the calls */
  int flat;                     /* every one of those kept: call c writes units c*units.. */
  int64_t len, units, calls;    /* a call's shape (above), and how many */
  int64_t chunks;               /* > 1: the one reduced group in pieces */
  int64_t tasks;                /* mx_reduce_tasks */
  int by_calls;                 /* tasks take whole calls, else a share of every call's units */
} mx_reduce_walk;

/* Plans the reduction of a concrete `rank`-dim shape over the axes whose bit
 * is set in `axes`, for dtype t (which mx_pair_kernels_for covers). */
void mx_reduce_init(mx_reduce_walk *w, mx_dtype t, mx_dir dir, int rank, const int64_t *dims, uint32_t axes);
/* out: out_count elements, each the extreme of its set (the identity for an
 * empty set), in the order of the kept dims. */
void mx_reduce_run(const mx_reduce_walk *w, const void *in, void *out);
/* The same in tasks: mx_reduce_start sets every output to the identity, then
 * part p of `parts` (any order, at once) takes its share (whole calls, or
 * units of every call, or pieces, writing a piece's result to scratch), and
 * mx_reduce_finish folds the pieces' results into the output in order: every
 * output element sees the same operands in the same order as in one run,
 * whatever `parts` is. mx_reduce_tasks: how many parts the input's size is
 * worth (1: none); mx_reduce_scratch: the bytes scratch needs (0: none). */
void mx_reduce_start(const mx_reduce_walk *w, void *out);
void mx_reduce_part(const mx_reduce_walk *w, const void *in, void *out, void *scratch, int64_t part, int64_t parts);
void mx_reduce_finish(const mx_reduce_walk *w, void *out, const void *scratch);
int64_t mx_reduce_tasks(const mx_reduce_walk *w);
size_t mx_reduce_scratch(const mx_reduce_walk *w);

#endif
