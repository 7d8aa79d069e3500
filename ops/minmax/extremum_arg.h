/* Template (no include guard): the arg kernels of one dtype, one direction,
 * first or last index, one instruction set; extremum_arg.c's table
 * instantiates it. The instance gives
 *   T, K      the element type and the key it is compared through (the value
 *             itself, or for float16/bfloat16 a signed integer of the same
 *             order: extremum.h, -0 = +0, NaN beyond every number as one key);
 *   I         a signed integer at least as wide as K and 32 bits, for masks
 *             and indices that vectorize beside the keys; A the signed integer
 *             exactly as wide as K, for row numbers inside a stretch;
 *   KEY(x)    the key of an element; ISNAN(k), EITHER_NAN(k, l) the NaN tests
 *             of keys (constant 0 where keys cannot be NaN: they fold away);
 *   DIR, LAST the direction and whether ties give the last index;
 *   ATTR, WIDE the functions' attribute (a target ISA) and whether it has
 *             wide vectors with selects (AVX2): then rows and columns
 *             take one-pass kernels that carry each lane's best key and its
 *             index (NAME(pass), NAME(sweep)); else the blocks and strips
 *             that find the extreme first and its index after;
 *   NAME(f)   the instance's name for function f.
 * The input is outer x n x inner: the index runs over n for each (outer, inner). */

/* A row x[0..n) from index i on, best and at being the best so far and
 * its index: one element at a time, branch-free. */
static ATTR int64_t NAME(tail)(const T *x, int64_t i, int64_t n, K best, int64_t at) {
  for (; i < n; i++) {
    K v = KEY(x[i]);
    int take = BETTER(v, best);
    best = take ? v : best;
    at = take ? i : at;
  }
  return at;
}
/* Rows [k0, k0 + h) of the columns [0, w) at x (row k0; row stride inner):
 * best[j] and y[j] (its index) follow column j through them, one by one. */
static ATTR void NAME(scan)(const T *x, int64_t inner, int64_t w, int64_t k0, int64_t h,
                        K *best, int64_t *y) {
  for (int64_t j = 0; j < w; j++)
    for (int64_t k = 0; k < h; k++) {
      K v = KEY(x[k * inner + j]);
      if (BETTER(v, best[j])) {
        best[j] = v;
        y[j] = k0 + k;
      }
    }
}
#if !WIDE
/* The first (last) index in x[0..n) of key m, or of a NaN if nan, one being
 * known to be there: LANES at a time for a hit, then one by one inside them. */
static ATTR int64_t NAME(find)(const T *x, int64_t n, K m, int nan) {
  int64_t i = LAST ? n : 0;
  for (; LAST ? i >= LANES : i + LANES <= n; i += LAST ? -LANES : LANES) {
    const T *lane = x + (LAST ? i - LANES : i);
    I hit = 0;
    for (int j = 0; j < LANES; j++) {
      K v = KEY(lane[j]);
      hit |= -(I)HIT(v, m, nan);
    }
    if (hit) break;
  }
  for (i = LAST ? i - 1 : i;; i += LAST ? -1 : 1) {
    K v = KEY(x[i]);
    if (HIT(v, m, nan)) return i;
  }
}
/* acc[j] = the furthest key among x[j], x[j + LANES], ... in x[0..n), n a
 * multiple of LANES; returns whether any of them is NaN. Two lane groups
 * a step: one NaN test covers both. */
static ATTR int NAME(lanes)(const T *x, int64_t n, K *acc) {
  I nan[LANES], any = 0;
  for (int j = 0; j < LANES; j++) {
    acc[j] = KEY(x[j]);
    nan[j] = -(I)ISNAN(acc[j]);
  }
  int64_t i = LANES;
  for (; i + 2 * LANES <= n; i += 2 * LANES) {
    for (int p = 0; p < 2 * LANES * (int)sizeof(T); p += 64) mx_prefetch(x + i, MX_AHEAD + p);
    for (int j = 0; j < LANES; j++) {
      K v = KEY(x[i + j]), w = KEY(x[i + LANES + j]);
      acc[j] = FURTHER(acc[j], v);
      acc[j] = FURTHER(acc[j], w);
      nan[j] |= -(I)EITHER_NAN(v, w);
    }
  }
  if (i < n)
    for (int j = 0; j < LANES; j++) {
      K v = KEY(x[i + j]);
      acc[j] = FURTHER(acc[j], v);
      nan[j] |= -(I)ISNAN(v);
    }
  for (int j = 0; j < LANES; j++) any |= nan[j];
  return any != 0;
}
static ATTR int64_t NAME(row)(const T *x, int64_t n) {
  K best = KEY(x[0]);
  int64_t at = 0, full = n - n % LANES;
  for (int64_t b = 0; b < full; b += ROW_BLOCK) {
    const T *blk = x + b;
    int64_t len = full - b < ROW_BLOCK ? full - b : ROW_BLOCK;
    K acc[LANES];
    if (NAME(lanes)(blk, len, acc)) { /* NaN beats numbers; with LAST, a later NaN beats it */
      at = b + NAME(find)(blk, len, best, 1);
      if (!LAST) return at;
      best = KEY(x[at]);
      continue;
    }
    I better = 0;
    for (int j = 0; j < LANES; j++) better |= -(I)BETTER(acc[j], best);
    if (!better) continue;
    /* the block's maximum: four independent chains, then one */
    for (int j = 4; j < LANES; j++) acc[j & 3] = FURTHER(acc[j & 3], acc[j]);
    K m = FURTHER(FURTHER(acc[0], acc[1]), FURTHER(acc[2], acc[3]));
    at = b + NAME(find)(blk, len, m, 0);
    best = m;
  }
  return NAME(tail)(x, full, n, best, at);
}
/* The same for a strip of STRIP(T) columns, fast: first each column's
 * maximum over the rows (STRIP independent maxima, kept in registers; NaN
 * only flagged; two rows a step), then only for the columns whose maximum
 * beats their best, the row holding it; if a NaN was seen, all of them one
 * by one. */
static ATTR void NAME(strip)(const T *x, int64_t inner, int64_t k0, int64_t h, K *best,
                         int64_t *y) {
  K g[STRIP(T)];
  I nan = 0, count = 0, beats[STRIP(T)], at[STRIP(T)];
  int64_t ahead = COL_ROWS * inner * (int64_t)sizeof(T);
  /* every row of the next stretch is asked for, its first and last too */
  PREFETCH_STRIP(x, ahead, T);
  for (int j = 0; j < STRIP(T); j++) {
    g[j] = KEY(x[j]);
    nan |= -(I)ISNAN(g[j]);
  }
  int64_t k = 1;
  for (; k + 2 <= h; k += 2) {
    const T *r = x + k * inner, *s = r + inner;
    PREFETCH_STRIP(r, ahead, T); /* the next stretch */
    PREFETCH_STRIP(s, ahead, T);
    for (int j = 0; j < STRIP(T); j++) {
      K v = KEY(r[j]), w = KEY(s[j]);
      g[j] = FURTHER(g[j], FURTHER(v, w));
      nan |= -(I)EITHER_NAN(v, w);
    }
  }
  if (k < h) {
    const T *r = x + k * inner;
    PREFETCH_STRIP(r, ahead, T);
    for (int j = 0; j < STRIP(T); j++) {
      K v = KEY(r[j]);
      g[j] = FURTHER(g[j], v);
      nan |= -(I)ISNAN(v);
    }
  }
  if (nan) {
    NAME(scan)(x, inner, STRIP(T), k0, h, best, y);
    return;
  }
  for (int j = 0; j < STRIP(T); j++) {
    beats[j] = -(I)BETTER(g[j], best[j]);
    count -= beats[j];
  }
  if (!count) return;
  /* Many such columns (early rows, where records are common): all rows
   * once for all of them, in the order where the row wanted is the last
   * match. Few: each column's rows until the first (last) match. */
  if (count > STRIP(T) / 8) {
    for (int j = 0; j < STRIP(T); j++) at[j] = 0;
    for (int64_t step = 0; step < h; step++) {
      I r = (I)(LAST ? step : h - 1 - step);
      const T *row = x + r * inner;
      for (int j = 0; j < STRIP(T); j++) {
        K v = KEY(row[j]);
        I match = -(I)(v == g[j]) & beats[j];
        at[j] = (r & match) | (at[j] & ~match);
      }
    }
    for (int j = 0; j < STRIP(T); j++) {
      best[j] = beats[j] ? g[j] : best[j];
      y[j] = beats[j] ? k0 + at[j] : y[j];
    }
    return;
  }
  for (int j = 0; j < STRIP(T); j++) {
    if (!beats[j]) continue;
    int64_t r = LAST ? h - 1 : 0;
    while (KEY(x[r * inner + j]) != g[j]) r += LAST ? -1 : 1;
    best[j] = g[j];
    y[j] = k0 + r;
  }
}
/* best: scratch for COL_BLOCK(K) keys */
static ATTR void NAME(cols)(const T *in, int64_t *out, int64_t outer, int64_t n, int64_t inner, int64_t c0,
                            int64_t c1, K *best) {
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j0 = c0; j0 < c1; j0 += COL_BLOCK(K)) {
      const T *x = in + o * n * inner + j0;
      int64_t *y = out + o * inner + j0;
      int64_t m = c1 - j0 < COL_BLOCK(K) ? c1 - j0 : COL_BLOCK(K);
      for (int64_t j = 0; j < m; j++) {
        best[j] = KEY(x[j]);
        y[j] = 0;
      }
      for (int64_t k0 = 1; k0 < n; k0 += COL_ROWS) {
        int64_t h = n - k0 < COL_ROWS ? n - k0 : COL_ROWS;
        const T *rows = x + k0 * inner;
        if (m < STRIP(T)) {
          NAME(scan)(rows, inner, m, k0, h, best, y);
          continue;
        }
        /* the last strip ends at m, overlapping the one before: a column
         * seen twice in a stretch gives the same result */
        for (int64_t j = 0; j < m; j += STRIP(T)) {
          int64_t at = m - j < STRIP(T) ? m - STRIP(T) : j;
          NAME(strip)(rows + at, inner, k0, h, best + at, y + at);
        }
      }
    }
}
#else
/* x[0..n), n a multiple of LANES up to PASS_LEN: each lane j holds the best key
 * among x[j], x[j + LANES], ... and its index (an I, beside the keys in the
 * vectors), the rule of BETTER applied element by element, so that NaN,
 * ties and -0 need nothing apart; then the lanes are merged. *at gets the
 * index; returns the key. */
static ATTR K NAME(pass)(const T *x, int64_t n, int64_t *at) {
  K acc[LANES];
  I where[LANES];
  for (int j = 0; j < LANES; j++) {
    acc[j] = KEY(x[j]);
    where[j] = (I)j;
  }
  for (int64_t i = LANES; i < n; i += LANES) {
    for (int p = 0; p < LANES * (int)sizeof(T); p += 64) mx_prefetch(x + i, MX_AHEAD + p);
    for (int j = 0; j < LANES; j++) {
      K v = KEY(x[i + j]);
      I take = -(I)BETTER(v, acc[j]);
      acc[j] = take ? v : acc[j];
      where[j] = (I)(((I)i + j) & take) | (where[j] & ~take);
    }
  }
  /* halves, as vectors as long as they go */
  for (int h = LANES / 2; h >= 1; h /= 2)
    for (int j = 0; j < h; j++) {
      K u = acc[j], v = acc[j + h];
      I a = where[j], b = where[j + h], take = -(I)AHEAD_OF(u, a, v, b);
      acc[j] = take ? v : u;
      where[j] = (b & take) | (a & ~take);
    }
  *at = where[0];
  return acc[0];
}
/* A row in stretches of PASS_LEN (a multiple of LANES: the indices fit an
 * I), each later stretch's best taking over by BETTER, then the rest. */
static ATTR int64_t NAME(row)(const T *x, int64_t n) {
  K best = KEY(x[0]);
  int64_t at = 0, full = n - n % LANES;
  for (int64_t b = 0; b < full; b += PASS_LEN) {
    int64_t i, len = full - b < PASS_LEN ? full - b : PASS_LEN;
    K m = NAME(pass)(x + b, len, &i);
    if (BETTER(m, best)) {
      best = m;
      at = b + i;
    }
  }
  return NAME(tail)(x, full, n, best, at);
}
/* One row's STRIP(T) columns at r through best b and row a (k: the row). */
static inline ATTR void NAME(step)(const T *restrict r, K *restrict b, I *restrict a, I k, int64_t ahead) {
  for (int p = 0; p < STRIP(T) * (int)sizeof(T); p += 64) mx_prefetch(r, ahead + p);
  for (int j = 0; j < STRIP(T); j++) {
    K v = KEY(r[j]);
    I take = -(I)BETTER(v, b[j]);
    b[j] = take ? v : b[j];
    a[j] = (k & take) | (a[j] & ~take);
  }
}
/* The same for two rows, r and s (rows k and k + 1): the best keys and rows
 * are read and written once for both (half the L1 traffic beside the
 * stream), and the data is loaded once (the one-row step's min build loaded
 * it twice, as operands of the compare and of the select). The pair's best
 * first, by BETTER (first or last index: the same as taking the rows one
 * after the other), then against the column's. */
static inline ATTR void NAME(step2)(const T *restrict r, const T *restrict s, K *restrict b, I *restrict a, I k,
                                    int64_t ahead) {
  for (int p = 0; p < STRIP(T) * (int)sizeof(T); p += 64) {
    mx_prefetch(r, ahead + p);
    mx_prefetch(s, ahead + p);
  }
  for (int j = 0; j < STRIP(T); j++) {
    K v = KEY(r[j]), w = KEY(s[j]);
    I later = -(I)BETTER(w, v);
    K u = later ? w : v;
    /* BETTER(u, b[j]); with the last index u is NaN when v or w is, which
     * gcc vectorizes (a NaN test of the select u it does not) */
    I take = -(I)(LAST ? MX_REACHES(DIR, u, b[j]) | EITHER_NAN(v, w) : BETTER(u, b[j]));
    b[j] = take ? u : b[j];
    a[j] = ((k - later) & take) | (a[j] & ~take);
  }
}
/* Rows [1, n) of the columns [0, w) at x (row stride inner; STRIP(T) <= w
 * <= SWEEP(K)): rows stream through in runs of w elements, best[] and at[]
 * (in L1) carrying each column's best key and row (the rule of BETTER, so
 * NaN and ties need nothing apart), STRIP(T) columns a step (the last step
 * overlaps the one before: a column seen twice in a row ends the same).
 * at[] holds rows within a stretch of PASS_LEN as an I; y gets them. */
static ATTR void NAME(sweep)(const T *x, int64_t inner, int64_t n, int64_t w, K *restrict best, I *restrict at,
                             int64_t *restrict y) {
  int64_t run = w * (int64_t)sizeof(T), full = w - w % STRIP(T);
  int64_t rows = (MX_AHEAD + run - 1) / run; /* whole rows ahead; pairs of them in pair steps */
  int64_t ahead = rows * inner * (int64_t)sizeof(T), ahead2 = (rows + 1) / 2 * 2 * inner * (int64_t)sizeof(T);
  for (int64_t j = 0; j < w; j++) {
    best[j] = KEY(x[j]);
    y[j] = 0;
  }
  for (int64_t k0 = 1; k0 < n; k0 += PASS_LEN) {
    int64_t h = n - k0 < PASS_LEN ? n - k0 : PASS_LEN;
    for (int64_t j = 0; j < w; j++) at[j] = -1;
    int64_t k = 0;
    for (; run >= PAIR_RUN && k + 2 <= h; k += 2) { /* two rows a step */
      const T *r = x + (k0 + k) * inner, *s = r + inner;
      for (int64_t j = 0; j < full; j += STRIP(T)) NAME(step2)(r + j, s + j, best + j, at + j, (I)k, ahead2);
      if (full < w) NAME(step2)(r + w - STRIP(T), s + w - STRIP(T), best + w - STRIP(T), at + w - STRIP(T), (I)k, ahead2);
      mx_prefetch(r + w - 1, ahead2);
      mx_prefetch(s + w - 1, ahead2);
    }
    for (; k < h; k++) {
      const T *r = x + (k0 + k) * inner;
      for (int64_t j = 0; j < full; j += STRIP(T)) NAME(step)(r + j, best + j, at + j, (I)k, ahead);
      if (full < w) NAME(step)(r + w - STRIP(T), best + w - STRIP(T), at + w - STRIP(T), (I)k, ahead);
      mx_prefetch(r + w - 1, ahead); /* a run not aligned to 64 bytes ends in one line more */
    }
    for (int64_t j = 0; j < w; j++) y[j] = at[j] < 0 ? y[j] : k0 + at[j];
  }
}
/* scratch: a key per column of a tile, then from the next 64 bytes an I
 * each; columns in tiles of at most SWEEP(K), as even as can be */
static ATTR void NAME(cols)(const T *in, int64_t *out, int64_t outer, int64_t n, int64_t inner, int64_t c0,
                            int64_t c1, void *scratch) {
  int64_t keys = inner < SWEEP(K) ? inner : SWEEP(K);
  K *best = scratch;
  I *at = (I *)((unsigned char *)scratch + ((size_t)keys * sizeof(K) + 63) / 64 * 64);
  int64_t tiles = (c1 - c0 + SWEEP(K) - 1) / SWEEP(K);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t t = 0; t < tiles; t++) {
      int64_t j0 = c0 + (c1 - c0) * t / tiles, w = c0 + (c1 - c0) * (t + 1) / tiles - j0;
      const T *x = in + o * n * inner + j0;
      int64_t *y = out + o * inner + j0;
      if (w >= STRIP(T)) {
        NAME(sweep)(x, inner, n, w, best, at, y);
        continue;
      }
      for (int64_t j = 0; j < w; j++) {
        best[j] = KEY(x[j]);
        y[j] = 0;
      }
      NAME(scan)(x + inner, inner, w, 1, n - 1, best, y);
    }
}
#endif
static ATTR void NAME(kernel)(const void *in_, int64_t *out, int64_t outer, int64_t n, int64_t inner, int64_t c0,
                              int64_t c1, void *scratch) {
  const T *in = in_;
  if (inner != 1) {
    NAME(cols)(in, out, outer, n, inner, c0, c1, scratch);
    return;
  }
  if (n < LANES) /* short rows: no blocks or lanes at all */
    for (int64_t o = 0; o < outer; o++) out[o] = NAME(tail)(in + o * n, 1, n, KEY(in[o * n]), 0);
  else
    for (int64_t o = 0; o < outer; o++) out[o] = NAME(row)(in + o * n, n);
}

