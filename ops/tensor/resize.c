/* Resize and Upsample: each axis resized by a scale, the output element
 * interpolated from the input's (the rules and the order of the arithmetic:
 * resize.h; the kernel, which is its reference loop too: resize_ref.c).
 * Upsample 7 (scales an attribute, each >= 1; mode nearest or linear), 9
 * (scales the input), deprecated from 10 (refused: Resize replaces it);
 * Resize 10 (the input scales; nearest or linear, asymmetric), 11 (roi,
 * scales, sizes; cubic, coordinate_transformation_mode, nearest_mode,
 * cubic_coeff_a, exclude_outside, extrapolation_value), 13 (roi and scales
 * optional, bfloat16), 18 (antialias, axes, keep_aspect_ratio_policy;
 * tf_half_pixel_for_nn gone), 19 (half_pixel_symmetric). Of scales and sizes
 * exactly one is given (an empty tensor counts as absent), with one entry
 * per axis (per axis `axes` lists); scales are > 0 and finite, sizes >= 0;
 * tf_crop_and_resize takes roi, [start..., end...] per axis. Every dtype:
 * nearest copies elements; linear and cubic compute in double (not bool).
 * scales, sizes and roi fix the output's shape: constant ones at load, a
 * graph input's when it is bound; a bad one is refused then, naming the
 * node. */
#include <string.h>

#include "ops/core/half.h"
#include "ops/tensor/resize.h"

#define NO_BF16 (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))
#define ROI_TYPES (MX_BIT(MINNX_FLOAT16) | MX_BIT(MINNX_FLOAT) | MX_BIT(MINNX_DOUBLE))

static const char *const mode_names[] = {"nearest", "linear", "cubic"};
static const char *const coord_names[] = {"half_pixel",    "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
                                          "asymmetric",    "tf_half_pixel_for_nn", "tf_crop_and_resize"};
static const char *const nearest_names[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};

/* The index of attribute `name`'s string among names[0..n), dflt when the
 * node lacks it, -1 when it is none of them (*given: its text). */
static int named(const mx_node *node, const char *name, const char *const *names, int n, int dflt, const char **given) {
  const mx_attr *a = mx_node_attr(node, name);
  *given = a ? a->s : "";
  if (!a) return dflt;
  for (int k = 0; k < n; k++)
    if (strcmp(a->s, names[k]) == 0) return k;
  return -1;
}

/* Input k as doubles (at most max): 0 absent or empty, 1 read (*n of
 * them), 2 known only once bound, -1 refused (1-D, at most max entries). */
static int float_input(mx_op_ctx *c, int k, const char *name, double *v, int64_t max, int64_t *n, minnx_status *st) {
  *n = 0;
  if (k >= c->n_in || !c->in[k]) return 0;
  const mx_shape *s = c->in[k];
  if (s->rank >= 0 && s->rank != 1) {
    *st = mx_op_fail(c, MINNX_E_SHAPE, "input '%s' has rank %d; it must be 1-D", name, s->rank);
    return -1;
  }
  if (s->rank < 0 || s->dims[0] < 0 || !c->in_data[k]) return s->rank == 1 && s->dims[0] == 0 ? 0 : 2;
  *n = s->dims[0];
  if (*n == 0) return 0;
  if (*n > max) {
    *st = mx_op_fail(c, MINNX_E_SHAPE, "input '%s' has %lld entries; at most %lld fit X", name, (long long)*n, (long long)max);
    return -1;
  }
  for (int64_t i = 0; i < *n; i++) {
    switch (c->in_dtype[k]) {
      case MINNX_FLOAT: v[i] = ((const float *)c->in_data[k])[i]; break;
      case MINNX_DOUBLE: v[i] = ((const double *)c->in_data[k])[i]; break;
      case MINNX_INT64: v[i] = (double)((const int64_t *)c->in_data[k])[i]; break;
      default: v[i] = mx_f16_to_f32(((const uint16_t *)c->in_data[k])[i]); break; /* float16 */
    }
  }
  return 1;
}

static int64_t floor_to_i64(double v) {
  int64_t i = (int64_t)v;
  return (double)i > v ? i - 1 : i;
}

/* The attributes into p (modes, cubic_coeff_a, extrapolation_value,
 * exclude_outside, antialias) and keep_aspect_ratio_policy's index. */
static minnx_status resize_attrs(mx_op_ctx *c, mx_resize_params *p, int since, int *policy_out) {
  const char *given;
  memset(p, 0, sizeof *p);
  p->dtype = c->in_dtype[0];
  p->elem = mx_dtype_size(p->dtype);
  p->mode = named(c->node, "mode", mode_names, since >= 11 ? 3 : 2, MX_RESIZE_NEAREST, &given);
  if (p->mode < 0)
    return mx_op_fail(c, MINNX_E_MODEL, "mode '%s' is not one of nearest, linear%s", given, since >= 11 ? ", cubic" : "");
  p->coord = MX_RESIZE_ASYMMETRIC, p->nearest = MX_RESIZE_LEGACY, p->cubic_a = -0.75;
  if (since >= 11) {
    p->coord = named(c->node, "coordinate_transformation_mode", coord_names, 7, MX_RESIZE_HALF_PIXEL, &given);
    if (p->coord < 0 || (p->coord == MX_RESIZE_HALF_PIXEL_SYMMETRIC && since < 19) ||
        (p->coord == MX_RESIZE_TF_HALF_PIXEL_FOR_NN && since >= 18))
      return mx_op_fail(c, MINNX_E_MODEL, "coordinate_transformation_mode '%s' is not one this version has", given);
    p->nearest = named(c->node, "nearest_mode", nearest_names, 4, MX_RESIZE_ROUND_PREFER_FLOOR, &given);
    if (p->nearest < 0)
      return mx_op_fail(c, MINNX_E_MODEL, "nearest_mode '%s' is not one of round_prefer_floor, round_prefer_ceil, floor, ceil",
                        given);
    const mx_attr *a = mx_node_attr(c->node, "cubic_coeff_a");
    p->cubic_a = a ? a->f : -0.75f;
    a = mx_node_attr(c->node, "extrapolation_value");
    p->extrapolation = a ? a->f : 0.0f;
    int64_t ex = mx_attr_int(c->node, "exclude_outside", 0), aa = mx_attr_int(c->node, "antialias", 0);
    if ((ex != 0 && ex != 1) || (aa != 0 && aa != 1))
      return mx_op_fail(c, MINNX_E_MODEL, "exclude_outside and antialias are 0 or 1 (given %lld, %lld)", (long long)ex,
                        (long long)aa);
    p->exclude_outside = (int)ex;
    p->antialias = p->mode != MX_RESIZE_NEAREST && aa; /* linear and cubic only, the spec says */
  }
  static const char *const policies[] = {"stretch", "not_larger", "not_smaller"};
  int policy = *policy_out = named(c->node, "keep_aspect_ratio_policy", policies, 3, 0, &given);
  if (policy < 0)
    return mx_op_fail(c, MINNX_E_MODEL, "keep_aspect_ratio_policy '%s' is not one of stretch, not_larger, not_smaller", given);
  if (p->dtype == MINNX_BOOL && p->mode != MX_RESIZE_NEAREST)
    return mx_op_fail(c, MINNX_E_TYPE, "mode %s interpolates: its dtype cannot be bool", mode_names[p->mode]);
  return MINNX_OK;
}

/* The resized axes (from 18 the `axes` attribute; else every axis), in order. */
static minnx_status resize_axes(mx_op_ctx *c, int rank, int *axes, int *n_out) {
  int n_axes = rank;
  for (int d = 0; d < rank; d++) axes[d] = d;
  const mx_attr *ax = mx_node_attr(c->node, "axes");
  if (ax) {
    if (ax->n > (size_t)rank)
      return mx_op_fail(c, MINNX_E_SHAPE, "axes lists %zu axes; X has rank %d", ax->n, rank);
    unsigned seen = 0;
    n_axes = (int)ax->n;
    for (int i = 0; i < n_axes; i++) {
      int64_t d = mx_axis(c, ax->ints[i], rank);
      if (d < 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is out of range for X of rank %d", (long long)ax->ints[i], rank);
      if (seen >> d & 1) return mx_op_fail(c, MINNX_E_SHAPE, "axis %lld is listed twice", (long long)d);
      seen |= 1u << d;
      axes[i] = (int)d;
    }
  }
  *n_out = n_axes;
  return MINNX_OK;
}

/* The output's shape, and where each axis's taps start in the tables (when
 * every dim is known). */
static minnx_status resize_tables(mx_op_ctx *c, mx_resize_params *p, int rank, int known) {
  mx_shape *out = &c->out[0];
  out->rank = rank;
  size_t total = 0;
  for (int d = 0; d < rank; d++) {
    out->dims[d] = p->out_dims[d];
    if (!known) continue;
    int64_t k = p->taps[d] ? p->taps[d] : 1;
    if ((uint64_t)p->out_dims[d] > (SIZE_MAX / sizeof(mx_resize_tap) - total) / (uint64_t)k)
      return mx_op_fail(c, MINNX_E_LIMIT, "the interpolation tables overflow the address space");
    p->table[d] = total;
    total += (size_t)p->out_dims[d] * (size_t)k;
  }
  p->n_taps = total;
  if (mx_shape_count(out) == -2) return mx_op_fail(c, MINNX_E_LIMIT, "the output's element count overflows int64");
  return MINNX_OK;
}

/* The params from the node (ready = 0: the shape waits for a bound input). */
static minnx_status resize_resolve(mx_op_ctx *c, mx_resize_params *p, int *ready) {
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  *out = (mx_shape){.rank = -1};
  *ready = 0;
  int since = c->row->since, upsample = strcmp(c->node->op_type, "Upsample") == 0;
  if (upsample && since >= 10)
    return mx_op_fail(c, MINNX_E_MODEL, "Upsample is deprecated from opset 10 (Resize replaces it)");
  int policy = 0;
  minnx_status st = resize_attrs(c, p, since, &policy);
  if (st) return st;
  if (in->rank < 0) return MINNX_OK;
  int rank = in->rank;
  if (rank == 0) return mx_op_fail(c, MINNX_E_SHAPE, "X is a scalar; Resize takes a tensor of rank >= 1");
  p->rank = rank;

  int axes[MX_MAX_RANK], n_axes = 0;
  if ((st = resize_axes(c, rank, axes, &n_axes))) return st;

  double scales[MX_MAX_RANK], sizes[MX_MAX_RANK], roi[2 * MX_MAX_RANK];
  int64_t n_scales = 0, n_sizes = 0, n_roi = 0;
  int hs, hz = 0, hr = 0;
  if (upsample && since < 9) {
    const mx_attr *a = mx_node_attr(c->node, "scales");
    if (!a) return mx_op_fail(c, MINNX_E_MODEL, "attribute 'scales' is required");
    if (a->n > MX_MAX_RANK)
      return mx_op_fail(c, MINNX_E_SHAPE, "scales has %zu entries; X has rank %d (one per axis)", a->n, rank);
    n_scales = (int64_t)a->n;
    for (int64_t i = 0; i < n_scales; i++) scales[i] = a->floats[i];
    hs = n_scales > 0;
  } else {
    hs = float_input(c, since >= 11 ? 2 : 1, "scales", scales, MX_MAX_RANK, &n_scales, &st);
    if (since >= 11) hz = float_input(c, 3, "sizes", sizes, MX_MAX_RANK, &n_sizes, &st);
  }
  if (hs < 0 || hz < 0) return st;
  if (hs == 1 && hz == 1) return mx_op_fail(c, MINNX_E_SHAPE, "scales and sizes are both given; only one of them may be");
  if (hs == 0 && hz == 0) return mx_op_fail(c, MINNX_E_SHAPE, "neither scales nor sizes is given (one of them must be)");
  if (p->coord == MX_RESIZE_TF_CROP_AND_RESIZE) {
    hr = float_input(c, 1, "roi", roi, 2 * MX_MAX_RANK, &n_roi, &st);
    if (hr < 0) return st;
    if (hr == 0) return mx_op_fail(c, MINNX_E_SHAPE, "tf_crop_and_resize needs roi; none is given");
  }
  if (hs == 2 || hz == 2 || hr == 2) return MINNX_OK; /* known once bound */
  int64_t n_given = hs ? n_scales : n_sizes;
  if (n_given != n_axes)
    return mx_op_fail(c, MINNX_E_SHAPE, "%s has %lld entries; it needs one per axis (%d)", hs ? "scales" : "sizes",
                      (long long)n_given, n_axes);
  if (hr && n_roi != 2 * n_axes)
    return mx_op_fail(c, MINNX_E_SHAPE, "roi has %lld entries; tf_crop_and_resize needs 2 per axis (%d)", (long long)n_roi,
                      2 * n_axes);
  for (int d = 0; d < rank; d++) {
    p->in_dims[d] = p->out_dims[d] = in->dims[d];
    p->scale[d] = 1.0, p->length[d] = (double)in->dims[d], p->roi_start[d] = 0.0, p->roi_end[d] = 1.0;
  }
  double keep = 0.0; /* not_larger / not_smaller: the one scale */
  for (int i = 0; i < n_axes && hz && policy; i++) {
    int64_t n = in->dims[axes[i]];
    if (n < 0) return MINNX_OK; /* known once bound */
    if (n == 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %d is empty; keep_aspect_ratio_policy cannot scale it", axes[i]);
    if (sizes[i] < 0) /* before the scale it gives (the checks below come after) */
      return mx_op_fail(c, MINNX_E_SHAPE, "sizes[%d] is %lld; sizes are >= 0 (and below 2^62)", i, (long long)sizes[i]);
    double s = sizes[i] / (double)n;
    if (i == 0 || (policy == 1 ? s < keep : s > keep)) keep = s;
  }
  int known = 1;
  for (int i = 0; i < n_axes; i++) {
    int d = axes[i];
    int64_t n = in->dims[d];
    double a = hr ? roi[i] : 0.0, b = hr ? roi[i + n_axes] : 1.0, s = 1.0;
    p->roi_start[d] = a, p->roi_end[d] = b;
    if (hs) {
      s = scales[i];
      if (!(s > 0) || s - s != 0)
        return mx_op_fail(c, MINNX_E_SHAPE, "scales[%d] is %g; scales are > 0 and finite", i, s);
      if (upsample && s < 1) return mx_op_fail(c, MINNX_E_SHAPE, "scales[%d] is %g; Upsample's scales are >= 1", i, s);
    } else if (sizes[i] < 0 || sizes[i] > 4611686018427387904.0) {
      /* printed as a double: INT64_MAX's double (2^63) has no long long */
      return mx_op_fail(c, MINNX_E_SHAPE, "sizes[%d] is %.0f; sizes are >= 0 (and below 2^62)", i, sizes[i]);
    }
    if (n < 0) {
      known = 0;
      p->out_dims[d] = hz && !policy ? (int64_t)sizes[i] : -1;
      continue;
    }
    int64_t o;
    double L;
    if (hs) {
      L = p->coord == MX_RESIZE_TF_CROP_AND_RESIZE ? (double)n * (b - a) * s : (double)n * s;
      if (!(L < 4611686018427387904.0))
        return mx_op_fail(c, MINNX_E_LIMIT, "axis %d: %lld x %g overflows int64", d, (long long)n, s);
      o = L > 0 ? floor_to_i64(L) : 0;
    } else {
      if (policy && !(keep * (double)n + 0.5 < 4611686018427387904.0))
        return mx_op_fail(c, MINNX_E_LIMIT, "axis %d: %lld x %g overflows int64", d, (long long)n, keep);
      o = policy ? (int64_t)(keep * (double)n + 0.5) : (int64_t)sizes[i];
      s = policy ? keep : (n ? (double)o / (double)n : 1.0);
      L = (double)n * s;
    }
    if (n == 0 && o > 0) return mx_op_fail(c, MINNX_E_SHAPE, "axis %d is empty; it cannot be resized to %lld", d, (long long)o);
    p->out_dims[d] = o, p->scale[d] = s, p->length[d] = L;
    if (p->antialias && s < 1 && !((p->mode == MX_RESIZE_LINEAR ? -1 / s : -2 / s) > -1048576.0))
      return mx_op_fail(c, MINNX_E_LIMIT, "axis %d: antialias at scale %g needs more than 2^21 taps per element", d, s);
    p->taps[d] = mx_resize_taps(p->mode, p->antialias, s);
  }
  if ((st = resize_tables(c, p, rank, known))) return st;
  *ready = known && mx_shape_count(out) >= 0;
  return MINNX_OK;
}

static minnx_status resize_infer(mx_op_ctx *c) {
  mx_resize_params p;
  int ready;
  return resize_resolve(c, &p, &ready);
}

static size_t resize_params_size(const mx_node *n) {
  (void)n;
  return sizeof(mx_resize_params);
}

static minnx_status resize_prepare(mx_op_ctx *c, void *params) {
  mx_resize_params *p = params;
  int ready;
  minnx_status st = resize_resolve(c, p, &ready);
  if (!st) c->scratch = p->n_taps * sizeof(mx_resize_tap);
  return st;
}

typedef struct {
  const mx_resize_params *p;
  const mx_resize_tap *tabs;
  const void *in;
  void *out;
  int64_t count, tasks;
} resize_task;

static void resize_part(void *ctx, size_t i) {
  const resize_task *t = ctx;
  mx_resize_ref(t->p, t->tabs, t->in, t->out, t->count * (int64_t)i / t->tasks, t->count * ((int64_t)i + 1) / t->tasks);
}

void mx_resize_run(const mx_resize_params *p, const mx_exec *x, const void *in, void *out) {
  int64_t count = 1;
  for (int d = 0; d < p->rank; d++) count *= p->out_dims[d];
  if (count == 0) return;
  mx_resize_tables(p, x->scratch);
  /* a task per 64 KiB of output by the element's cost: its taps */
  int64_t cost = 1;
  for (int d = 0; d < p->rank; d++) cost *= p->taps[d] ? p->taps[d] : 1;
  int64_t by_size = (int64_t)((double)count * (double)p->elem * (double)cost / (64.0 * 1024.0));
  resize_task t = {p, x->scratch, in, out, count, by_size < 1 ? 1 : by_size > 256 ? 256 : by_size};
  if (t.tasks > count) t.tasks = count;
  if (t.tasks == 1) resize_part(&t, 0);
  else mx_parallel_for(x, resize_part, &t, (size_t)t.tasks);
}

static void resize_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  mx_resize_run(params, x, in[0], out[0]);
}

#define F32 MX_BIT(MINNX_FLOAT)
#define I64 MX_BIT(MINNX_INT64)
#define OPT (MX_IO_CONST | MX_IO_OPTIONAL)
static const mx_io up7_in[] = {{.name = "X", .types = NO_BF16, .group = 1}, {0}};
static const mx_io up9_in[] = {{.name = "X", .types = NO_BF16, .group = 1},
                               {.name = "scales", .types = F32, .flags = MX_IO_CONST}, {0}};
static const mx_io out_nb[] = {{.name = "Y", .types = NO_BF16, .group = 1}, {0}};
static const mx_io out_all[] = {{.name = "Y", .types = MX_ALL_TYPES, .group = 1}, {0}};
static const mx_io in11[] = {{.name = "X", .types = NO_BF16, .group = 1},
                             {.name = "roi", .types = ROI_TYPES, .flags = MX_IO_CONST},
                             {.name = "scales", .types = F32, .flags = MX_IO_CONST},
                             {.name = "sizes", .types = I64, .flags = OPT}, {0}};
static const mx_io in13[] = {{.name = "X", .types = MX_ALL_TYPES, .group = 1},
                             {.name = "roi", .types = ROI_TYPES, .flags = OPT},
                             {.name = "scales", .types = F32, .flags = OPT},
                             {.name = "sizes", .types = I64, .flags = OPT}, {0}};
static const mx_attr_spec up7_attrs[] = {{"mode", MX_ATTR_STRING}, {"scales", MX_ATTR_FLOATS}, {NULL, 0}};
static const mx_attr_spec up9_attrs[] = {{"mode", MX_ATTR_STRING}, {NULL, 0}};
static const mx_attr_spec attrs11[] = {{"mode", MX_ATTR_STRING},
                                       {"coordinate_transformation_mode", MX_ATTR_STRING},
                                       {"nearest_mode", MX_ATTR_STRING},
                                       {"cubic_coeff_a", MX_ATTR_FLOAT},
                                       {"exclude_outside", MX_ATTR_INT},
                                       {"extrapolation_value", MX_ATTR_FLOAT},
                                       {NULL, 0}};
static const mx_attr_spec attrs18[] = {{"mode", MX_ATTR_STRING},
                                       {"coordinate_transformation_mode", MX_ATTR_STRING},
                                       {"nearest_mode", MX_ATTR_STRING},
                                       {"cubic_coeff_a", MX_ATTR_FLOAT},
                                       {"exclude_outside", MX_ATTR_INT},
                                       {"extrapolation_value", MX_ATTR_FLOAT},
                                       {"antialias", MX_ATTR_INT},
                                       {"axes", MX_ATTR_INTS},
                                       {"keep_aspect_ratio_policy", MX_ATTR_STRING},
                                       {NULL, 0}};

#define ROW .infer = resize_infer, .params_size = resize_params_size, .prepare = resize_prepare, .eval = resize_eval
static const mx_op_row rows[] = {
    {ROW, .since = 10, .in = up9_in, .out = out_nb, .attrs = up9_attrs, .inexact = 1},
    {ROW, .since = 11, .in = in11, .out = out_nb, .attrs = attrs11, .inexact = 1},
    {ROW, .since = 13, .in = in13, .out = out_all, .attrs = attrs11, .inexact = 1},
    {ROW, .since = 18, .in = in13, .out = out_all, .attrs = attrs18, .inexact = 1, .rules = MX_RULE_NEGATIVE_AXIS},
    {ROW, .since = 19, .in = in13, .out = out_all, .attrs = attrs18, .inexact = 1, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(Resize, "", rows);

static const mx_op_row up_rows[] = {
    {ROW, .since = 7, .in = up7_in, .out = out_nb, .attrs = up7_attrs, .inexact = 1},
    {ROW, .since = 9, .in = up9_in, .out = out_nb, .attrs = up9_attrs, .inexact = 1},
    {ROW, .since = 10, .in = up9_in, .out = out_nb, .attrs = up9_attrs, .inexact = 1},
};
MX_OP_TABLE(Upsample, "", up_rows);
