/* What tests/unit/test_mathf.c and test_mathf_fma.c share: the functions'
 * numbers and the loop a kernel would be, instantiated per instruction set. */
#ifndef MX_TEST_MATHF_H
#define MX_TEST_MATHF_H

enum { F_EXP, F_EXPM1, F_LOG, F_LOG1P, F_TANH, F_SIGMOID, F_ERF, F_POW, NFUNC };

/* The loop a kernel would be, instantiated once per instruction set. */
#define MATHF_LOOP(attr, name)                                                                                  \
  attr static void name(int f, const float *x, const float *y, float *out, int n) {                          \
    switch (f) {                                                                                               \
      case F_EXP: for (int i = 0; i < n; i++) out[i] = mx_expf(x[i]); break;                                   \
      case F_EXPM1: for (int i = 0; i < n; i++) out[i] = mx_expm1f(x[i]); break;                               \
      case F_LOG: for (int i = 0; i < n; i++) out[i] = mx_logf(x[i]); break;                                   \
      case F_LOG1P: for (int i = 0; i < n; i++) out[i] = mx_log1pf(x[i]); break;                               \
      case F_TANH: for (int i = 0; i < n; i++) out[i] = mx_tanhf(x[i]); break;                                 \
      case F_SIGMOID: for (int i = 0; i < n; i++) out[i] = mx_sigmoidf(x[i]); break;                           \
      case F_ERF: for (int i = 0; i < n; i++) out[i] = mx_erff(x[i]); break;                                   \
      default: for (int i = 0; i < n; i++) out[i] = mx_powf(x[i], y[i]); break;                                \
    }                                                                                                          \
  }

#endif
