/* The sums' reference loops: the oracle the kernels are held to, bit for bit
 * (tests/fuzz/fuzz_diff.c). One element at a time, each output's set
 * enumerated in row-major order, element j into partial j mod 16, the fixed
 * tree, as sum.h says. Floats are computed in double and rounded to float32
 * after each operation when the dtype accumulates in float32 (the correctly
 * rounded float32 result of + - * /: double has more than 2 x 24 + 2 bits);
 * integers in uint64_t cut to their width. */
#include <string.h>

#include "ops/reduction/sum.h"

typedef struct {
  mx_dtype t;
  int narrow;  /* accumulates in float32 */
  int integer; /* bits of the integer dtype, 0 for floats */
  int sign;
} kind;

static kind kind_of(mx_dtype t) {
  kind k = {t, t == MINNX_FLOAT || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16, 0, 0};
  if (t == MINNX_INT32 || t == MINNX_UINT32) k.integer = 32;
  if (t == MINNX_INT64 || t == MINNX_UINT64) k.integer = 64;
  k.sign = t == MINNX_INT32 || t == MINNX_INT64;
  return k;
}

static double rnd(const kind *k, double v) { return k->narrow ? (double)(float)v : v; }
static uint64_t cut(const kind *k, uint64_t v) { return k->integer == 32 ? v & 0xffffffffu : v; }
static int64_t as_signed(const kind *k, uint64_t v) { return k->integer == 32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v; }

static double load_f(const kind *k, const void *x, int64_t i) {
  switch (k->t) {
    case MINNX_DOUBLE: return ((const double *)x)[i];
    case MINNX_FLOAT16: return mx_f16_to_f32(((const uint16_t *)x)[i]);
    case MINNX_BFLOAT16: return mx_bf16_to_f32(((const uint16_t *)x)[i]);
    default: return ((const float *)x)[i];
  }
}

static uint64_t load_i(const kind *k, const void *x, int64_t i) {
  switch (k->t) {
    case MINNX_INT32: return cut(k, (uint64_t)(int64_t)((const int32_t *)x)[i]);
    case MINNX_UINT32: return ((const uint32_t *)x)[i];
    default: return ((const uint64_t *)x)[i];
  }
}

static void store_f(const kind *k, void *y, int64_t i, double v) {
  switch (k->t) {
    case MINNX_DOUBLE: ((double *)y)[i] = v; break;
    case MINNX_FLOAT16: ((uint16_t *)y)[i] = mx_f32_to_f16((float)v); break;
    case MINNX_BFLOAT16: ((uint16_t *)y)[i] = mx_f32_to_bf16((float)v); break;
    default: ((float *)y)[i] = (float)v; break;
  }
}

static void store_i(const kind *k, void *y, int64_t i, uint64_t v) {
  if (k->integer == 32) {
    uint32_t u = (uint32_t)v;
    memcpy((uint32_t *)y + i, &u, 4);
  } else {
    memcpy((uint64_t *)y + i, &v, 8);
  }
}

static double ref_exp(const kind *k, double v) { return k->narrow ? mx_expf((float)v) : mx_exp64(v); }
static double ref_log(const kind *k, double v) { return k->narrow ? mx_logf((float)v) : mx_log64(v); }

/* A set: its base offset and reduced dims; at(j) is the offset of element j
 * of it in row-major order. */
typedef struct {
  int64_t base, n;
  int nd;
  int64_t dims[MX_MAX_RANK], steps[MX_MAX_RANK];
} set;

static int64_t at(const set *s, int64_t j) {
  int64_t off = s->base;
  for (int d = s->nd; d-- > 0;) {
    off += j % s->dims[d] * s->steps[d];
    j /= s->dims[d];
  }
  return off;
}

/* the largest of a set, NaN ignored (and infinities, `finite`); none: 0 */
static double set_max(const kind *k, const void *x, const set *st, int finite) {
  double m = -__builtin_inf();
  for (int64_t j = 0; j < st->n; j++) {
    double v = load_f(k, x, at(st, j));
    if (v > m && (!finite || v - v == 0)) m = v;
  }
  return m == -__builtin_inf() ? 0 : m;
}

/* the partials' tree over 16 doubles or integers */
static double tree_f(const kind *k, double *p, int prod) {
  for (int h = MX_SUM_LANES / 2; h >= 1; h /= 2)
    for (int l = 0; l < h; l++) p[l] = rnd(k, prod ? p[l] * p[l + h] : p[l] + p[l + h]);
  return p[0];
}

static uint64_t tree_i(const kind *k, uint64_t *p, int prod) {
  for (int h = MX_SUM_LANES / 2; h >= 1; h /= 2)
    for (int l = 0; l < h; l++) p[l] = cut(k, prod ? p[l] * p[l + h] : p[l] + p[l + h]);
  return p[0];
}

/* Elements [j0, j1) of the set st into the 16 partials p (already started):
 * element j into p[j mod 16], in order. */
static void partials_i(mx_sum_op op, const kind *k, const void *x, const set *st, int64_t j0, int64_t j1, uint64_t *p) {
  int prod = op == MX_SUM_PROD;
  for (int64_t j = j0; j < j1; j++) {
    uint64_t v = load_i(k, x, at(st, j));
    if (op == MX_SUM_L1 && k->sign && as_signed(k, v) < 0) v = cut(k, 0 - v);
    if (op == MX_SUM_SUMSQ || op == MX_SUM_L2) v = cut(k, v * v);
    p[j % MX_SUM_LANES] = cut(k, prod ? p[j % MX_SUM_LANES] * v : p[j % MX_SUM_LANES] + v);
  }
}

static void partials_f(mx_sum_op op, const kind *k, const void *x, const set *st, int64_t j0, int64_t j1, double m,
                       double *p) {
  int prod = op == MX_SUM_PROD;
  for (int64_t j = j0; j < j1; j++) {
    double v = load_f(k, x, at(st, j));
    if (op == MX_SUM_L1) v = __builtin_fabs(v);
    if (op == MX_SUM_SUMSQ || op == MX_SUM_L2) v = rnd(k, v * v);
    if (op == MX_SUM_LOGSUMEXP) v = ref_exp(k, rnd(k, v - m));
    double *q = &p[j % MX_SUM_LANES];
    *q = rnd(k, prod ? *q * v : *q + v);
  }
}

/* One output of a reduction, y[o], over the set st; piece > 0: in pieces of
 * that many elements, each with partials of its own, joined in order
 * (sum.h). */
static void one_output(mx_sum_op op, const kind *k, const void *x, const set *st, void *y, int64_t o, int64_t piece) {
  int64_t n = st->n, step = piece ? piece : (n ? n : 1);
  int prod = op == MX_SUM_PROD;
  if (k->integer) {
    uint64_t p[MX_SUM_LANES], q[MX_SUM_LANES];
    for (int l = 0; l < MX_SUM_LANES; l++) p[l] = prod;
    for (int64_t j0 = 0; j0 < n; j0 += step) {
      for (int l = 0; l < MX_SUM_LANES; l++) q[l] = prod;
      partials_i(op, k, x, st, j0, n - j0 < step ? n : j0 + step, q);
      for (int l = 0; l < MX_SUM_LANES; l++) p[l] = piece ? cut(k, prod ? p[l] * q[l] : p[l] + q[l]) : q[l];
    }
    uint64_t s = tree_i(k, p, prod);
    if (op == MX_SUM_MEAN && n == 0) s = 0;
    else if (op == MX_SUM_MEAN && k->sign) s = cut(k, (uint64_t)(as_signed(k, s) / n));
    else if (op == MX_SUM_MEAN) s = s / (uint64_t)n;
    int rest;
    if (op == MX_SUM_L2) s = k->sign && as_signed(k, s) < 0 ? 0 : mx_root_bits(s, 0, k->integer / 2, &rest);
    store_i(k, y, o, s);
    return;
  }
  double p[MX_SUM_LANES], q[MX_SUM_LANES], m = op == MX_SUM_LOGSUMEXP ? set_max(k, x, st, 1) : 0;
  for (int l = 0; l < MX_SUM_LANES; l++) p[l] = prod;
  for (int64_t j0 = 0; j0 < n; j0 += step) {
    for (int l = 0; l < MX_SUM_LANES; l++) q[l] = prod;
    partials_f(op, k, x, st, j0, n - j0 < step ? n : j0 + step, m, q);
    for (int l = 0; l < MX_SUM_LANES; l++) p[l] = piece ? rnd(k, prod ? p[l] * q[l] : p[l] + q[l]) : q[l];
  }
  double s = tree_f(k, p, prod);
  if (op == MX_SUM_MEAN) s = rnd(k, s / (double)n);
  if (op == MX_SUM_L2) s = k->narrow ? (double)mx_sum_sqrt_f32((float)s) : mx_sum_sqrt_f64(s);
  if (op == MX_SUM_LOGSUM) s = ref_log(k, s);
  if (op == MX_SUM_LOGSUMEXP) s = rnd(k, ref_log(k, s) + m);
  store_f(k, y, o, s);
}

void mx_sum_ref(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, const void *in, void *out) {
  mx_sum_ref_pieces(op, t, rank, dims, axes, in, out, MX_SUM_PIECE);
}

void mx_sum_ref_pieces(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, uint32_t axes, const void *in,
                       void *out, int64_t piece) {
  kind k = kind_of(t);
  int64_t steps[MX_MAX_RANK], n = 1, outs = 1;
  for (int d = rank; d-- > 0;) {
    steps[d] = d == rank - 1 ? 1 : steps[d + 1] * dims[d + 1];
    if (axes >> d & 1) n *= dims[d];
    else outs *= dims[d];
  }
  /* pieces: one output, its set the whole input, at least two pieces */
  if (op == MX_SUM_LOGSUMEXP || outs != 1 || n < 2 * piece) piece = 0;
  set st = {0, n, 0, {0}, {0}};
  for (int d = 0; d < rank; d++)
    if (axes >> d & 1) st.dims[st.nd] = dims[d], st.steps[st.nd++] = steps[d];
  int64_t ko[MX_MAX_RANK] = {0};
  for (int64_t o = 0; o < outs; o++) {
    st.base = 0;
    for (int d = 0; d < rank; d++) st.base += (axes >> d & 1) ? 0 : ko[d] * steps[d];
    one_output(op, &k, in, &st, out, o, piece);
    for (int d = rank; d-- > 0;)
      if (!(axes >> d & 1)) {
        if (++ko[d] < dims[d]) break;
        ko[d] = 0;
      }
  }
}

void mx_softmax_ref(mx_sum_op op, mx_dtype t, int rank, const int64_t *dims, int axis, int coerced, const void *in,
                    void *out) {
  kind k = kind_of(t);
  int64_t outer = 1, len = 1, inner = 1;
  for (int d = 0; d < rank; d++) *(d < axis ? &outer : d == axis || coerced ? &len : &inner) *= dims[d];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t u = 0; u < inner; u++) {
      double p[MX_SUM_LANES] = {0}, m = -__builtin_inf();
      int64_t base = o * len * inner + u;
      for (int64_t j = 0; j < len; j++) {
        double v = load_f(&k, in, base + j * inner);
        if (v > m) m = v;
      }
      if (m == -__builtin_inf()) m = 0;
      for (int64_t j = 0; j < len; j++)
        p[j % MX_SUM_LANES] = rnd(&k, p[j % MX_SUM_LANES] + ref_exp(&k, rnd(&k, load_f(&k, in, base + j * inner) - m)));
      double s = tree_f(&k, p, 0), ls = ref_log(&k, s);
      for (int64_t j = 0; j < len; j++) {
        double d = rnd(&k, load_f(&k, in, base + j * inner) - m);
        store_f(&k, out, base + j * inner, op == MX_SUM_LOGSOFTMAX ? rnd(&k, d - ls) : rnd(&k, ref_exp(&k, d) / s));
      }
    }
}
