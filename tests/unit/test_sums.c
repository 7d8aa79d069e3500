/* The sums (ops/reduction/sum.h): the square roots against the C library's
 * (correctly rounded), and the walk at every ISA level this build and CPU
 * have, whole and in 2 and 3 parts taken in reverse, against the reference
 * loops, bit for bit, over shapes that take every path (rows, folds with a
 * lane remainder, folds in groups of blocks, reduced groups apart, empty sets, rank 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ops/reduction/sum.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}

static void roots(void) {
  int bad = 0;
  for (int i = 0; i < 1 << 20; i++) {
    uint32_t u = (uint32_t)next() & 0x7fffffff;
    if (i < 1 << 10) u = (uint32_t)i; /* subnormals */
    float x, got;
    memcpy(&x, &u, 4);
    got = mx_sum_sqrt_f32(x);
    float want = (float)sqrt((double)x);
    bad += memcmp(&got, &want, 4) != 0 && !(isnan(got) && isnan(want));
  }
  for (int i = 0; i < 1 << 18; i++) {
    uint64_t u = next() & 0x7fffffffffffffffull;
    if (i < 1 << 10) u = (uint64_t)i * 977;
    double x, got, want;
    memcpy(&x, &u, 8);
    got = mx_sum_sqrt_f64(x);
    want = sqrt(x);
    bad += memcmp(&got, &want, 8) != 0 && !(isnan(got) && isnan(want));
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(mx_sum_sqrt_f32(-0.0f) == 0 && signbit(mx_sum_sqrt_f32(-0.0f)));
  CHECK(isnan(mx_sum_sqrt_f32(-1.0f)) && isinf(mx_sum_sqrt_f32(INFINITY)));
  for (int i = 0; i < 1 << 16; i++) {
    uint64_t a = next() >> (next() % 64);
    uint64_t r = mx_sum_sqrt_u64(a);
    unsigned __int128 r2 = (unsigned __int128)r * r, r3 = (unsigned __int128)(r + 1) * (r + 1);
    CHECK(r2 <= a && a < r3);
  }
  CHECK_EQ_INT(mx_sum_sqrt_i32(0x80000000u), 0);
  CHECK_EQ_INT(mx_sum_sqrt_u32(4294967295u), 65535);
}

static const mx_dtype types[] = {MINNX_FLOAT, MINNX_DOUBLE, MINNX_FLOAT16, MINNX_BFLOAT16,
                                 MINNX_INT32, MINNX_INT64, MINNX_UINT32, MINNX_UINT64};

static void fill(mx_dtype t, void *x, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    /* full mantissas, so that sums round and their order shows; NaN and infinities in the small sets only */
    double v = (double)(int64_t)(next() >> 11) * 0x1p-53 * 8.0 - 4.0;
    if (n <= 256 && next() % 64 == 0) v = next() % 2 ? INFINITY : NAN;
    switch (t) {
      case MINNX_FLOAT: ((float *)x)[i] = (float)v; break;
      case MINNX_DOUBLE: ((double *)x)[i] = v; break;
      case MINNX_FLOAT16: ((uint16_t *)x)[i] = mx_f32_to_f16((float)v); break;
      case MINNX_BFLOAT16: ((uint16_t *)x)[i] = mx_f32_to_bf16((float)v); break;
      case MINNX_INT32: case MINNX_UINT32: ((uint32_t *)x)[i] = (uint32_t)next(); break;
      default: ((uint64_t *)x)[i] = next(); break;
    }
  }
}

/* equal bits, or both NaN */
static int same(mx_dtype t, const unsigned char *a, const unsigned char *b, int64_t n) {
  size_t es = mx_dtype_size(t);
  for (int64_t i = 0; i < n; i++, a += es, b += es) {
    if (memcmp(a, b, es) == 0) continue;
    double x, y;
    if (t == MINNX_FLOAT) x = ((const float *)a)[0], y = ((const float *)b)[0];
    else if (t == MINNX_DOUBLE) x = ((const double *)a)[0], y = ((const double *)b)[0];
    else if (t == MINNX_FLOAT16) x = mx_f16_to_f32(((const uint16_t *)a)[0]), y = mx_f16_to_f32(((const uint16_t *)b)[0]);
    else if (t == MINNX_BFLOAT16) x = mx_bf16_to_f32(((const uint16_t *)a)[0]), y = mx_bf16_to_f32(((const uint16_t *)b)[0]);
    else return 0;
    if (!(isnan(x) && isnan(y))) return 0;
  }
  return 1;
}

typedef struct {
  int rank;
  int64_t dims[4];
  uint32_t axes;
} shape;

static const shape shapes[] = {
    {0, {0}, 0},           {1, {37}, 1},           {2, {3, 40}, 2},       {2, {40, 3}, 1},
    {2, {17, 21}, 1},      {3, {4, 5, 19}, 5},     {3, {4, 5, 19}, 2},    {4, {2, 3, 4, 5}, 10},
    {4, {2, 3, 4, 5}, 5},  {3, {2, 0, 3}, 2},      {3, {2, 0, 3}, 5},     {3, {3, 1, 9}, 2},
    {2, {1, 300}, 3},      {3, {6, 7, 33}, 7},
    /* folds of several blocks, a short last block, with an outer reduced group too */
    {3, {2, 9, 150}, 2},   {4, {3, 2, 5, 140}, 5}, {2, {20, 300}, 1},
    /* one output over the whole input: pieces (sum.h), of 32 elements below and of MX_SUM_PIECE */
    {1, {1000}, 1},        {3, {1, 50, 13}, 7},    {2, {33, 31}, 3},      {1, {2 * MX_SUM_PIECE + 17}, 1},
    /* Softmax along rows longer than expsum.c.in's chunk (1024), with a tail (shape 21: axis 1) */
    {2, {3, 1500}, 2},
    /* folds of 64 rows and more (sum.c.in takes four rows of one partial at once) and a tail of rows,
       in blocks of MX_SUM_SPAN_BYTES of accumulators (4096 float32 outputs) and a short last one */
    {2, {100, 1030}, 1},   {3, {2, 70, 600}, 5},   {3, {3, 67, 40}, 2},   {2, {66, 4099}, 1},
    /* folds whose rows are whole lines apart, wide enough for sum.c.in to take the columns before the input's
       first line apart (the input 16, 32 or 48 bytes past a line: walks() below) */
    {2, {70, 1024}, 1},    {3, {2, 65, 512}, 2},
};

static void walks(void) {
  int bad = 0, runs = 0, pieces = 0, shared = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const shape *sh = &shapes[s];
    int64_t n = 1, outs = 1;
    for (int d = 0; d < sh->rank; d++) n *= sh->dims[d], outs *= (sh->axes >> d & 1) ? 1 : sh->dims[d];
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
      mx_dtype t = types[ti];
      size_t es = mx_dtype_size(t);
      size_t room = (size_t)(n + outs) * es + 8; /* an empty set still has outputs */
      /* the input 16, 32 or 48 bytes past a 64-byte line, as from malloc */
      unsigned char *base = aligned_alloc(64, (room + 64 + 63) / 64 * 64), *x = base + 16 * (s % 3 + 1);
      unsigned char *ref = malloc(room), *got = malloc(room);
      fill(t, x, n);
      int floats = ti < 4;
      for (int op = 0; op < MX_SUM_OPS; op++) {
        if (!floats && op >= MX_SUM_LOGSUM) continue;
        int softmax = op >= MX_SUM_SOFTMAX;
        int axis = sh->rank ? (int)(s % (size_t)sh->rank) : 0, coerced = (int)(s & 1);
        if (softmax && sh->rank == 0) continue;
        int64_t count = softmax ? n : outs;
        if (softmax) mx_softmax_ref((mx_sum_op)op, t, sh->rank, sh->dims, axis, coerced, x, ref);
        for (int small = 0; small < 2; small++) {
          int64_t piece = small ? 32 : MX_SUM_PIECE;
          if (small && (softmax || n > 4096)) continue;
          if (!softmax) mx_sum_ref_pieces((mx_sum_op)op, t, sh->rank, sh->dims, sh->axes, x, ref, piece);
          for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++)
            for (int parts = 1; parts <= 3; parts++) {
              if (!check_sample(3)) continue; /* (under valgrind: a third of the runs, check.h) */
              mx_sum_walk w;
              if (softmax) mx_softmax_init(&w, (mx_sum_op)op, t, sh->rank, sh->dims, axis, coerced, (mx_isa)isa);
              else mx_sum_init_pieces(&w, (mx_sum_op)op, t, sh->rank, sh->dims, sh->axes, (mx_isa)isa, piece);
              size_t sb = mx_sum_scratch(&w);
              void *scratch = sb ? malloc(sb) : NULL;
              if (sb) memset(scratch, 0x5a, sb);
              pieces += w.pieces > 0;
              shared += w.share > 1 && parts > 1;
              memset(got, 0xa5, room);
              for (int p = parts; p-- > 0;) mx_sum_part(&w, x, got, p, parts, scratch);
              mx_sum_done(&w, got, scratch);
              free(scratch);
              runs++;
              if (!same(t, got, ref, count)) {
                bad++;
                fprintf(stderr, "shape %zu, dtype %d, op %d, isa %d, %d parts, piece %lld: differs from the reference\n",
                        s, t, op, isa, parts, (long long)piece);
              }
            }
        }
      }
      free(base), free(ref), free(got);
    }
  }
  CHECK_EQ_INT(bad, 0);
  /* the walks offered, and floors scaled by the share taken (all of them, but under valgrind) */
  long offered = check_cases, taken = check_cases_run;
  CHECK(offered > 1000 && runs == taken);
  CHECK(pieces * offered > 100 * taken); /* the pieces were reached, small and of MX_SUM_PIECE */
  CHECK(shared * offered > 100 * taken); /* folds of few wide blocks shared between parts (sum_walk.c), 2 and 3 parts */
  printf("test_sums: %d walks, %d in pieces, %d shared\n", runs, pieces, shared);
}

/* Softmax along rows of float32 and double that take expsum.c.in's fast
 * forms and leave them: every element of a chunk within 64 of the largest
 * (float32: mx_expf_mid), a chunk with one element further below (-80, in
 * the second chunk), -inf, NaN or +inf in a chunk, the largest +0 and -0
 * (max_rows4 may take either), a row of -inf alone; rows of 2100 (three
 * chunks, a tail) and of 37. */
static void softmax_rows(void) {
  enum { ROWS = 8, LEN = 2100 };
  static const int64_t lens[] = {LEN, 37};
  int bad = 0, runs = 0;
  for (int ti = 0; ti < 2; ti++) {
    mx_dtype t = ti ? MINNX_DOUBLE : MINNX_FLOAT;
    size_t es = mx_dtype_size(t);
    for (int li = 0; li < 2; li++) {
      int64_t len = lens[li], n = ROWS * len;
      unsigned char *x = malloc((size_t)n * es), *ref = malloc((size_t)n * es), *got = malloc((size_t)n * es);
      for (int64_t i = 0; i < n; i++) {
        int64_t r = i / len, j = i % len;
        double v = (double)(int64_t)(next() >> 11) * 0x1p-53 * 8.0 - 4.0;
        if (r == 1 && j == len * 2 / 3) v = -80.0;
        if (r == 2 && j == len / 2) v = -INFINITY;
        if (r == 3 && j == len - 1) v = NAN;
        if (r == 4 && j == 5) v = INFINITY;
        if (r == 5) v = j % 3 == 0 ? -0.0 : j % 3 == 1 ? 0.0 : -1.0 - (double)(j % 7);
        if (r == 6) v = -INFINITY;
        if (r == 7) v = j % 2 ? 0.0 : -0.0;
        if (t == MINNX_FLOAT) ((float *)x)[i] = (float)v;
        else ((double *)x)[i] = v;
      }
      int64_t dims[2] = {ROWS, len};
      mx_softmax_ref(MX_SUM_SOFTMAX, t, 2, dims, 1, 0, x, ref);
      for (int isa = MX_ISA_PORTABLE; isa <= (int)mx_cpu_isa(); isa++) {
        mx_sum_walk w;
        mx_softmax_init(&w, MX_SUM_SOFTMAX, t, 2, dims, 1, 0, (mx_isa)isa);
        size_t sb = mx_sum_scratch(&w);
        void *scratch = sb ? malloc(sb) : NULL;
        memset(got, 0xa5, (size_t)n * es);
        mx_sum_run(&w, x, got, scratch);
        free(scratch);
        runs++;
        if (!same(t, got, ref, n)) {
          bad++;
          fprintf(stderr, "softmax rows: dtype %d, length %lld, isa %d: differs from the reference\n", t,
                  (long long)len, isa);
        }
      }
      free(x), free(ref), free(got);
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(runs >= 4);
}

int main(void) {
  roots();
  walks();
  softmax_rows();
  return check_report("test_sums");
}
