/* test_mathf.c's AVX-512 loop as the AVX-512 kernels compile it
 * (ops/math/unary_math.c.in): with MX_MATHF_FMA (tests/CMakeLists.txt) and
 * with mathf.h's edges in their integer form (MX_MATHF_INT_EDGES), which
 * must pick what the float compares of the other paths pick. */
#define MX_MATHF_INT_EDGES 1
#include <stdint.h>

#include "ops/core/cpu.h"
#include "ops/core/mathf.h"
#include "test_mathf.h"

#if MX_X86_GNU
MATHF_LOOP(__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,fma"))), mathf_loop_avx512i_)
void mathf_loop_avx512i(int f, const float *x, const float *y, float *out, int n);
void mathf_loop_avx512i(int f, const float *x, const float *y, float *out, int n) {
  mathf_loop_avx512i_(f, x, y, out, n);
}
#endif
