/* Elementwise maximum of 1..N inputs: ONNX Max (every version) and, through
 * maximum.c, OpenVINO Maximum-1. NaN anywhere gives NaN; +0 and -0 are equal. */
#include <stddef.h>
#include <string.h>

#include "graph/shape.h"
#include "ops/broadcast.h"
#include "ops/half.h"
#include "ops/kernel.h"
#include "ops/ops.h"

/* How an operand steps through a row: not at all (one value for the row),
 * or one element at a time through data read once (read it ahead) or through
 * data in cache (a row that the tile reads again, the block being folded:
 * reading ahead of it would fetch bytes past its end for nothing). */
enum { MX_SCALAR = 0, MX_STREAM = 1, MX_CACHED = 2 };

/* For each of `rows` rows of n elements: out[i] = max(a[i or 0], b[i or 0]) as
 * sa, sb say, then out steps by n, a by da and b by db elements. out may be
 * a. Looping over rows in here keeps a short row's cost to its loop. */
typedef void (*max2_fn)(void *out, const void *a, int sa, const void *b, int sb, int64_t n, int64_t rows, int64_t da,
                        int64_t db);

/* Floats: a > b ? a : b and b > a ? b : a are both the max without NaN (or
 * the two zeros, whose OR is -0, equal to both), and hold the NaN when b or a
 * is one; OR-ing their bits gives the max, or a NaN if either is NaN. Two
 * compare-selects that vectorize to one instruction each, and an OR. */
#define DEFINE_FMAX(name, T, U)                      \
  static inline T name(T a, T b) {                   \
    T hi = a > b ? a : b, lo = b > a ? b : a;        \
    U x, y;                                          \
    memcpy(&x, &hi, sizeof x);                       \
    memcpy(&y, &lo, sizeof y);                       \
    x |= y;                                          \
    memcpy(&hi, &x, sizeof x);                       \
    return hi;                                       \
  }
DEFINE_FMAX(mx_fmax32, float, uint32_t)
DEFINE_FMAX(mx_fmax64, double, uint64_t)
#define MX_IMAX(a, b) ((b) > (a) ? (b) : (a))
#define MX_F16MAX(a, b) mx_half_max(a, b, MX_F16_INF)
#define MX_BF16MAX(a, b) mx_half_max(a, b, MX_BF16_INF)

/* Streams are walked a chunk of 256 bytes at a time, each chunk asking for
 * the data MX_AHEAD bytes ahead (kernel.h). A full chunk's loop has a
 * constant trip count, so it vectorizes without a remainder. */
#define CHUNK(T) (256 / (int64_t)sizeof(T))
#define CHUNKED(n, T, PREFETCH, STMT)                              \
  do {                                                             \
    int64_t i0 = 0;                                                \
    for (; i0 + CHUNK(T) <= (n); i0 += CHUNK(T)) {                 \
      for (int line = 0; line < 256; line += 64) PREFETCH;         \
      for (int64_t i = i0; i < i0 + CHUNK(T); i++) STMT;           \
    }                                                              \
    for (int64_t i = i0; i < (n); i++) STMT;                       \
  } while (0)
/* Operands in cache "prefetch" the line they read now: no branch in the loop. */
#define AHEAD(p, s) mx_prefetch((p) + i0, ((s) == MX_STREAM ? MX_AHEAD : 0) + line)

/* The stride cases are split so that each loop is a plain vectorizable one,
 * and folding in place (out == a) is a case of its own: clang's run-time
 * overlap check sends out == a to its scalar loop. With one scalar operand
 * its order does not matter: NaN anywhere gives NaN. */
#define DEFINE_MAX2(name, T, OP)                                                                     \
  static void name(void *o, const void *a_, int sa, const void *b_, int sb, int64_t n, int64_t rows,     \
                   int64_t da, int64_t db) {                                                           \
    T *out = o;                                                                                      \
    const T *a = a_, *b = b_;                                                                        \
    if (n <= 16) { /* short rows (a tiny node): a vector loop's setup would cost more */             \
      for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db)                                \
        for (int64_t i = 0; i < n; i++) out[i] = OP(a[sa ? i : 0], b[sb ? i : 0]);                  \
      return;                                                                                        \
    }                                                                                                \
    if (sa && sb && out == a && (rows == 1 || da == n)) {                                            \
      for (int64_t r = 0; r < rows; r++, out += n, b += db)                                         \
        CHUNKED(n, T, AHEAD(b, sb), out[i] = OP(out[i], b[i]));                                      \
    } else if (sa && sb) {                                                                           \
      for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db)                                \
        CHUNKED(n, T, (AHEAD(a, sa), AHEAD(b, sb)), out[i] = OP(a[i], b[i]));                        \
    } else if (sa || sb) {                                                                           \
      const T *x = sa ? a : b, *ys = sa ? b : a;                                                     \
      int64_t dx = sa ? da : db, dy = sa ? db : da;                                                  \
      for (int64_t r = 0; r < rows; r++, out += n, x += dx, ys += dy) {                              \
        const T y = ys[0];                                                                           \
        if (out == x && (rows == 1 || dx == n))                                                     \
          CHUNKED(n, T, (void)0, out[i] = OP(out[i], y));                                            \
        else                                                                                         \
          CHUNKED(n, T, AHEAD(x, sa | sb), out[i] = OP(x[i], y));                                    \
      }                                                                                              \
    } else {                                                                                         \
      for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db) {                              \
        const T v = OP(a[0], b[0]);                                                                  \
        for (int64_t i = 0; i < n; i++) out[i] = v;                                                  \
      }                                                                                              \
    }                                                                                                \
  }

/* Three or more inputs are folded several at a time, so that a block is
 * passed over as few times as possible and as many streams as possible are in
 * flight at once (one pass for four inputs, like the floor's loop):
 *   max3: out[i] = max(out[i], b[i], c[i]);
 *   max4: out[i] = max(a[i], b[i], c[i], d[i]), a being out or a fourth input.
 * Every operand steps (MX_STREAM or MX_CACHED). */
#define DEFINE_MAX3(name, T, OP)                                                        \
  static void name(void *o, const void *b_, int sb, const void *c_, int sc, int64_t n) { \
    T *out = o;                                                                         \
    const T *b = b_, *c = c_;                                                           \
    CHUNKED(n, T, (AHEAD(b, sb), AHEAD(c, sc)), out[i] = OP(OP(out[i], b[i]), c[i]));  \
  }
#define DEFINE_MAX4(name, T, OP)                                                                             \
  static void name(void *o, const void *a_, int sa, const void *b_, int sb, const void *c_, int sc,           \
                   const void *d_, int sd, int64_t n) {                                                      \
    T *out = o;                                                                                              \
    const T *a = a_, *b = b_, *c = c_, *d = d_;                                                              \
    if (out == a) /* clang vectorizes in place only as a loop of its own */                                  \
      CHUNKED(n, T, (AHEAD(b, sb), AHEAD(c, sc), AHEAD(d, sd)), out[i] = OP(OP(out[i], b[i]), OP(c[i], d[i]))); \
    else                                                                                                     \
      CHUNKED(n, T, (AHEAD(a, sa), AHEAD(b, sb), AHEAD(c, sc), AHEAD(d, sd)),                                \
              out[i] = OP(OP(a[i], b[i]), OP(c[i], d[i])));                                                  \
  }
typedef void (*max3_fn)(void *out, const void *b, int sb, const void *c, int sc, int64_t n);
typedef void (*max4_fn)(void *out, const void *a, int sa, const void *b, int sb, const void *c, int sc, const void *d,
                        int sd, int64_t n);

#define DEFINE_MAX(suffix, T, OP)     \
  DEFINE_MAX2(max2_##suffix, T, OP) \
  DEFINE_MAX3(max3_##suffix, T, OP) \
  DEFINE_MAX4(max4_##suffix, T, OP)

DEFINE_MAX(f32, float, mx_fmax32)
DEFINE_MAX(f64, double, mx_fmax64)
DEFINE_MAX(f16, uint16_t, MX_F16MAX)
DEFINE_MAX(bf16, uint16_t, MX_BF16MAX)
DEFINE_MAX(i8, int8_t, MX_IMAX)
DEFINE_MAX(i16, int16_t, MX_IMAX)
DEFINE_MAX(i32, int32_t, MX_IMAX)
DEFINE_MAX(i64, int64_t, MX_IMAX)
DEFINE_MAX(u8, uint8_t, MX_IMAX)
DEFINE_MAX(u16, uint16_t, MX_IMAX)
DEFINE_MAX(u32, uint32_t, MX_IMAX)
DEFINE_MAX(u64, uint64_t, MX_IMAX)

typedef struct {
  mx_dtype t;
  max2_fn max2;
  max3_fn max3;
  max4_fn max4;
} max_kernels;

static const max_kernels *kernels_for(mx_dtype t) {
  /* MX_IF_DTYPE leaves out the kernels of dtypes a build does not use */
#define ROW(t, s) {t, MX_IF_DTYPE(t, max2_##s), MX_IF_DTYPE(t, max3_##s), MX_IF_DTYPE(t, max4_##s)}
  static const max_kernels table[] = {
      ROW(MINNX_FLOAT, f32),  ROW(MINNX_DOUBLE, f64), ROW(MINNX_FLOAT16, f16), ROW(MINNX_BFLOAT16, bf16),
      ROW(MINNX_INT8, i8),    ROW(MINNX_INT16, i16),  ROW(MINNX_INT32, i32),   ROW(MINNX_INT64, i64),
      ROW(MINNX_UINT8, u8),   ROW(MINNX_UINT16, u16), ROW(MINNX_UINT32, u32),  ROW(MINNX_UINT64, u64),
  };
#undef ROW

  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].t == t) return &table[i];
  return NULL; /* the schemas admit no other dtype */
}

/* ---- infer ---- */

/* Two inputs whose shapes do not fit under `rule`, found in one pass: each
 * dim (counted from the right under numpy) is fixed by the first input that
 * gives it (other than 1 under numpy); a later input giving another value
 * conflicts with that one. Without broadcasting the rank is fixed likewise. */
static void conflicting_pair(const mx_op_ctx *c, int broadcast, int32_t *pi, int32_t *pj) {
  int32_t owner[MX_MAX_RANK + 1]; /* [MX_MAX_RANK]: the rank */
  for (int d = 0; d <= MX_MAX_RANK; d++) owner[d] = -1;
  *pi = 0, *pj = 1;
  for (int32_t k = 0; k < c->node->n_inputs; k++) {
    const mx_shape *s = c->in[k];
    if (s->rank < 0) continue;
    if (!broadcast) {
      if (owner[MX_MAX_RANK] >= 0 && c->in[owner[MX_MAX_RANK]]->rank != s->rank) {
        *pi = owner[MX_MAX_RANK], *pj = k;
        return;
      }
      if (owner[MX_MAX_RANK] < 0) owner[MX_MAX_RANK] = k;
    }
    for (int d = 0; d < s->rank; d++) {
      int at = !broadcast ? d : s->rank - 1 - d; /* the dim of s at position d */
      int64_t v = s->dims[at];
      if (v < 0 || (v == 1 && broadcast)) continue;
      if (owner[d] < 0) {
        owner[d] = k;
        continue;
      }
      const mx_shape *o = c->in[owner[d]];
      if (o->dims[!broadcast ? d : o->rank - 1 - d] != v) {
        *pi = owner[d], *pj = k;
        return;
      }
    }
  }
}

minnx_status mx_elementwise_shape(const mx_op_ctx *c, int broadcast) {
  const mx_node *n = c->node;
  mx_shape *out = &c->out[0];
  int ok = 1;
  if (!broadcast) {
    /* One shape for all: each input may fix dims the others leave unknown. */
    *out = *c->in[0];
    for (int32_t k = 1; k < n->n_inputs && ok; k++) {
      const mx_shape *s = c->in[k];
      ok = mx_shapes_compatible(out, s);
      if (ok && out->rank < 0) *out = *s;
      else if (ok && s->rank >= 0)
        for (int d = 0; d < out->rank; d++)
          if (out->dims[d] < 0) out->dims[d] = s->dims[d];
    }
  } else {
    ok = mx_broadcast_shapes(c->in, n->n_inputs, out);
  }
  if (ok) return MINNX_OK;
  int32_t i, j;
  conflicting_pair(c, broadcast, &i, &j);
  char a[96], b[96];
  return mx_fail(c->err, MINNX_E_SHAPE, "node '%s' (%s-%d): input shapes %s and %s %s", mx_node_label(c->g, n),
                 n->op_type, c->row->since, mx_shape_str(c->in[i], a, sizeof a), mx_shape_str(c->in[j], b, sizeof b),
                 !broadcast ? "differ and this version does not broadcast"
                                       : "are not broadcast-compatible");
}

static minnx_status max_infer(mx_op_ctx *c) { return mx_elementwise_shape(c, (c->row->rules & MX_RULE_BROADCAST) != 0); }

/* ---- plan and eval ---- */

/* With three or more inputs rows are cut into blocks that stay in L1 while
 * every input is folded in, so that each input is read once and the output
 * written once, whatever N. */
#define MX_MAX_BLOCK 2048

typedef struct {
  const max_kernels *k;
  size_t esize;
  const unsigned char *const *in;
  unsigned char *out;
  const mx_bplan *bp;
} max_ctx;

typedef struct {
  const max_kernels *k;
  size_t esize;
  int whole; /* one or two inputs over one collapsed dim: a single max2 call */
  mx_bplan bp; /* last: its strides follow */
} max_plan;

size_t mx_max_params_size(const mx_node *n) { return offsetof(max_plan, bp) + mx_bplan_size(n->n_inputs); }

minnx_status mx_max_prepare(mx_op_ctx *c, void *params) {
  max_plan *p = params;
  p->k = kernels_for(c->in_dtype[0]);
  p->esize = mx_dtype_size(c->in_dtype[0]);
  mx_bplan_init(&p->bp, c->in, c->node->n_inputs, c->out);
  p->whole = p->bp.rank == 1 && p->bp.n_in <= 2 && p->bp.count > 0;
  return MINNX_OK;
}

/* Input k's first element for element j of row `row` of a tile of `rows`
 * rows, how it steps inside a row, and its elements from a row to the next. */
static const unsigned char *input_at(const max_ctx *m, int32_t k, const int64_t *in_off, int64_t rows, int64_t row,
                                     int64_t j, int *step, int64_t *row_step) {
  const int64_t *s = mx_bplan_strides(m->bp, k);
  int r = m->bp->rank;
  *row_step = r > 1 ? s[r - 2] : 0;
  *step = !s[r - 1] ? MX_SCALAR : rows > 1 && !*row_step ? MX_CACHED : MX_STREAM;
  return m->in[k] + (size_t)(in_off[k] + row * *row_step + j * s[r - 1]) * m->esize;
}

/* Block o (element j of row `row` of a tile, blk elements) from three or
 * more inputs: as many at a time as step, up to four (see max3, max4). */
static void fold_block(const max_ctx *m, unsigned char *o, const int64_t *in_off, int64_t rows, int64_t row, int64_t j,
                       int64_t blk) {
  const int32_t n = m->bp->n_in;
  const unsigned char *x[4];
  int s[4], got;
  int64_t unused;
  for (int32_t k = 0; k < n; k += got) {
    /* the next inputs that step: four to start with, then three beside o */
    int want = k == 0 ? 4 : 3;
    for (got = 0; got < want && k + got < n; got++) {
      x[got] = input_at(m, k + got, in_off, rows, row, j, &s[got], &unused);
      if (!s[got]) break; /* a value goes alone */
    }
    if (k == 0 && got == 4) {
      m->k->max4(o, x[0], s[0], x[1], s[1], x[2], s[2], x[3], s[3], blk);
    } else if (k == 0) {
      x[0] = input_at(m, 0, in_off, rows, row, j, &s[0], &unused);
      x[1] = input_at(m, 1, in_off, rows, row, j, &s[1], &unused);
      m->k->max2(o, x[0], s[0], x[1], s[1], blk, 1, 0, 0);
      got = 2;
    } else if (got == 3) {
      m->k->max4(o, o, MX_CACHED, x[0], s[0], x[1], s[1], x[2], s[2], blk);
    } else if (got == 2) {
      m->k->max3(o, x[0], s[0], x[1], s[1], blk);
    } else { /* one input that steps, or a value */
      m->k->max2(o, o, MX_CACHED, x[0], s[0], blk, 1, 0, 0);
      got = 1;
    }
  }
}

static void max_tile(void *ctx, int64_t out_off, const int64_t *in_off, int64_t rows, int64_t len) {
  const max_ctx *m = ctx;
  const int32_t n = m->bp->n_in;
  unsigned char *o = m->out + (size_t)out_off * m->esize;
  if (n <= 2) { /* one fused pass over the whole tile */
    int s0, s1;
    int64_t da, db;
    const unsigned char *a = input_at(m, 0, in_off, rows, 0, 0, &s0, &da);
    const unsigned char *b = input_at(m, n - 1, in_off, rows, 0, 0, &s1, &db); /* max(x, x) = x, NaN included */
    m->k->max2(o, a, s0, b, s1, len, rows, da, db);
    return;
  }
  for (int64_t row = 0; row < rows; row++)
    for (int64_t j = 0; j < len; j += MX_MAX_BLOCK)
      fold_block(m, o + (size_t)(row * len + j) * m->esize, in_off, rows, row, j,
                 len - j < MX_MAX_BLOCK ? len - j : MX_MAX_BLOCK);
}

void mx_max_eval(const mx_exec *x, const void *params, const void *const *in, void *const *outs) {
  const max_plan *p = params;
  void *out = outs[0];
  (void)x;
  if (p->whole) { /* the common case without the walk: a tiny node's run is mostly fixed cost */
    int32_t b = p->bp.n_in - 1;
    p->k->max2(out, in[0], mx_bplan_strides(&p->bp, 0)[0] ? MX_STREAM : MX_SCALAR, in[b],
            mx_bplan_strides(&p->bp, b)[0] ? MX_STREAM : MX_SCALAR, p->bp.count, 1, 0, 0);
    return;
  }
  max_ctx m = {p->k, p->esize, (const unsigned char *const *)in, out, &p->bp};
  mx_bplan_walk(&p->bp, max_tile, &m);
}

/* ---- the rows ---- */

static const mx_io max_in[] = {{.name = "data_0", .types = MX_FLOATS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max12_in[] = {{.name = "data_0", .types = MX_FLOATS | MX_INTS, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max13_in[] = {{.name = "data_0", .types = MX_NUMERIC, .group = 1, .flags = MX_IO_VARIADIC}, {0}};
static const mx_io max_out[] = {{.name = "max", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_attr_spec max1_attrs[] = {{"consumed_inputs", MX_ATTR_INTS}, {NULL, 0}};

#define MAX_ROW .out = max_out, .infer = max_infer, .params_size = mx_max_params_size, \
                .prepare = mx_max_prepare, .eval = mx_max_eval
static const mx_op_row rows[] = {
    {MAX_ROW, .since = 1, .in = max_in, .attrs = max1_attrs},
    {MAX_ROW, .since = 6, .in = max_in},
    {MAX_ROW, .since = 8, .in = max_in, .rules = MX_RULE_BROADCAST},
    {MAX_ROW, .since = 12, .in = max12_in, .rules = MX_RULE_BROADCAST},
    {MAX_ROW, .since = 13, .in = max13_in, .rules = MX_RULE_BROADCAST},
};
MX_OP_TABLE(Max, "", rows);
