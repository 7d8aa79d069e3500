/* Cast's conversions (convert.h states the rules). The direct loops'
 * element conversions are branch-free selects over plain arithmetic, so they
 * vectorize; the two-stage path's rounding to odd branches, per element. No
 * conversion takes a float to an integer outside that integer's range (C
 * leaves it undefined): the value is clamped first. */
#include <string.h>

#include "graph/dtype.h"
#include "ops/tensor/convert.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"

/* ---- bits ---- */

static inline uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float f32_from(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint64_t f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static inline double f64_from(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* The int64 whose two's complement bits w is (the inverse of the modulo
 * conversion to uint64; a cast would be implementation-defined above
 * INT64_MAX). */
static inline int64_t as_signed(uint64_t w) {
  int64_t i;
  memcpy(&i, &w, sizeof i);
  return i;
}

/* ---- float16 and bfloat16 ---- */

/* a where pick is nonzero, else b. Written with a mask rather than `?:` where
 * float arithmetic feeds the choice: GCC would move that arithmetic into a
 * branch of its own and then, as it might raise a floating-point flag there,
 * not vectorize the loop. */
static inline uint32_t pick32(uint32_t pick, uint32_t a, uint32_t b) {
  uint32_t mask = 0u - (pick != 0);
  return (a & mask) | (b & ~mask);
}

/* float16 to float is exact. A normal or infinite/NaN value only moves its
 * exponent (a NaN is made quiet, as F16C's instruction does: every loop
 * gives the same bits); a subnormal one is its 10-bit mantissa times 2^-24,
 * which float arithmetic gives exactly. */
static inline float f16_to_f32(uint16_t h) {
  uint32_t a = h & 0x7fffu, sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t norm = (a << 13) + 0x38000000u;          /* exponent bias 15 -> 127 */
  norm = a >= 0x7c00u ? norm + 0x38000000u : norm;  /* inf, NaN: exponent all ones */
  norm = a > 0x7c00u ? norm | 0x00400000u : norm;   /* NaN: quiet */
  uint32_t sub = f32_bits((float)(int32_t)a * 0x1p-24f);
  return f32_from(pick32(a < 0x0400u, sub, norm) | sign);
}

/* float to float16, rounding to nearest even. A normal result rounds at bit
 * 13 by integer addition (a carry into the exponent is the right answer, up
 * to infinity); a subnormal one is rounded by the FPU: |x| + 0.5 has a unit
 * in the last place of 2^-24, float16's subnormal step, so the sum's low bits
 * are the float16 mantissa. From 65520 (halfway past the largest float16) up
 * the result is infinity; NaN stays a quiet NaN with its sign. */
static inline uint16_t f32_to_f16(float f) {
  uint32_t x = f32_bits(f), a = x & 0x7fffffffu;
  uint32_t norm = (a - 0x38000000u + 0x0fffu + ((a >> 13) & 1u)) >> 13;
  uint32_t sub = f32_bits(f32_from(a) + 0.5f) - 0x3f000000u;
  uint32_t h = pick32(a < 0x38800000u, sub, norm); /* below 2^-14, float16's smallest normal */
  h = pick32(a >= 0x477ff000u, 0x7c00u, h);
  h = pick32(a > 0x7f800000u, 0x7e00u | ((a >> 13) & 0x01ffu), h);
  return (uint16_t)(((x >> 16) & 0x8000u) | h);
}

/* bfloat16 to float is exact: the upper half. A NaN is made quiet. */
static inline float bf16_to_f32(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  return f32_from((x & 0x7fffffffu) > 0x7f800000u ? x | 0x00400000u : x);
}

/* float to bfloat16, rounding to nearest even: bfloat16 is float's upper
 * half, and the carry of the rounding reaches infinity past the largest
 * bfloat16. NaN keeps its sign and is made quiet, so no NaN truncates to inf. */
static inline uint16_t f32_to_bf16(float f) {
  uint32_t x = f32_bits(f);
  uint32_t r = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
  return (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? (x >> 16) | 0x0040u : r);
}

/* Rounding twice (double to float to float16) can go wrong at a tie the first
 * rounding made. Rounding to odd first cannot: truncate, then set the last
 * bit if anything was cut. With at least two more bits than the final target
 * it leaves the final rounding to nearest even the same answer as from the
 * exact value (float's 24 bits against float16's 11 and bfloat16's 8;
 * double's 53 against float's 24). */
static inline float f64_to_f32_odd(double d) {
  float f = (float)d;
  if (d != d || (double)f == d) return f;
  uint32_t b = f32_bits(f);
  if ((double)f32_from(b & 0x7fffffffu) > (d < 0 ? -d : d)) b -= 1; /* rounded away from zero: step back */
  return f32_from(b | 1u);
}

static inline double u64_to_f64_odd(uint64_t u) {
  double d = (double)u;
  if (d >= 0x1p64) return 0x1.fffffffffffffp63; /* truncated, and odd already */
  uint64_t back = (uint64_t)d;
  if (back == u) return d;
  uint64_t b = f64_bits(d);
  if (back > u) b -= 1;
  return f64_from(b | 1u);
}

static inline double i64_to_f64_odd(int64_t i) {
  double m = u64_to_f64_odd(i < 0 ? 0u - (uint64_t)i : (uint64_t)i);
  return i < 0 ? -m : m;
}

/* 64-bit integer to float, rounded once. The CPU's instruction does that,
 * but a tool that emulates it through double (valgrind) rounds twice. So a
 * value of 2^53 or more in magnitude has its low 12 bits replaced by one
 * sticky bit, bit 11 (the value moves within its 4096-wide step, which no
 * float rounding boundary crosses there, and stays as cut or uncut as it
 * was): it is then exact in double, and any route rounds it once. */
static inline uint64_t fold_low_bits(uint64_t w, uint64_t big) {
  uint64_t folded = (w & ~(uint64_t)0xfff) | ((uint64_t)((w & 0xfff) != 0) << 11);
  return big ? folded : w;
}
#define I64_BIG(x) (((uint64_t)(x) + ((uint64_t)1 << 53)) >> 54) /* nonzero from 2^53 in magnitude */
static inline float i64_to_f32(int64_t i) { return (float)as_signed(fold_low_bits((uint64_t)i, I64_BIG(i))); }
static inline float u64_to_f32(uint64_t u) { return (float)fold_low_bits(u, u >> 53); }

static inline uint16_t f64_to_f16(double d) { return f32_to_f16(f64_to_f32_odd(d)); }
static inline uint16_t f64_to_bf16(double d) { return f32_to_bf16(f64_to_f32_odd(d)); }

/* ---- float to integer ---- */

/* Clamped to [LO, HI_F] first (HI_F: the largest F not above the target's
 * maximum; NaN fails the first compare and becomes LO), so the conversion is
 * always defined; then NaN gives 0, and a value at or above LIMIT (the
 * maximum + 1, a power of two) the maximum. The clamps are a max and a min
 * instruction each, the fixes selects. */
#define DEFINE_TO_INT(name, F, T, LO, HI_F, LIMIT, HI) \
  static inline T name(F x) {                         \
    F c = x > (LO) ? x : (LO);                        \
    c = c < (HI_F) ? c : (HI_F);                      \
    T r = (T)c;                                       \
    r = x == x ? r : (T)0;                            \
    return x >= (LIMIT) ? (T)(HI) : r;                \
  }
DEFINE_TO_INT(f64_to_i8, double, int8_t, -128.0, 127.0, 128.0, INT8_MAX)
DEFINE_TO_INT(f64_to_i16, double, int16_t, -32768.0, 32767.0, 32768.0, INT16_MAX)
DEFINE_TO_INT(f64_to_i32, double, int32_t, -0x1p31, 2147483647.0, 0x1p31, INT32_MAX)
DEFINE_TO_INT(f64_to_i64, double, int64_t, -0x1p63, 0x1.fffffffffffffp62, 0x1p63, INT64_MAX)
DEFINE_TO_INT(f64_to_u8, double, uint8_t, 0.0, 255.0, 256.0, UINT8_MAX)
DEFINE_TO_INT(f64_to_u16, double, uint16_t, 0.0, 65535.0, 65536.0, UINT16_MAX)
DEFINE_TO_INT(f64_to_u32, double, uint32_t, 0.0, 4294967295.0, 0x1p32, UINT32_MAX)
DEFINE_TO_INT(f64_to_u64, double, uint64_t, 0.0, 0x1.fffffffffffffp63, 0x1p64, UINT64_MAX)
DEFINE_TO_INT(f32_to_i32, float, int32_t, -0x1p31f, 0x1.fffffep30f, 0x1p31f, INT32_MAX)

/* float to int64 from the bits alone: the 24-bit significand, placed at
 * the top of 63 bits, shifted right into place (62 - e places for |f| in
 * [2^e, 2^(e+1)); clamped to [0, 63], and at 63 nothing is left of |f| < 1).
 * x86 has no vector conversion to int64 below AVX-512, but AVX2 has per-lane
 * 64-bit shifts, so this vectorizes where the FPU's conversion would not.
 * From 2^63 up (and inf) the result saturates; NaN gives 0. Comparisons are
 * of signed 32-bit lanes, which x86 vectors have. */
static inline int64_t f32_to_i64(float f) {
  uint32_t x = f32_bits(f), a = x & 0x7fffffffu;
  int32_t shift = 189 - (int32_t)(a >> 23); /* 62 - e, with e = exponent bits - 127 */
  shift = shift < 63 ? shift : 63;
  shift = shift > 0 ? shift : 0;
  uint64_t m = (a & 0x007fffffu) | 0x00800000u;
  uint64_t neg = (uint64_t)(int64_t)-(int32_t)(x >> 31); /* all ones when negative */
  uint64_t r = (((m << 39) >> shift) ^ neg) - neg; /* two's complement of the magnitude, below 2^63 */
  r = (int32_t)a >= 0x5f000000 ? (uint64_t)INT64_MAX + (neg & 1u) : r; /* the maximum, or INT64_MIN */
  return as_signed((int32_t)a > 0x7f800000 ? 0u : r);
}

/* ---- loops ---- */

/* On x86-64 the direct loops are built twice from the same C (ops/core/cpu.h):
 * for the baseline (SSE2) and for AVX2 (with F16C, which every AVX2 CPU
 * has), taken when the CPU has both. Twice the lanes, and the conversions SSE2 lacks
 * (packing 32-bit lanes to 16, variable 64-bit shifts), bring them to the
 * memory floor; SSE2 is some way off. A few pairs have loops written with
 * intrinsics (below), and int64 to float an AVX-512 one, taken when the CPU
 * has AVX-512 F and DQ (checked at run time only: valgrind, which hides
 * AVX-512, then runs the AVX2 ones). -DMINNX_X86_AVX2=OFF (MX_NO_AVX2)
 * leaves them all out. */
#if MX_X86_AVX2
#include <cpuid.h>
#include <immintrin.h>
#define AVX2_TARGET __attribute__((target("avx2,f16c")))
#define AVX512_TARGET __attribute__((target("avx2,f16c,avx512f,avx512dq")))
#endif

/* A direct loop over one pair, asking for its input MX_AHEAD bytes ahead
 * (kernel.h) a chunk at a time; a full chunk's loop has a constant trip
 * count, so it vectorizes without a remainder. */
#define DIRECT_CHUNK 64
#define DEFINE_DIRECT_AS(name, TI, TO, CONV, ATTR)                                 \
  ATTR static void name(void *o, const void *in_, int64_t n) {                   \
    TO *out = o;                                                                  \
    const TI *in = in_;                                                           \
    for (; n >= DIRECT_CHUNK; n -= DIRECT_CHUNK, in += DIRECT_CHUNK, out += DIRECT_CHUNK) { \
      for (int line = 0; line < DIRECT_CHUNK * (int)sizeof(TI); line += 64)      \
        mx_prefetch(in, MX_AHEAD + line);                                         \
      for (int i = 0; i < DIRECT_CHUNK; i++) out[i] = CONV(in[i]);                \
    }                                                                             \
    for (int64_t i = 0; i < n; i++) out[i] = CONV(in[i]);                         \
  }
#if MX_X86_AVX2
#define DEFINE_DIRECT(name, TI, TO, CONV) \
  DEFINE_DIRECT_AS(name, TI, TO, CONV, )  \
  DEFINE_DIRECT_AS(name##_avx2, TI, TO, CONV, AVX2_TARGET)
#define AVX2(f) f##_avx2
#define AVX512(f) f##_avx512
#else
#define DEFINE_DIRECT(name, TI, TO, CONV) DEFINE_DIRECT_AS(name, TI, TO, CONV, )
#define AVX2(f) NULL
#define AVX512(f) NULL
#endif
#define TO_F32(x) ((float)(x))
DEFINE_DIRECT_AS(direct_f32_f16, float, uint16_t, f32_to_f16, )
DEFINE_DIRECT_AS(direct_f16_f32, uint16_t, float, f16_to_f32, )
DEFINE_DIRECT_AS(direct_f32_bf16, float, uint16_t, f32_to_bf16, )
DEFINE_DIRECT(direct_bf16_f32, uint16_t, float, bf16_to_f32)
DEFINE_DIRECT(direct_f32_i32, float, int32_t, f32_to_i32)
DEFINE_DIRECT(direct_i32_f32, int32_t, float, TO_F32)

/* float to int64: a chunk whose values are all below 2^31 in magnitude (the
 * usual case) converts through int32, which vectors do in one instruction;
 * another takes f32_to_i64's shifts. */
#define DEFINE_SPLIT(name, TI, TO, BIG, FAST, EXACT, ATTR)                                          \
  ATTR static void name(void *o, const void *in_, int64_t n) {                                     \
    TO *out = o;                                                                                    \
    const TI *in = in_;                                                                             \
    for (; n >= DIRECT_CHUNK; n -= DIRECT_CHUNK, in += DIRECT_CHUNK, out += DIRECT_CHUNK) {         \
      for (int line = 0; line < DIRECT_CHUNK * (int)sizeof(TI); line += 64) mx_prefetch(in, MX_AHEAD + line); \
      uint64_t big = 0;                                                                             \
      for (int i = 0; i < DIRECT_CHUNK; i++) big |= BIG(in[i]);                                     \
      if (big)                                                                                      \
        for (int i = 0; i < DIRECT_CHUNK; i++) out[i] = EXACT(in[i]);                               \
      else                                                                                          \
        for (int i = 0; i < DIRECT_CHUNK; i++) out[i] = FAST(in[i]);                                \
    }                                                                                               \
    for (int64_t i = 0; i < n; i++) out[i] = EXACT(in[i]);                                          \
  }
/* nonzero from 2^31 in magnitude: an add and a shift, which OR together in vectors */
#define F32_BIG(x) (((f32_bits(x) & 0x7fffffffu) + 0x31000000u) >> 31)
#define F32_I64_FAST(x) ((int64_t)(int32_t)(x))
DEFINE_SPLIT(direct_f32_i64, float, int64_t, F32_BIG, F32_I64_FAST, f32_to_i64, )
#if MX_X86_AVX2
DEFINE_SPLIT(direct_f32_i64_avx2, float, int64_t, F32_BIG, F32_I64_FAST, f32_to_i64, AVX2_TARGET)
#endif
DEFINE_DIRECT_AS(direct_i64_f32, int64_t, float, i64_to_f32, )

#if MX_X86_AVX2
/* The loops written with intrinsics, where the compiler's code from the
 * element conversion is too slow for the memory floor: a chunk at a time as
 * above, STEP elements per call of VEC(out, in), the remainder by the
 * portable element conversion CONV. */
#define DEFINE_VECTOR(name, TI, TO, STEP, VEC, CONV, ATTR)                                   \
  ATTR static void name(void *o, const void *in_, int64_t n) {                               \
    TO *out = o;                                                                              \
    const TI *in = in_;                                                                       \
    for (; n >= DIRECT_CHUNK; n -= DIRECT_CHUNK, in += DIRECT_CHUNK, out += DIRECT_CHUNK) {   \
      for (int line = 0; line < DIRECT_CHUNK * (int)sizeof(TI); line += 64) mx_prefetch(in, MX_AHEAD + line); \
      for (int i = 0; i < DIRECT_CHUNK; i += (STEP)) VEC(out + i, in + i);                    \
    }                                                                                         \
    for (int64_t i = 0; i < n; i++) out[i] = CONV(in[i]);                                     \
  }

/* float16 has instructions of its own (F16C) that round to nearest even and
 * keep a NaN a quiet NaN, as f32_to_f16 does: eight lanes in one instruction
 * where that arithmetic takes some twenty, too many for the memory floor. */
AVX2_TARGET static inline void f16x8_avx2(uint16_t *out, const float *in) {
  _mm_storeu_si128((__m128i *)(void *)out, _mm256_cvtps_ph(_mm256_loadu_ps(in), _MM_FROUND_TO_NEAREST_INT));
}
AVX2_TARGET static inline void f32x8_of_f16_avx2(float *out, const uint16_t *in) {
  _mm256_storeu_ps(out, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)in)));
}
DEFINE_VECTOR(direct_f32_f16_avx2, float, uint16_t, 8, f16x8_avx2, f32_to_f16, AVX2_TARGET)
DEFINE_VECTOR(direct_f16_f32_avx2, uint16_t, float, 8, f32x8_of_f16_avx2, f16_to_f32, AVX2_TARGET)

/* float to bfloat16: f32_to_bf16 on eight lanes (no instruction serves:
 * AVX-512 BF16's conversion flushes subnormals to zero, and this at 512 bits
 * is no faster on aligned data, slower on misaligned). */
AVX2_TARGET static inline __m256i bf16x8_avx2(__m256i x) {
  __m256i top = _mm256_srli_epi32(x, 16);
  __m256i r = _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), _mm256_and_si256(top, _mm256_set1_epi32(1)));
  __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f800000));
  return _mm256_blendv_epi8(_mm256_srli_epi32(r, 16), _mm256_or_si256(top, _mm256_set1_epi32(0x0040)), nan);
}
/* Sixteen at a time: the two halves' 32-bit lanes (each below 2^16) packed
 * to 16 bits, which AVX2 does per 128-bit lane, then put in order. */
AVX2_TARGET static inline void bf16x16_avx2(uint16_t *out, const float *in) {
  __m256i a = bf16x8_avx2(_mm256_loadu_si256((const __m256i *)(const void *)in));
  __m256i b = bf16x8_avx2(_mm256_loadu_si256((const __m256i *)(const void *)(in + 8)));
  _mm256_storeu_si256((__m256i *)(void *)out, _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
}
DEFINE_VECTOR(direct_f32_bf16_avx2, float, uint16_t, 16, bf16x16_avx2, f32_to_bf16, AVX2_TARGET)
/* int64 to float, rounded once (i64_to_f32). AVX-512 DQ converts in one
 * instruction, rounding once. AVX2 has no conversion from int64: a value
 * exact in double (below 2^53 in magnitude, or folded as i64_to_f32 does) is
 * split in its halves, each made a double exactly by placing its bits in a
 * double's mantissa (the high half, signed, offset by 2^31; the low one
 * unsigned), then the offsets are taken away and the halves added: both
 * steps exact, as their results are doubles. The one rounding is the
 * conversion to float. The fold costs as much again, so a chunk whose values
 * are all below 2^53 in magnitude (the usual case) goes without. */
AVX2_TARGET static inline __m256i fold_avx2(__m256i x) {
  const __m256i low = _mm256_set1_epi64x(0xfff);
  __m256i cut = _mm256_cmpeq_epi64(_mm256_and_si256(x, low), _mm256_setzero_si256());
  __m256i folded = _mm256_or_si256(_mm256_andnot_si256(low, x), _mm256_andnot_si256(cut, _mm256_set1_epi64x(0x800)));
  __m256i big = _mm256_or_si256(_mm256_cmpgt_epi64(x, _mm256_set1_epi64x(((int64_t)1 << 53) - 1)),
                                _mm256_cmpgt_epi64(_mm256_set1_epi64x(-((int64_t)1 << 53)), x));
  return _mm256_blendv_epi8(x, folded, big);
}
AVX2_TARGET static inline void f32x4_of_exact_i64_avx2(float *out, __m256i x) {
  /* 2^84 + (high + 2^31) * 2^32, and 2^52 + low */
  __m256d hi = _mm256_castsi256_pd(_mm256_xor_si256(_mm256_srli_epi64(x, 32), _mm256_set1_epi64x(0x4530000080000000)));
  __m256d lo = _mm256_castsi256_pd(_mm256_blend_epi32(x, _mm256_set1_epi64x(0x4330000000000000), 0xaa));
  /* minus 2^84 + 2^63 + 2^52: high * 2^32 - 2^52 */
  hi = _mm256_sub_pd(hi, _mm256_castsi256_pd(_mm256_set1_epi64x(0x4530000080100000)));
  _mm_storeu_ps(out, _mm256_cvtpd_ps(_mm256_add_pd(hi, lo)));
}
#define LOAD4(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
AVX2_TARGET static void direct_i64_f32_avx2(void *o, const void *in_, int64_t n) {
  float *out = o;
  const int64_t *in = in_;
  for (; n >= DIRECT_CHUNK; n -= DIRECT_CHUNK, in += DIRECT_CHUNK, out += DIRECT_CHUNK) {
    for (int line = 0; line < DIRECT_CHUNK * 8; line += 64) mx_prefetch(in, MX_AHEAD + line);
    /* x + 2^53 has a bit from 54 up (as the OR of all has) when |x| >= 2^53 */
    __m256i any = _mm256_setzero_si256();
    for (int i = 0; i < DIRECT_CHUNK; i += 4) any = _mm256_or_si256(any, _mm256_add_epi64(LOAD4(in + i), _mm256_set1_epi64x((int64_t)1 << 53)));
    if (_mm256_testz_si256(any, _mm256_set1_epi64x(-((int64_t)1 << 54))))
      for (int i = 0; i < DIRECT_CHUNK; i += 4) f32x4_of_exact_i64_avx2(out + i, LOAD4(in + i));
    else
      for (int i = 0; i < DIRECT_CHUNK; i += 4) f32x4_of_exact_i64_avx2(out + i, fold_avx2(LOAD4(in + i)));
  }
  for (int64_t i = 0; i < n; i++) out[i] = i64_to_f32(in[i]);
}
AVX512_TARGET static inline void f32x8_of_i64_avx512(float *out, const int64_t *in) {
  _mm256_storeu_ps(out, _mm512_cvtepi64_ps(_mm512_loadu_si512((const void *)in)));
}
DEFINE_VECTOR(direct_i64_f32_avx512, int64_t, float, 8, f32x8_of_i64_avx512, i64_to_f32, AVX512_TARGET)
#endif

/* A loop of the two-stage path: W is the wide type (double, or uint64_t
 * holding an integer modulo 2^64). */
#define DEFINE_LOOP(name, TI, TO, CONV)                      \
  static void name(void *o, const void *in_, int64_t n) {   \
    TO *out = o;                                             \
    const TI *in = in_;                                      \
    for (int64_t i = 0; i < n; i++) out[i] = CONV(in[i]);    \
  }

/* Loads: every source exactly into its wide value. */
#define TO_F64(x) ((double)(x))
#define F16_F64(x) ((double)f16_to_f32(x))
#define BF16_F64(x) ((double)bf16_to_f32(x))
#define TO_U64(x) ((uint64_t)(x)) /* a signed value modulo 2^64 */
#define BOOL_U64(x) ((uint64_t)((x) != 0))
DEFINE_LOOP(load_f16, uint16_t, double, F16_F64)
DEFINE_LOOP(load_bf16, uint16_t, double, BF16_F64)
DEFINE_LOOP(load_f32, float, double, TO_F64)
DEFINE_LOOP(load_f64, double, double, TO_F64)
DEFINE_LOOP(load_i8, int8_t, uint64_t, TO_U64)
DEFINE_LOOP(load_i16, int16_t, uint64_t, TO_U64)
DEFINE_LOOP(load_i32, int32_t, uint64_t, TO_U64)
DEFINE_LOOP(load_i64, int64_t, uint64_t, TO_U64)
DEFINE_LOOP(load_u8, uint8_t, uint64_t, TO_U64)
DEFINE_LOOP(load_u16, uint16_t, uint64_t, TO_U64)
DEFINE_LOOP(load_u32, uint32_t, uint64_t, TO_U64)
DEFINE_LOOP(load_u64, uint64_t, uint64_t, TO_U64)
DEFINE_LOOP(load_bool, uint8_t, uint64_t, BOOL_U64)

/* Stores from double (a float source). */
#define TO_BOOL(x) ((uint8_t)((x) != 0))
DEFINE_LOOP(fstore_f16, double, uint16_t, f64_to_f16)
DEFINE_LOOP(fstore_bf16, double, uint16_t, f64_to_bf16)
DEFINE_LOOP(fstore_f32, double, float, TO_F32)
DEFINE_LOOP(fstore_f64, double, double, TO_F64)
DEFINE_LOOP(fstore_i8, double, int8_t, f64_to_i8)
DEFINE_LOOP(fstore_i16, double, int16_t, f64_to_i16)
DEFINE_LOOP(fstore_i32, double, int32_t, f64_to_i32)
DEFINE_LOOP(fstore_i64, double, int64_t, f64_to_i64)
DEFINE_LOOP(fstore_u8, double, uint8_t, f64_to_u8)
DEFINE_LOOP(fstore_u16, double, uint16_t, f64_to_u16)
DEFINE_LOOP(fstore_u32, double, uint32_t, f64_to_u32)
DEFINE_LOOP(fstore_u64, double, uint64_t, f64_to_u64)
DEFINE_LOOP(fstore_bool, double, uint8_t, TO_BOOL)

/* Stores from an integer: to an integer, the low bits (a conversion to a
 * narrower signed type keeps them in GCC and Clang, which define it so); to a
 * float, rounded once from the signed or unsigned value. */
#define S_F16(w) f64_to_f16(i64_to_f64_odd(as_signed(w)))
#define S_BF16(w) f64_to_bf16(i64_to_f64_odd(as_signed(w)))
#define S_F32(w) i64_to_f32(as_signed(w))
#define S_F64(w) ((double)as_signed(w))
#define U_F16(w) f64_to_f16(u64_to_f64_odd(w))
#define U_BF16(w) f64_to_bf16(u64_to_f64_odd(w))
DEFINE_LOOP(sstore_f16, uint64_t, uint16_t, S_F16)
DEFINE_LOOP(sstore_bf16, uint64_t, uint16_t, S_BF16)
DEFINE_LOOP(sstore_f32, uint64_t, float, S_F32)
DEFINE_LOOP(sstore_f64, uint64_t, double, S_F64)
DEFINE_LOOP(ustore_f16, uint64_t, uint16_t, U_F16)
DEFINE_LOOP(ustore_bf16, uint64_t, uint16_t, U_BF16)
DEFINE_LOOP(ustore_f32, uint64_t, float, u64_to_f32)
DEFINE_LOOP(ustore_f64, uint64_t, double, TO_F64)
DEFINE_LOOP(istore_i8, uint64_t, int8_t, (int8_t))
DEFINE_LOOP(istore_i16, uint64_t, int16_t, (int16_t))
DEFINE_LOOP(istore_i32, uint64_t, int32_t, (int32_t))
DEFINE_LOOP(istore_i64, uint64_t, int64_t, as_signed)
DEFINE_LOOP(istore_u8, uint64_t, uint8_t, (uint8_t))
DEFINE_LOOP(istore_u16, uint64_t, uint16_t, (uint16_t))
DEFINE_LOOP(istore_u32, uint64_t, uint32_t, (uint32_t))
DEFINE_LOOP(istore_u64, uint64_t, uint64_t, (uint64_t))
DEFINE_LOOP(istore_bool, uint64_t, uint8_t, TO_BOOL)

/* ---- the tables ---- */

typedef void (*loop_fn)(void *out, const void *in, int64_t n);
enum { FLOATING, SIGNED, UNSIGNED, KINDS };

#define ON(t, f) MX_IF_DTYPE(t, f)
static const struct {
  loop_fn load;
  unsigned char kind;
} sources[MX_DTYPE_COUNT] = {
    [MINNX_FLOAT16] = {ON(MINNX_FLOAT16, load_f16), FLOATING}, [MINNX_BFLOAT16] = {ON(MINNX_BFLOAT16, load_bf16), FLOATING},
    [MINNX_FLOAT] = {ON(MINNX_FLOAT, load_f32), FLOATING},     [MINNX_DOUBLE] = {ON(MINNX_DOUBLE, load_f64), FLOATING},
    [MINNX_INT8] = {ON(MINNX_INT8, load_i8), SIGNED},          [MINNX_INT16] = {ON(MINNX_INT16, load_i16), SIGNED},
    [MINNX_INT32] = {ON(MINNX_INT32, load_i32), SIGNED},       [MINNX_INT64] = {ON(MINNX_INT64, load_i64), SIGNED},
    [MINNX_UINT8] = {ON(MINNX_UINT8, load_u8), SIGNED},        [MINNX_UINT16] = {ON(MINNX_UINT16, load_u16), SIGNED},
    [MINNX_UINT32] = {ON(MINNX_UINT32, load_u32), SIGNED},     [MINNX_UINT64] = {ON(MINNX_UINT64, load_u64), UNSIGNED},
    [MINNX_BOOL] = {ON(MINNX_BOOL, load_bool), SIGNED},
};
/* (Unsigned sources narrower than 64 bits are non-negative int64 values, so
 * the signed stores serve them; only uint64 needs the unsigned ones.) */

#define INT_STORES()                                                                                            \
  [MINNX_INT8] = ON(MINNX_INT8, istore_i8), [MINNX_INT16] = ON(MINNX_INT16, istore_i16),                        \
  [MINNX_INT32] = ON(MINNX_INT32, istore_i32), [MINNX_INT64] = ON(MINNX_INT64, istore_i64),                     \
  [MINNX_UINT8] = ON(MINNX_UINT8, istore_u8), [MINNX_UINT16] = ON(MINNX_UINT16, istore_u16),                    \
  [MINNX_UINT32] = ON(MINNX_UINT32, istore_u32), [MINNX_UINT64] = ON(MINNX_UINT64, istore_u64),                 \
  [MINNX_BOOL] = ON(MINNX_BOOL, istore_bool)
static const loop_fn stores[KINDS][MX_DTYPE_COUNT] = {
    [FLOATING] = {[MINNX_FLOAT16] = ON(MINNX_FLOAT16, fstore_f16), [MINNX_BFLOAT16] = ON(MINNX_BFLOAT16, fstore_bf16),
                  [MINNX_FLOAT] = ON(MINNX_FLOAT, fstore_f32), [MINNX_DOUBLE] = ON(MINNX_DOUBLE, fstore_f64),
                  [MINNX_INT8] = ON(MINNX_INT8, fstore_i8), [MINNX_INT16] = ON(MINNX_INT16, fstore_i16),
                  [MINNX_INT32] = ON(MINNX_INT32, fstore_i32), [MINNX_INT64] = ON(MINNX_INT64, fstore_i64),
                  [MINNX_UINT8] = ON(MINNX_UINT8, fstore_u8), [MINNX_UINT16] = ON(MINNX_UINT16, fstore_u16),
                  [MINNX_UINT32] = ON(MINNX_UINT32, fstore_u32), [MINNX_UINT64] = ON(MINNX_UINT64, fstore_u64),
                  [MINNX_BOOL] = ON(MINNX_BOOL, fstore_bool)},
    [SIGNED] = {[MINNX_FLOAT16] = ON(MINNX_FLOAT16, sstore_f16), [MINNX_BFLOAT16] = ON(MINNX_BFLOAT16, sstore_bf16),
                [MINNX_FLOAT] = ON(MINNX_FLOAT, sstore_f32), [MINNX_DOUBLE] = ON(MINNX_DOUBLE, sstore_f64),
                INT_STORES()},
    [UNSIGNED] = {[MINNX_FLOAT16] = ON(MINNX_FLOAT16, ustore_f16), [MINNX_BFLOAT16] = ON(MINNX_BFLOAT16, ustore_bf16),
                  [MINNX_FLOAT] = ON(MINNX_FLOAT, ustore_f32), [MINNX_DOUBLE] = ON(MINNX_DOUBLE, ustore_f64),
                  INT_STORES()},
};

/* The frequent pairs' own loops, portable, AVX2 and AVX-512 (NULL: the
 * level below serves), left out with a dtype the build leaves out. */
#define ON2(a, b, f) MX_IF_DTYPE(a, MX_IF_DTYPE(b, f))
#define PAIR(a, b, f) {a, b, {ON2(a, b, f), ON2(a, b, AVX2(f)), NULL}}
#define PAIR512(a, b, f) {a, b, {ON2(a, b, f), ON2(a, b, AVX2(f)), ON2(a, b, AVX512(f))}}
static const struct {
  unsigned char from, to;
  loop_fn run[MX_ISA_AVX512 + 1];
} directs[] = {
    PAIR(MINNX_FLOAT, MINNX_FLOAT16, direct_f32_f16), PAIR(MINNX_FLOAT16, MINNX_FLOAT, direct_f16_f32),
    PAIR(MINNX_FLOAT, MINNX_BFLOAT16, direct_f32_bf16), PAIR(MINNX_BFLOAT16, MINNX_FLOAT, direct_bf16_f32),
    PAIR(MINNX_FLOAT, MINNX_INT32, direct_f32_i32), PAIR(MINNX_INT32, MINNX_FLOAT, direct_i32_f32),
    PAIR(MINNX_FLOAT, MINNX_INT64, direct_f32_i64), PAIR512(MINNX_INT64, MINNX_FLOAT, direct_i64_f32),
};

int mx_convert_isa_available(void) {
#if MX_X86_AVX2
  unsigned a, b, c, d;
  if (!mx_cpu_avx2() || !__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_F16C)) return MX_ISA_PORTABLE;
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? MX_ISA_AVX512 : MX_ISA_AVX2;
#else
  return MX_ISA_PORTABLE;
#endif
}

int mx_convert_choose(mx_convert_params *p, int from, int to) {
  return mx_convert_choose_isa(p, from, to, mx_convert_isa_available());
}

int mx_convert_choose_isa(mx_convert_params *p, int from, int to, int isa) {
  memset(p, 0, sizeof *p);
  if (from <= 0 || from >= MX_DTYPE_COUNT || to <= 0 || to >= MX_DTYPE_COUNT) return 0;
  if (!sources[from].load || !stores[FLOATING][to]) return 0; /* not numeric or bool, or not in this build */
  p->in_size = (int64_t)mx_dtype_size(from);
  p->out_size = (int64_t)mx_dtype_size(to);
  if (from == to) return 1; /* neither direct nor load: a copy */
  isa = isa < MX_ISA_PORTABLE ? MX_ISA_PORTABLE : isa > MX_ISA_AVX512 ? MX_ISA_AVX512 : isa;
  for (size_t k = 0; k < sizeof directs / sizeof directs[0]; k++)
    if (directs[k].from == from && directs[k].to == to && directs[k].run[0]) {
      while (!directs[k].run[isa]) isa--;
      p->direct = directs[k].run[isa];
      return 1;
    }
  p->load = sources[from].load;
  p->store = stores[sources[from].kind][to];
  return 1;
}

void mx_convert_run(const mx_convert_params *p, void *out, const void *in, int64_t n) {
  if (p->direct) {
    p->direct(out, in, n);
  } else if (!p->load) {
    if (n > 0) memcpy(out, in, (size_t)(n * p->in_size));
  } else {
    union {
      double f[MX_CONVERT_BLOCK];
      uint64_t u[MX_CONVERT_BLOCK];
    } wide;
    for (int64_t i = 0; i < n; i += MX_CONVERT_BLOCK) {
      int64_t m = n - i < MX_CONVERT_BLOCK ? n - i : MX_CONVERT_BLOCK;
      p->load(&wide, (const char *)in + i * p->in_size, m);
      p->store((char *)out + i * p->out_size, &wide, m);
    }
  }
}
