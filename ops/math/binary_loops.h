/* The loops of every two-operand elementwise kernel (ops/math/binary.c.in,
 * logic.c.in): a template header, included once by each instance after it
 * has defined
 *   typedef ... elem;                        the operands' element type
 *   static inline void store(mx_binop op, void *out, int64_t i, elem a, elem b);
 *                                            writes element i of op(a, b)
 *                                            (the output's type is op's)
 * op is a constant in every call (each kernel passes its own), so store's
 * choice of operation folds away and each kernel is a plain loop.
 * Kernel shape: ops/math/binary.h's mx_binary_fn. */

/* Streams are walked 256 bytes at a time, asking for the data MX_AHEAD bytes
 * ahead (ops/core/kernel.h); a full chunk has a constant trip count, so it
 * vectorizes without a remainder. */
enum { CHUNK = 256 / (int)sizeof(elem) };

/* nt (a constant where inlined): stream the stores (ops/core/kernel.h); only
 * where the instance defines STREAMS, with an output of elem. The elements
 * before out's first whole line and the remainder store plainly; a full
 * chunk goes through a buffer in L1. */
#ifndef STREAMS
#define STREAMS 0
#endif
static inline __attribute__((always_inline)) void both(mx_binop op, void *out, const elem *a, const elem *b,
                                                       int64_t n, int nt) {
  int64_t i0 = 0;
  (void)nt;
#if STREAMS
  if (nt) {
    i0 = mx_stream_head(out, sizeof(elem), n);
    for (int64_t i = 0; i < i0; i++) store(op, out, i, a[i], b[i]);
  }
#endif
  for (; i0 + CHUNK <= n; i0 += CHUNK) {
#if STREAMS
    if (nt) {
      for (int line = 0; line < 256; line += 64) {
        mx_prefetch_l2(a + i0, MX_AHEAD + line);
        mx_prefetch_l2(b + i0, MX_AHEAD + line);
      }
      __attribute__((aligned(64))) elem buf[CHUNK];
      for (int64_t k = 0; k < CHUNK; k++) store(op, buf, k, a[i0 + k], b[i0 + k]);
      mx_stream_lines((elem *)out + i0, buf, 4);
      continue;
    }
#endif
    for (int line = 0; line < 256; line += 64) {
      mx_prefetch(a + i0, MX_AHEAD + line);
      mx_prefetch(b + i0, MX_AHEAD + line);
    }
    for (int64_t i = i0; i < i0 + CHUNK; i++) store(op, out, i, a[i], b[i]);
  }
  for (int64_t i = i0; i < n; i++) store(op, out, i, a[i], b[i]);
}

/* x steps, y is one value; `first`: x is the left operand. */
static inline __attribute__((always_inline)) void one(mx_binop op, void *out, const elem *x, elem y, int first,
                                                      int64_t n, int nt) {
  int64_t i0 = 0;
  (void)nt;
#if STREAMS
  if (nt) {
    i0 = mx_stream_head(out, sizeof(elem), n);
    for (int64_t i = 0; i < i0; i++) store(op, out, i, first ? x[i] : y, first ? y : x[i]);
  }
#endif
  for (; i0 + CHUNK <= n; i0 += CHUNK) {
#if STREAMS
    if (nt) {
      for (int line = 0; line < 256; line += 64) mx_prefetch_l2(x + i0, MX_AHEAD + line);
      __attribute__((aligned(64))) elem buf[CHUNK];
      if (first)
        for (int64_t k = 0; k < CHUNK; k++) store(op, buf, k, x[i0 + k], y);
      else
        for (int64_t k = 0; k < CHUNK; k++) store(op, buf, k, y, x[i0 + k]);
      mx_stream_lines((elem *)out + i0, buf, 4);
      continue;
    }
#endif
    for (int line = 0; line < 256; line += 64) mx_prefetch(x + i0, MX_AHEAD + line);
    if (first)
      for (int64_t i = i0; i < i0 + CHUNK; i++) store(op, out, i, x[i], y);
    else
      for (int64_t i = i0; i < i0 + CHUNK; i++) store(op, out, i, y, x[i]);
  }
  if (first)
    for (int64_t i = i0; i < n; i++) store(op, out, i, x[i], y);
  else
    for (int64_t i = i0; i < n; i++) store(op, out, i, y, x[i]);
}

/* out_size: the bytes of one output element (op's type); nt: as both's. */
static inline __attribute__((always_inline)) void rows_of(mx_binop op, size_t out_size, void *o, const void *a_,
                                                          int sa, const void *b_, int sb, int64_t n, int64_t rows,
                                                          int64_t da, int64_t db, int nt) {
  unsigned char *out = o;
  const elem *a = a_, *b = b_;
  for (int64_t r = 0; r < rows; r++, out += (size_t)n * out_size, a += da, b += db) {
    if (sa && sb) {
      both(op, out, a, b, n, nt);
    } else if (sa || sb) {
      one(op, out, sa ? a : b, sa ? b[0] : a[0], sa, n, nt);
    } else {
      for (int64_t i = 0; i < n; i++) store(op, out, i, a[0], b[0]);
    }
  }
}

/* A kernel: the call flag MX_OUT_STREAM in sa streams the stores where the
 * instance can (an output of elem), else it is ignored. */
static inline __attribute__((always_inline)) void kernel_of(mx_binop op, size_t out_size, void *o, const void *a,
                                                            int sa, const void *b, int sb, int64_t n, int64_t rows,
                                                            int64_t da, int64_t db) {
  const int nt = STREAMS && out_size == sizeof(elem) && (sa & MX_OUT_STREAM);
  sa &= ~MX_OUT_STREAM;
  if (nt) {
    rows_of(op, out_size, o, a, sa, b, sb, n, rows, da, db, 1);
    mx_stream_end();
  } else {
    rows_of(op, out_size, o, a, sa, b, sb, n, rows, da, db, 0);
  }
}
