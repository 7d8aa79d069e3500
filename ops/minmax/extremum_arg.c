/* The arg-reduction kernels (ArgMax, ArgMin): extremum_arg.h instantiated for
 * every dtype, direction and tie rule, and the table that picks one. */
#include <math.h>
#include <stddef.h>

#include "mx_op_have.h"
#include "ops/core/cpu.h"
#include "ops/minmax/extremum_kernels.h"
#include "ops/core/kernel.h"

/* A build links the directions its ops use (MINNX_OPS). */
#ifdef MX_HAVE_ArgMax
#define MAX_ON 1
#else
#define MAX_ON 0
#endif
#ifdef MX_HAVE_ArgMin
#define MIN_ON 1
#else
#define MIN_ON 0
#endif

/* On x86-64, gcc and clang build the kernels twice (ops/core/cpu.h): portable
 * (SSE2, the x86-64 baseline) and, from the same C, for AVX2 (twice the
 * lanes, three-operand instructions and selects); a node takes the AVX2 ones
 * when the CPU has AVX2. The SSE2 build's instructions per byte keep one
 * thread some way off the memory floor. (An AVX-512 build of the same C
 * measured no faster than the AVX2 one here, Zen 5: the one-pass kernels are
 * bound by memory, not by instructions.) -DMINNX_X86_AVX2=OFF (MX_NO_AVX2)
 * builds the portable kernels only. */

/* Along the last axis (inner == 1) a row is cut into blocks. A block's
 * extreme is a reduction over LANES independent running extremes (so that it
 * vectorizes; NaN is only flagged there), and only a block holding something
 * better than the best so far is scanned again, from L1, for the first (or
 * last) index of its extreme: on most data few blocks are. (With fewer than
 * 32 lanes gcc unrolls the lane loops before it vectorizes them, and then
 * does not vectorize them.) */
#define LANES 32
#define ROW_BLOCK 512
/* Across rows (inner > 1) a block of columns is read in stretches of
 * COL_ROWS rows: first each column's extreme over the stretch (a plain
 * vectorized max or min, NaN flagged apart), then only a column whose extreme
 * beats its best so far is looked at again, from cache, for its row. The
 * best keys of a block fill the scratch; wider blocks read longer runs of
 * each row, which DRAM serves faster. */
#define COL_BLOCK(K) (8192 / (int64_t)sizeof(K))
#define COL_ROWS 16
/* The wide builds sweep tiles of columns whose best keys and rows (an I
 * each) fill the scratch: SWEEP(K) columns, a multiple of 64 bytes of keys
 * (the indices start on a line). They count rows (and along a row,
 * elements) within stretches of PASS_LEN, a multiple of LANES, so that an I
 * holds them; a stretch's result then merges in at 64-bit. Short enough that
 * tests reach the merge, long enough that it costs nothing. */
#define SWEEP(K) (MX_ARG_SCRATCH / (int64_t)(sizeof(K) + sizeof(I)) / 64 * 64)
#ifndef MX_ARG_PASS_LEN /* the fuzz build's is 64 (CMakeLists.txt): its short rows cross stretches too */
#define MX_ARG_PASS_LEN 8192
#endif
#define PASS_LEN ((int64_t)MX_ARG_PASS_LEN)
/* The wide sweep takes two rows a step when it reads runs of at least
 * PAIR_RUN bytes of each (there it measured 5-15% faster; on runs of 1 KiB
 * slower). A piece's runs (argmax.c): the fuzz build's are short, so that it
 * reaches both steps. */
#define PAIR_RUN (MX_TASK_BYTES / 16)
/* Columns of a strip: 128 bytes of each row, and at least 32 (see LANES). */
#define STRIP(T) (128 / (int)sizeof(T) > 32 ? 128 / (int)sizeof(T) : 32)

/* Asks for a strip's row at p + ahead: every line it touches, the last one
 * too when the data is not aligned to 64 bytes (a caller's malloc'd input is
 * at 16 past a line: without it one line in three of a strip is a miss). */
#define PREFETCH_STRIP(p, ahead, T)                                                          \
  do {                                                                                       \
    for (int b_ = 0; b_ < STRIP(T) * (int)sizeof(T); b_ += 64) mx_prefetch(p, (ahead) + b_); \
    mx_prefetch(p, (ahead) + STRIP(T) * (int)sizeof(T) - 1);                                 \
  } while (0)

/* What the template compares with, in the instance's DIR and LAST. */
#define FURTHER(a, b) MX_FURTHER(DIR, a, b) /* ignores a NaN in b (flagged apart) */
/* Whether key x replaces the best so far: strictly beyond keeps the first
 * index, reaching it the last. NaN lies beyond all numbers, so with the
 * first index x wins unless best reaches x or best is NaN, and with the last
 * x wins if it reaches best or is NaN. (Bitwise | and & rather than || and
 * &&: no branch in a loop that should vectorize.) */
#define BETTER(x, best) \
  (LAST ? (MX_REACHES(DIR, x, best) | ISNAN(x)) : (!MX_REACHES(DIR, best, x) & !ISNAN(best)))
/* Whether the candidate of key v at index b comes before the one of key u
 * at a, the indices in any order (merging lanes): NaN beyond all numbers,
 * then the direction, then the first (last) index. Bitwise: no branch. */
#define INDEX_FIRST(a, b) (LAST ? (b) > (a) : (b) < (a))
#define AHEAD_OF(u, a, v, b)                     \
  ((ISNAN(u) & ISNAN(v) & INDEX_FIRST(a, b)) |   \
   ((!ISNAN(u)) & (ISNAN(v) | MX_BEYOND(DIR, v, u) | (((v) == (u)) & INDEX_FIRST(a, b)))))
/* What find looks for: a NaN, or the key m. */
#define HIT(v, m, nan) ((nan) ? ISNAN(v) : (v) == (m))

#define MX_ARG_NAME_(s, v, isa, f) arg_##s##_##v##_##isa##_##f
#define MX_ARG_NAME(s, v, isa, f) MX_ARG_NAME_(s, v, isa, f)

/* The instances, a dtype at a time: see extremum_arg.h for what each macro
 * means. Only float and double keys can be NaN; for the others the tests are
 * constant 0. */
#define F_ISNAN(k) ((k) != (k))
#define F_EITHER_NAN(k, l) isunordered(k, l)
#define N_ISNAN(k) ((void)(k), 0)
#define N_EITHER_NAN(k, l) ((void)(k), (void)(l), 0)

#define T float
#define K float
#define I int32_t
#define A int32_t
#define KEY(x) (x)
#define ISNAN F_ISNAN
#define EITHER_NAN F_EITHER_NAN
#define SUFFIX f32
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef I
#undef A
#undef SUFFIX

#define T double
#define K double
#define I int64_t
#define A int64_t
#define SUFFIX f64
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef I
#undef A
#undef KEY
#undef ISNAN
#undef EITHER_NAN
#undef SUFFIX

/* float16 and bfloat16: keys where NaN is a number beyond the others */
#define ISNAN N_ISNAN
#define EITHER_NAN N_EITHER_NAN
#define T uint16_t
#define K int16_t
#define I int32_t
#define A int16_t
#define KEY(x) mx_half_key(x, MX_F16_INF, DIR)
#define SUFFIX f16
#include "ops/minmax/extremum_arg_set.h"
#undef KEY
#undef SUFFIX
#define KEY(x) mx_half_key(x, MX_BF16_INF, DIR)
#define SUFFIX bf16
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef I
#undef A
#undef KEY
#undef SUFFIX

/* integers: the values are the keys */
#define KEY(x) (x)
#define T int8_t
#define K int8_t
#define I int32_t
#define A int8_t
#define SUFFIX i8
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef SUFFIX
#define T int16_t
#define K int16_t
#define A int16_t
#define SUFFIX i16
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef SUFFIX
#define T int32_t
#define K int32_t
#define A int32_t
#define SUFFIX i32
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef SUFFIX
#define T uint8_t
#define K uint8_t
#define A int8_t
#define SUFFIX u8
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef SUFFIX
#define T uint16_t
#define K uint16_t
#define A int16_t
#define SUFFIX u16
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef SUFFIX
#define T uint32_t
#define K uint32_t
#define A int32_t
#define SUFFIX u32
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef A
#undef I
#undef SUFFIX
#define I int64_t
#define T int64_t
#define K int64_t
#define A int64_t
#define SUFFIX i64
#include "ops/minmax/extremum_arg_set.h"
#undef T
#undef K
#undef SUFFIX
#define T uint64_t
#define K uint64_t
#define SUFFIX u64
#include "ops/minmax/extremum_arg_set.h"

/* A case per dtype, four kernels [avx2][last] per direction. A dtype a build
 * leaves out (MX_DTYPE_ON is a constant) or a direction no linked op needs is
 * dead code, so neither its kernels nor their row are linked. */
#define PAIR(s, v, isa) {MX_ARG_NAME(s, v##_first, isa, kernel), MX_ARG_NAME(s, v##_last, isa, kernel)}
#if MX_X86_AVX2
#define AVX2_PAIR(s, v) PAIR(s, v, avx2)
#else
#define AVX2_PAIR(s, v) {NULL, NULL}
#endif
#define CASE(t, s)                                                                                    \
  case t: {                                                                                           \
    static const mx_arg_fn max[2][2] = {PAIR(s, max, port), AVX2_PAIR(s, max)};                       \
    static const mx_arg_fn min[2][2] = {PAIR(s, min, port), AVX2_PAIR(s, min)};                       \
    if (!MX_DTYPE_ON(t) || !(dir == MX_MIN ? MIN_ON : MAX_ON)) return NULL;                            \
    return (dir == MX_MIN ? min : max)[avx2 && MX_X86_AVX2][last != 0];                               \
  }

mx_arg_fn mx_arg_kernel(mx_dtype t, mx_dir dir, int last, int avx2) {
  switch (t) {
    CASE(MINNX_FLOAT, f32) CASE(MINNX_DOUBLE, f64) CASE(MINNX_FLOAT16, f16) CASE(MINNX_BFLOAT16, bf16)
    CASE(MINNX_INT8, i8) CASE(MINNX_INT16, i16) CASE(MINNX_INT32, i32) CASE(MINNX_INT64, i64)
    CASE(MINNX_UINT8, u8) CASE(MINNX_UINT16, u16) CASE(MINNX_UINT32, u32) CASE(MINNX_UINT64, u64)
    default: return NULL;
  }
}
