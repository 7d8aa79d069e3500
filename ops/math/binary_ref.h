/* The reference loop of the two-operand elementwise kernels: a template
 * header, included by each instance after binary_loops.h's requirements
 * (elem, store). Each output element from its two operands under numpy
 * broadcasting, one at a time, by the same per-element operation as the
 * kernels: the oracle of the differential fuzzer and the unit tests. */

static void reference(mx_binop op, const mx_shape *sa, const void *a_, const mx_shape *sb, const void *b_,
                      const mx_shape *so, void *out) {
  const elem *a = a_, *b = b_;
  int64_t count = 1, idx[MX_MAX_RANK] = {0};
  for (int d = 0; d < so->rank; d++) count *= so->dims[d];
  for (int64_t i = 0; i < count; i++) {
    int64_t rest = i;
    for (int d = so->rank - 1; d >= 0; d--) idx[d] = rest % so->dims[d], rest /= so->dims[d];
    store(op, out, i, a[mx_bcast_offset(sa, so, idx)], b[mx_bcast_offset(sb, so, idx)]);
  }
}
