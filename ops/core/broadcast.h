/* One broadcast iterator for every elementwise kernel. The output is walked
 * in tiles of its two innermost (collapsed) dimensions; each input steps
 * through a row with stride 1, or 0 where it is broadcast. */
#ifndef MX_BROADCAST_H
#define MX_BROADCAST_H

#include "graph/ir.h"
#include "ops/core/op.h"

/* The output shape of elementwise inputs (infer): numpy broadcasting when
 * `broadcast`, else one shape for all; or an error naming the two shapes
 * that conflict. */
minnx_status mx_elementwise_shape(const mx_op_ctx *c, int broadcast);

/* For reference loops: the offset in an input of shape s (aligned at the
 * right with the output's shape o, numpy's rule) of the output element whose
 * indices are idx. */
static inline int64_t mx_bcast_offset(const mx_shape *s, const mx_shape *o, const int64_t *idx) {
  int64_t off = 0;
  for (int d = 0; d < s->rank; d++) off = off * s->dims[d] + (s->dims[d] == 1 ? 0 : idx[o->rank - s->rank + d]);
  return off;
}

typedef struct mx_bplan {
  int32_t n_in;
  int rank;      /* collapsed rank, >= 1 */
  int64_t count; /* output elements */
  int64_t dims[MX_MAX_RANK];
  /* Followed in memory by n_in rows of MX_MAX_RANK element strides, then n_in
   * offsets that the walk uses as scratch. */
} mx_bplan;

size_t mx_bplan_size(int32_t n_in);
/* Plans the walk of `out` (the broadcast of the n inputs, concrete shapes). */
void mx_bplan_init(mx_bplan *p, const mx_shape *const *in, int32_t n, const mx_shape *out);
/* Input k's element strides over the collapsed dims; the last is 0 or 1.
 * (Inline: kernels look them up in their per-tile setup.) */
static inline int64_t *mx_bplan_strides(const mx_bplan *p, int32_t k) {
  return (int64_t *)(p + 1) + (size_t)k * MX_MAX_RANK;
}

/* Calls tile() for each tile of the output: its two innermost collapsed
 * dims, `rows` rows of `len` elements (rows is 1 at rank 1), so that a kernel
 * is called once per tile, not once per row. in_off[k] is input k's first
 * element; from a row to the next it steps by mx_bplan_strides(p, k)[rank - 2]
 * and inside a row by mx_bplan_strides(p, k)[rank - 1] (0 or 1). */
typedef void (*mx_tile_fn)(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len);
void mx_bplan_walk(const mx_bplan *p, mx_tile_fn tile, void *ctx);

/* Most inputs of a node that is split: each task keeps an offset per input on its stack. */
#define MX_SPLIT_INPUTS 8

/* The same walk, split into tasks through x when the output (esize bytes an
 * element) is large: a task makes the tile() calls for a range of whole rows,
 * or for a piece of one row, with rows and offsets to match. Elementwise
 * kernels give the same bytes for an element whichever call computes it, so
 * the output is identical for every split. Inline when x has no hook, the
 * output is small, or there are more than MX_SPLIT_INPUTS inputs. */
void mx_bplan_walk_x(const mx_bplan *p, const mx_exec *x, size_t esize, mx_tile_fn tile, void *ctx);

#endif
