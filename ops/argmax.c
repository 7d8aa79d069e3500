/* ArgMax: the index of the largest element along one axis, as int64. NaN is
 * greater than every number; ties give the first index, or the last one with
 * select_last_index=1 (since version 12). */
#include <stddef.h>

#include "ops/half.h"
#include "ops/ops.h"

/* ---- infer ---- */

static int64_t attr_int(const mx_node *n, const char *name, int64_t dflt) {
  const mx_attr *a = mx_node_attr(n, name);
  return a ? a->i : dflt;
}

minnx_status mx_argmax_infer(const mx_infer_ctx *c, mx_shape *out, mx_dtype *out_dtype) {
  const mx_node *n = c->node;
  const mx_shape *in = c->in[0];
  const char *label = mx_node_label(c->g, n);
  int since = c->schema->since;
  int64_t axis = attr_int(n, "axis", 0);
  int64_t keepdims = attr_int(n, "keepdims", 1);
  int64_t last = attr_int(n, "select_last_index", 0);
  *out_dtype = MINNX_INT64;
  if (keepdims != 0 && keepdims != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute keepdims is %lld; it must be 0 or 1", label, since, (long long)keepdims);
  if (last != 0 && last != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute select_last_index is %lld; it must be 0 or 1", label, since, (long long)last);
  if (in->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int64_t r = in->rank;
  int64_t lo = (c->schema->rules & MX_RULE_NEGATIVE_AXIS) ? -r : 0;
  if (axis < lo || axis > r - 1 || r == 0)
    return mx_fail(c->err, MINNX_E_SHAPE, "node '%s' (ArgMax-%d): axis %lld is out of range [%lld, %lld] for an input of rank %lld",
                   label, since, (long long)axis, (long long)lo, (long long)(r - 1), (long long)r);
  if (axis < 0) axis += r;
  if (in->dims[axis] == 0)
    return mx_fail(c->err, MINNX_E_SHAPE, "node '%s' (ArgMax-%d): axis %lld has size 0, so there is no maximum", label, since, (long long)axis);
  out->rank = 0;
  for (int64_t d = 0; d < r; d++) {
    if (d == axis && !keepdims) continue;
    out->dims[out->rank++] = d == axis ? 1 : in->dims[d];
  }
  return MINNX_OK;
}

/* ---- kernels ---- */

/* The input as outer x n x inner: the index runs over n for each (outer, inner). */
typedef void (*argmax_fn)(const void *in, int64_t *out, int64_t outer, int64_t n, int64_t inner);

/* Whether x replaces the best so far: strictly greater keeps the first index,
 * greater-or-equal the last. NaN is greater than all numbers. */
#define F_FIRST(x, best) ((x) > (best) || ((x) != (x) && (best) == (best)))
#define F_LAST(x, best) ((x) >= (best) || (x) != (x))
#define I_FIRST(x, best) ((x) > (best))
#define I_LAST(x, best) ((x) >= (best))

/* float16/bfloat16 compare by a key where NaN ranks above +inf. */
#define F16_KEY(x) mx_f16_key(x)
#define BF16_KEY(x) mx_bf16_key(x)
#define SAME_KEY(x) (x)

/* Columns of `inner` are scanned in blocks so the running best stays in L1
 * while rows stream past. K is the compared key's type. */
#define ARGMAX_BLOCK 512
#define DEFINE_ARGMAX(name, T, K, KEY, BETTER)                                                  \
  static void name(const void *in_, int64_t *out, int64_t outer, int64_t n, int64_t inner) {     \
    const T *in = in_;                                                                          \
    K best[ARGMAX_BLOCK];                                                                       \
    int64_t idx[ARGMAX_BLOCK];                                                                  \
    for (int64_t o = 0; o < outer; o++) {                                                       \
      const T *base = in + o * n * inner;                                                       \
      for (int64_t j0 = 0; j0 < inner; j0 += ARGMAX_BLOCK) {                                    \
        int64_t m = inner - j0 < ARGMAX_BLOCK ? inner - j0 : ARGMAX_BLOCK;                      \
        for (int64_t j = 0; j < m; j++) {                                                       \
          best[j] = KEY(base[j0 + j]);                                                          \
          idx[j] = 0;                                                                           \
        }                                                                                       \
        for (int64_t k = 1; k < n; k++) {                                                       \
          const T *row = base + k * inner + j0;                                                 \
          for (int64_t j = 0; j < m; j++) {                                                     \
            K x = KEY(row[j]);                                                                  \
            if (BETTER(x, best[j])) {                                                           \
              best[j] = x;                                                                      \
              idx[j] = k;                                                                       \
            }                                                                                   \
          }                                                                                     \
        }                                                                                       \
        for (int64_t j = 0; j < m; j++) out[o * inner + j0 + j] = idx[j];                       \
      }                                                                                         \
    }                                                                                           \
  }

#define DEFINE_ARGMAX_PAIR(suffix, T, K, KEY, FIRST, LAST) \
  DEFINE_ARGMAX(argmax_first_##suffix, T, K, KEY, FIRST)  \
  DEFINE_ARGMAX(argmax_last_##suffix, T, K, KEY, LAST)

DEFINE_ARGMAX_PAIR(f32, float, float, SAME_KEY, F_FIRST, F_LAST)
DEFINE_ARGMAX_PAIR(f64, double, double, SAME_KEY, F_FIRST, F_LAST)
DEFINE_ARGMAX_PAIR(f16, uint16_t, int32_t, F16_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(bf16, uint16_t, int32_t, BF16_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(i8, int8_t, int8_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(i16, int16_t, int16_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(i32, int32_t, int32_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(i64, int64_t, int64_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(u8, uint8_t, uint8_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(u16, uint16_t, uint16_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(u32, uint32_t, uint32_t, SAME_KEY, I_FIRST, I_LAST)
DEFINE_ARGMAX_PAIR(u64, uint64_t, uint64_t, SAME_KEY, I_FIRST, I_LAST)

static argmax_fn argmax_for(mx_dtype t, int last) {
  static const struct {
    mx_dtype t;
    argmax_fn f[2];
  } table[] = {
      {MINNX_FLOAT, {argmax_first_f32, argmax_last_f32}},     {MINNX_DOUBLE, {argmax_first_f64, argmax_last_f64}},
      {MINNX_FLOAT16, {argmax_first_f16, argmax_last_f16}},   {MINNX_BFLOAT16, {argmax_first_bf16, argmax_last_bf16}},
      {MINNX_INT8, {argmax_first_i8, argmax_last_i8}},        {MINNX_INT16, {argmax_first_i16, argmax_last_i16}},
      {MINNX_INT32, {argmax_first_i32, argmax_last_i32}},     {MINNX_INT64, {argmax_first_i64, argmax_last_i64}},
      {MINNX_UINT8, {argmax_first_u8, argmax_last_u8}},       {MINNX_UINT16, {argmax_first_u16, argmax_last_u16}},
      {MINNX_UINT32, {argmax_first_u32, argmax_last_u32}},    {MINNX_UINT64, {argmax_first_u64, argmax_last_u64}},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].t == t) return table[i].f[last];
  return NULL; /* the schemas admit no other dtype */
}

typedef struct {
  argmax_fn fn;
  int64_t outer, n, inner;
} argmax_plan;

size_t mx_argmax_plan_size(int32_t n_inputs) {
  (void)n_inputs;
  return sizeof(argmax_plan);
}

void mx_argmax_prepare(const mx_prepare_ctx *c, void *plan) {
  argmax_plan *p = plan;
  const mx_shape *in = c->in[0];
  int64_t axis = attr_int(c->node, "axis", 0);
  if (axis < 0) axis += in->rank;
  p->fn = argmax_for(c->dtype, attr_int(c->node, "select_last_index", 0) != 0);
  p->outer = 1;
  p->inner = 1;
  for (int64_t d = 0; d < axis; d++) p->outer *= in->dims[d];
  for (int64_t d = axis + 1; d < in->rank; d++) p->inner *= in->dims[d];
  p->n = in->dims[axis];
}

void mx_argmax_eval(void *plan, const void *const *in, void *out) {
  argmax_plan *p = plan;
  p->fn(in[0], out, p->outer, p->n, p->inner);
}
