/* The accuracy of the activation ops built on ops/core/mathf.h (README
 * "Activations", its table of formulas): each op's element function, the
 * one every kernel and the reference loop call (ops/math/unary_elem.h's
 * mx_unary_f32), over every 127th float32 bit pattern (the finite ones,
 * 3.4 x 10^7 inputs), against the formula in double through the C
 * library's double functions. Prints the largest error per op, in float32
 * ulps (tests/ulp/measure.h) or, where README states it so, absolute where
 * abs(y) < 1, with the input where it occurs. Seconds; run by hand:
 *   build/tests/ulp_ops
 * (Exp, Log, Erf, Sigmoid and Tanh are the functions themselves: every
 * input, tests/ulp/ulp.c.) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/math/unary.h"
#include "ops/math/unary_elem.h"
#include "tests/ulp/measure.h"

typedef struct {
  const char *name;
  mx_unop op;
  mx_unary_args args; /* the ONNX defaults (ops/math/unary.c) */
  int absolute;       /* 1: absolute error where abs(y) < 1; 0: ulps */
} op_case;

/* The formula of README's table in double, the float32 attributes taken at their exact values. */
static double want(const op_case *c, double x) {
  double alpha = c->args.alpha, beta = c->args.beta, gamma = c->args.gamma;
  switch (c->op) {
    case MX_ELU: return x < 0 ? alpha * expm1(x) : x;
    case MX_SELU: return x <= 0 ? gamma * (alpha * expm1(x)) : gamma * x;
    case MX_SOFTPLUS: return fmax(x, 0) + log1p(exp(-fabs(x)));
    case MX_HARD_SIGMOID: return fmax(0, fmin(1, alpha * x + beta));
    case MX_HARD_SWISH: return x * fmax(0, fmin(1, x / 6 + 0.5));
    case MX_GELU: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    default: /* MX_GELU_TANH */ return 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
  }
}

int main(void) {
  static const op_case cases[] = {
      {"Elu (alpha 1.0)", MX_ELU, {1.0f, 0, 0, 0}, 0},
      {"Selu", MX_SELU, {1.67326319217681884765625f, 0, 1.05070102214813232421875f, 0}, 0},
      {"Softplus", MX_SOFTPLUS, {0, 0, 0, 0}, 0},
      {"HardSigmoid (alpha 0.2, beta 0.5)", MX_HARD_SIGMOID, {0.2f, 0.5f, 0, 0}, 1},
      {"HardSwish", MX_HARD_SWISH, {0, 0, 0, 0}, 0},
      {"Gelu none", MX_GELU, {0, 0, 0, 0}, 1},
      {"Gelu tanh", MX_GELU_TANH, {0, 0, 0, 0}, 1},
  };
  int ncases = (int)(sizeof cases / sizeof cases[0]);
  double worst[sizeof cases / sizeof cases[0]] = {0};
  float at[sizeof cases / sizeof cases[0]] = {0};
  uint64_t n = 0;
  for (uint64_t u = 0; u < (1ull << 32); u += 127) {
    uint32_t b = (uint32_t)u;
    float x;
    memcpy(&x, &b, sizeof x);
    if (!isfinite(x)) continue;
    n++;
    for (int k = 0; k < ncases; k++) {
      const op_case *c = &cases[k];
      float y = mx_unary_f32(c->op, x, c->args);
      double w = want(c, (double)x), e;
      if (c->absolute) {
        if (!(fabs(w) < 1)) continue;
        e = fabs((double)y - w);
      } else {
        e = mathf_ulp_error(y, w);
      }
      if (e > worst[k]) worst[k] = e, at[k] = x;
    }
  }
  printf("%llu finite inputs (every 127th float32 bit pattern)\n", (unsigned long long)n);
  for (int k = 0; k < ncases; k++)
    printf("%-36s %.4g %s at x = %a (%.9g)\n", cases[k].name, worst[k], cases[k].absolute ? "absolute" : "ulp", at[k],
           (double)at[k]);
  return 0;
}
