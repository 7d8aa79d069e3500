/* Template (no include guard): the elementwise kernels of one dtype in one
 * direction, instantiated by extremum_pair.c's table. The instance gives
 *   T           the element type,
 *   PICK(a, b)  the extreme of two elements under the NaN rule (extremum.h),
 *   NAME(f)     the instance's name for kernel f,
 *   ATTR        its functions' attributes (the AVX2 target, or nothing).
 * Kernel shapes and what the arguments mean: extremum_kernels.h. */

/* The stride cases are split so that each loop is a plain vectorizable one,
 * and folding in place (out == a) is a case of its own: clang's run-time
 * overlap check sends out == a to its scalar loop. With one scalar operand
 * its order does not matter: NaN anywhere gives NaN. */
static ATTR void NAME(pair)(void *o, const void *a_, int sa, const void *b_, int sb, int64_t n, int64_t rows, int64_t da,
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

static ATTR void NAME(triple)(void *o, const void *b_, int sb, const void *c_, int sc, int64_t n) {
  T *out = o;
  const T *b = b_, *c = c_;
  CHUNKED(n, T, (AHEAD(b, sb), AHEAD(c, sc)), out[i] = PICK(PICK(out[i], b[i]), c[i]));
}

static ATTR void NAME(quad)(void *o, const void *a_, int sa, const void *b_, int sb, const void *c_, int sc, const void *d_,
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
static ATTR void NAME(rows)(void *o, const void *x_, int64_t n, int64_t rows) {
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

/* Rows of x folded into a row of results: out[j] = PICK(out[j], x[r * stride
 * + j]) for r = 0, 1, ... in turn. FOLD_ROWS rows at a time, so that a
 * result is loaded and stored once per FOLD_ROWS rows (its picks still come
 * row after row). Each of those rows is a stream that goes on FOLD_ROWS rows
 * down at the end of its span, and is prefetched along that: when a task
 * takes a short span of each row, the bytes it reads next are in the rows
 * below, not further along the row (another task's). MX_AHEAD bytes ahead
 * in all: a FOLD_ROWS-th of it along each stream (a whole MX_AHEAD each, 32
 * KB in flight, evicted lines from L1 before they were read: 10-20% slower). */
static ATTR void NAME(fold)(void *o, const void *x_, int64_t n, int64_t rows, int64_t stride) {
  T *restrict out = o;
  const T *x = x_;
  const uintptr_t es = sizeof(T), down = (uintptr_t)(FOLD_ROWS * stride) * es; /* bytes to a stream's next span */
  /* where a pass's prefetch starts, in bytes from its first row: column
   * `col0` of the span `spans` passes down */
  const int64_t ahead = MX_AHEAD / FOLD_ROWS / (int64_t)es, col0 = ahead % n, spans = ahead / n;
  const uintptr_t at0 = (uintptr_t)spans * down + (uintptr_t)col0 * es;
  int64_t r = 0;
  for (; r + FOLD_ROWS <= rows; r += FOLD_ROWS) {
    const T *restrict a = x + r * stride, *restrict b = a + stride, *restrict c = b + stride, *restrict d = c + stride;
    int64_t col = col0;
    uintptr_t at = at0;
    int64_t i0 = 0;
    for (; i0 + CHUNK(T) <= n; i0 += CHUNK(T)) {
      for (int k = 0; k < FOLD_ROWS; k++)
        for (int line = 0; line < 256; line += 64) mx_prefetch(a, at + (uintptr_t)(k * stride) * es + (uintptr_t)line);
      for (int64_t i = i0; i < i0 + CHUNK(T); i++) out[i] = PICK(PICK(PICK(PICK(out[i], a[i]), b[i]), c[i]), d[i]);
      col += CHUNK(T), at += 256;
      if (col >= n) col -= n, at += down - (uintptr_t)n * es;
    }
    for (int64_t i = i0; i < n; i++) out[i] = PICK(PICK(PICK(PICK(out[i], a[i]), b[i]), c[i]), d[i]);
  }
  for (; r < rows; r++) NAME(pair)(out, out, MX_CACHED, x + r * stride, MX_STREAM, n, 1, 0, 0); /* the same picks */
}
