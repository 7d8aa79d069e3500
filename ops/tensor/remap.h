/* The copy Pad, Tile and Expand share (remap_copy.c) and its reference loop
 * (remap_ref.c). Along each dim d, output coordinate o reads input
 * coordinate map(d, o), or the constant: with t = o - begin[d] (its place
 * relative to the kept part, input coordinates [lo[d], lo[d] + n[d])),
 *   0 <= t < n: lo + t;
 *   outside, by the mode: CONSTANT none (the constant value); EDGE the
 *   nearest end of the kept part; REFLECT the kept part mirrored about its
 *   ends without repeating them (Pad refuses a reflect pad above n - 1:
 *   one mirror each side); WRAP t mod n (a torus, any length).
 * Pad: lo and n the input cropped by negative pads, begin the positive begin
 * pad; Tile: WRAP with begin 0 (o mod dim); Expand: EDGE with begin 0 over
 * the input's dims with 1s prefixed (a dim of 1 read at 0 throughout).
 * Bytes are moved by element size, never by dtype: the copy is exact. */
#ifndef MX_REMAP_H
#define MX_REMAP_H

#include "ops/core/op.h"

enum { MX_REMAP_CONSTANT, MX_REMAP_EDGE, MX_REMAP_REFLECT, MX_REMAP_WRAP };

typedef struct mx_remap_params {
  int rank, mode;
  size_t elem;                 /* bytes of one element */
  int64_t in_dims[MX_MAX_RANK]; /* the input's dims (Expand: with 1s prefixed to the output's rank) */
  int64_t out_dims[MX_MAX_RANK];
  int64_t lo[MX_MAX_RANK], n[MX_MAX_RANK], begin[MX_MAX_RANK];
  unsigned char value[8];      /* Pad-1, -2: the attribute's value, in the data's dtype (else zeros) */
} mx_remap_params;

/* The input coordinate output coordinate o of dim d reads; -1: the constant. */
static inline int64_t mx_remap_coord(const mx_remap_params *p, int d, int64_t o) {
  int64_t t = o - p->begin[d], n = p->n[d];
  if (t >= 0 && t < n) return p->lo[d] + t;
  switch (p->mode) {
    case MX_REMAP_EDGE: return p->lo[d] + (t < 0 ? 0 : n - 1);
    case MX_REMAP_REFLECT: return p->lo[d] + (t < 0 ? -t : 2 * (n - 1) - t); /* pads <= n - 1: one mirror */
    case MX_REMAP_WRAP: {
      int64_t u = t % n;
      return p->lo[d] + (u < 0 ? u + n : u);
    }
    default: return -1;
  }
}

/* value: the element CONSTANT writes (one element of the dtype). */
void mx_remap_run(const mx_remap_params *p, const mx_exec *x, const void *in, const void *value, void *out);
/* Element by element, each output element from its coordinates. */
void mx_remap_ref(const mx_remap_params *p, const void *in, const void *value, void *out);

#endif
