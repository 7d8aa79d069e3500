/* Template (no include guard): the elementwise kernels of one dtype in one
 * direction, instantiated by extremum_pair.c's table. The instance gives
 *   T           the element type,
 *   PICK(a, b)  the extreme of two elements under the NaN rule (extremum.h),
 *   NAME(f)     the instance's name for kernel f.
 * Kernel shapes and what the arguments mean: extremum_kernels.h. */

/* The stride cases are split so that each loop is a plain vectorizable one,
 * and folding in place (out == a) is a case of its own: clang's run-time
 * overlap check sends out == a to its scalar loop. With one scalar operand
 * its order does not matter: NaN anywhere gives NaN. */
static void NAME(pair)(void *o, const void *a_, int sa, const void *b_, int sb, int64_t n, int64_t rows, int64_t da,
                       int64_t db) {
  T *out = o;
  const T *a = a_, *b = b_;
  if (n <= 16) { /* short rows (a tiny node): a vector loop's setup would cost more */
    for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db)
      for (int64_t i = 0; i < n; i++) out[i] = PICK(a[sa ? i : 0], b[sb ? i : 0]);
    return;
  }
  if (sa && sb && out == a && (rows == 1 || da == n)) {
    for (int64_t r = 0; r < rows; r++, out += n, b += db) CHUNKED(n, T, AHEAD(b, sb), out[i] = PICK(out[i], b[i]));
  } else if (sa && sb) {
    for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db)
      CHUNKED(n, T, (AHEAD(a, sa), AHEAD(b, sb)), out[i] = PICK(a[i], b[i]));
  } else if (sa || sb) {
    const T *x = sa ? a : b, *ys = sa ? b : a;
    int64_t dx = sa ? da : db, dy = sa ? db : da;
    for (int64_t r = 0; r < rows; r++, out += n, x += dx, ys += dy) {
      const T y = ys[0];
      if (out == x && (rows == 1 || dx == n))
        CHUNKED(n, T, (void)0, out[i] = PICK(out[i], y));
      else
        CHUNKED(n, T, AHEAD(x, sa | sb), out[i] = PICK(x[i], y));
    }
  } else {
    for (int64_t r = 0; r < rows; r++, out += n, a += da, b += db) {
      const T v = PICK(a[0], b[0]);
      for (int64_t i = 0; i < n; i++) out[i] = v;
    }
  }
}

static void NAME(triple)(void *o, const void *b_, int sb, const void *c_, int sc, int64_t n) {
  T *out = o;
  const T *b = b_, *c = c_;
  CHUNKED(n, T, (AHEAD(b, sb), AHEAD(c, sc)), out[i] = PICK(PICK(out[i], b[i]), c[i]));
}

static void NAME(quad)(void *o, const void *a_, int sa, const void *b_, int sb, const void *c_, int sc, const void *d_,
                       int sd, int64_t n) {
  T *out = o;
  const T *a = a_, *b = b_, *c = c_, *d = d_;
  if (out == a) /* clang vectorizes in place only as a loop of its own */
    CHUNKED(n, T, (AHEAD(b, sb), AHEAD(c, sc), AHEAD(d, sd)), out[i] = PICK(PICK(out[i], b[i]), PICK(c[i], d[i])));
  else
    CHUNKED(n, T, (AHEAD(a, sa), AHEAD(b, sb), AHEAD(c, sc), AHEAD(d, sd)),
            out[i] = PICK(PICK(a[i], b[i]), PICK(c[i], d[i])));
}

/* The extreme of each of `rows` rows of n > 0 elements folded into out[r]:
 * LANES running extremes (so that the loop vectorizes; NaN propagates through
 * PICK), then one. */
static void NAME(rows)(void *o, const void *x_, int64_t n, int64_t rows) {
  T *out = o;
  const T *x = x_;
  for (int64_t r = 0; r < rows; r++, x += n) {
    T acc = out[r];
    int64_t i = 0;
    if (n >= RED_LANES) {
      T lane[RED_LANES];
      for (int j = 0; j < RED_LANES; j++) lane[j] = x[j];
      for (i = RED_LANES; i + RED_LANES <= n; i += RED_LANES) {
        for (int p = 0; p < RED_LANES * (int)sizeof(T); p += 64) mx_prefetch(x + i, MX_AHEAD + p);
        for (int j = 0; j < RED_LANES; j++) lane[j] = PICK(lane[j], x[i + j]);
      }
      for (int j = 0; j < RED_LANES; j++) acc = PICK(acc, lane[j]);
    }
    for (; i < n; i++) acc = PICK(acc, x[i]);
    out[r] = acc;
  }
}
