/* The x86-64 float32 microkernels (gemm.h), taken when the CPU has them:
 * AVX2+FMA (6 x 16: twelve accumulators of 8 lanes) and AVX-512F (12 x 32:
 * twenty-four of 16), with their GEMV kernels. Each lane is one output element; every step of k is
 * one fused multiply-add per element, acc = fma(a[i][k], b[k][j], acc), the
 * order of the portable kernel and of the reference loop. */
#include "ops/core/kernel.h"
#include "ops/math/gemm.h"

#if MX_X86_AVX2
#include <immintrin.h>

#include "ops/math/act_x86.h"

/* Loops over the tile's rows and vectors, unrolled so that the accumulators
 * stay in registers. */
#if defined(__clang__)
#define UNROLL _Pragma("unroll")
#else
#define UNROLL _Pragma("GCC unroll 16")
#endif

/* A's steps asked for this many steps ahead: a network's deep layers read
 * their packed weights (A) from memory once a run, more than the last-level
 * cache holds (ResNet-18: 46 MB), and the hardware's prefetcher alone left
 * the kernel waiting on them (six chained 512-channel 7 x 7 convolutions at 1
 * thread 16.3 -> 14.8 ms, minnx bench alternated, 2026-12-06; 32 steps
 * 15.0, 160 and 400 no better). A hint: the same loads, the same bits. */
#define A_AHEAD 64
#define FMR 6
#define FNR 16
MX_FMA_TARGET static void tile_fma(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y, int64_t ldy,
                                   int load, const float *bias, const mx_act *act) {
  __m256 acc[FMR][2];
  UNROLL for (int i = 0; i < FMR; i++) {
    acc[i][0] = load ? _mm256_loadu_ps(y + i * ldy) : _mm256_setzero_ps();
    acc[i][1] = load ? _mm256_loadu_ps(y + i * ldy + 8) : _mm256_setzero_ps();
  }
  for (int64_t k = 0; k < kc; k++, ap += FMR, bp += ldb) {
    __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8);
    _mm_prefetch((const char *)(ap + FMR * A_AHEAD), _MM_HINT_T0);
    UNROLL for (int i = 0; i < FMR; i++) {
      __m256 a = _mm256_broadcast_ss(ap + i);
      acc[i][0] = _mm256_fmadd_ps(a, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(a, b1, acc[i][1]);
    }
  }
  if (bias)
    UNROLL for (int i = 0; i < FMR; i++) {
      __m256 b = _mm256_broadcast_ss(bias + i);
      acc[i][0] = _mm256_add_ps(acc[i][0], b);
      acc[i][1] = _mm256_add_ps(acc[i][1], b);
    }
  if (act) {
    mx_act8 av = mx_act8_of(act);
    UNROLL for (int i = 0; i < FMR; i++) {
      acc[i][0] = mx_act8_run(&av, acc[i][0]);
      acc[i][1] = mx_act8_run(&av, acc[i][1]);
    }
  }
  UNROLL for (int i = 0; i < FMR; i++) {
    _mm256_storeu_ps(y + i * ldy, acc[i][0]);
    _mm256_storeu_ps(y + i * ldy + 8, acc[i][1]);
  }
}

/* GEMV: 12 vectors (96 columns) of accumulators, then single vectors, then
 * the last columns one at a time (a scalar FMA each: the same rounding) */
MX_FMA_TARGET static void gemv_fma(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y,
                                   int64_t n) {
  int64_t j0 = 0;
  for (; j0 + 96 <= n; j0 += 96) {
    __m256 acc[12];
    UNROLL for (int v = 0; v < 12; v++) acc[v] = _mm256_setzero_ps();
    for (int64_t s = 0; s < k; s++) {
      const float *br = b + s * ldb + j0;
      __m256 av = _mm256_broadcast_ss(a + s * inca);
      mx_prefetch(br, 4 * ldb * (int64_t)sizeof(float));
      mx_prefetch(br, 4 * ldb * (int64_t)sizeof(float) + 320);
      UNROLL for (int v = 0; v < 12; v++) acc[v] = _mm256_fmadd_ps(av, _mm256_loadu_ps(br + 8 * v), acc[v]);
    }
    UNROLL for (int v = 0; v < 12; v++) _mm256_storeu_ps(y + j0 + 8 * v, acc[v]);
  }
  for (; j0 + 8 <= n; j0 += 8) {
    __m256 acc = _mm256_setzero_ps();
    for (int64_t s = 0; s < k; s++) acc = _mm256_fmadd_ps(_mm256_broadcast_ss(a + s * inca), _mm256_loadu_ps(b + s * ldb + j0), acc);
    _mm256_storeu_ps(y + j0, acc);
  }
  for (; j0 < n; j0++) {
    __m128 acc = _mm_setzero_ps();
    for (int64_t s = 0; s < k; s++) acc = _mm_fmadd_ss(_mm_set_ss(a[s * inca]), _mm_set_ss(b[s * ldb + j0]), acc);
    y[j0] = _mm_cvtss_f32(acc);
  }
}

/* 8 rows a gather (offsets fit 32 bits: the plan checks ldb) */
MX_FMA_TARGET static void dots_fma(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y,
                                   int64_t rows) {
  __m256i idx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32((int)ldb));
  for (int64_t r0 = 0; r0 < rows; r0 += 8) {
    int64_t nr = rows - r0 < 8 ? rows - r0 : 8;
    __m256 mask = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
    const float *br = b + r0 * ldb;
    __m256 acc = _mm256_setzero_ps();
    for (int64_t s = 0; s < k; s++) {
      __m256 v = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), br + s, idx, mask, 4);
      acc = _mm256_fmadd_ps(_mm256_set1_ps(a[s * inca]), v, acc);
    }
    _mm256_maskstore_ps(y + r0, _mm256_castps_si256(mask), acc);
  }
}

const mx_sgemm_kernels mx_sgemm_fma = {FMR, FNR, 0, tile_fma, gemv_fma, dots_fma, NULL, NULL, NULL, NULL};


#define XMR 12
#define XNR 32
MX_AVX512_TARGET static void tile_avx512(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y,
                                         int64_t ldy, int load, const float *bias, const mx_act *act) {
  __m512 acc[XMR][2];
  UNROLL for (int i = 0; i < XMR; i++) {
    acc[i][0] = load ? _mm512_loadu_ps(y + i * ldy) : _mm512_setzero_ps();
    acc[i][1] = load ? _mm512_loadu_ps(y + i * ldy + 16) : _mm512_setzero_ps();
  }
  for (int64_t k = 0; k < kc; k++, ap += XMR, bp += ldb) {
    __m512 b0 = _mm512_loadu_ps(bp), b1 = _mm512_loadu_ps(bp + 16);
    _mm_prefetch((const char *)(ap + XMR * A_AHEAD), _MM_HINT_T0);
    UNROLL for (int i = 0; i < XMR; i++) {
      __m512 a = _mm512_set1_ps(ap[i]);
      acc[i][0] = _mm512_fmadd_ps(a, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(a, b1, acc[i][1]);
    }
  }
  if (bias)
    UNROLL for (int i = 0; i < XMR; i++) {
      __m512 b = _mm512_set1_ps(bias[i]);
      acc[i][0] = _mm512_add_ps(acc[i][0], b);
      acc[i][1] = _mm512_add_ps(acc[i][1], b);
    }
  if (act) {
    mx_act16 av = mx_act16_of(act);
    UNROLL for (int i = 0; i < XMR; i++) {
      acc[i][0] = mx_act16_run(&av, acc[i][0]);
      acc[i][1] = mx_act16_run(&av, acc[i][1]);
    }
  }
  UNROLL for (int i = 0; i < XMR; i++) {
    _mm512_storeu_ps(y + i * ldy, acc[i][0]);
    _mm512_storeu_ps(y + i * ldy + 16, acc[i][1]);
  }
}

/* A block at the edge of y, straight into y (no copies through scratch): its
 * first R rows (A's sliver still 12 wide, zeros past R), V vectors of 16
 * columns under masks m0, m1 (loaded and stored under them), and then up to
 * CMAX columns (`ncols` of them) past those vectors one column a vector:
 * lane i of column c's accumulator is row i's element, A's sliver step (its
 * 12 rows, loaded under a mask of R lanes) times the column's b broadcast.
 * Every element runs the chain of tile_avx512 (fma(a[i][k], b[k][j], acc),
 * the product commutes exactly), the bias added last: the same bits.
 * ResNet's 64, 128, 256 and 512 channels leave 4 or 8 rows and its planes
 * (49, 196, 784 positions) a part of a sliver: without these they ran as 12
 * x 32 in the edge block, through scratch (an eighth of a 64-channel
 * convolution's work on rows dropped); a block of at most 16 columns runs
 * one vector (openWakeWord's spectrogram convolutions: 8 frames), and the
 * last few columns of a plane (ResNet-18's 7 x 7 = 32 + 17, 14 x 14 = 6 x 32
 * + 4) a vector per column rather than a vector of 16 lanes per row: 12 + 1
 * multiply-adds a step for 17 columns of 12 rows where there were 24. */
#define TILE_AVX512_PART(R, V, CMAX)                                                                                 \
  MX_AVX512_TARGET static void tile_avx512_##R##_##V##_##CMAX(int64_t kc, const float *ap, const float *bp,        \
                                                              int64_t ldb, float *y, int64_t ldy, int load,         \
                                                              __mmask16 m0, __mmask16 m1, int ncols,                \
                                                              const float *bias, const mx_act *act) {               \
    const __mmask16 mv[2] = {m0, m1}, rm = (__mmask16)((1u << R) - 1);                                               \
    __m512 acc[R][V ? V : 1], cacc[CMAX ? CMAX : 1];                                                                \
    float col[16];                                                                                                   \
    UNROLL for (int i = 0; i < R; i++) UNROLL for (int v = 0; v < V; v++)                                            \
      acc[i][v] = load ? _mm512_maskz_loadu_ps(mv[v], y + i * ldy + 16 * v) : _mm512_setzero_ps();                  \
    UNROLL for (int c = 0; c < CMAX; c++) {                                                                          \
      cacc[c] = _mm512_setzero_ps();                                                                                 \
      if (c < ncols && load) {                                                                                       \
        for (int i = 0; i < R; i++) col[i] = y[i * ldy + 16 * V + c];                                               \
        cacc[c] = _mm512_maskz_loadu_ps(rm, col);                                                                    \
      }                                                                                                              \
    }                                                                                                                \
    for (int64_t k = 0; k < kc; k++, ap += XMR, bp += ldb) {                                                         \
      __m512 b[V ? V : 1];                                                                                           \
      UNROLL for (int v = 0; v < V; v++) b[v] = _mm512_loadu_ps(bp + 16 * v);                                        \
      UNROLL for (int i = 0; i < R; i++) {                                                                           \
        __m512 a = _mm512_set1_ps(ap[i]);                                                                            \
        UNROLL for (int v = 0; v < V; v++) acc[i][v] = _mm512_fmadd_ps(a, b[v], acc[i][v]);                          \
      }                                                                                                              \
      if (CMAX) {                                                                                                    \
        __m512 av = _mm512_maskz_loadu_ps(rm, ap);                                                                   \
        UNROLL for (int c = 0; c < CMAX; c++)                                                                        \
          if (c < ncols) cacc[c] = _mm512_fmadd_ps(av, _mm512_set1_ps(bp[16 * V + c]), cacc[c]);                    \
      }                                                                                                              \
    }                                                                                                                \
    if (bias) {                                                                                                      \
      UNROLL for (int i = 0; i < R; i++) {                                                                           \
        __m512 bb = _mm512_set1_ps(bias[i]);                                                                         \
        UNROLL for (int v = 0; v < V; v++) acc[i][v] = _mm512_add_ps(acc[i][v], bb);                                 \
      }                                                                                                              \
      if (CMAX) {                                                                                                    \
        __m512 bv = _mm512_maskz_loadu_ps(rm, bias);                                                                 \
        UNROLL for (int c = 0; c < CMAX; c++) cacc[c] = _mm512_add_ps(cacc[c], bv);                                  \
      }                                                                                                              \
    }                                                                                                                \
    if (act) {                                                                                                       \
      mx_act16 av = mx_act16_of(act);                                                                                      \
      UNROLL for (int i = 0; i < R; i++) UNROLL for (int v = 0; v < V; v++) acc[i][v] = mx_act16_run(&av, acc[i][v]);   \
      UNROLL for (int c = 0; c < CMAX; c++) cacc[c] = mx_act16_run(&av, cacc[c]);                                       \
    }                                                                                                                \
    UNROLL for (int i = 0; i < R; i++) UNROLL for (int v = 0; v < V; v++)                                            \
      _mm512_mask_storeu_ps(y + i * ldy + 16 * v, mv[v], acc[i][v]);                                                 \
    UNROLL for (int c = 0; c < CMAX; c++)                                                                            \
      if (c < ncols) {                                                                                               \
        _mm512_storeu_ps(col, cacc[c]);                                                                              \
        for (int i = 0; i < R; i++) y[i * ldy + 16 * V + c] = col[i];                                               \
      }                                                                                                              \
  }
TILE_AVX512_PART(4, 1, 0)
TILE_AVX512_PART(8, 1, 0)
TILE_AVX512_PART(12, 1, 0)
TILE_AVX512_PART(4, 2, 0)
TILE_AVX512_PART(8, 2, 0)
TILE_AVX512_PART(12, 2, 0)
/* column vectors: past no vector (a plane's last columns in a sliver of
 * their own) or one (at most 8 more; R above them, so that they are fewer
 * multiply-adds than a second vector's R) */
#define PART_COLS 8 /* (the CMAX of 12 rows) */
TILE_AVX512_PART(4, 0, 3)
TILE_AVX512_PART(8, 0, 7)
TILE_AVX512_PART(12, 0, 8)
TILE_AVX512_PART(4, 1, 3)
TILE_AVX512_PART(8, 1, 7)
TILE_AVX512_PART(12, 1, 8)

typedef void (*part_fn)(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y, int64_t ldy, int load,
                        __mmask16 m0, __mmask16 m1, int ncols, const float *bias, const mx_act *act);
/* [vectors, columns one a vector: 0+cols, 1+cols, 1, 2][rows 4, 8, 12] */
static const part_fn parts[4][3] = {{tile_avx512_4_0_3, tile_avx512_8_0_7, tile_avx512_12_0_8},
                                    {tile_avx512_4_1_3, tile_avx512_8_1_7, tile_avx512_12_1_8},
                                    {tile_avx512_4_1_0, tile_avx512_8_1_0, tile_avx512_12_1_0},
                                    {tile_avx512_4_2_0, tile_avx512_8_2_0, tile_avx512_12_2_0}};

/* rows <= 12, cols <= 32: 0 when no kernel takes them (the edge block does) */
MX_AVX512_TARGET static int tile_part_avx512(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y,
                                             int64_t ldy, int load, int rows, int cols, const float *bias,
                                             const mx_act *act) {
  if (rows != 4 && rows != 8 && rows != 12) return 0;
  int rem = cols % 16, whole = cols / 16, r = rows / 4 - 1;
  if (rem && rem < rows && rem <= PART_COLS && whole < 2) /* whole vectors, then columns one a vector */
    parts[whole][r](kc, ap, bp, ldb, y, ldy, load, whole ? 0xffff : 0, 0, rem, bias, act);
  else if (cols <= 16)
    parts[2][r](kc, ap, bp, ldb, y, ldy, load, (__mmask16)(cols >= 16 ? 0xffffu : (1u << cols) - 1), 0, 0, bias, act);
  else
    parts[3][r](kc, ap, bp, ldb, y, ldy, load, 0xffff, (__mmask16)(cols >= 32 ? 0xffffu : (1u << (cols - 16)) - 1), 0, bias,
                act);
  return 1;
}

/* GEMV: 16 vectors (256 columns) of accumulators, then 8, then single vectors, the
 * last under a mask (no read past B's rows) */
MX_AVX512_TARGET static void gemv_avx512(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y,
                                         int64_t n) {
  int64_t j0 = 0;
  for (; j0 + 256 <= n; j0 += 256) {
    __m512 acc[16];
    UNROLL for (int v = 0; v < 16; v++) acc[v] = _mm512_setzero_ps();
    for (int64_t s = 0; s < k; s++) {
      const float *br = b + s * ldb + j0;
      __m512 av = _mm512_set1_ps(a[s * inca]);
      UNROLL for (int l = 0; l < 1024; l += 64) mx_prefetch(br, 4 * ldb * (int64_t)sizeof(float) + l);
      UNROLL for (int v = 0; v < 16; v++) acc[v] = _mm512_fmadd_ps(av, _mm512_loadu_ps(br + 16 * v), acc[v]);
    }
    UNROLL for (int v = 0; v < 16; v++) _mm512_storeu_ps(y + j0 + 16 * v, acc[v]);
  }
  for (; j0 + 128 <= n; j0 += 128) {
    __m512 acc[8];
    UNROLL for (int v = 0; v < 8; v++) acc[v] = _mm512_setzero_ps();
    for (int64_t s = 0; s < k; s++) {
      __m512 av = _mm512_set1_ps(a[s * inca]);
      UNROLL for (int v = 0; v < 8; v++) acc[v] = _mm512_fmadd_ps(av, _mm512_loadu_ps(b + s * ldb + j0 + 16 * v), acc[v]);
    }
    UNROLL for (int v = 0; v < 8; v++) _mm512_storeu_ps(y + j0 + 16 * v, acc[v]);
  }
  for (; j0 < n; j0 += 16) {
    __mmask16 m = n - j0 >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - j0)) - 1);
    __m512 acc = _mm512_setzero_ps();
    for (int64_t s = 0; s < k; s++)
      acc = _mm512_fmadd_ps(_mm512_set1_ps(a[s * inca]), _mm512_maskz_loadu_ps(m, b + s * ldb + j0), acc);
    _mm512_mask_storeu_ps(y + j0, m, acc);
  }
}

/* The round of pairs of doubles on four vectors of unpacked pairs of floats
 * (u[0], u[1] = unpacklo, unpackhi of two rows; u[2], u[3] of the next
 * two): w[j] holds element j of each 4-float lane of the four rows. */
MX_AVX512_TARGET static inline __attribute__((always_inline)) void pairs_of_doubles(const __m512 u[4], __m512 w[4]) {
  __m512d a = _mm512_castps_pd(u[0]), b = _mm512_castps_pd(u[1]), c = _mm512_castps_pd(u[2]),
          d = _mm512_castps_pd(u[3]);
  w[0] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
  w[1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
  w[2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
  w[3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
}

/* Rounds 2-4 of transpose16 (below): t holds the first round's unpacked
 * pairs (t[2j], t[2j + 1] = unpacklo, unpackhi of rows 2j and 2j + 1). */
MX_AVX512_TARGET static inline void transpose16_rest(__m512 t[16]) {
  __m512 r[16];
  UNROLL for (int i = 0; i < 16; i += 4) pairs_of_doubles(t + i, r + i);
  UNROLL for (int i = 0; i < 4; i++) {
    t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
    t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xdd);
    t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
    t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xdd);
  }
  UNROLL for (int i = 0; i < 8; i++) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
  UNROLL for (int i = 0; i < 16; i++) t[i] = r[i];
}

/* Transposes 16 vectors in place: afterwards r[s] holds lane s of each,
 * in order (four rounds of two-source shuffles). */
MX_AVX512_TARGET static inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  UNROLL for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  transpose16_rest(t);
  UNROLL for (int i = 0; i < 16; i++) r[i] = t[i];
}

/* 16 rows x 8 steps of B (row r at br + r * ldb, steps k0..k0+7) turned
 * so that o[s] holds step s of the 16 rows, row r in lane r: the rows'
 * 8-step runs loaded two to a vector (rows i and i + 4, or i + 4 and i + 8:
 * the halves the last round pairs up), then three rounds of shuffles
 * (pairs of floats, of doubles, 128-bit lanes). */
MX_AVX512_TARGET static inline __attribute__((always_inline)) void turn16x8(const float *br, int64_t ldb, int64_t k0,
                                                                           __m512 o[8]) {
  __m512 x[8], u[8], w[8];
  UNROLL for (int i = 0; i < 8; i++) {
    int lo = i < 4 ? i : i + 4;
    x[i] = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(br + lo * ldb + k0)),
                              _mm256_loadu_ps(br + (lo + 4) * ldb + k0), 1);
  }
  UNROLL for (int i = 0; i < 8; i += 2) {
    u[i] = _mm512_unpacklo_ps(x[i], x[i + 1]);
    u[i + 1] = _mm512_unpackhi_ps(x[i], x[i + 1]);
  }
  pairs_of_doubles(u, w);
  pairs_of_doubles(u + 4, w + 4);
  UNROLL for (int p = 0; p < 4; p++) {
    o[p] = _mm512_shuffle_f32x4(w[p], w[4 + p], 0x88);
    o[4 + p] = _mm512_shuffle_f32x4(w[p], w[4 + p], 0xdd);
  }
}

/* The same for nr < 16 rows or ns < 8 steps: copied into a block of zeros
 * first (steps past ns are never run, rows past nr never stored). */
MX_AVX512_TARGET static inline void turn16x8_part(const float *br, int64_t ldb, int64_t nr, int64_t k0, int64_t ns,
                                                  __m512 o[8]) {
  _Alignas(64) float t[16 * 8];
  memset(t, 0, sizeof t);
  for (int64_t r = 0; r < nr; r++)
    for (int64_t s = 0; s < ns; s++) t[r * 8 + s] = br[r * ldb + k0 + s];
  turn16x8(t, 8, 0, o);
}

/* Groups of 16 rows, lanes the rows, each lane's chain the steps of its
 * row in order (fused multiply-adds from zero): two groups at a time, their
 * chains side by side, one step of each in turn. One group's chain is K
 * multiply-adds one after the other (4 cycles each), and a single group
 * left the kernel waiting on that latency: [1000,512] took 50 us at 1
 * thread, 1.8x the floor (16 x 16 turns, one group). Blocks of 8 steps keep
 * both groups' turned steps in registers (16 of them). A last group of
 * fewer than 32 rows runs alone. No software prefetch: the next rows' lines
 * asked for in address order, or some steps ahead along each row, measured
 * no faster than the hardware's prefetchers. */
MX_AVX512_TARGET static inline __attribute__((always_inline)) void dots_avx512_at(int64_t k, const float *a,
                                                                                 int64_t inca, const float *b,
                                                                                 int64_t ldb, float *y, int64_t rows) {
  int64_t r0 = 0, kb = k / 8 * 8;
  for (; r0 + 32 <= rows; r0 += 32) {
    const float *b0 = b + r0 * ldb, *b1 = b0 + 16 * ldb;
    __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps(), o[8], q[8];
    for (int64_t k0 = 0; k0 < kb; k0 += 8) {
      turn16x8(b0, ldb, k0, o);
      turn16x8(b1, ldb, k0, q);
      UNROLL for (int s = 0; s < 8; s++) {
        __m512 as = _mm512_set1_ps(a[(k0 + s) * inca]);
        acc0 = _mm512_fmadd_ps(as, o[s], acc0);
        acc1 = _mm512_fmadd_ps(as, q[s], acc1);
      }
    }
    if (kb < k) {
      turn16x8_part(b0, ldb, 16, kb, k - kb, o);
      turn16x8_part(b1, ldb, 16, kb, k - kb, q);
      for (int64_t s = 0; s < k - kb; s++) {
        __m512 as = _mm512_set1_ps(a[(kb + s) * inca]);
        acc0 = _mm512_fmadd_ps(as, o[s], acc0);
        acc1 = _mm512_fmadd_ps(as, q[s], acc1);
      }
    }
    _mm512_storeu_ps(y + r0, acc0);
    _mm512_storeu_ps(y + r0 + 16, acc1);
  }
  for (; r0 < rows; r0 += 16) {
    int64_t nr = rows - r0 < 16 ? rows - r0 : 16;
    const float *br = b + r0 * ldb;
    __m512 acc = _mm512_setzero_ps(), o[8];
    for (int64_t k0 = 0; k0 < k; k0 += 8) {
      int64_t ns = k - k0 < 8 ? k - k0 : 8;
      if (nr == 16 && ns == 8) turn16x8(br, ldb, k0, o);
      else turn16x8_part(br, ldb, nr, k0, ns, o);
      for (int64_t s = 0; s < ns; s++) acc = _mm512_fmadd_ps(_mm512_set1_ps(a[(k0 + s) * inca]), o[s], acc);
    }
    _mm512_mask_storeu_ps(y + r0, (__mmask16)((1u << nr) - 1), acc);
  }
}

/* A's steps side by side (inca 1, a row of A: the batch-1 case) compiled
 * apart: with inca a variable, the offsets of a block's steps were kept on
 * the stack and loaded again, one more load for each multiply-add. */
MX_AVX512_TARGET static void dots_avx512(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y,
                                         int64_t rows) {
  if (inca == 1)
    dots_avx512_at(k, a, 1, b, ldb, y, rows);
  else
    dots_avx512_at(k, a, inca, b, ldb, y, rows);
}

/* B transposed into a sliver of 32 columns: column j's steps lie together
 * (src + j * ld), the sliver wants them k-major (bp[k * 32 + j]); blocks of
 * 16 columns x 16 steps loaded as lines and transposed in registers (the
 * scalar copy wrote one float per 128-byte row of the sliver). Columns past
 * cols are zeros; steps past kc are not loaded (masks) nor stored. */
MX_AVX512_TARGET static void pack_bt_avx512(const float *src, int64_t ld, int64_t kc, int64_t cols, float *bp) {
  for (int64_t c0 = 0; c0 < XNR; c0 += 16) {
    int64_t nc = cols - c0 < 0 ? 0 : cols - c0 > 16 ? 16 : cols - c0;
    for (int64_t k0 = 0; k0 < kc; k0 += 16) {
      int64_t ns = kc - k0 < 16 ? kc - k0 : 16;
      __mmask16 m = (__mmask16)(ns == 16 ? 0xffffu : (1u << ns) - 1);
      __m512 v[16];
      UNROLL for (int i = 0; i < 16; i++) v[i] = i < nc ? _mm512_maskz_loadu_ps(m, src + (c0 + i) * ld + k0) : _mm512_setzero_ps();
      transpose16(v);
      for (int64_t s = 0; s < ns; s++) _mm512_storeu_ps(bp + (k0 + s) * XNR + c0, v[s]);
    }
  }
}

/* A's sliver of 12 rows (row i's steps at src + i * ld, one after the
 * other) packed k-major, ap[k * 12 + i], the rows past `rows` zeros: blocks
 * of 16 steps of each row loaded as lines and transposed in registers (the
 * scalar copy read one float of each of 12 rows per step). */
MX_AVX512_TARGET static void pack_a_avx512(const float *src, int64_t ld, int64_t kc, int64_t rows, float *ap) {
  for (int64_t k0 = 0; k0 < kc; k0 += 16) {
    int64_t ns = kc - k0 < 16 ? kc - k0 : 16;
    __mmask16 m = (__mmask16)(ns == 16 ? 0xffffu : (1u << ns) - 1);
    __m512 v[16];
    UNROLL for (int i = 0; i < 16; i++) v[i] = i < rows && i < XMR ? _mm512_maskz_loadu_ps(m, src + i * ld + k0) : _mm512_setzero_ps();
    transpose16(v);
    if (ns == 16) {
      UNROLL for (int s = 0; s < 16; s++) _mm512_mask_storeu_ps(ap + (k0 + s) * XMR, (__mmask16)0x0fff, v[s]);
    } else {
      for (int64_t s = 0; s < ns; s++) _mm512_mask_storeu_ps(ap + (k0 + s) * XMR, (__mmask16)0x0fff, v[s]);
    }
  }
}

/* A block whose B sliver is read through its taps (gemm.h: a convolution's
 * zero-padded image where it lies): R rows (A's sliver still 12 wide; rows
 * past `rows` computed from its zeros and not stored), 32 columns stored
 * under masks s0, s1; each step's vector v one load, or two blended where
 * its lanes cross into the next output row (B0, B1), then tile_avx512's
 * chain: the same bits as the packed sliver's; with bp, each step's two
 * vectors stored there as a packer lays them, for the tile's other blocks.
 * A pass of its own packing the sliver had been a tenth of ResNet-18's 3 x
 * 3 convolutions at 56 x 56 (its stores of 72 KB a sliver went past L1).
 * Read this way by every block, B cost more than the packing saved where
 * a tile has many blocks (0.94x the time at 64 output channels, 1.03x at
 * 256, 1 thread); read by the first alone, 0.89x-0.99x from 32 to 256. The
 * padding's zeros come from the padded image: masked loads in their place
 * had cost more than the packing (2.19 -> 2.30 ms on [1,64,56,56]). */
/* vector v's 16 lanes of a step at stride S from p (the step's tap at the piece's base): at stride 2 the even
 * elements of two loads */
#define TAPS_VEC(S, p, v)                                                                                           \
  ((S) == 1 ? _mm512_loadu_ps((p) + 16 * (v))                                                                       \
            : _mm512_permutex2var_ps(_mm512_loadu_ps((p) + 32 * (v)), even, _mm512_loadu_ps((p) + 32 * (v) + 16)))
#define TAPS_AVX512(S, R, B0, B1)                                                                                   \
  MX_AVX512_TARGET static void taps_avx512_##S##_##R##_##B0##B1(int64_t chans, const float *ap,                     \
                                                                const mx_sgemm_taps *t,                             \
                                                          int window, int64_t c0, float *y, int64_t ldy, int load,   \
                                                          int rows, __mmask16 s0, __mmask16 s1, const float *bias,   \
                                                          const mx_act *act, float *bp) {                            \
    __m512 acc[R][2];                                                                                               \
    UNROLL for (int i = 0; i < R; i++) {                                                                            \
      acc[i][0] = load && i < rows ? _mm512_maskz_loadu_ps(s0, y + i * ldy) : _mm512_setzero_ps();                  \
      acc[i][1] = load && i < rows ? _mm512_maskz_loadu_ps(s1, y + i * ldy + 16) : _mm512_setzero_ps();             \
    }                                                                                                               \
    const int64_t a0 = t->base[0][0], e0 = t->base[0][1], a1 = t->base[1][0], e1 = t->base[1][1], cs = t->cstride;  \
    const __mmask16 k0 = t->blend[0], k1 = t->blend[1];                                                             \
    const int64_t *tap = t->tap;                                                                                    \
    const float *xc = t->x + c0 * cs;                                                                               \
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);             \
    (void)even;                                                                                                     \
    for (int64_t c = 0; c < chans; c++, xc += cs)                                                                   \
      for (int at = 0; at < window; at++, ap += XMR) {                                                              \
        const float *q = xc + tap[at];                                                                              \
        __m512 b0 = TAPS_VEC(S, q + a0, 0), b1 = TAPS_VEC(S, q + a1, 1);                                            \
        if (B0) b0 = _mm512_mask_blend_ps(k0, b0, TAPS_VEC(S, q + e0, 0));                                          \
        if (B1) b1 = _mm512_mask_blend_ps(k1, b1, TAPS_VEC(S, q + e1, 1));                                          \
        if (bp) { /* the sliver packed as it is read, for the blocks after this one */                              \
          _mm512_store_ps(bp, b0);                                                                                  \
          _mm512_store_ps(bp + 16, b1);                                                                             \
          bp += 32;                                                                                                 \
        }                                                                                                           \
        _mm_prefetch((const char *)(ap + XMR * A_AHEAD), _MM_HINT_T0);                                              \
        UNROLL for (int i = 0; i < R; i++) {                                                                        \
          __m512 a = _mm512_set1_ps(ap[i]);                                                                         \
          acc[i][0] = _mm512_fmadd_ps(a, b0, acc[i][0]);                                                            \
          acc[i][1] = _mm512_fmadd_ps(a, b1, acc[i][1]);                                                            \
        }                                                                                                           \
      }                                                                                                             \
    if (bias)                                                                                                       \
      UNROLL for (int i = 0; i < R; i++) {                                                                          \
        __m512 bb = _mm512_set1_ps(i < rows ? bias[i] : 0.0f);                                                      \
        acc[i][0] = _mm512_add_ps(acc[i][0], bb);                                                                   \
        acc[i][1] = _mm512_add_ps(acc[i][1], bb);                                                                   \
      }                                                                                                             \
    if (act) {                                                                                                      \
      mx_act16 av = mx_act16_of(act);                                                                               \
      UNROLL for (int i = 0; i < R; i++) {                                                                          \
        acc[i][0] = mx_act16_run(&av, acc[i][0]);                                                                   \
        acc[i][1] = mx_act16_run(&av, acc[i][1]);                                                                   \
      }                                                                                                             \
    }                                                                                                               \
    UNROLL for (int i = 0; i < R; i++)                                                                              \
      if (i < rows) {                                                                                               \
        _mm512_mask_storeu_ps(y + i * ldy, s0, acc[i][0]);                                                          \
        _mm512_mask_storeu_ps(y + i * ldy + 16, s1, acc[i][1]);                                                     \
      }                                                                                                             \
  }
TAPS_AVX512(1, 12, 0, 0)
TAPS_AVX512(1, 12, 1, 0)
TAPS_AVX512(1, 12, 0, 1)
TAPS_AVX512(1, 12, 1, 1)
TAPS_AVX512(2, 12, 0, 0)
TAPS_AVX512(2, 12, 1, 0)
TAPS_AVX512(2, 12, 0, 1)
TAPS_AVX512(2, 12, 1, 1)

typedef void (*taps_fn)(int64_t chans, const float *ap, const mx_sgemm_taps *t, int window, int64_t c0, float *y,
                        int64_t ldy, int load, int rows, __mmask16 s0, __mmask16 s1, const float *bias,
                        const mx_act *act, float *bp);
/* [stride 1, 2][vectors blended: none, the first, the second, both]: 12 rows, the first block of a tile's
 * (a product of fewer rows computes the rest from A's zeros and stores none of them; kernels of 4 and 8
 * rows as well had made the x86-64 core 42 KB larger for the few convolutions of fewer than 12 output
 * channels) */
static const taps_fn taps_kernels[2][4] = {{taps_avx512_1_12_00, taps_avx512_1_12_10, taps_avx512_1_12_01, taps_avx512_1_12_11},
                                           {taps_avx512_2_12_00, taps_avx512_2_12_10, taps_avx512_2_12_01, taps_avx512_2_12_11}};

static void tile_taps_avx512(int64_t kc, const float *ap, const mx_sgemm_taps *t, int window, int64_t c0, float *y,
                             int64_t ldy, int load, int rows, int cols, const float *bias, const mx_act *act,
                             float *bp) {
  uint32_t m = cols >= 32 ? 0xffffffffu : (1u << cols) - 1;
  taps_kernels[t->stride == 2][(t->blend[0] != 0) + 2 * (t->blend[1] != 0)](
      kc / window, ap, t, window, c0, y, ldy, load, rows, (__mmask16)(m & 0xffffu), (__mmask16)(m >> 16), bias, act, bp);
}

const mx_sgemm_kernels mx_sgemm_avx512 = {XMR, XNR, 1, tile_avx512, gemv_avx512, dots_avx512, tile_part_avx512, pack_bt_avx512,
                                          pack_a_avx512, tile_taps_avx512};
#endif
