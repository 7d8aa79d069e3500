/* The min/max family's kernels: one implementation per (dtype, direction),
 * instantiated from templates by tables, that Max, Min, Maximum, Minimum,
 * ReduceMax and ReduceMin share (ArgMax's and ArgMin's: arg.h). */
#ifndef MX_EXTREMUM_KERNELS_H
#define MX_EXTREMUM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "graph/ir.h"
#include "ops/minmax/extremum.h"
#include "ops/minmax/extremum_pair.h"

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
  const mx_reduce_kernels *k;
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
 * is set in `axes`, for dtype t, with the kernels of level isa (mx_reduce_kernels_isa). */
void mx_reduce_init(mx_reduce_walk *w, mx_dtype t, mx_dir dir, mx_isa isa, int rank, const int64_t *dims, uint32_t axes);
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
