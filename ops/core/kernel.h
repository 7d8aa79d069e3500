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

/* ---- streaming stores (x86-64) ----
 * A plain store first reads its output line from memory (to own it), so an
 * elementwise kernel whose output is far larger than the last-level cache
 * moves one stream more than it needs: Relu of [4096,4096] float32 reads
 * 64 MiB, reads the output's 64 MiB and writes them back. Streaming
 * (non-temporal) stores write whole lines without reading them, but the
 * lines go to memory, out of every cache: right for an output the next node
 * will read from memory anyway, wrong for one it would find in cache. So the
 * NODE decides, at prepare, from its whole output's bytes (mx_streams_out:
 * at least the last-level cache's size, README "Streaming stores"), never a
 * kernel call from its own size (a call is often one task of a node, or one
 * tile of one). A kernel is told by a call flag (MX_OUT_STREAM, or-ed into
 * an argument the kernel's shape names) or has an entry of its own. */
#ifndef MX_STREAM_OUT_BYTES /* 0: the last-level cache's size; the fuzz build streams small nodes (CMakeLists.txt) */
#define MX_STREAM_OUT_BYTES 0
#endif
#define MX_OUT_STREAM 0x100 /* the call flag: store the output with streaming stores */

#if MX_X86_GNU
#include <emmintrin.h>
/* Whether a node whose output is `bytes` streams its stores. */
static inline int mx_streams_out(double bytes) {
  double at = MX_STREAM_OUT_BYTES ? (double)MX_STREAM_OUT_BYTES : (double)mx_cpu_llc_bytes();
  return at > 0 && bytes >= at;
}
/* Elements of `size` bytes before out's first whole 64-byte line (at most n;
 * all n when out is not aligned to its elements). */
static inline int64_t mx_stream_head(const void *out, size_t size, int64_t n) {
  uintptr_t a = (uintptr_t)out;
  int64_t h = a % size ? n : (int64_t)((-a & 63) / size);
  return h < n ? h : n;
}
/* 64 * lines bytes from buf (in L1, 64-byte aligned) to out (64-byte aligned),
 * streamed: SSE2's 16-byte stores, which every x86-64 has (the write-combining
 * buffers join them into lines); the kernels are bound by memory. */
static inline __attribute__((always_inline)) void mx_stream_lines(void *out, const void *buf, int lines) {
  for (int k = 0; k < 4 * lines; k++)
    _mm_stream_si128((__m128i *)out + k, _mm_load_si128((const __m128i *)buf + k));
}
/* After a call's streaming stores: ordered before whatever tells another
 * thread (or the next node) that the output is there. */
static inline void mx_stream_end(void) { _mm_sfence(); }
/* The streaming loops' hint for an operand read from memory: mx_prefetch's
 * line, brought into L2 only (prefetcht2), not L1. The lines an L1 prefetch
 * brings MX_AHEAD bytes early crowd L1 and push out an operand that a loop
 * reads again from there: Add of a [4096] row to [4096,4096] re-reads the
 * row's 16 KiB for every output row, and with the stepping operand
 * prefetched into L1 it ran 1.5x the time of the same loop with a scalar
 * operand (README "Streaming stores"). The loads take the lines from L2. */
#define mx_prefetch_l2(p, ahead) \
  __builtin_prefetch((const void *)((uintptr_t)(const void *)(p) + (uintptr_t)(ahead)), 0, 1)
#define MX_STREAMS 1
#else
static inline int mx_streams_out(double bytes) { return (void)bytes, 0; }
static inline void mx_stream_end(void) {}
#define mx_prefetch_l2(p, ahead) mx_prefetch(p, ahead)
#define MX_STREAMS 0
#endif

/* MX_CHUNKED storing out[i] = EXPR with streaming stores: the elements
 * before out's first whole line and the remainder store plainly, every full
 * chunk is computed into a 256-byte buffer in L1 and streamed from there
 * (reads and streamed lines interleave finely, as in the floor; the
 * destination is the buffer alone, so the compiler sees it apart from the
 * inputs). The caller ends its call with mx_stream_end. Off x86-64,
 * MX_CHUNKED. */
#if MX_STREAMS
#define MX_CHUNKED_STREAM(n, out, PREFETCH, EXPR)                                                    \
  do {                                                                                               \
    const int64_t mx_c_ = 256 / (int64_t)sizeof *(out);                                              \
    int64_t i0 = mx_stream_head((out), sizeof *(out), (n));                                          \
    for (int64_t i = 0; i < i0; i++) (out)[i] = (EXPR);                                              \
    for (; i0 + mx_c_ <= (n); i0 += mx_c_) {                                                         \
      __attribute__((aligned(64))) __typeof__(*(out)) mx_buf_[256 / sizeof *(out)];                  \
      for (int line = 0; line < 256; line += 64) PREFETCH;                                           \
      for (int64_t i = i0; i < i0 + mx_c_; i++) mx_buf_[i - i0] = (EXPR);                            \
      mx_stream_lines((out) + i0, mx_buf_, 4);                                                       \
    }                                                                                                \
    for (int64_t i = i0; i < (n); i++) (out)[i] = (EXPR);                                            \
  } while (0)
#else
#define MX_CHUNKED_STREAM(n, out, PREFETCH, EXPR) MX_CHUNKED(n, sizeof *(out), PREFETCH, (out)[i] = (EXPR))
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

/* Tasks for `work` bytes of work: one task per MX_TASK_BYTES, at most
 * MX_MAX_TASKS, and 1 (the node whole) below `least` of them. */
static inline int64_t mx_task_count(double work, double least) {
  double t = work / MX_TASK_BYTES;
  return t < least ? 1 : t > MX_MAX_TASKS ? MX_MAX_TASKS : (int64_t)t;
}

#endif
