/* What the elementwise and reduction kernels share. */
#ifndef MX_KERNEL_H
#define MX_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "graph/dtype.h"
#include "graph/prefetch.h"
#include "ops/core/cpu.h"

/* A family's table of kernel sets, one row per instance of its templates
 * (ops/core/kernels.cmake writes it; ops/README.md, "The kernel scheme"):
 * `set` points at the instance's struct of kernels, of the family's type. */
typedef struct mx_kernel_row {
  mx_dtype dtype;
  mx_isa isa;
  const void *set;
} mx_kernel_row;

/* The set for dtype at the highest level <= isa that the table has, or NULL
 * (a dtype the build leaves out). Called at prepare, never in eval. */
const void *mx_kernel_find(const mx_kernel_row *rows, size_t n_rows, mx_dtype dtype, mx_isa isa);

/* One thread streaming from DRAM is bound by how many cache lines it has in
 * flight, and while the core also computes the hardware prefetcher alone does
 * not keep enough of them in flight: kernels ask for data some way ahead of
 * what they read (MX_AHEAD bytes along a stream), with mx_prefetch
 * (graph/prefetch.h: a hint, which may point past the end of the data). */
#define MX_AHEAD 8192

/* The loop of a kernel that streams n elements of elem_size bytes: a chunk of
 * 256 bytes at a time, each chunk first running PREFETCH for each of its four
 * cache lines, then STMT for each of its elements; then STMT for the
 * remainder. A full chunk's loop has a constant trip count, so it vectorizes
 * without a remainder. PREFETCH may use i0 (the chunk's first element) and
 * line (the line's byte offset in the chunk), STMT i (the element). */
#define MX_CHUNKED(n, elem_size, PREFETCH, STMT)                            \
  do {                                                                     \
    int64_t i0 = 0;                                                        \
    for (; i0 + 256 / (int64_t)(elem_size) <= (n); i0 += 256 / (int64_t)(elem_size)) { \
      for (int line = 0; line < 256; line += 64) PREFETCH;                 \
      for (int64_t i = i0; i < i0 + 256 / (int64_t)(elem_size); i++) STMT; \
    }                                                                      \
    for (int64_t i = i0; i < (n); i++) STMT;                               \
  } while (0)

/* Streaming stores. A kernel call that writes at least MX_STREAM_BYTES
 * (mx_streams) writes its whole 64-byte lines with non-temporal stores,
 * which skip the read of each output line that a plain store makes: an
 * elementwise op's DRAM traffic drops from 3 streams to 2 (a unary op ran
 * 1.7x faster on [4096,4096] float32). Calls that large come only from nodes
 * far larger than the last-level cache: tasks are MX_TASK_BYTES, and larger
 * only when a node needs more than MX_MAX_TASKS of them (32 MiB of output
 * and more). The bits are the same either way.
 *
 * MX_CHUNKED_OUT(stream, n, out, PREFETCH, EXPR) is MX_CHUNKED storing
 * out[i] = EXPR. When stream is true, it walks out in blocks: the elements
 * up to a line boundary and the last ones (less than a chunk) are stored
 * plainly; between them, up to MX_STREAM_BLOCK bytes at a time are computed
 * into a buffer in L1 and streamed to out; a fence ends it, so that the
 * stores are seen by whoever waits for the task. Both ways run the one loop
 * (its destination and index offset are variables), so the kernels' code
 * is not doubled. x86-64 (SSE2's 16-byte streaming stores, which every
 * x86-64 level has); plain stores elsewhere. */
#ifndef MX_STREAM_BYTES /* the fuzz build streams small calls too (CMakeLists.txt) */
#define MX_STREAM_BYTES (128 * 1024)
#endif
#define MX_STREAM_BLOCK 4096
/* Whether a call of `bytes` of output elements of `size` bytes streams: only
 * 4- and 8-byte elements do (float32 is what large real tensors are; each
 * streaming loop costs code, and the 1- and 2-byte types have many kernels). */
#define mx_streams(bytes, size) ((size) >= 4 && (int64_t)(bytes) >= (int64_t)MX_STREAM_BYTES)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
/* bytes (a multiple of 16) from the aligned buffer src to dst, 64-byte aligned */
static inline __attribute__((always_inline)) void mx_stream_copy(void *dst, const void *src, size_t bytes) {
  for (size_t k = 0; k < bytes / 16; k++) _mm_stream_si128((__m128i *)dst + k, _mm_load_si128((const __m128i *)src + k));
}
#define MX_CHUNKED_OUT(stream, n, out, PREFETCH, EXPR)                                              \
  do {                                                                                              \
    enum { MX_CH_ = 256 / (int)sizeof *(out), MX_BL_ = MX_STREAM_BLOCK / (int)sizeof *(out) };      \
    const int64_t mx_n_ = (n);                                                                      \
    const int mx_s_ = (stream);                                                                     \
    __attribute__((aligned(64))) __typeof__(*(out)) mx_buf_[MX_BL_];                                \
    for (int64_t mx_b_ = 0, mx_e_; mx_b_ < mx_n_; mx_b_ = mx_e_) {                                  \
      __typeof__(*(out)) *mx_d_ = (out);                                                            \
      int64_t mx_o_ = 0; /* out[i] is mx_d_[i - mx_o_] */                                           \
      mx_e_ = mx_n_;                                                                                \
      if (mx_s_) {                                                                                  \
        int64_t mx_h_ = (int64_t)((64 - ((uintptr_t)((out) + mx_b_) & 63)) & 63) / (int64_t)sizeof *(out); \
        if (mx_h_) {                                                                                \
          mx_e_ = mx_b_ + mx_h_ < mx_n_ ? mx_b_ + mx_h_ : mx_n_;                                    \
        } else if (mx_n_ - mx_b_ >= MX_CH_) {                                                       \
          mx_e_ = mx_b_ + (mx_n_ - mx_b_ < MX_BL_ ? (mx_n_ - mx_b_) / MX_CH_ * MX_CH_ : MX_BL_);    \
          mx_d_ = mx_buf_, mx_o_ = mx_b_;                                                           \
        }                                                                                           \
      }                                                                                             \
      int64_t i0 = mx_b_;                                                                           \
      for (; i0 + MX_CH_ <= mx_e_; i0 += MX_CH_) {                                                  \
        for (int line = 0; line < 256; line += 64) PREFETCH;                                        \
        for (int64_t i = i0; i < i0 + MX_CH_; i++) mx_d_[i - mx_o_] = (EXPR);                       \
      }                                                                                             \
      for (int64_t i = i0; i < mx_e_; i++) mx_d_[i - mx_o_] = (EXPR);                               \
      if (mx_d_ == mx_buf_) mx_stream_copy((out) + mx_b_, mx_buf_, (size_t)(mx_e_ - mx_b_) * sizeof *(out)); \
    }                                                                                               \
    if (mx_s_) _mm_sfence();                                                                        \
  } while (0)
#else
#define MX_CHUNKED_OUT(stream, n, out, PREFETCH, EXPR)           \
  do {                                                           \
    (void)(stream);                                              \
    MX_CHUNKED(n, sizeof *(out), PREFETCH, (out)[i] = (EXPR));   \
  } while (0)
#endif

/* A kernel's loop written once as a function of its direction (or another
 * constant argument) and called with each constant: inlined always, so that
 * every caller's loop is compiled for its constant. */
#if defined(__GNUC__) || defined(__clang__)
#define MX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MX_ALWAYS_INLINE inline
#endif

/* How kernels split a node into tasks (mx_parallel_for): bytes below which a
 * node runs whole on the calling thread (waking other threads costs
 * microseconds), and that a task takes at least; the most tasks of one node
 * (handed out as threads free up). Tasks depend on the data's size only,
 * never on the thread count. */
#ifndef MX_TASK_BYTES /* the fuzz build splits small nodes too (CMakeLists.txt) */
#define MX_TASK_BYTES (64 * 1024)
#endif
#define MX_MAX_TASKS 256

#endif
