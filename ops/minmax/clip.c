/* ONNX Clip, every version: y = min(max(x, lo), hi), computed under the
 * min/max family's NaN rule (extremum.h): NaN in x, or a NaN bound, gives
 * NaN; +0 and -0 are equal. float and double with both bounds take a fused
 * one-pass kernel (the template clip.c.in); every other case the family's
 * elementwise kernels (pair.c.in), a max pass then a min pass over a block
 * in L1. With lo > hi every element is hi (numpy's clip, torch.clamp and
 * ONNX's reference implementation agree).
 * Bounds: attributes min and max in versions 1 and 6 (absent: the attribute's
 * default, -+3.402823e+38 as a float, converted to T); optional scalar inputs
 * from 11 (omitted: no bound), which may be graph inputs read at run time. */
#include <float.h>
#include <stddef.h>
#include <string.h>

#include "graph/dtype.h"
#include "graph/shape.h"
#include "ops/minmax/clip.h"
#include "ops/tensor/convert.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/minmax/minmax.h"

/* ---- the one-pass kernels (clip.c.in) ---- */

extern const mx_kernel_row mx_clip_rows[];
extern const size_t mx_clip_n_rows;

mx_clip_fn mx_clip_kernel(mx_dtype t, mx_isa isa) {
  const struct mx_clip_set *s = mx_kernel_find(mx_clip_rows, mx_clip_n_rows, t, isa);
  return s ? s->both : NULL;
}

/* ---- the op ---- */

/* A bound input must be a scalar: the spec says "tensor of empty shape". */
static minnx_status clip_infer(mx_op_ctx *c) {
  static const char *const names[] = {"input", "min", "max"};
  for (int32_t k = 1; k < c->n_in; k++) {
    const mx_shape *s = c->in[k];
    if (!s || s->rank <= 0) continue; /* omitted, rank 0, or not known yet */
    char b[96];
    return mx_op_fail(c, MINNX_E_SHAPE, "input '%s' must be a scalar (rank 0, one value); its shape is %s", names[k],
                      mx_shape_str(s, b, sizeof b));
  }
  c->out[0] = *c->in[0];
  return MINNX_OK;
}

/* An attribute bound of Clip-1 or -6 (a float) as dtype t's bytes, by
 * Cast's conversion (ops/tensor/convert.h: to nearest, ties to even; beyond
 * float16's range +-inf; NaN stays NaN). t is one the row allows (float16,
 * float, double), which infer has checked this build computes on. */
static void attr_bound(const mx_node *n, const char *name, float dflt, mx_dtype t, unsigned char *out) {
  const mx_attr *a = mx_node_attr(n, name);
  float f = a ? a->f : dflt;
  mx_convert_params p;
  if (mx_convert_choose_isa(&p, MINNX_FLOAT, t, MX_ISA_PORTABLE)) mx_convert_run(&p, out, &f, 1);
}

/* Elements a task clips: in one call of the one-pass kernel, or else a block
 * at a time, the block staying in L1 between its max and its min, so x is
 * read once and y written once. */
#define MX_CLIP_TASK 65536
#define MX_CLIP_BLOCK 2048

typedef struct {
  const mx_pair_kernels *max, *min;
  mx_clip_fn both; /* the one-pass kernel, or NULL */
  size_t esize;
  int64_t count;
  int attrs;                     /* bounds from attributes (lo, hi), not inputs */
  int32_t n_in;                  /* the node's inputs: a max left out at the end has no entry */
  unsigned char lo[8], hi[8];
} clip_params;

static size_t clip_params_size(const mx_node *n) {
  (void)n;
  return sizeof(clip_params);
}

/* The kernels: clip.c.in's one-pass one, and pair.c.in's for two passes. */
static minnx_status clip_prepare(mx_op_ctx *c, void *params) {
  clip_params *p = params;
  mx_dtype t = c->in_dtype[0];
  p->max = mx_pair_kernels_isa(t, MX_MAX, c->isa);
  p->min = mx_pair_kernels_isa(t, MX_MIN, c->isa);
  p->both = mx_clip_kernel(t, c->isa);
  if (!p->max || !p->min)
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "dtype %s is not in this build", mx_dtype_name(t));
  p->esize = mx_dtype_size(t);
  p->count = mx_shape_count(&c->out[0]);
  p->attrs = c->row->since < 11;
  p->n_in = c->n_in;
  if (p->attrs) {
    attr_bound(c->node, "min", -FLT_MAX, t, p->lo);
    attr_bound(c->node, "max", FLT_MAX, t, p->hi);
  }
  return MINNX_OK;
}

typedef struct {
  const clip_params *p;
  const unsigned char *x, *lo, *hi; /* lo, hi: NULL for no bound */
  unsigned char *y;
} clip_ctx;

static void clip_task(void *ctx, size_t task) {
  const clip_ctx *m = ctx;
  int64_t t = (int64_t)task;
  const clip_params *p = m->p;
  int64_t end = (t + 1) * MX_CLIP_TASK < p->count ? (t + 1) * MX_CLIP_TASK : p->count;
  if (p->both && m->lo && m->hi) {
    p->both(m->y + (size_t)(t * MX_CLIP_TASK) * p->esize, m->x + (size_t)(t * MX_CLIP_TASK) * p->esize, m->lo, m->hi,
            end - t * MX_CLIP_TASK);
    return;
  }
  for (int64_t j = t * MX_CLIP_TASK; j < end; j += MX_CLIP_BLOCK) {
    int64_t n = end - j < MX_CLIP_BLOCK ? end - j : MX_CLIP_BLOCK;
    const unsigned char *x = m->x + (size_t)j * p->esize;
    unsigned char *y = m->y + (size_t)j * p->esize;
    if (m->lo) p->max->pair(y, x, MX_STREAM, m->lo, MX_SCALAR, n, 1, 0, 0);
    if (m->hi) p->min->pair(y, m->lo ? y : x, m->lo ? MX_CACHED : MX_STREAM, m->hi, MX_SCALAR, n, 1, 0, 0);
  }
}

static void clip_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const clip_params *p = params;
  clip_ctx m = {p, in[0], p->attrs ? p->lo : p->n_in > 1 ? in[1] : NULL, p->attrs ? p->hi : p->n_in > 2 ? in[2] : NULL,
                out[0]};
  if (!m.lo && !m.hi) { /* no bound: a copy */
    if (p->count) memcpy(out[0], in[0], (size_t)p->count * p->esize);
    return;
  }
  mx_parallel_for(x, clip_task, &m, (size_t)((p->count + MX_CLIP_TASK - 1) / MX_CLIP_TASK));
}

/* ---- the rows ---- */

#define CLIP12_TYPES (MX_FLOATS | MX_INTS)
static const mx_io clip1_in[] = {{.name = "input", .types = MX_FLOATS, .group = 1}, {0}};
static const mx_io clip11_in[] = {{.name = "input", .types = MX_FLOATS, .group = 1},
                                  {.name = "min", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL},
                                  {.name = "max", .types = MX_FLOATS, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io clip12_in[] = {{.name = "input", .types = CLIP12_TYPES, .group = 1},
                                  {.name = "min", .types = CLIP12_TYPES, .group = 1, .flags = MX_IO_OPTIONAL},
                                  {.name = "max", .types = CLIP12_TYPES, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io clip13_in[] = {{.name = "input", .types = MX_NUMERIC, .group = 1},
                                  {.name = "min", .types = MX_NUMERIC, .group = 1, .flags = MX_IO_OPTIONAL},
                                  {.name = "max", .types = MX_NUMERIC, .group = 1, .flags = MX_IO_OPTIONAL}, {0}};
static const mx_io clip_out[] = {{.name = "output", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_attr_spec clip1_attrs[] = {
    {"min", MX_ATTR_FLOAT}, {"max", MX_ATTR_FLOAT}, {"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};
static const mx_attr_spec clip6_attrs[] = {{"min", MX_ATTR_FLOAT}, {"max", MX_ATTR_FLOAT}, {NULL, 0}};

#define CLIP_ROW .out = clip_out, .infer = clip_infer, .params_size = clip_params_size, .prepare = clip_prepare, \
                 .eval = clip_eval
static const mx_op_row rows[] = {
    {CLIP_ROW, .since = 1, .in = clip1_in, .attrs = clip1_attrs},
    {CLIP_ROW, .since = 6, .in = clip1_in, .attrs = clip6_attrs},
    {CLIP_ROW, .since = 11, .in = clip11_in},
    {CLIP_ROW, .since = 12, .in = clip12_in},
    {CLIP_ROW, .since = 13, .in = clip13_in},
};
MX_OP_TABLE(Clip, "", rows);
