/* The loop of every one-operand elementwise kernel (ops/math/unary.c.in,
 * unary_math.c.in, unary_int.c.in), and its reference: a template header,
 * included once by each instance after it has defined
 *   typedef ... elem;                                   the element type
 *   static inline elem apply(mx_unop op, elem x, mx_unary_args a);
 *                                                       op of one element
 * op is a constant in every kernel (each passes its own), so apply's choice
 * folds away and each kernel is a plain loop, which the compiler vectorizes
 * at the instance's ISA level: every lane computes what the scalar code
 * does, operation for operation (ops/core/mathf.h). Kernel shape:
 * ops/math/unary.h's mx_unary_fn. */

/* STREAMS: the instance streams its stores when the call asks (a.stream). */
#ifndef STREAMS
#define STREAMS 0
#endif

static inline __attribute__((always_inline)) void run(mx_unop op, void *out_, const void *in_, int64_t n,
                                                      const mx_unary_args *ap) {
  elem *out = out_;
  const elem *in = in_;
  mx_unary_args a = *ap;
  if (STREAMS && a.stream) {
    MX_CHUNKED_STREAM(n, out, mx_prefetch(in + i0, MX_AHEAD + line), apply(op, in[i], a));
    mx_stream_end();
  } else {
    MX_CHUNKED(n, sizeof(elem), mx_prefetch(in + i0, MX_AHEAD + line), out[i] = apply(op, in[i], a));
  }
}

/* One element at a time, without the prefetches, the chunks and the level's
 * attribute: the oracle of the differential fuzzer and the unit tests. */
static void reference(mx_unop op, void *out_, const void *in_, int64_t n, const mx_unary_args *ap) {
  elem *out = out_;
  const elem *in = in_;
  for (int64_t i = 0; i < n; i++) out[i] = apply(op, in[i], *ap);
}
