/* Cast's conversions against values computed outside minnx
 * (cast_expected.h, written by cast_reference.py from exact arithmetic and
 * checked there against numpy and PyTorch): every pair of the twelve numeric
 * dtypes and bool, with NaN, +-0, +-inf, subnormals, ties, double-rounding
 * traps, extremes and out-of-range values. Each pair runs on a long array too
 * (the inputs repeated), so that the direct loops' chunks and the two-stage
 * path's blocks and remainders are all taken, at every alignment offset. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cast_expected.h"
#include "check.h"
#include "graph/dtype.h"
#include "ops/tensor/convert.h"

#define LONG 301 /* elements: several chunks and blocks, and a remainder */

static void put(unsigned char *p, size_t size, uint64_t bits) {
  uint8_t u8 = (uint8_t)bits;
  uint16_t u16 = (uint16_t)bits;
  uint32_t u32 = (uint32_t)bits;
  memcpy(p, size == 1 ? (void *)&u8 : size == 2 ? (void *)&u16 : size == 4 ? (void *)&u32 : (void *)&bits, size);
}

static uint64_t get(const unsigned char *p, size_t size) {
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  memcpy(size == 1 ? (void *)&u8 : size == 2 ? (void *)&u16 : size == 4 ? (void *)&u32 : (void *)&u64, p, size);
  return size == 1 ? u8 : size == 2 ? u16 : size == 4 ? u32 : u64;
}

static int is_nan(int dtype, uint64_t b) {
  switch (dtype) {
    case MINNX_FLOAT16: return (b & 0x7fff) > 0x7c00;
    case MINNX_BFLOAT16: return (b & 0x7fff) > 0x7f80;
    case MINNX_FLOAT: return (b & 0x7fffffffu) > 0x7f800000u;
    case MINNX_DOUBLE: return (b & 0x7fffffffffffffffu) > 0x7ff0000000000000u;
    default: return 0;
  }
}

/* A NaN of dtype `to` made from the source bits `in` of dtype `from`, as
 * README's rule says: quiet, with the source's sign. */
static int nan_as_ruled(int from, uint64_t in, int to, uint64_t got) {
  int width = (int)mx_dtype_size(from) * 8, out_width = (int)mx_dtype_size(to) * 8;
  uint64_t quiet = to == MINNX_FLOAT16 ? 0x0200 : to == MINNX_BFLOAT16 ? 0x0040 : to == MINNX_FLOAT ? 0x00400000u
                                                                                           : (uint64_t)1 << 51;
  return (got & quiet) && ((in >> (width - 1)) & 1) == ((got >> (out_width - 1)) & 1);
}

/* Runs one pair over n elements (the inputs cycled; or, with only >= 0, that
 * one input repeated, so that a loop which treats a chunk by what it holds
 * sees it alone), starting `skew` elements into the buffers (so that a vector
 * loop starts unaligned), with the loops of instruction set level isa (convert.h). */
static int run_pair(const cast_case *c, int n, int skew, int isa, int only) {
  size_t si = mx_dtype_size(c->from), so = mx_dtype_size(c->to);
  unsigned char *in_buf = malloc(si * (size_t)(n + skew) + 1), *out_buf = malloc(so * (size_t)(n + skew) + 1);
  unsigned char *in = in_buf + si * (size_t)skew, *out = out_buf + so * (size_t)skew;
  int bad = 0;
  mx_convert_params p;
  if (!in_buf || !out_buf) abort();
  CHECK(mx_convert_choose_isa(&p, c->from, c->to, isa));
  for (int i = 0; i < n; i++) put(in + si * (size_t)i, si, c->in[only >= 0 ? only : i % c->n]);
  mx_convert_run(&p, out, in, n);
  for (int i = 0; i < n; i++) {
    int k = only >= 0 ? only : i % c->n;
    uint64_t got = get(out + so * (size_t)i, so), want = c->expected[k];
    if (got == want || (c->from == c->to && got == c->in[k]) || /* the same dtype: a copy */
        (is_nan(c->to, want) && is_nan(c->to, got) && nan_as_ruled(c->from, c->in[k], c->to, got)))
      continue;
    if (bad++ < 3)
      fprintf(stderr, "%s -> %s: input 0x%llx gave 0x%llx, expected 0x%llx (n=%d, skew %d, isa %d)\n",
              c->from_name, c->to_name, (unsigned long long)c->in[k], (unsigned long long)got,
              (unsigned long long)want, n, skew, isa);
  }
  free(in_buf);
  free(out_buf);
  return bad;
}

int main(void) {
  int pairs = 0;
  for (size_t k = 0; k < sizeof cast_cases / sizeof cast_cases[0]; k++) {
    const cast_case *c = &cast_cases[k];
    for (int isa = 0; isa <= (int)mx_cpu_isa(); isa++) {
      CHECK_EQ_INT(run_pair(c, c->n, 0, isa, -1), 0);
      for (int skew = 0; skew < 4; skew++) CHECK_EQ_INT(run_pair(c, LONG, skew, isa, -1), 0);
      CHECK_EQ_INT(run_pair(c, 0, 0, isa, -1), 0);
      int bad = 0;
      for (int e = 0; e < c->n; e++) bad += run_pair(c, LONG, 1, isa, e);
      CHECK_EQ_INT(bad, 0);
    }
    pairs++;
  }
  CHECK_EQ_INT(pairs, 13 * 13);
  printf("cast: loops tested up to ISA level %d (0 portable, 1 AVX2, 2 AVX-512)\n", (int)mx_cpu_isa());

  /* Not numeric: string, complex, undefined and unknown dtypes are refused. */
  mx_convert_params p;
  CHECK(!mx_convert_choose(&p, MINNX_FLOAT, 8));
  CHECK(!mx_convert_choose(&p, 8, MINNX_FLOAT));
  CHECK(!mx_convert_choose(&p, MINNX_FLOAT, 14));
  CHECK(!mx_convert_choose(&p, 15, MINNX_FLOAT));
  CHECK(!mx_convert_choose(&p, 0, MINNX_FLOAT));
  CHECK(!mx_convert_choose(&p, MINNX_FLOAT, 17));
  CHECK(!mx_convert_choose(&p, -1, 40));
  return check_report("cast");
}
