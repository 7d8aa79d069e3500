/* The one-operand elementwise kernels (ops/math/unary.c): every op x dtype
 * kernel at every ISA level this CPU has, against the reference loop, bit
 * for bit, on lengths around the chunk and vector sizes, with any bits as
 * data (NaN, infinities, subnormals, the integers' extremes among them); a
 * few values the rules fix (README, "Activations and elementwise functions");
 * and the double square root of targets without the instruction against the
 * x86-64 one. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/core/kernel.h"
#include "ops/math/unary.h"
#include "ops/math/unary_elem.h"

static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16, MINNX_INT8, MINNX_INT16,
                                 MINNX_INT32, MINNX_INT64,  MINNX_UINT8,   MINNX_UINT16,   MINNX_UINT32, MINNX_UINT64};

/* Equal bits, or two NaNs (a NaN's payload is not part of the contract). */
static int same(mx_dtype t, const unsigned char *a, const unsigned char *b) {
  size_t es = mx_dtype_size(t);
  if (memcmp(a, b, es) == 0) return 1;
  uint64_t x = 0, y = 0, mag = t == MINNX_FLOAT ? 0x7fffffffu : t == MINNX_DOUBLE ? 0x7fffffffffffffffu : 0x7fffu;
  uint64_t inf = t == MINNX_FLOAT ? 0x7f800000u : t == MINNX_DOUBLE ? 0x7ff0000000000000u
                 : t == MINNX_FLOAT16 ? 0x7c00u : 0x7f80u;
  if (MX_BIT(t) & MX_INTS) return 0;
  memcpy(&x, a, es);
  memcpy(&y, b, es);
  return (x & mag) > inf && (y & mag) > inf;
}

static void kernels_against_reference(void) {
  enum { N = 1100 };
  static unsigned char in[N * 8 + 8], got[N * 8 + 8], want[N * 8 + 8];
  static const int64_t lengths[] = {0, 1, 7, 8, 31, 63, 64, 65, 127, 129, 255, 257, 1000, N};
  mx_unary_args a = {0.3f, 0.25f, 1.5f, 0};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
    mx_dtype t = types[ti];
    size_t es = mx_dtype_size(t);
    for (int op = 0; op < MX_UNOPS; op++) {
      mx_unary_ref_fn ref = mx_unary_ref(t, (mx_unop)op);
      if (!ref) continue;
      for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
        int64_t n = lengths[li];
        for (size_t k = 0; k < (size_t)n * es; k++) in[k] = (unsigned char)next();
        ref((mx_unop)op, want, in, n, &a);
        for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
          mx_unary_fn f = mx_unary_kernel(t, (mx_unop)op, (mx_isa)isa);
          CHECK(f != NULL);
          if (!f) continue;
          f(got, in, n, &a);
          int64_t bad = -1;
          for (int64_t i = 0; i < n && bad < 0; i++)
            if (!same(t, got + i * es, want + i * es)) bad = i;
          CHECK_EQ_INT(bad, -1);
          checked++;
        }
      }
    }
  }
  CHECK(checked > 500);
}

static float f32_of(mx_unop op, float x) { return mx_unary_f32(op, x, (mx_unary_args){0.01f, 0.5f, 1.0f, 0}); }
static double f64_of(mx_unop op, double x) { return mx_unary_f64(op, x, (mx_unary_args){0.01f, 0.5f, 1.0f, 0}); }

static void fixed_values(void) {
  /* round half to even; floor and ceil keep the sign of x */
  CHECK(f32_of(MX_ROUND, 2.5f) == 2.0f && f32_of(MX_ROUND, -3.5f) == -4.0f && f32_of(MX_ROUND, 0.5f) == 0.0f);
  CHECK(mx_f32_bits(f32_of(MX_ROUND, -0.5f)) == 0x80000000u);
  CHECK(mx_f32_bits(f32_of(MX_CEIL, -0.5f)) == 0x80000000u && f32_of(MX_FLOOR, -0.5f) == -1.0f);
  CHECK(f32_of(MX_FLOOR, 8388607.5f) == 8388607.0f && f32_of(MX_CEIL, -8388607.5f) == -8388607.0f);
  CHECK(f32_of(MX_FLOOR, 1e30f) == 1e30f && f64_of(MX_CEIL, 4503599627370495.5) == 4503599627370496.0);
  CHECK(f64_of(MX_ROUND, 4503599627370494.5) == 4503599627370494.0 && f64_of(MX_FLOOR, -1e-300) == -1.0);
  /* Relu of -0 is +0; Sign of -0 is +0 and of NaN NaN */
  CHECK(mx_f32_bits(f32_of(MX_RELU, -0.0f)) == 0 && mx_f32_bits(f32_of(MX_SIGN, -0.0f)) == 0);
  CHECK(f32_of(MX_SIGN, mx_f32_of_bits(0x7fc00000u)) != f32_of(MX_SIGN, mx_f32_of_bits(0x7fc00000u)));
  /* integers wrap */
  mx_unary_args none = {0, 0, 0, 0};
  CHECK(mx_unary_i8(MX_NEG, -128, none) == -128 && mx_unary_i8(MX_ABS, -128, none) == -128);
  CHECK(mx_unary_i64(MX_ABS, INT64_MIN, none) == INT64_MIN && mx_unary_i32(MX_RELU, -5, none) == 0);
  CHECK(mx_unary_u16(MX_SIGN, 65535, none) == 1 && mx_unary_u8(MX_ABS, 200, none) == 200);
}

/* float32's Exp, Sigmoid and Tanh at AVX2 and AVX-512 run chunks of 64 by
 * their short forms (Exp and Sigmoid for |x| <= 64, Tanh for |x| <= 9.25)
 * and a chunk with one |x| past that or a NaN again by the full ones
 * (ops/math/unary_math.c.in), which random bits alone seldom leave: a whole
 * chunk is then almost never within the bound. Inputs in [-9.25, 9.25]
 * (its edges exactly) in the first eight chunks, in [-64, 64] (its edges
 * exactly) after, and in some chunks one element past a bound: 9.25's and
 * 64's successors, 65, -80, 100 (Exp overflows), -200, +-inf, NaNs, a
 * subnormal; lengths with a tail; each call plain, with the streaming flag,
 * and in place; against the reference loop, bit for bit. */
static void chunked_math(void) {
  enum { N = 1100 };
  static float in[N], want[N], got[N + 16];
  static const mx_unop ops[] = {MX_EXP, MX_SIGMOID, MX_TANH};
  static const struct { int at; uint32_t bits; } past[] = {
      {100, 0x41140001u}, {130, 0x42800001u}, {600, 0x42820000u}, {660, 0xc2a00000u}, {720, 0x42c80000u},
      {780, 0xc3480000u}, {840, 0x7f800000u}, {900, 0xff800000u}, {960, 0x7fc00001u}, {1020, 0xffc00000u}};
  int checked = 0;
  for (int i = 0; i < N; i++)
    in[i] = ((float)(int64_t)(next() >> 40) / (float)(1 << 24) * 2.0f - 1.0f) * (i < 512 ? 9.25f : 64.0f);
  in[3] = 9.25f, in[5] = -9.25f, in[9] = mx_f32_of_bits(0x00000003u), in[11] = -0.0f;
  in[515] = 64.0f, in[517] = -64.0f;
  for (size_t k = 0; k < sizeof past / sizeof past[0]; k++) in[past[k].at] = mx_f32_of_bits(past[k].bits);
  static const int64_t lengths[] = {63, 64, 65, 700, N};
  for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
      int64_t n = lengths[li];
      mx_unary_args plain = {0.3f, 0.25f, 1.5f, 0}, streamed = {0.3f, 0.25f, 1.5f, MX_OUT_STREAM};
      mx_unary_ref(MINNX_FLOAT, ops[oi])(ops[oi], want, in, n, &plain);
      for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
        mx_unary_fn f = mx_unary_kernel(MINNX_FLOAT, ops[oi], (mx_isa)isa);
        for (int mode = 0; mode < 3; mode++) {
          float *o = mode == 1 ? got + 3 : got; /* streamed: a head before the first whole line */
          if (mode == 2) memcpy(o, in, (size_t)n * sizeof *in);
          f(o, mode == 2 ? o : in, n, mode ? &streamed : &plain);
          int64_t bad = -1;
          for (int64_t i = 0; i < n && bad < 0; i++)
            if (!same(MINNX_FLOAT, (unsigned char *)(o + i), (unsigned char *)(want + i))) bad = i;
          CHECK_EQ_INT(bad, -1);
          checked++;
        }
      }
    }
  CHECK(checked >= 3 * 5 * 3);
}

/* The Cortex-M4's double square root (digit by digit) gives the instruction's bits. */
static void soft_sqrt(void) {
  static const uint64_t edges[] = {0, 0x8000000000000000u, 1, 0x000fffffffffffffu, 0x0010000000000000u,
                                   0x7fefffffffffffffu, 0x7ff0000000000000u, 0x3ff0000000000000u,
                                   0x4000000000000000u, 0x3ff0000000000001u, 0x3fefffffffffffffu};
  long bad = 0;
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    double x = mx_f64_of_bits(edges[i]);
    bad += mx_f64_bits(mx_sqrt_f64_soft(x)) != mx_f64_bits(__builtin_sqrt(x));
  }
  CHECK(mx_sqrt_f64_soft(-1.0) != mx_sqrt_f64_soft(-1.0));
  for (long i = 0; i < 2000000; i++) {
    uint64_t u = next() & 0x7fffffffffffffffu;
    if (i & 1) u &= 0x000fffffffffffffu; /* subnormals */
    if (u >= 0x7ff0000000000000u) continue;
    double x = mx_f64_of_bits(u);
    bad += mx_f64_bits(mx_sqrt_f64_soft(x)) != mx_f64_bits(__builtin_sqrt(x));
  }
  for (long k = 1; k < 300000; k++) { /* squares and their neighbours: the rounding bit's edges */
    double x = (double)k * (double)k;
    bad += mx_f64_bits(mx_sqrt_f64_soft(x)) != mx_f64_bits(__builtin_sqrt(x));
    x = mx_f64_of_bits(mx_f64_bits(x) + 1);
    bad += mx_f64_bits(mx_sqrt_f64_soft(x)) != mx_f64_bits(__builtin_sqrt(x));
    x = mx_f64_of_bits(mx_f64_bits(x) - 2);
    bad += mx_f64_bits(mx_sqrt_f64_soft(x)) != mx_f64_bits(__builtin_sqrt(x));
  }
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  kernels_against_reference();
  fixed_values();
  chunked_math();
  soft_sqrt();
  return check_report("test_unary");
}
