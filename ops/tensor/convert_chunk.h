/* The direct loops' chunks (convert_to_float.c.in, convert_from_float.c.in):
 * MX_CONVERT_CHUNK elements between float and a dtype, one function per
 * dtype, direction and ISA level, which the template calls as
 * mx_chunk_to_float_@SFX@_@ISA@ (and mx_chunk_from_float_...). A full chunk
 * has a constant trip count, so it vectorizes without a remainder.
 *
 * On x86-64 a chunk is built for the baseline (SSE2) and for AVX2 (with
 * F16C, which the level includes, ops/core/cpu.h): twice the lanes, and the
 * conversions SSE2 lacks (packing 32-bit lanes to 16, variable 64-bit shifts),
 * bring them to the memory floor; SSE2 is some way off. Most AVX2 chunks are
 * the portable C compiled for AVX2; a few are written with intrinsics, where
 * the compiler's code from the element conversion is too slow for the floor;
 * int64 to float has an AVX-512 one (F and DQ, taken only when the CPU has
 * them: valgrind, which hides AVX-512, then runs the AVX2 one).
 * -DMINNX_X86_AVX2=OFF (MX_NO_AVX2) leaves them all out. */
#ifndef MX_CONVERT_CHUNK_H
#define MX_CONVERT_CHUNK_H

#include <stdint.h>

#include "ops/core/cpu.h"
#include "ops/tensor/convert_elem.h"

#define MX_CONVERT_CHUNK 64 /* elements */

/* ---- portable ---- */

static inline void mx_chunk_to_float_f16_port(float *out, const uint16_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_f16_to_f32(in[i]);
}
static inline void mx_chunk_from_float_f16_port(uint16_t *out, const float *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_f32_to_f16(in[i]);
}
static inline void mx_chunk_to_float_bf16_port(float *out, const uint16_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_bf16_to_f32(in[i]);
}
static inline void mx_chunk_from_float_bf16_port(uint16_t *out, const float *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_f32_to_bf16(in[i]);
}
static inline void mx_chunk_to_float_i32_port(float *out, const int32_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = (float)in[i];
}
static inline void mx_chunk_from_float_i32_port(int32_t *out, const float *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_f32_to_i32(in[i]);
}
static inline void mx_chunk_to_float_i64_port(float *out, const int64_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_i64_to_f32(in[i]);
}
/* float to int64: a chunk whose values are all below 2^31 in magnitude (the
 * usual case) converts through int32, which vectors do in one instruction;
 * another takes mx_f32_to_i64's shifts. */
static inline void mx_chunk_from_float_i64_port(int64_t *out, const float *in) {
  uint64_t big = 0;
  for (int i = 0; i < MX_CONVERT_CHUNK; i++) big |= mx_f32_big(in[i]);
  if (big)
    for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = mx_f32_to_i64(in[i]);
  else
    for (int i = 0; i < MX_CONVERT_CHUNK; i++) out[i] = (int64_t)(int32_t)in[i];
}

#if MX_X86_AVX2
#include <immintrin.h>

/* ---- AVX2: the portable C, compiled for AVX2 where it is inlined ---- */

static inline void mx_chunk_to_float_bf16_avx2(float *out, const uint16_t *in) {
  mx_chunk_to_float_bf16_port(out, in);
}
static inline void mx_chunk_to_float_i32_avx2(float *out, const int32_t *in) { mx_chunk_to_float_i32_port(out, in); }
static inline void mx_chunk_from_float_i32_avx2(int32_t *out, const float *in) {
  mx_chunk_from_float_i32_port(out, in);
}
static inline void mx_chunk_from_float_i64_avx2(int64_t *out, const float *in) {
  mx_chunk_from_float_i64_port(out, in);
}

/* ---- AVX2: intrinsics ---- */

/* float16 has instructions of its own (F16C) that round to nearest even and
 * keep a NaN a quiet NaN, as mx_f32_to_f16 does: eight lanes in one
 * instruction where that arithmetic takes some twenty, too many for the
 * memory floor. */
MX_AVX2_TARGET static inline void mx_chunk_from_float_f16_avx2(uint16_t *out, const float *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i += 8)
    _mm_storeu_si128((__m128i *)(void *)(out + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
}
MX_AVX2_TARGET static inline void mx_chunk_to_float_f16_avx2(float *out, const uint16_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(in + i))));
}

/* float to bfloat16: mx_f32_to_bf16 on eight lanes (no instruction serves:
 * AVX-512 BF16's conversion flushes subnormals to zero, and this at 512 bits
 * is no faster on aligned data, slower on misaligned). */
MX_AVX2_TARGET static inline __m256i mx_bf16x8_avx2(__m256i x) {
  __m256i top = _mm256_srli_epi32(x, 16);
  __m256i r = _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)),
                               _mm256_and_si256(top, _mm256_set1_epi32(1)));
  __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)),
                                   _mm256_set1_epi32(0x7f800000));
  return _mm256_blendv_epi8(_mm256_srli_epi32(r, 16), _mm256_or_si256(top, _mm256_set1_epi32(0x0040)), nan);
}
/* Sixteen at a time: the two halves' 32-bit lanes (each below 2^16) packed
 * to 16 bits, which AVX2 does per 128-bit lane, then put in order. */
MX_AVX2_TARGET static inline void mx_chunk_from_float_bf16_avx2(uint16_t *out, const float *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i += 16) {
    __m256i a = mx_bf16x8_avx2(_mm256_loadu_si256((const __m256i *)(const void *)(in + i)));
    __m256i b = mx_bf16x8_avx2(_mm256_loadu_si256((const __m256i *)(const void *)(in + i + 8)));
    _mm256_storeu_si256((__m256i *)(void *)(out + i), _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
  }
}

/* int64 to float, rounded once (mx_i64_to_f32). AVX2 has no conversion from
 * int64: a value exact in double (below 2^53 in magnitude, or folded as
 * mx_i64_to_f32 does) is split in its halves, each made a double exactly by
 * placing its bits in a double's mantissa (the high half, signed, offset by
 * 2^31; the low one unsigned), then the offsets are taken away and the halves
 * added: both steps exact, as their results are doubles. The one rounding is
 * the conversion to float. The fold costs as much again, so a chunk whose
 * values are all below 2^53 in magnitude (the usual case) goes without. */
MX_AVX2_TARGET static inline __m256i mx_fold_avx2(__m256i x) {
  const __m256i low = _mm256_set1_epi64x(0xfff);
  __m256i cut = _mm256_cmpeq_epi64(_mm256_and_si256(x, low), _mm256_setzero_si256());
  __m256i folded = _mm256_or_si256(_mm256_andnot_si256(low, x), _mm256_andnot_si256(cut, _mm256_set1_epi64x(0x800)));
  __m256i big = _mm256_or_si256(_mm256_cmpgt_epi64(x, _mm256_set1_epi64x(((int64_t)1 << 53) - 1)),
                                _mm256_cmpgt_epi64(_mm256_set1_epi64x(-((int64_t)1 << 53)), x));
  return _mm256_blendv_epi8(x, folded, big);
}
MX_AVX2_TARGET static inline void mx_f32x4_of_exact_i64_avx2(float *out, __m256i x) {
  /* 2^84 + (high + 2^31) * 2^32, and 2^52 + low */
  __m256d hi = _mm256_castsi256_pd(_mm256_xor_si256(_mm256_srli_epi64(x, 32), _mm256_set1_epi64x(0x4530000080000000)));
  __m256d lo = _mm256_castsi256_pd(_mm256_blend_epi32(x, _mm256_set1_epi64x(0x4330000000000000), 0xaa));
  /* minus 2^84 + 2^63 + 2^52: high * 2^32 - 2^52 */
  hi = _mm256_sub_pd(hi, _mm256_castsi256_pd(_mm256_set1_epi64x(0x4530000080100000)));
  _mm_storeu_ps(out, _mm256_cvtpd_ps(_mm256_add_pd(hi, lo)));
}
MX_AVX2_TARGET static inline __m256i mx_load4_i64_avx2(const int64_t *p) {
  return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
MX_AVX2_TARGET static inline void mx_chunk_to_float_i64_avx2(float *out, const int64_t *in) {
  /* x + 2^53 has a bit from 54 up (as the OR of all has) when |x| >= 2^53 */
  __m256i any = _mm256_setzero_si256();
  for (int i = 0; i < MX_CONVERT_CHUNK; i += 4)
    any = _mm256_or_si256(any, _mm256_add_epi64(mx_load4_i64_avx2(in + i), _mm256_set1_epi64x((int64_t)1 << 53)));
  if (_mm256_testz_si256(any, _mm256_set1_epi64x(-((int64_t)1 << 54))))
    for (int i = 0; i < MX_CONVERT_CHUNK; i += 4) mx_f32x4_of_exact_i64_avx2(out + i, mx_load4_i64_avx2(in + i));
  else
    for (int i = 0; i < MX_CONVERT_CHUNK; i += 4)
      mx_f32x4_of_exact_i64_avx2(out + i, mx_fold_avx2(mx_load4_i64_avx2(in + i)));
}

/* ---- AVX-512 ---- */

/* int64 to float: AVX-512 DQ converts in one instruction, rounding once. */
MX_AVX512_TARGET static inline void mx_chunk_to_float_i64_avx512(float *out, const int64_t *in) {
  for (int i = 0; i < MX_CONVERT_CHUNK; i += 8)
    _mm256_storeu_ps(out + i, _mm512_cvtepi64_ps(_mm512_loadu_si512((const void *)(in + i))));
}
#endif

#endif
