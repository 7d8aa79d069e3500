/* Cast (versions 1, 6, 9, 13, 19, 21) and CastLike (15, 19, 21): every pair
 * of minnx's numeric dtypes and bool, converted as convert.h states. What the
 * versions differ in, for minnx's dtypes: Cast-1 names the target dtype with a
 * string ("FLOAT"), later versions with its number; bfloat16 comes with
 * Cast-13. String (from 9), the float8 types (from 19) and int4/uint4 (from
 * 21) are types minnx does not hold: refused at load, naming the dtype.
 * `saturate` (19) concerns float8 only, so it is accepted and has no effect.
 * A constant input is converted at load (the output folded) by the same loop. */
#include <string.h>

#include "graph/dtype.h"
#include "graph/ir.h"
#include "ops/core/kernel.h"
#include "ops/tensor/convert.h"
#include "ops/core/op.h"

typedef struct {
  mx_convert_params conv;
  int64_t n; /* elements */
} cast_params;

/* The TensorProto DataType names, as Cast-1's `to` spells them (and, by
 * them, which numbers name a type at all). */
static const char *const type_names[] = {
    [1] = "FLOAT",           [2] = "UINT8",       [3] = "INT8",          [4] = "UINT16",
    [5] = "INT16",           [6] = "INT32",       [7] = "INT64",         [8] = "STRING",
    [9] = "BOOL",            [10] = "FLOAT16",    [11] = "DOUBLE",       [12] = "UINT32",
    [13] = "UINT64",         [14] = "COMPLEX64",  [15] = "COMPLEX128",   [16] = "BFLOAT16",
    [17] = "FLOAT8E4M3FN",   [18] = "FLOAT8E4M3FNUZ", [19] = "FLOAT8E5M2", [20] = "FLOAT8E5M2FNUZ",
    [21] = "UINT4",          [22] = "INT4",
};
#define N_TYPE_NAMES ((int64_t)(sizeof type_names / sizeof type_names[0]))

/* The dtypes minnx holds that a version allows. */
#define CAST_1_TYPES (MX_ALL_TYPES & ~MX_BIT(MINNX_BFLOAT16))
#define CAST_13_TYPES MX_ALL_TYPES

/* The checks every row shares, once the target dtype `to` is known: a type
 * minnx holds, allowed by the row, with a conversion in this build. */
static minnx_status check_target(mx_op_ctx *c, int64_t to, const char *how) {
  if (to <= 0 || to >= N_TYPE_NAMES || !type_names[to])
    return mx_op_fail(c, MINNX_E_MODEL, "%s is %lld, not a TensorProto data type", how, (long long)to);
  if (!mx_dtype_size((int)to))
    return mx_op_fail(c, MINNX_E_UNSUPPORTED, "%s is %s (%lld), a dtype minnx does not support", how,
                      mx_dtype_name((int)to), (long long)to);
  if (!(c->row->out[0].types & MX_BIT(to)))
    return mx_op_fail(c, MINNX_E_TYPE, "%s is %s, a dtype this version does not allow", how,
                      mx_dtype_name((int)to));
  mx_convert_params p;
  if (!mx_convert_choose_isa(&p, c->in_dtype[0], (int)to, c->isa))
    return mx_op_fail(c, MINNX_E_TYPE, "casting %s to %s: this build leaves one of them out (MINNX_DTYPES)",
                      mx_dtype_name(c->in_dtype[0]), mx_dtype_name((int)to));
  c->out_dtype[0] = (mx_dtype)to;
  c->out[0] = *c->in[0];
  void *bytes; /* a constant input (Cast of an initializer, as exporters write for Pad's pads): folded */
  if (!c->pool || !c->in_data[0] || mx_shape_count(c->in[0]) < 0) return MINNX_OK;
  minnx_status st = mx_fold_output(c, 0, &bytes);
  if (!st && bytes) mx_convert_run(&p, bytes, c->in_data[0], mx_shape_count(c->in[0]));
  return st;
}

/* Cast-1: `to` is the type's name. */
static minnx_status cast1_infer(mx_op_ctx *c) {
  const mx_attr *a = mx_node_attr(c->node, "to");
  if (!a) return mx_op_fail(c, MINNX_E_MODEL, "the required attribute 'to' is missing");
  for (int64_t t = 1; t < N_TYPE_NAMES; t++)
    if (type_names[t] && strcmp(a->s, type_names[t]) == 0) return check_target(c, t, "attribute 'to'");
  return mx_op_fail(c, MINNX_E_MODEL, "attribute 'to' is \"%s\", not the name of a TensorProto data type", a->s);
}

static minnx_status cast_infer(mx_op_ctx *c) {
  const mx_attr *a = mx_node_attr(c->node, "to");
  if (!a) return mx_op_fail(c, MINNX_E_MODEL, "the required attribute 'to' is missing");
  return check_target(c, a->i, "attribute 'to'");
}

/* CastLike: the target is the second input's dtype (its data is not read). */
static minnx_status castlike_infer(mx_op_ctx *c) { return check_target(c, c->in_dtype[1], "the target type"); }

static size_t cast_params_size(const mx_node *n) {
  (void)n;
  return sizeof(cast_params);
}

/* The conversion's loops are chosen here, once (convert.c): the templates
 * ops/tensor/convert_to_float.c.in and convert_from_float.c.in (the direct
 * pairs with float), convert_wide_float.c.in and convert_wide_int.c.in (every
 * other pair, through a wide value), instantiated by convert.kernels.cmake. */
static minnx_status cast_prepare(mx_op_ctx *c, void *params) {
  cast_params *p = params;
  p->n = mx_shape_count(&c->out[0]);
  if (!mx_convert_choose_isa(&p->conv, c->in_dtype[0], c->out_dtype[0], c->isa))
    return mx_op_fail(c, MINNX_E_TYPE, "no conversion from %s to %s in this build", mx_dtype_name(c->in_dtype[0]),
                      mx_dtype_name(c->out_dtype[0]));
  /* an output larger than the last-level cache: streaming stores, where the pair has them */
  if (p->conv.direct_stream && mx_streams_out((double)p->n * (double)p->conv.out_size))
    p->conv.direct = p->conv.direct_stream;
  return MINNX_OK;
}

/* Large tensors are converted in slices, as tasks (the slices convert
 * independently, so every thread count gives the same bytes). */
#define SLICE ((int64_t)1 << 16) /* elements */
typedef struct {
  const cast_params *p;
  const void *in;
  void *out;
} cast_job;

static void cast_slice(void *ctx, size_t t) {
  const cast_job *j = ctx;
  int64_t lo = (int64_t)t * SLICE, n = j->p->n - lo < SLICE ? j->p->n - lo : SLICE;
  mx_convert_run(&j->p->conv, (char *)j->out + lo * j->p->conv.out_size,
                 (const char *)j->in + lo * j->p->conv.in_size, n);
}

static void cast_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const cast_params *p = params;
  cast_job job = {p, in[0], out[0]};
  mx_parallel_for(x, cast_slice, &job, (size_t)((p->n + SLICE - 1) / SLICE));
}

#define IO(n, t, g) {.name = n, .types = t, .group = g}
static const mx_io cast1_in[] = {IO("input", CAST_1_TYPES, 0), {0}};
static const mx_io cast1_out[] = {IO("output", CAST_1_TYPES, 0), {0}};
static const mx_io cast13_in[] = {IO("input", CAST_13_TYPES, 0), {0}};
static const mx_io cast13_out[] = {IO("output", CAST_13_TYPES, 0), {0}};
static const mx_attr_spec cast1_attrs[] = {{"to", MX_ATTR_STRING}, {NULL, 0}};
static const mx_attr_spec cast6_attrs[] = {{"to", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec cast19_attrs[] = {{"to", MX_ATTR_INT}, {"saturate", MX_ATTR_INT}, {NULL, 0}};

#define CAST_OP .params_size = cast_params_size, .prepare = cast_prepare, .eval = cast_eval
static const mx_op_row cast_rows[] = {
    {.since = 1, .in = cast1_in, .out = cast1_out, .attrs = cast1_attrs, .infer = cast1_infer, CAST_OP},
    {.since = 6, .in = cast1_in, .out = cast1_out, .attrs = cast6_attrs, .infer = cast_infer, CAST_OP},
    {.since = 9, .in = cast1_in, .out = cast1_out, .attrs = cast6_attrs, .infer = cast_infer, CAST_OP},
    {.since = 13, .in = cast13_in, .out = cast13_out, .attrs = cast6_attrs, .infer = cast_infer, CAST_OP},
    {.since = 19, .in = cast13_in, .out = cast13_out, .attrs = cast19_attrs, .infer = cast_infer, CAST_OP},
    {.since = 21, .in = cast13_in, .out = cast13_out, .attrs = cast19_attrs, .infer = cast_infer, CAST_OP},
};
MX_OP_TABLE(Cast, "", cast_rows);

static const mx_io castlike_in[] = {IO("input", CAST_13_TYPES, 1), IO("target_type", CAST_13_TYPES, 2), {0}};
static const mx_io castlike_out[] = {IO("output", CAST_13_TYPES, 2), {0}};
static const mx_attr_spec castlike19_attrs[] = {{"saturate", MX_ATTR_INT}, {NULL, 0}};
static const mx_op_row castlike_rows[] = {
    {.since = 15, .in = castlike_in, .out = castlike_out, .infer = castlike_infer, CAST_OP},
    {.since = 19, .in = castlike_in, .out = castlike_out, .attrs = castlike19_attrs, .infer = castlike_infer, CAST_OP},
    {.since = 21, .in = castlike_in, .out = castlike_out, .attrs = castlike19_attrs, .infer = castlike_infer, CAST_OP},
};
MX_OP_TABLE(CastLike, "", castlike_rows);
