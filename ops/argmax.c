/* ArgMax: the index of the largest element along one axis, as int64. NaN is
 * greater than every number; ties give the first index, or the last one with
 * select_last_index=1 (since version 12). */
#include <math.h>
#include <stddef.h>

#include "ops/half.h"
#include "ops/kernel.h"
#include "ops/ops.h"

/* On x86-64, gcc and clang build the kernels below twice: portable (SSE2,
 * the x86-64 baseline) and, from the same C, for AVX2 (twice the lanes and
 * three-operand instructions); a node takes the AVX2 ones when the CPU has
 * AVX2. Across rows, the SSE2 build's instructions per byte keep one thread
 * some way off the memory floor. -DMINNX_X86_AVX2=OFF (MX_NO_AVX2) builds
 * the portable kernels only. */
#if !defined(MX_NO_AVX2) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MX_AVX2 1
#define MX_AVX2_TARGET __attribute__((target("avx2")))
#define AVX2_FROM 4096 /* elements */
#else
#define MX_AVX2 0
#define AVX2_FROM 0
#endif

/* ---- infer ---- */

static minnx_status argmax_infer(mx_op_ctx *c) {
  const mx_node *n = c->node;
  const mx_shape *in = c->in[0];
  mx_shape *out = &c->out[0];
  const char *label = mx_node_label(c->g, n);
  int since = c->row->since;
  int64_t axis = mx_attr_int(n, "axis", 0);
  int64_t keepdims = mx_attr_int(n, "keepdims", 1);
  int64_t last = mx_attr_int(n, "select_last_index", 0);
  if (keepdims != 0 && keepdims != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute keepdims is %lld; it must be 0 or 1", label, since, (long long)keepdims);
  if (last != 0 && last != 1)
    return mx_fail(c->err, MINNX_E_MODEL, "node '%s' (ArgMax-%d): attribute select_last_index is %lld; it must be 0 or 1", label, since, (long long)last);
  if (in->rank < 0) {
    out->rank = -1;
    return MINNX_OK;
  }
  int64_t r = in->rank;
  int64_t lo = (c->row->rules & MX_RULE_NEGATIVE_AXIS) ? -r : 0;
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

/* Values are compared through a key K: the value itself, or for float16 and
 * bfloat16 a signed integer of the same order (half.h: -0 = +0, NaN above
 * +inf as one key). Only float and double keys can be NaN: a kernel's NAN
 * argument is F for them (NaN tests) and N for the others (no NaN: the tests
 * fold away). I is a signed integer at least as wide as K and 32 bits, for
 * masks and indices that vectorize beside the keys; A is the signed integer
 * exactly as wide as K, for row numbers inside a stretch (under COL_ROWS). */
#define KEEP(x) (x)
#define F16_KEY(x) mx_f16_key(x)
#define BF16_KEY(x) mx_bf16_key(x)
#define F_ISNAN(x) ((x) != (x))
#define F_EITHER_NAN(x, y) isunordered(x, y)
#define N_ISNAN(x) ((void)(x), 0)
#define N_EITHER_NAN(x, y) ((void)(x), (void)(y), 0)

/* max(a, b) of two keys, ignoring a NaN in b (the loops flag NaN apart). */
#define MAX_OF(a, b) ((b) > (a) ? (b) : (a))

/* Whether key x replaces the best so far: strictly greater keeps the first
 * index, greater-or-equal the last. NaN is greater than all numbers, so with
 * the first index x wins unless x <= best or best is NaN, and with the last
 * x wins if x >= best or x is NaN. (Bitwise | and & rather than || and &&: no
 * branch in a loop that should vectorize.) */
#define BETTER(x, best, NAN, LAST)                 \
  ((LAST) ? (((x) >= (best)) | NAN##_ISNAN(x))     \
          : (!((x) <= (best)) & !NAN##_ISNAN(best)))

/* Along the last axis (inner == 1) a row is cut into blocks. A block's
 * maximum is a reduction over LANES independent running maxima (so that it
 * vectorizes; NaN is only flagged there), and only a block holding something
 * better than the best so far is scanned again, from L1, for the first (or
 * last) index of its maximum: on most data few blocks are. (With fewer than
 * 32 lanes gcc unrolls the lane loops before it vectorizes them, and then
 * does not vectorize them.) */
#define LANES 32
#define ROW_BLOCK 512
/* Across rows (inner > 1) a block of columns is read in stretches of
 * COL_ROWS rows: first each column's maximum over the stretch (a plain
 * vectorized max, NaN flagged apart), then only a column whose maximum beats
 * its best so far is looked at again, from cache, for its row. The best keys
 * of a block take COL_BYTES of stack; wider blocks read longer runs of each
 * row, which DRAM serves faster. */
#define COL_BYTES 8192
#define COL_BLOCK(K) (COL_BYTES / (int64_t)sizeof(K))
#define COL_ROWS 16
/* Columns of a strip: 128 bytes of each row, and at least 32 (see LANES). */
#define STRIP(T) (128 / (int)sizeof(T) > 32 ? 128 / (int)sizeof(T) : 32)

/* Asks for a strip's row at p + ahead: every line it touches, the last one
 * too when the data is not aligned to 64 bytes (a caller's malloc'd input is
 * at 16 past a line: without it one line in three of a strip is a miss). */
#define PREFETCH_STRIP(p, ahead, T)                                                          \
  do {                                                                                       \
    for (int b_ = 0; b_ < STRIP(T) * (int)sizeof(T); b_ += 64) mx_prefetch(p, (ahead) + b_); \
    mx_prefetch(p, (ahead) + STRIP(T) * (int)sizeof(T) - 1);                                 \
  } while (0)

/* Returns the first (last) index i in x[0..n) where HIT(KEY(x[i])) holds, one
 * being known to: LANES at a time for a hit, then one by one inside them. */
#define FIND(x, n, T, K, I, KEY, HIT, LAST)                                   \
  do {                                                                        \
    int64_t i = LAST ? n : 0;                                                 \
    for (; LAST ? i >= LANES : i + LANES <= n; i += LAST ? -LANES : LANES) { \
      const T *lane = x + (LAST ? i - LANES : i);                             \
      I hit = 0;                                                              \
      for (int j = 0; j < LANES; j++) {                                       \
        K v = KEY(lane[j]);                                                   \
        hit |= -(I)HIT(v);                                                    \
      }                                                                       \
      if (hit) break;                                                         \
    }                                                                         \
    for (i = LAST ? i - 1 : i;; i += LAST ? -1 : 1) {                        \
      K v = KEY(x[i]);                                                        \
      if (HIT(v)) return i;                                                   \
    }                                                                         \
  } while (0)

#define IS_M(v) ((v) == m) /* the key m sought, from the caller's scope */

#define DEFINE_ARGMAX(name, T, K, I, A, KEY, NAN, LAST, ATTR, TRACK)                                             \
  /* The first (last) index in x[0..n) of key m, or of a NaN if nan. */                         \
  static ATTR int64_t name##_find(const T *x, int64_t n, K m, int nan) {                             \
    if (nan) FIND(x, n, T, K, I, KEY, NAN##_ISNAN, LAST);                                       \
    FIND(x, n, T, K, I, KEY, IS_M, LAST);                                                       \
  }                                                                                             \
  /* acc[j] = the largest key among x[j], x[j + LANES], ... in x[0..n), n a                     \
   * multiple of LANES; returns whether any of them is NaN. Two lane groups                     \
   * a step: one NaN test covers both. */                                                       \
  static ATTR int name##_lanes(const T *x, int64_t n, K *acc) {                                      \
    I nan[LANES], any = 0;                                                                      \
    for (int j = 0; j < LANES; j++) {                                                           \
      acc[j] = KEY(x[j]);                                                                       \
      nan[j] = -(I)NAN##_ISNAN(acc[j]);                                                         \
    }                                                                                           \
    int64_t i = LANES;                                                                          \
    for (; i + 2 * LANES <= n; i += 2 * LANES) {                                                \
      for (int p = 0; p < 2 * LANES * (int)sizeof(T); p += 64) mx_prefetch(x + i, MX_AHEAD + p); \
      for (int j = 0; j < LANES; j++) {                                                         \
        K v = KEY(x[i + j]), w = KEY(x[i + LANES + j]);                                         \
        acc[j] = MAX_OF(acc[j], v);                                                             \
        acc[j] = MAX_OF(acc[j], w);                                                             \
        nan[j] |= -(I)NAN##_EITHER_NAN(v, w);                                                   \
      }                                                                                         \
    }                                                                                           \
    if (i < n)                                                                                  \
      for (int j = 0; j < LANES; j++) {                                                         \
        K v = KEY(x[i + j]);                                                                    \
        acc[j] = MAX_OF(acc[j], v);                                                             \
        nan[j] |= -(I)NAN##_ISNAN(v);                                                           \
      }                                                                                         \
    for (int j = 0; j < LANES; j++) any |= nan[j];                                              \
    return any != 0;                                                                            \
  }                                                                                             \
  /* A row x[0..n) from index i on, best and at being the best so far and                      \
   * its index: one element at a time, branch-free. */                                          \
  static ATTR int64_t name##_tail(const T *x, int64_t i, int64_t n, K best, int64_t at) {             \
    for (; i < n; i++) {                                                                        \
      K v = KEY(x[i]);                                                                          \
      int take = BETTER(v, best, NAN, LAST);                                                    \
      best = take ? v : best;                                                                   \
      at = take ? i : at;                                                                       \
    }                                                                                           \
    return at;                                                                                  \
  }                                                                                             \
  static ATTR int64_t name##_row(const T *x, int64_t n) {                                            \
    K best = KEY(x[0]);                                                                         \
    int64_t at = 0, full = n - n % LANES;                                                       \
    for (int64_t b = 0; b < full; b += ROW_BLOCK) {                                             \
      const T *blk = x + b;                                                                     \
      int64_t len = full - b < ROW_BLOCK ? full - b : ROW_BLOCK;                                \
      K acc[LANES];                                                                             \
      if (name##_lanes(blk, len, acc)) { /* NaN beats numbers; with LAST, a later NaN beats it */ \
        at = b + name##_find(blk, len, best, 1);                                                \
        if (!LAST) return at;                                                                   \
        best = KEY(x[at]);                                                                      \
        continue;                                                                               \
      }                                                                                         \
      I better = 0;                                                                             \
      for (int j = 0; j < LANES; j++) better |= -(I)BETTER(acc[j], best, NAN, LAST);            \
      if (!better) continue;                                                                    \
      /* the block's maximum: four independent chains, then one */                             \
      for (int j = 4; j < LANES; j++) acc[j & 3] = MAX_OF(acc[j & 3], acc[j]);                  \
      K m = MAX_OF(MAX_OF(acc[0], acc[1]), MAX_OF(acc[2], acc[3]));                             \
      at = b + name##_find(blk, len, m, 0);                                                     \
      best = m;                                                                                 \
    }                                                                                           \
    return name##_tail(x, full, n, best, at);                                                   \
  }                                                                                             \
  /* Rows [k0, k0 + h) of the columns [0, w) at x (row k0; row stride inner):                  \
   * best[j] and y[j] (its index) follow column j through them, one by one. */                  \
  static ATTR void name##_scan(const T *x, int64_t inner, int64_t w, int64_t k0, int64_t h,          \
                          K *best, int64_t *y) {                                                \
    for (int64_t j = 0; j < w; j++)                                                             \
      for (int64_t k = 0; k < h; k++) {                                                         \
        K v = KEY(x[k * inner + j]);                                                            \
        if (BETTER(v, best[j], NAN, LAST)) {                                                    \
          best[j] = v;                                                                          \
          y[j] = k0 + k;                                                                        \
        }                                                                                       \
      }                                                                                         \
  }                                                                                             \
  /* The same for a strip of STRIP(T) columns in one pass: each column's                        \
   * maximum over the rows and the row where it is (A: row numbers in the                       \
   * stretch, as wide as the keys), kept in registers; NaN only flagged (if                     \
   * one was seen, the rows are looked at again one by one). As fast on any                     \
   * data, but it takes twice the instructions of name##_strip's first pass:                    \
   * only AVX2 runs it at the memory floor. */                                                  \
  static ATTR void name##_track(const T *x, int64_t inner, int64_t k0, int64_t h, K *best,      \
                                int64_t *y) {                                                   \
    K g[STRIP(T)];                                                                              \
    A at[STRIP(T)], nan[STRIP(T)], any = 0;                                                     \
    int64_t ahead = COL_ROWS * inner * (int64_t)sizeof(T);                                      \
    PREFETCH_STRIP(x, ahead, T);                                                                \
    for (int j = 0; j < STRIP(T); j++) {                                                        \
      g[j] = KEY(x[j]);                                                                         \
      at[j] = 0;                                                                                \
      nan[j] = -(A)NAN##_ISNAN(g[j]);                                                           \
    }                                                                                           \
    for (int64_t k = 1; k < h; k++) {                                                           \
      const T *r = x + k * inner;                                                               \
      A row = (A)k;                                                                             \
      PREFETCH_STRIP(r, ahead, T);                                                              \
      for (int j = 0; j < STRIP(T); j++) {                                                      \
        K v = KEY(r[j]);                                                                        \
        A take = -(A)(LAST ? v >= g[j] : v > g[j]);                                             \
        /* a plain max and a bitwise select: gcc turns `take ? v : g[j]` into                   \
         * a branch around a masked store */                                                    \
        g[j] = MAX_OF(g[j], v);                                                                 \
        at[j] = (A)((row & take) | (at[j] & ~take));                                            \
        nan[j] |= -(A)NAN##_ISNAN(v);                                                           \
      }                                                                                         \
    }                                                                                           \
    for (int j = 0; j < STRIP(T); j++) any |= nan[j];                                           \
    if (any) {                                                                                  \
      name##_scan(x, inner, STRIP(T), k0, h, best, y);                                          \
      return;                                                                                   \
    }                                                                                           \
    for (int j = 0; j < STRIP(T); j++) {                                                        \
      int b = BETTER(g[j], best[j], NAN, LAST);                                                 \
      best[j] = b ? g[j] : best[j];                                                             \
      y[j] = b ? k0 + at[j] : y[j];                                                             \
    }                                                                                           \
  }                                                                                             \
  /* The same for a strip of STRIP(T) columns, fast: first each column's                        \
   * maximum over the rows (STRIP independent maxima, kept in registers; NaN                    \
   * only flagged; two rows a step), then only for the columns whose maximum                    \
   * beats their best, the row holding it; if a NaN was seen, all of them one                   \
   * by one. */                                                                                 \
  static ATTR void name##_strip(const T *x, int64_t inner, int64_t k0, int64_t h, K *best,           \
                           int64_t *y) {                                                        \
    K g[STRIP(T)];                                                                              \
    I nan = 0, count = 0, beats[STRIP(T)], at[STRIP(T)];                                        \
    int64_t ahead = COL_ROWS * inner * (int64_t)sizeof(T);                                      \
    /* every row of the next stretch is asked for, its first and last too */                   \
    PREFETCH_STRIP(x, ahead, T);                                                                \
    for (int j = 0; j < STRIP(T); j++) {                                                        \
      g[j] = KEY(x[j]);                                                                         \
      nan |= -(I)NAN##_ISNAN(g[j]);                                                             \
    }                                                                                           \
    int64_t k = 1;                                                                              \
    for (; k + 2 <= h; k += 2) {                                                                \
      const T *r = x + k * inner, *s = r + inner;                                               \
      PREFETCH_STRIP(r, ahead, T); /* the next stretch */                                       \
      PREFETCH_STRIP(s, ahead, T);                                                              \
      for (int j = 0; j < STRIP(T); j++) {                                                      \
        K v = KEY(r[j]), w = KEY(s[j]);                                                         \
        g[j] = MAX_OF(g[j], MAX_OF(v, w));                                                      \
        nan |= -(I)NAN##_EITHER_NAN(v, w);                                                      \
      }                                                                                         \
    }                                                                                           \
    if (k < h) {                                                                                \
      const T *r = x + k * inner;                                                               \
      PREFETCH_STRIP(r, ahead, T);                                                              \
      for (int j = 0; j < STRIP(T); j++) {                                                      \
        K v = KEY(r[j]);                                                                        \
        g[j] = MAX_OF(g[j], v);                                                                 \
        nan |= -(I)NAN##_ISNAN(v);                                                              \
      }                                                                                         \
    }                                                                                           \
    if (nan) {                                                                                  \
      name##_scan(x, inner, STRIP(T), k0, h, best, y);                                          \
      return;                                                                                   \
    }                                                                                           \
    for (int j = 0; j < STRIP(T); j++) {                                                        \
      beats[j] = -(I)BETTER(g[j], best[j], NAN, LAST);                                          \
      count -= beats[j];                                                                        \
    }                                                                                           \
    if (!count) return;                                                                         \
    /* Many such columns (early rows, where records are common): all rows                       \
     * once for all of them, in the order where the row wanted is the last                      \
     * match. Few: each column's rows until the first (last) match. */                          \
    if (count > STRIP(T) / 8) {                                                                 \
      for (int j = 0; j < STRIP(T); j++) at[j] = 0;                                             \
      for (int64_t step = 0; step < h; step++) {                                                \
        I r = (I)(LAST ? step : h - 1 - step);                                                  \
        const T *row = x + r * inner;                                                           \
        for (int j = 0; j < STRIP(T); j++) {                                                    \
          K v = KEY(row[j]);                                                                    \
          I match = -(I)(v == g[j]) & beats[j];                                                 \
          at[j] = (r & match) | (at[j] & ~match);                                               \
        }                                                                                       \
      }                                                                                         \
      for (int j = 0; j < STRIP(T); j++) {                                                      \
        best[j] = beats[j] ? g[j] : best[j];                                                    \
        y[j] = beats[j] ? k0 + at[j] : y[j];                                                    \
      }                                                                                         \
      return;                                                                                   \
    }                                                                                           \
    for (int j = 0; j < STRIP(T); j++) {                                                        \
      if (!beats[j]) continue;                                                                  \
      int64_t r = LAST ? h - 1 : 0;                                                             \
      while (KEY(x[r * inner + j]) != g[j]) r += LAST ? -1 : 1;                                \
      best[j] = g[j];                                                                           \
      y[j] = k0 + r;                                                                            \
    }                                                                                           \
  }                                                                                             \
  static ATTR void name##_cols(const T *in, int64_t *out, int64_t outer, int64_t n, int64_t inner) { \
    K best[COL_BLOCK(K)];                                                                       \
    for (int64_t o = 0; o < outer; o++)                                                         \
      for (int64_t j0 = 0; j0 < inner; j0 += COL_BLOCK(K)) {                                    \
        const T *x = in + o * n * inner + j0;                                                   \
        int64_t *y = out + o * inner + j0;                                                      \
        int64_t m = inner - j0 < COL_BLOCK(K) ? inner - j0 : COL_BLOCK(K);                      \
        for (int64_t j = 0; j < m; j++) {                                                       \
          best[j] = KEY(x[j]);                                                                  \
          y[j] = 0;                                                                             \
        }                                                                                       \
        for (int64_t k0 = 1; k0 < n; k0 += COL_ROWS) {                                          \
          int64_t h = n - k0 < COL_ROWS ? n - k0 : COL_ROWS;                                    \
          const T *rows = x + k0 * inner;                                                       \
          if (m < STRIP(T)) {                                                                   \
            name##_scan(rows, inner, m, k0, h, best, y);                                        \
            continue;                                                                           \
          }                                                                                     \
          /* the last strip ends at m, overlapping the one before: a column                     \
           * seen twice in a stretch gives the same result */                                   \
          for (int64_t j = 0; j < m; j += STRIP(T)) {                                           \
            int64_t at = m - j < STRIP(T) ? m - STRIP(T) : j;                                   \
            if (TRACK)                                                                          \
              name##_track(rows + at, inner, k0, h, best + at, y + at);                         \
            else                                                                                \
              name##_strip(rows + at, inner, k0, h, best + at, y + at);                         \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
  }                                                                                             \
  static ATTR void name(const void *in_, int64_t *out, int64_t outer, int64_t n, int64_t inner) {    \
    const T *in = in_;                                                                          \
    if (inner != 1) {                                                                           \
      name##_cols(in, out, outer, n, inner);                                                    \
      return;                                                                                   \
    }                                                                                           \
    if (n < LANES) /* short rows: no blocks at all */                                           \
      for (int64_t o = 0; o < outer; o++) out[o] = name##_tail(in + o * n, 1, n, KEY(in[o * n]), 0); \
    else                                                                                        \
      for (int64_t o = 0; o < outer; o++) out[o] = name##_row(in + o * n, n);                   \
  }

/* The portable build takes the max-then-rescan strips; the AVX2 build the
 * one-pass ones (the same speed on random data, and no slower on ties or on
 * columns setting a new maximum in every row, where rescans cost 1.5-1.7x). */
#define PORTABLE /* no attribute */
#if MX_AVX2
#define DEFINE_ARGMAX_AVX2(suffix, T, K, I, A, KEY, NAN)                                      \
  DEFINE_ARGMAX(argmax_first_##suffix##_avx2, T, K, I, A, KEY, NAN, 0, MX_AVX2_TARGET, 1) \
  DEFINE_ARGMAX(argmax_last_##suffix##_avx2, T, K, I, A, KEY, NAN, 1, MX_AVX2_TARGET, 1)
#else
#define DEFINE_ARGMAX_AVX2(suffix, T, K, I, A, KEY, NAN)
#endif
#define DEFINE_ARGMAX_PAIR(suffix, T, K, I, A, KEY, NAN)                         \
  DEFINE_ARGMAX(argmax_first_##suffix, T, K, I, A, KEY, NAN, 0, PORTABLE, 0) \
  DEFINE_ARGMAX(argmax_last_##suffix, T, K, I, A, KEY, NAN, 1, PORTABLE, 0)  \
  DEFINE_ARGMAX_AVX2(suffix, T, K, I, A, KEY, NAN)

DEFINE_ARGMAX_PAIR(f32, float, float, int32_t, int32_t, KEEP, F)
DEFINE_ARGMAX_PAIR(f64, double, double, int64_t, int64_t, KEEP, F)
DEFINE_ARGMAX_PAIR(f16, uint16_t, int16_t, int32_t, int16_t, F16_KEY, N)
DEFINE_ARGMAX_PAIR(bf16, uint16_t, int16_t, int32_t, int16_t, BF16_KEY, N)
DEFINE_ARGMAX_PAIR(i8, int8_t, int8_t, int32_t, int8_t, KEEP, N)
DEFINE_ARGMAX_PAIR(i16, int16_t, int16_t, int32_t, int16_t, KEEP, N)
DEFINE_ARGMAX_PAIR(i32, int32_t, int32_t, int32_t, int32_t, KEEP, N)
DEFINE_ARGMAX_PAIR(i64, int64_t, int64_t, int64_t, int64_t, KEEP, N)
DEFINE_ARGMAX_PAIR(u8, uint8_t, uint8_t, int32_t, int8_t, KEEP, N)
DEFINE_ARGMAX_PAIR(u16, uint16_t, uint16_t, int32_t, int16_t, KEEP, N)
DEFINE_ARGMAX_PAIR(u32, uint32_t, uint32_t, int32_t, int32_t, KEEP, N)
DEFINE_ARGMAX_PAIR(u64, uint64_t, uint64_t, int64_t, int64_t, KEEP, N)

/* The kernel for dtype t, the first or last index, portable or for AVX2. */
static argmax_fn argmax_for(mx_dtype t, int last, int avx2) {
#if MX_AVX2
#define AVX2_PAIR(t, s) {MX_IF_DTYPE(t, argmax_first_##s##_avx2), MX_IF_DTYPE(t, argmax_last_##s##_avx2)}
#else
#define AVX2_PAIR(t, s) {NULL, NULL}
#endif
#define ROW(t, s) {t, {{MX_IF_DTYPE(t, argmax_first_##s), MX_IF_DTYPE(t, argmax_last_##s)}, AVX2_PAIR(t, s)}}
  static const struct {
    mx_dtype t;
    argmax_fn f[2][2]; /* [avx2][last] */
  } table[] = {
      ROW(MINNX_FLOAT, f32),  ROW(MINNX_DOUBLE, f64), ROW(MINNX_FLOAT16, f16), ROW(MINNX_BFLOAT16, bf16),
      ROW(MINNX_INT8, i8),    ROW(MINNX_INT16, i16),  ROW(MINNX_INT32, i32),   ROW(MINNX_INT64, i64),
      ROW(MINNX_UINT8, u8),   ROW(MINNX_UINT16, u16), ROW(MINNX_UINT32, u32),  ROW(MINNX_UINT64, u64),
  };
#undef ROW
#undef AVX2_PAIR
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].t == t) return table[i].f[avx2 && MX_AVX2][last];
  return NULL; /* the schemas admit no other dtype */
}

int mx_argmax_avx2_available(void) {
#if MX_AVX2
  return __builtin_cpu_supports("avx2") != 0;
#else
  return 0;
#endif
}

typedef struct {
  argmax_fn fn;
  int64_t outer, n, inner;
} argmax_plan;

size_t mx_argmax_params_size(const mx_node *n) {
  (void)n;
  return sizeof(argmax_plan);
}

minnx_status mx_argmax_prepare(mx_op_ctx *c, void *params) {
  /* a small input gains nothing from wide vectors: its run is mostly setup */
  int64_t count = mx_shape_count(c->in[0]); /* overflow-checked (sessions refuse those anyway) */
  mx_argmax_prepare_isa(c, params, count >= AVX2_FROM && mx_argmax_avx2_available());
  return MINNX_OK;
}

void mx_argmax_prepare_isa(const mx_op_ctx *c, void *params, int avx2) {
  argmax_plan *p = params;
  const mx_shape *in = c->in[0];
  int64_t axis = mx_attr_int(c->node, "axis", 0);
  if (axis < 0) axis += in->rank;
  p->outer = 1;
  p->inner = 1;
  for (int64_t d = 0; d < axis; d++) p->outer *= in->dims[d];
  for (int64_t d = axis + 1; d < in->rank; d++) p->inner *= in->dims[d];
  p->n = in->dims[axis];
  p->fn = argmax_for(c->in_dtype[0], mx_attr_int(c->node, "select_last_index", 0) != 0, avx2);
}

void mx_argmax_eval(const mx_exec *x, const void *params, const void *const *in, void *const *out) {
  const argmax_plan *p = params;
  (void)x;
  p->fn(in[0], out[0], p->outer, p->n, p->inner);
}

/* ---- the rows ---- */

#define ARGMAX_TYPES (MX_FLOATS | MX_INTS)
static const mx_io argmax_in[] = {{.name = "data", .types = ARGMAX_TYPES, .group = 1}, {0}};
static const mx_io argmax13_in[] = {{.name = "data", .types = MX_NUMERIC, .group = 1}, {0}};
static const mx_io argmax_out[] = {{.name = "reduced", .types = MX_BIT(MINNX_INT64)}, {0}};
static const mx_attr_spec argmax1_attrs[] = {{"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {NULL, 0}};
static const mx_attr_spec argmax12_attrs[] = {
    {"axis", MX_ATTR_INT}, {"keepdims", MX_ATTR_INT}, {"select_last_index", MX_ATTR_INT}, {NULL, 0}};

#define ARGMAX_ROW .out = argmax_out, .infer = argmax_infer, .params_size = mx_argmax_params_size, \
                   .prepare = mx_argmax_prepare, .eval = mx_argmax_eval
static const mx_op_row rows[] = {
    {ARGMAX_ROW, .since = 1, .in = argmax_in, .attrs = argmax1_attrs},
    {ARGMAX_ROW, .since = 11, .in = argmax_in, .attrs = argmax1_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
    {ARGMAX_ROW, .since = 12, .in = argmax_in, .attrs = argmax12_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
    {ARGMAX_ROW, .since = 13, .in = argmax13_in, .attrs = argmax12_attrs, .rules = MX_RULE_NEGATIVE_AXIS},
};
MX_OP_TABLE(ArgMax, "", rows);
