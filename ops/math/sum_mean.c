/* Sum and Mean of 1..N inputs, every version: 1 (consumed_inputs), 6 (one
 * shape for all inputs), 8 (numpy's multidirectional broadcasting), 13
 * (bfloat16). The order and the rounding are ops/math/sum_mean.h's: each
 * output element folds its inputs left to right, Mean divides once. float
 * and double fold with Add's kernel into the output itself and divide with
 * Div's (ops/math/binary.c.in); float16 and bfloat16 accumulate a block at
 * a time in float32 on the stack (ops/math/sum_mean.c.in), so nothing is
 * allocated and a block stays in L1 while every input is folded in. */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/core/broadcast.h"
#include "ops/core/kernel.h"
#include "ops/math/binary.h"
#include "ops/math/sum_mean.h"

/* ---- infer ---- */

static minnx_status sum_infer(mx_op_ctx *c) { return mx_elementwise_shape(c, (c->row->rules & MX_RULE_BROADCAST) != 0); }

/* ---- prepare and eval ---- */

/* A block of the output folds every input before the next block: float and
 * double in the output (BLOCK elements), the 16-bit floats in a float32
 * block on the stack (HALF_BLOCK: 256 bytes). */
#define BLOCK 2048
#define HALF_BLOCK 64

typedef struct {
  mx_binary_fn add, div;               /* float, double */
  const struct mx_sum_mean_set *half;  /* float16, bfloat16 */
  int mean;
  size_t esize;
  double divisor_f64; /* N, for Mean's division */
  float divisor_f32;
  mx_bplan bp; /* last: its strides follow */
} sum_params;

static size_t sum_params_size(const mx_node *n) { return offsetof(sum_params, bp) + mx_bplan_size(n->n_inputs); }

extern const mx_kernel_row mx_sum_mean_rows[];
extern const size_t mx_sum_mean_n_rows;

static minnx_status sum_prepare(mx_op_ctx *c, void *params) {
  sum_params *p = params;
  mx_dtype t = c->in_dtype[0];
  memset(p, 0, offsetof(sum_params, bp));
  p->mean = strcmp(c->node->op_type, "Mean") == 0;
  p->esize = mx_dtype_size(t);
  p->divisor_f64 = (double)c->node->n_inputs;
  p->divisor_f32 = (float)c->node->n_inputs;
  int ok;
  if (t == MINNX_FLOAT16 || t == MINNX_BFLOAT16) {
    p->half = mx_kernel_find(mx_sum_mean_rows, mx_sum_mean_n_rows, t, c->isa);
    ok = p->half != NULL;
  } else {
    p->add = mx_binary_kernel(t, MX_ADD, c->isa);
    p->div = mx_binary_kernel(t, MX_DIV, c->isa);
    ok = p->add && p->div;
  }
  if (!ok) return mx_op_fail(c, MINNX_E_UNSUPPORTED, "%s is not implemented for %s", c->node->op_type, mx_dtype_name(t));
  mx_bplan_init(&p->bp, c->in, c->node->n_inputs, c->out);
  return MINNX_OK;
}

typedef struct {
  const sum_params *p;
  const unsigned char *const *in;
  unsigned char *out;
} sum_run;

/* Input k at element j of row `row` of the tile whose offsets are in_off;
 * *step: whether it steps along the row (else one value). */
static const unsigned char *input_at(const sum_run *r, int32_t k, const int64_t *in_off, int64_t row, int64_t j,
                                     int *step) {
  const int64_t *s = mx_bplan_strides(&r->p->bp, k);
  int rank = r->p->bp.rank;
  *step = s[rank - 1] != 0;
  return r->in[k] + (size_t)(in_off[k] + row * (rank > 1 ? s[rank - 2] : 0) + j * s[rank - 1]) * r->p->esize;
}

/* Output elements o[0..blk) (element j of row `row`) from every input, in order. */
static void fold_block(const sum_run *r, unsigned char *o, const int64_t *in_off, int64_t row, int64_t j,
                       int64_t blk) {
  const sum_params *p = r->p;
  const int32_t n = p->bp.n_in;
  int sa, sb;
  const unsigned char *a = input_at(r, 0, in_off, row, j, &sa), *b = input_at(r, 1, in_off, row, j, &sb);
  if (p->half) {
    float acc[HALF_BLOCK];
    p->half->first(acc, a, sa, b, sb, blk);
    for (int32_t k = 2; k < n; k++) {
      const unsigned char *x = input_at(r, k, in_off, row, j, &sb); /* before sb is read */
      p->half->more(acc, x, sb, blk);
    }
    if (p->mean) p->half->mean(o, acc, p->divisor_f32, blk);
    else p->half->sum(o, acc, blk);
    return;
  }
  p->add(o, a, sa, b, sb, blk, 1, 0, 0);
  for (int32_t k = 2; k < n; k++) {
    const unsigned char *x = input_at(r, k, in_off, row, j, &sb);
    p->add(o, o, 1, x, sb, blk, 1, 0, 0); /* out may be an operand */
  }
  if (p->mean)
    p->div(o, o, 1, p->esize == 8 ? (const void *)&p->divisor_f64 : (const void *)&p->divisor_f32, 0, blk, 1, 0, 0);
}

static void sum_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const sum_run *r = ctx;
  int64_t block = r->p->half ? HALF_BLOCK : BLOCK;
  for (int64_t row = 0; row < rows; row++)
    for (int64_t j = 0; j < len; j += block)
      fold_block(r, r->out + (size_t)(out_off + row * len + j) * r->p->esize, in_off, row, j,
                 len - j < block ? len - j : block);
}

static void sum_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const sum_params *p = params;
  if (p->bp.n_in == 1) { /* the output is the input: its shape, its bits */
    if (p->bp.count) memcpy(out[0], in[0], (size_t)p->bp.count * p->esize);
    return;
  }
  sum_run r = {p, (const unsigned char *const *)in, out[0]};
  mx_bplan_walk_x(&p->bp, x, p->esize, sum_tile, &r); /* in tasks when large and the session has threads */
}

/* ---- the rows ---- */

static const mx_io in_floats[] = {{.name = "data_0", .types = MX_FLOATS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io in13[] = {
    {.name = "data_0", .types = MX_FLOATS | MX_BIT(MINNX_BFLOAT16), .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io sum_out[] = {{.name = "sum", .types = MX_FLOATS | MX_BIT(MINNX_BFLOAT16), .group = 1}, {0}};
static const mx_io mean_out[] = {{.name = "mean", .types = MX_FLOATS | MX_BIT(MINNX_BFLOAT16), .group = 1}, {0}};
static const mx_attr_spec attrs1[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};

/* inexact: more than two inputs depend on the order (README, "Numbers") */
#define ROW(o) .out = o, .inexact = 1, .infer = sum_infer, .params_size = sum_params_size, .prepare = sum_prepare, \
               .eval = sum_eval
#define ROWS(o)                                                             \
  {{ROW(o), .since = 1, .in = in_floats, .attrs = attrs1},                  \
   {ROW(o), .since = 6, .in = in_floats},                                   \
   {ROW(o), .since = 8, .in = in_floats, .rules = MX_RULE_BROADCAST},       \
   {ROW(o), .since = 13, .in = in13, .rules = MX_RULE_BROADCAST}}
static const mx_op_row sum_rows[] = ROWS(sum_out);
static const mx_op_row mean_rows[] = ROWS(mean_out);
MX_OP_TABLE(Sum, "", sum_rows);
MX_OP_TABLE(Mean, "", mean_rows);
