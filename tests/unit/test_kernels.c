/* The min/max family's kernels (Max/Min, ArgMax/ArgMin, ReduceMax/ReduceMin,
 * both directions of each) against two oracles: a naive reference written
 * here from the rules, and the plain reference loops of ops/minmax/extremum_ref.c, on sizes the conformance cases are too small to reach: rows longer
 * than a block and not a multiple of the vector lanes, column blocks with a
 * remainder, every broadcast fast path, every dtype; data with ties, NaN,
 * infinities and both zeros. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/minmax/arg.h"
#include "ops/minmax/extremum_ref.h"
#include "ops/minmax/minmax.h"

/* ---- values: every dtype read as a double or as "NaN", for the reference ---- */

static double half_to_double(uint16_t h, int bf16) {
  if (bf16) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

/* Element i as a double; 64-bit integers are compared exactly instead. */
static double value(mx_dtype t, const void *p, int64_t i) {
  switch (t) {
    case MINNX_FLOAT: return ((const float *)p)[i];
    case MINNX_DOUBLE: return ((const double *)p)[i];
    case MINNX_FLOAT16: return half_to_double(((const uint16_t *)p)[i], 0);
    case MINNX_BFLOAT16: return half_to_double(((const uint16_t *)p)[i], 1);
    case MINNX_INT8: return ((const int8_t *)p)[i];
    case MINNX_INT16: return ((const int16_t *)p)[i];
    case MINNX_INT32: return ((const int32_t *)p)[i];
    case MINNX_UINT8: return ((const uint8_t *)p)[i];
    case MINNX_UINT16: return ((const uint16_t *)p)[i];
    case MINNX_UINT32: return ((const uint32_t *)p)[i];
    default: return 0;
  }
}

/* -1, 0, 1 as element i of p compares with element j of q; NaN above all, NaNs equal. */
static int compare(mx_dtype t, const void *p, int64_t i, const void *q, int64_t j) {
  if (t == MINNX_INT64) {
    int64_t a = ((const int64_t *)p)[i], b = ((const int64_t *)q)[j];
    return (a > b) - (a < b);
  }
  if (t == MINNX_UINT64) {
    uint64_t a = ((const uint64_t *)p)[i], b = ((const uint64_t *)q)[j];
    return (a > b) - (a < b);
  }
  double a = value(t, p, i), b = value(t, q, j);
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return (a > b) - (a < b);
}

/* The same in direction dir: for MX_MIN numbers compare the other way round,
 * and NaN still lies beyond them all (the arg rule; for elementwise results
 * the selected element is then a NaN, the NaN rule). */
static int compare_dir(mx_dtype t, mx_dir dir, const void *p, int64_t i, const void *q, int64_t j) {
  int c = compare(t, p, i, q, j);
  if (dir == MX_MAX) return c;
  int pn = t != MINNX_INT64 && t != MINNX_UINT64 && isnan(value(t, p, i));
  int qn = t != MINNX_INT64 && t != MINNX_UINT64 && isnan(value(t, q, j));
  return pn || qn ? pn - qn : -c;
}

/* ---- random data ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}

/* Fills n elements: small values (many ties), a few of each special value
 * (NaN of both signs, infinities, both zeros) when `specials`. */
static void fill(mx_dtype t, void *p, int64_t n, int specials) {
  size_t es = mx_dtype_size(t);
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    int kind = specials ? (int)(r % 64) : 63;
    int64_t small = (int64_t)(r >> 8) % 7 - 3;
    unsigned char *e = (unsigned char *)p + (size_t)i * es;
    switch (t) {
      case MINNX_FLOAT: {
        float v = kind == 0 ? NAN : kind == 1 ? -NAN : kind == 2 ? INFINITY : kind == 3 ? -INFINITY : kind == 4 ? -0.0f : (float)small / 2;
        memcpy(e, &v, 4);
        break;
      }
      case MINNX_DOUBLE: {
        double v = kind == 0 ? NAN : kind == 1 ? -NAN : kind == 2 ? INFINITY : kind == 3 ? -INFINITY : kind == 4 ? -0.0 : (double)small / 2;
        memcpy(e, &v, 8);
        break;
      }
      case MINNX_FLOAT16:
      case MINNX_BFLOAT16: {
        int bf = t == MINNX_BFLOAT16;
        uint16_t inf = bf ? 0x7f80 : 0x7c00, one = bf ? 0x3f80 : 0x3c00;
        uint16_t v = kind == 0 ? (uint16_t)(inf | 1) : kind == 1 ? (uint16_t)(0x8000 | inf | 3) : kind == 2 ? inf
                   : kind == 3 ? (uint16_t)(0x8000 | inf) : kind == 4 ? 0x8000 : (uint16_t)(small == 0 ? 0 : (small < 0 ? 0x8000 : 0) | (one + (uint16_t)(llabs(small) << (bf ? 4 : 7))));
        memcpy(e, &v, 2);
        break;
      }
      default: { /* integers: small values, and the type's extremes as specials */
        int64_t v = small;
        if (kind == 0) v = -1; /* all bits set: the max of an unsigned type */
        memcpy(e, &v, es); /* little-endian: the low bytes */
        break;
      }
    }
  }
}

static const mx_dtype all_types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16, MINNX_INT8, MINNX_INT16,
                                     MINNX_INT32, MINNX_INT64, MINNX_UINT8, MINNX_UINT16, MINNX_UINT32, MINNX_UINT64};
#define N_TYPES (int)(sizeof all_types / sizeof all_types[0])

/* A hook that runs the tasks on the calling thread in another order (last
 * first, then the rest from the start), as a pool may: a split whose tasks
 * touched the same bytes, or read what another writes, shows. */
static long split_runs; /* evals that were split */

static void scrambled(void *runs, minnx_task_fn task, void *ctx, size_t n) {
  (*(long *)runs)++;
  if (n > 0) task(ctx, n - 1);
  for (size_t i = 0; i + 1 < n; i++) task(ctx, i);
}

/* ---- ArgMax ---- */

/* Whether ArgMax's tables have kernels of level isa (else a level above the
 * portable one runs the same kernels as the level below). */
static int argmax_has_level(mx_isa isa) {
  for (size_t i = 0; i < mx_arg_along_n_rows; i++)
    if (mx_arg_along_rows[i].isa == isa) return 1;
  for (size_t i = 0; i < mx_arg_across_n_rows; i++)
    if (mx_arg_across_rows[i].isa == isa) return 1;
  return 0;
}

/* ArgMax or ArgMin through the op's prepare and eval, with the scratch it asks for. */
static void argmax_case(mx_dtype t, mx_dir dir, int64_t outer, int64_t n, int64_t inner, int last, int specials,
                        int skew) {
  if (!check_sample(3)) return; /* (under valgrind: a third of the cases, check.h) */
  mx_shape in = {.rank = 3, .dims = {outer, n, inner}}, out = {.rank = 3, .dims = {outer, 1, inner}};
  const mx_shape *ins[1] = {&in};
  mx_attr attrs[2] = {{.name = "axis", .type = MX_ATTR_INT, .i = 1}, {.name = "select_last_index", .type = MX_ATTR_INT, .i = last}};
  mx_node node = {.name = "t", .op_type = dir == MX_MIN ? "ArgMin" : "ArgMax", .domain = "", .n_inputs = 1,
                  .n_outputs = 1, .n_attrs = 2, .attrs = attrs};
  void *plan = malloc(mx_argmax_params_size(&node));
  /* skew: the input starts an element past malloc's alignment */
  unsigned char *mem = malloc((size_t)(outer * n * inner + skew) * mx_dtype_size(t) + 1);
  void *x = mem + (size_t)skew * mx_dtype_size(t);
  int64_t *y = malloc((size_t)(outer * inner) * sizeof *y + 1);
  int64_t *y2 = malloc((size_t)(outer * inner) * sizeof *y2 + 1);
  fill(t, x, outer * n * inner, specials);
  int64_t *ref = malloc((size_t)(outer * inner) * sizeof *ref + 1);
  int64_t *want = malloc((size_t)(outer * inner) * sizeof *want + 1);
  /* the answer, from the rules (compare_dir), once for every level below */
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      int64_t best = 0, base = o * n * inner + j;
      for (int64_t k = 1; k < n; k++) {
        int cmp = compare_dir(t, dir, x, base + k * inner, x, base + best * inner);
        if (cmp > 0 || (cmp == 0 && last)) best = k;
      }
      want[o * inner + j] = best;
    }
  mx_ref_arg(t, dir, last, &in, 1, x, ref);
  int wrong = 0;
  for (int64_t i = 0; i < outer * inner; i++)
    if (ref[i] != want[i] && !wrong++)
      fprintf(stderr, "reference loop of Arg%s dtype %d at %lld: %lld, expected %lld\n", dir ? "Min" : "Max", t,
              (long long)i, (long long)ref[i], (long long)want[i]);
  /* the portable kernels, and each level above that this build and CPU have (argmax_has_level) */
  for (mx_isa isa = MX_ISA_PORTABLE; isa <= mx_cpu_isa(); isa++) {
    if (isa != MX_ISA_PORTABLE && !argmax_has_level(isa)) continue; /* the level below's kernels again */
    mx_op_ctx c = {.node = &node, .in = ins, .out = &out, .in_dtype = &t};
    mx_argmax_prepare_isa(&c, plan, isa);
    const void *inp[1] = {x};
    void *outp[1] = {y};
    void *scratch = malloc(c.scratch + 1);
    mx_exec exec = {.scratch = scratch};
    mx_argmax_eval(&exec, plan, inp, outp);
    /* split into tasks, each with its part of the scratch: the same indices */
    void *outp2[1] = {y2};
    mx_exec split = {scrambled, &split_runs, scratch, NULL};
    mx_argmax_eval(&split, plan, inp, outp2);
    CHECK(memcmp(y, y2, (size_t)(outer * inner) * sizeof *y) == 0);
    for (int64_t i = 0; i < outer * inner; i++)
      if (y[i] != want[i] && !wrong++)
        fprintf(stderr, "Arg%s%s dtype %d [%lld,%lld,%lld] last=%d skew=%d at %lld: %lld, expected %lld\n",
                dir ? "Min" : "Max", isa == MX_ISA_AVX2 ? " (AVX2 kernels)" : "", t, (long long)outer, (long long)n,
                (long long)inner, last, skew, (long long)i, (long long)y[i], (long long)want[i]);
    free(scratch);
  }
  CHECK_EQ_INT(wrong, 0);
  free(plan);
  free(mem);
  free(y);
  free(y2);
  free(ref);
  free(want);
}

static void test_argmax(void) {
  /* (outer, n, inner): tiny, rows over one lane group, over a block, not a
   * multiple of the lanes, over stretches of PASS_LEN (8192); columns over a
   * column block or sweep tile, with a remainder, narrower than a strip, in
   * more rows than a stretch */
  static const int64_t shapes[][3] = {{1, 1, 1},   {3, 4, 1},   {2, 31, 1},  {2, 32, 1},  {2, 33, 1},   {3, 511, 1},
                                      {2, 512, 1}, {2, 513, 1}, {2, 1500, 1}, {1, 4099, 1}, {5, 7, 3},   {2, 50, 31},
                                      {1, 40, 1025}, {2, 9, 2100}, {1, 5, 8300}, {2, 300, 70}, {1, 1, 5},
                                      {1, 20000, 1}, {2, 8257, 1}, {1, 8195, 33}, {2, 3, 130}, {1, 3, 4500},
                                      /* split into tasks: outer ranges, and the columns of one slice */
                                      {67, 50, 33}, {300, 1001, 1}, {1, 700, 301}, {3, 170, 257}, {1, 40, 3000}, {1, 30, 9000},
                                      {2, 25, 4400}};
  /* the portable kernels, and each level above that this build and CPU have */
  if (!argmax_has_level(MX_ISA_AVX2) || mx_cpu_isa() < MX_ISA_AVX2)
    fprintf(stderr, "test_kernels: no AVX2 ArgMax kernels here (build or CPU); the portable ones only\n");
  for (int ti = 0; ti < N_TYPES; ti++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (int last = 0; last < 2; last++)
        for (int specials = 0; specials < 2; specials++)
          for (int dir = MX_MAX; dir <= MX_MIN; dir++)
            argmax_case(all_types[ti], (mx_dir)dir, shapes[s][0], shapes[s][1], shapes[s][2], last, specials,
                        (int)(s % 3 == 1));
}

/* ---- Max ---- */

static int64_t count_of(const mx_shape *s) {
  int64_t c = 1;
  for (int i = 0; i < s->rank; i++) c *= s->dims[i];
  return c;
}

/* The element of input s at output position idx (numpy broadcasting). */
static int64_t bcast_index(const mx_shape *s, const mx_shape *out, const int64_t *idx) {
  int64_t off = 0;
  for (int d = 0; d < s->rank; d++) {
    int od = d + out->rank - s->rank;
    off = off * s->dims[d] + (s->dims[d] == 1 ? 0 : idx[od]);
  }
  return off;
}

static void max_case(mx_dtype t, mx_dir dir, int n_in, const mx_shape *shapes, const mx_shape *out) {
  if (!check_sample(3)) return; /* (under valgrind: a third of the cases, check.h) */
  const mx_shape *ins[8];
  void *x[8];
  size_t es = mx_dtype_size(t);
  for (int k = 0; k < n_in; k++) {
    ins[k] = &shapes[k];
    x[k] = malloc((size_t)count_of(&shapes[k]) * es + 1);
    fill(t, x[k], count_of(&shapes[k]), 1);
  }
  mx_node node = {.name = "t", .op_type = dir == MX_MIN ? "Min" : "Max", .domain = "", .n_inputs = n_in, .n_outputs = 1};
  mx_shape out_shape = *out;
  mx_op_ctx c = {.node = &node, .in = ins, .out = &out_shape, .in_dtype = &t, .isa = mx_cpu_isa()};
  void *plan = malloc(mx_max_params_size(&node));
  int64_t count = count_of(out);
  void *y = malloc((size_t)count * es + 1);
  void *ref = malloc((size_t)count * es + 1);
  mx_max_prepare(&c, plan);
  void *outp[1] = {y};
  mx_exec exec = {0};
  mx_max_eval(&exec, plan, (const void *const *)x, outp);
  /* split into tasks (when large enough): the same bytes */
  void *y2 = malloc((size_t)count * es + 1);
  void *outp2[1] = {y2};
  mx_exec split = {scrambled, &split_runs, NULL, NULL};
  mx_max_eval(&split, plan, (const void *const *)x, outp2);
  CHECK(memcmp(y, y2, (size_t)count * es) == 0);
  free(y2);
  mx_ref_elementwise(t, dir, n_in, ins, (const void *const *)x, out, ref);
  int64_t idx[MX_MAX_RANK] = {0};
  int wrong = 0;
  for (int64_t i = 0; i < count; i++) {
    /* the reference: the largest input, NaN if any is NaN */
    int best = 0;
    int64_t at = bcast_index(&shapes[0], out, idx);
    for (int k = 1; k < n_in; k++) {
      int64_t e = bcast_index(&shapes[k], out, idx);
      if (compare_dir(t, dir, x[k], e, x[best], at) > 0) best = k, at = e;
    }
    if (compare(t, y, i, x[best], at) != 0 && !wrong++)
      fprintf(stderr, "%s dtype %d of %d inputs: element %lld differs\n", dir ? "Min" : "Max", t, n_in, (long long)i);
    if (compare(t, ref, i, x[best], at) != 0 && !wrong++)
      fprintf(stderr, "reference loop of %s dtype %d: element %lld differs\n", dir ? "Min" : "Max", t, (long long)i);
    for (int d = out->rank - 1; d >= 0 && ++idx[d] == out->dims[d]; d--) idx[d] = 0;
  }
  CHECK_EQ_INT(wrong, 0);
  for (int k = 0; k < n_in; k++) free(x[k]);
  free(plan);
  free(y);
  free(ref);
}

#define SH(r, ...) ((mx_shape){.rank = (r), .dims = {__VA_ARGS__}})

static void test_max(void) {
  struct {
    int n;
    mx_shape in[4], out;
  } cases[] = {
      {2, {SH(2, 3, 4), SH(2, 3, 4)}, SH(2, 3, 4)},
      {2, {SH(1, 5000), SH(1, 5000)}, SH(1, 5000)},          /* same shape, over a block */
      {4, {SH(1, 4099), SH(1, 4099), SH(1, 4099), SH(1, 4099)}, SH(1, 4099)},
      {3, {SH(2, 7, 300), SH(2, 7, 300), SH(2, 7, 300)}, SH(2, 7, 300)},
      {4, {SH(2, 7, 300), SH(0, 0), SH(2, 7, 300), SH(1, 300)}, SH(2, 7, 300)}, /* folds mixing values and rows */
      {4, {SH(1, 300), SH(2, 7, 300), SH(2, 7, 1), SH(2, 7, 300)}, SH(2, 7, 300)},
      {1, {SH(2, 5, 9)}, SH(2, 5, 9)},
      {2, {SH(2, 70, 33), SH(1, 33)}, SH(2, 70, 33)},        /* a row */
      {2, {SH(2, 300, 5), SH(1, 5)}, SH(2, 300, 5)},         /* short rows */
      {2, {SH(2, 300, 5), SH(2, 300, 1)}, SH(2, 300, 5)},
      {2, {SH(1, 33), SH(2, 70, 33)}, SH(2, 70, 33)},
      {2, {SH(2, 70, 33), SH(2, 70, 1)}, SH(2, 70, 33)},     /* a column */
      {2, {SH(2, 70, 1), SH(2, 70, 33)}, SH(2, 70, 33)},
      {2, {SH(2, 45, 101), SH(0, 0)}, SH(2, 45, 101)},       /* a scalar */
      {2, {SH(0, 0), SH(1, 5000)}, SH(1, 5000)},
      {2, {SH(4, 4, 1, 6, 1), SH(3, 5, 1, 7)}, SH(4, 4, 5, 6, 7)},
      {2, {SH(4, 3, 1, 64, 1), SH(3, 9, 1, 40)}, SH(4, 3, 9, 64, 40)},
      {3, {SH(2, 3, 1), SH(2, 1, 4), SH(1, 4)}, SH(2, 3, 4)},
      {2, {SH(2, 1, 3000), SH(2, 3, 1)}, SH(2, 3, 3000)},
      {2, {SH(0, 0), SH(0, 0)}, SH(0, 0)},
      {2, {SH(2, 0, 3), SH(1, 3)}, SH(2, 0, 3)},
      /* large enough to be split into tasks: rows, a row in pieces, tiles, folds */
      {2, {SH(1, 100003), SH(1, 100003)}, SH(1, 100003)},
      {2, {SH(1, 100003), SH(0, 0)}, SH(1, 100003)},
      {2, {SH(2, 3, 40001), SH(1, 40001)}, SH(2, 3, 40001)},
      {2, {SH(2, 400, 301), SH(2, 400, 1)}, SH(2, 400, 301)},
      {2, {SH(3, 7, 1, 3001), SH(3, 1, 9, 1)}, SH(3, 7, 9, 3001)},
      {4, {SH(2, 3, 40001), SH(1, 40001), SH(2, 3, 1), SH(0, 0)}, SH(2, 3, 40001)},
  };
  for (int ti = 0; ti < N_TYPES; ti++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
      for (int dir = MX_MAX; dir <= MX_MIN; dir++) max_case(all_types[ti], (mx_dir)dir, cases[c].n, cases[c].in, &cases[c].out);
}

/* The AVX2 builds of the elementwise kernels (64-bit integers, float16,
 * bfloat16) against the portable ones, byte for byte, in every stride case
 * and in both directions. */
static void test_pair_isas(void) {
  if (mx_cpu_isa() < MX_ISA_AVX2) {
    fprintf(stderr, "test_kernels: no AVX2 elementwise kernels here (build or CPU)\n");
    return;
  }
  static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_INT64, MINNX_UINT64, MINNX_FLOAT16, MINNX_BFLOAT16};
  enum { N = 1037, ROWS = 3 };
  for (int ti = 0; ti < 6; ti++)
    for (int dir = MX_MAX; dir <= MX_MIN; dir++) {
      mx_dtype t = types[ti];
      size_t es = mx_dtype_size(t);
      const mx_pair_kernels *port = mx_pair_kernels_isa(t, (mx_dir)dir, MX_ISA_PORTABLE),
                            *avx2 = mx_pair_kernels_isa(t, (mx_dir)dir, MX_ISA_AVX2);
      const mx_reduce_kernels *rport = mx_reduce_kernels_isa(t, (mx_dir)dir, MX_ISA_PORTABLE),
                              *ravx2 = mx_reduce_kernels_isa(t, (mx_dir)dir, MX_ISA_AVX2);
      CHECK(port != avx2);
      CHECK(rport != ravx2);
      unsigned char *a = malloc(N * ROWS * es), *b = malloc(N * ROWS * es), *c = malloc(N * ROWS * es),
                    *y1 = malloc(N * ROWS * es), *y2 = malloc(N * ROWS * es);
      fill(t, a, N * ROWS, 1);
      fill(t, b, N * ROWS, 0);
      fill(t, c, N * ROWS, 1);
      for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
          port->pair(y1, a, sa, b, sb, N, ROWS, sa ? N : 0, sb ? N : 0);
          avx2->pair(y2, a, sa, b, sb, N, ROWS, sa ? N : 0, sb ? N : 0);
          CHECK(memcmp(y1, y2, N * ROWS * es) == 0);
        }
      port->quad(y1, a, MX_STREAM, b, MX_STREAM, c, MX_STREAM, a, MX_CACHED, N);
      avx2->quad(y2, a, MX_STREAM, b, MX_STREAM, c, MX_STREAM, a, MX_CACHED, N);
      CHECK(memcmp(y1, y2, N * es) == 0);
      port->triple(y1, b, MX_STREAM, c, MX_STREAM, N);
      avx2->triple(y2, b, MX_STREAM, c, MX_STREAM, N);
      CHECK(memcmp(y1, y2, N * es) == 0);
      memcpy(y1, a, es * ROWS), memcpy(y2, a, es * ROWS);
      rport->rows(y1, b, N, ROWS);
      ravx2->rows(y2, b, N, ROWS);
      CHECK(memcmp(y1, y2, ROWS * es) == 0);
      /* 11 rows of 250 (four at a time, then three), 259 apart */
      memcpy(y1, a, es * 250), memcpy(y2, a, es * 250);
      rport->fold(y1, b, 250, 11, 259);
      ravx2->fold(y2, b, 250, 11, 259);
      CHECK(memcmp(y1, y2, 250 * es) == 0);
      free(a), free(b), free(c), free(y1), free(y2);
    }
}

/* ---- ReduceMax, ReduceMin ---- */

static void reduce_case(mx_dtype t, mx_dir dir, const mx_shape *in, uint32_t axes, int specials) {
  if (!check_sample(3)) return; /* (under valgrind: a third of the cases, check.h) */
  size_t es = mx_dtype_size(t);
  int64_t n = count_of(in), m = 1;
  for (int d = 0; d < in->rank; d++)
    if (!(axes >> d & 1)) m *= in->dims[d];
  /* with specials, the input starts one element off its alignment */
  unsigned char *buf = malloc((size_t)(n + 1) * es + 1), *x = buf + (specials ? es : 0);
  void *y = malloc((size_t)m * es + 1), *ref = malloc((size_t)m * es + 1);
  fill(t, x, n, specials);
  mx_reduce_walk w;
  mx_reduce_init(&w, t, dir, mx_cpu_isa(), in->rank, in->dims, axes);
  mx_reduce_run(&w, x, y);
  mx_ref_reduce(t, dir, in, axes, x, ref);
  /* in parts, the last first: byte for byte the same */
  void *y2 = malloc((size_t)m * es + 1), *scratch = malloc(mx_reduce_scratch(&w) + 1);
  mx_reduce_start(&w, y2);
  for (int64_t part = 3; part-- > 0;) mx_reduce_part(&w, x, y2, scratch, part, 3);
  mx_reduce_finish(&w, y2, scratch);
  CHECK(memcmp(y, y2, (size_t)m * es) == 0);
  free(y2);
  free(scratch);
  /* naive: for each output element, every input element whose kept indices
   * are its own; the empty set's value is the identity */
  unsigned char ident[8];
  mx_extremum_identity(t, dir, ident);
  int wrong = 0;
  for (int64_t o = 0; o < m && n * m <= 1 << 22; o++) { /* (large cases: the reference loop only) */
    int64_t best = -1, idx[MX_MAX_RANK] = {0};
    for (int64_t i = 0; i < n; i++) {
      int64_t k = 0;
      for (int d = 0; d < in->rank; d++)
        if (!(axes >> d & 1)) k = k * in->dims[d] + idx[d];
      if (k == o && (best < 0 || compare_dir(t, dir, x, i, x, best) > 0)) best = i;
      for (int d = in->rank - 1; d >= 0 && ++idx[d] == in->dims[d]; d--) idx[d] = 0;
    }
    const void *want = best < 0 ? (const void *)ident : x;
    int64_t at = best < 0 ? 0 : best;
    if (compare(t, y, o, want, at) != 0 && !wrong++)
      fprintf(stderr, "Reduce%s dtype %d rank %d axes %#x: element %lld differs\n", dir ? "Min" : "Max", t, in->rank,
              axes, (long long)o);
    if (compare(t, ref, o, want, at) != 0 && !wrong++)
      fprintf(stderr, "reference loop of Reduce%s dtype %d rank %d axes %#x: element %lld differs\n",
              dir ? "Min" : "Max", t, in->rank, axes, (long long)o);
  }
  for (int64_t o = 0; o < m; o++)
    if (compare(t, y, o, ref, o) != 0 && !wrong++)
      fprintf(stderr, "Reduce%s dtype %d rank %d axes %#x: element %lld differs from the reference loop's\n",
              dir ? "Min" : "Max", t, in->rank, axes, (long long)o);
  CHECK_EQ_INT(wrong, 0);
  free(buf);
  free(y);
  free(ref);
}

static void test_reduce(void) {
  struct {
    mx_shape in;
    uint32_t axes;
  } cases[] = {
      {SH(2, 3, 1000), 2},       {SH(2, 1000, 3), 1},      {SH(2, 70, 33), 1},   {SH(2, 70, 33), 2},
      {SH(3, 5, 300, 7), 2},     {SH(3, 5, 300, 7), 5},    {SH(3, 5, 300, 7), 7}, {SH(2, 40, 40), 3},
      {SH(1, 5000), 1},          {SH(0, 0), 0},            {SH(4, 2, 1, 3, 1), 2}, {SH(4, 2, 1, 3, 1), 0xf},
      {SH(4, 3, 4, 5, 6), 0xa},  {SH(4, 3, 4, 5, 6), 0x5}, {SH(3, 2, 0, 3), 2},  {SH(3, 2, 0, 3), 1},
      {SH(2, 0, 4), 3},          {SH(3, 6, 1, 1), 6},      {SH(2, 1, 1), 1},     {SH(2, 4, 17), 0},
      /* the splits: one reduction in pieces; a fold's columns (one call of
       * 4 KB rows or more; 7 rows: a pass of four and three alone); whole
       * calls of a fold and of rows */
      {SH(1, 300001), 1},        {SH(2, 2, 150001), 3},    {SH(2, 7, 8200), 1},  {SH(3, 7, 2, 8200), 3},
      {SH(3, 40, 9, 70), 2},     {SH(3, 40, 70, 9), 4},
  };
  for (int ti = 0; ti < N_TYPES; ti++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
      for (int dir = MX_MAX; dir <= MX_MIN; dir++)
        for (int specials = 0; specials < 2; specials++) reduce_case(all_types[ti], (mx_dir)dir, &cases[c].in, cases[c].axes, specials);
}

int main(void) {
  test_argmax();
  test_max();
  test_reduce();
  CHECK(split_runs > 200); /* the large cases were split, for every dtype */
  test_pair_isas();
  return check_report("test_kernels");
}
