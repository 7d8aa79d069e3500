/* The memory-bandwidth floor of a workload: threads streaming the bytes a
 * kernel must move, reading every input byte once and writing every output
 * byte once, with the techniques minnx's kernels use: software prefetch
 * MX_AHEAD bytes ahead along every stream, and loops the compiler vectorizes
 * (run.py builds this with -march=native, the full vector width of the
 * machine, as minnx's AVX2 kernels take it). Without them a floor is not a
 * limit: minnx would beat it.
 *
 *   floor [--repeat N] [--warmup N] [--threads N] STAGE...
 *   STAGE = IN[+IN...]:OUT   byte counts, one stage per node, run in order;
 *                            an IN of @J is the output of stage J
 *
 * The streams of a stage that have its largest size are walked in one fused
 * loop, as an elementwise kernel walks them (a single thread gets more
 * bandwidth from concurrent streams than from one after the other); smaller
 * streams (a broadcast operand, an ArgMax output) are read or written in
 * step with them. With --threads N, each stage's steps are cut into N
 * contiguous ranges, one per thread (the caller's and N - 1 started once),
 * that meet at a barrier after each stage; a stage under MINNX_INLINE_BYTES
 * runs on the caller's thread alone, as minnx runs a small node. The stages
 * are timed twice: with plain stores, and with streaming (non-temporal)
 * stores of every whole output line, which skip the line's read; the faster
 * way's median is the floor (for an output far larger than the last-level
 * cache, streaming moves a third less DRAM traffic: ONNX Runtime's Exp beat
 * a plain-store floor by 1.5x on [4096,4096] float32). Prints
 * `stores=plain|streaming` on the first line and ns_per_run=<median> last,
 * like `minnx bench`. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_STREAM 1
#else
#define HAVE_STREAM 0
#define _mm_sfence() ((void)0)
#endif

#define MAX_STREAMS 4
#define MAX_STAGES 8
#define SLICE_WORDS 8192 /* of the largest streams, per step */
#define BATCH_NS 20000   /* a timed sample lasts at least this long */
#define AHEAD 8192       /* the kernels' MX_AHEAD (ops/core/kernel.h) */
#define CHUNK 32         /* words: 256 bytes of each stream per prefetch round, as the kernels do */
#define INLINE_BYTES (128 * 1024) /* minnx splits no node whose output is smaller (2 x MX_TASK_BYTES) */

typedef struct {
  int n_in, from[MAX_STREAMS]; /* from: the stage whose output an input is, or -1 */
  size_t in_words[MAX_STREAMS], out_words;
  const uint64_t *in[MAX_STREAMS];
  uint64_t *out;
  /* The walk: `steps` steps, each covering a span of every stream. */
  size_t big, steps, in_per[MAX_STREAMS], out_per, big_per;
} stage;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The fused loop over n equal streams: out[i] = in0[i] ^ in1[i] ^ ..., or
 * their XOR folded into the result when the output is not among them. */
#define FUSED(EXPR)                                   \
  do {                                                \
    if (out)                                          \
      for (size_t i = 0; i < m; i++) out[i] = (EXPR); \
    else                                              \
      for (size_t i = 0; i < m; i++) x ^= (EXPR);     \
  } while (0)

static uint64_t fused_chunk(uint64_t *out, const uint64_t *const *p, int n, size_t m, uint64_t x) {
  const uint64_t *a = p[0], *b = p[1], *c = p[2], *d = p[3];
  switch (n) {
    case 0: FUSED(x + i); break; /* an output fed only by small streams */
    case 1: FUSED(a[i]); break;
    case 2: FUSED(a[i] ^ b[i]); break;
    case 3: FUSED(a[i] ^ b[i] ^ c[i]); break;
    default: FUSED(a[i] ^ b[i] ^ c[i] ^ d[i]); break;
  }
  return x;
}

/* A hint for the line `ahead` bytes past p, formed as an integer: no pointer past the data. */
static void prefetch(const void *p, size_t ahead) {
  __builtin_prefetch((const void *)((uintptr_t)p + ahead));
}

/* Streaming (non-temporal) stores of a whole chunk from buf to out, 64-byte
 * aligned: they skip the read of each output line that a plain store makes.
 * The floor times its stages with plain stores and with these, and takes the
 * faster (main): for an output far larger than the last-level cache the
 * streaming stores move a third less DRAM traffic. */
static int streaming;

static void stream_chunk(uint64_t *out, const uint64_t *buf) {
#if !HAVE_STREAM
  memcpy(out, buf, CHUNK * 8);
#elif defined(__AVX512F__)
  for (int k = 0; k < CHUNK; k += 8) _mm512_stream_si512((void *)(out + k), _mm512_load_si512(buf + k));
#else
  for (int k = 0; k < CHUNK; k += 2)
    _mm_stream_si128((__m128i *)(void *)(out + k), _mm_load_si128((const __m128i *)(const void *)(buf + k)));
#endif
}

static uint64_t fused(uint64_t *out, const uint64_t *const *p, int n, size_t m, uint64_t x) {
  for (size_t i0 = 0; i0 < m; i0 += CHUNK) {
    size_t len = m - i0 < CHUNK ? m - i0 : CHUNK;
    const uint64_t *q[MAX_STREAMS] = {0};
    for (int k = 0; k < n; k++) {
      q[k] = p[k] + i0;
      for (size_t line = 0; line < CHUNK * 8; line += 64) prefetch(q[k], AHEAD + line);
    }
    if (streaming && out && len == CHUNK && ((uintptr_t)(out + i0) & 63) == 0) {
      __attribute__((aligned(64))) uint64_t buf[CHUNK];
      x = fused_chunk(buf, q, n, len, x);
      stream_chunk(out + i0, buf);
    } else {
      x = fused_chunk(out ? out + i0 : NULL, q, n, len, x);
    }
  }
  return x;
}

static uint64_t read_words(const uint64_t *p, size_t m) {
  uint64_t x = 0;
  for (size_t i0 = 0; i0 < m; i0 += CHUNK) {
    size_t e = m - i0 < CHUNK ? m : i0 + CHUNK;
    for (size_t line = 0; line < CHUNK * 8; line += 64) prefetch(p + i0, AHEAD + line);
    for (size_t i = i0; i < e; i++) x ^= p[i];
  }
  return x;
}

static void write_words(uint64_t *p, size_t m, uint64_t v) {
  for (size_t i = 0; i < m; i++) p[i] = v + i;
}

static size_t per_step(size_t n, size_t steps) { return (n + steps - 1) / steps; }

static void plan_walk(stage *st) {
  st->big = st->out_words;
  for (int k = 0; k < st->n_in; k++)
    if (st->in_words[k] > st->big) st->big = st->in_words[k];
  st->steps = st->big ? (st->big + SLICE_WORDS - 1) / SLICE_WORDS : 1;
  for (int k = 0; k < st->n_in; k++) st->in_per[k] = per_step(st->in_words[k], st->steps);
  st->out_per = per_step(st->out_words, st->steps);
  st->big_per = per_step(st->big, st->steps);
}

/* Words [lo, lo + *len) of a stream of n words at step s, `per` a step. */
static size_t span(size_t n, size_t per, size_t s, size_t *len) {
  size_t lo = s * per < n ? s * per : n;
  *len = lo + per < n ? per : n - lo;
  return lo;
}

/* Steps [s0, s1) of a stage. */
static uint64_t run_steps(const stage *st, size_t s0, size_t s1) {
  uint64_t x = 0;
  for (size_t s = s0; s < s1; s++) {
    const uint64_t *p[MAX_STREAMS] = {0};
    int n = 0;
    size_t lo, len;
    for (int k = 0; k < st->n_in; k++) {
      lo = span(st->in_words[k], st->in_per[k], s, &len);
      if (st->in_words[k] == st->big) p[n++] = st->in[k] + lo;
      else x ^= read_words(st->in[k] + lo, len);
    }
    lo = span(st->out_words, st->out_per, s, &len);
    if (st->out_words == st->big) {
      x = fused(st->out + lo, p, n, len, x);
    } else {
      span(st->big, st->big_per, s, &len);
      x = fused(NULL, p, n, len, x);
      lo = span(st->out_words, st->out_per, s, &len);
      write_words(st->out + lo, len, x);
    }
  }
  return x;
}

/* A barrier that spins (yielding after a while), as pthreadpool's workers
 * do: a sleeping barrier's wake-up would cost the floor tens of microseconds
 * that minnx does not pay. */
typedef struct {
  atomic_int arrived, generation;
  int n;
} barrier;

static void barrier_wait(barrier *b) {
  int gen = atomic_load(&b->generation);
  if (atomic_fetch_add(&b->arrived, 1) + 1 == b->n) {
    atomic_store(&b->arrived, 0);
    atomic_fetch_add(&b->generation, 1);
    return;
  }
  for (long spins = 0; atomic_load(&b->generation) == gen; spins++)
    if (spins > 100000) sched_yield();
}

/* The threads of a run: the caller is thread 0. Each run of the stages
 * starts at `go`; every stage ends at `stage`, since the next may read it. */
static struct {
  stage *stages;
  int n_stages, threads;
  barrier go, stage;
  int quit;
  uint64_t sinks[256]; /* each worker's, so that no loop is optimized away */
} team = {.threads = 1};

static int split(const stage *st) { return team.threads > 1 && st->big * 8 >= INLINE_BYTES; }

static uint64_t team_body(int t) {
  uint64_t x = 0;
  for (int s = 0; s < team.n_stages; s++) {
    const stage *st = &team.stages[s];
    if (split(st)) x ^= run_steps(st, st->steps * (size_t)t / (size_t)team.threads,
                                  st->steps * (size_t)(t + 1) / (size_t)team.threads);
    else if (t == 0) x ^= run_steps(st, 0, st->steps);
    _mm_sfence(); /* the streaming stores are seen by the next stage's threads */
    barrier_wait(&team.stage);
  }
  return x;
}

static void *team_worker(void *arg) {
  int t = (int)(intptr_t)arg;
  uint64_t x = 0;
  for (;;) {
    barrier_wait(&team.go);
    if (team.quit) break;
    x ^= team_body(t);
  }
  team.sinks[t] = x; /* read after join */
  return NULL;
}

/* One run of every stage. */
static uint64_t run_all(void) {
  int any = 0;
  for (int s = 0; s < team.n_stages; s++) any |= split(&team.stages[s]);
  if (!any) {
    uint64_t x = 0;
    for (int s = 0; s < team.n_stages; s++) x ^= run_steps(&team.stages[s], 0, team.stages[s].steps);
    _mm_sfence();
    return x;
  }
  barrier_wait(&team.go);
  return team_body(0);
}

static int parse_stage(char *text, stage *st, int index) {
  char *colon = strchr(text, ':'), *save = NULL;
  if (!colon) return 0;
  *colon = 0;
  st->out_words = (strtoull(colon + 1, NULL, 10) + 7) / 8;
  st->n_in = 0;
  for (char *tok = strtok_r(text, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
    if (st->n_in == MAX_STREAMS) return 0;
    int k = st->n_in++;
    st->from[k] = -1;
    if (tok[0] == '@') {
      st->from[k] = atoi(tok + 1);
      if (st->from[k] < 0 || st->from[k] >= index) return 0;
      st->in_words[k] = st[st->from[k] - index].out_words;
    } else {
      st->in_words[k] = (strtoull(tok, NULL, 10) + 7) / 8;
    }
  }
  return st->n_in > 0;
}

/* Buffers are filled before timing so that page faults are not counted, as a
 * planned minnx session has touched its arena and its inputs are loaded. */
static uint64_t *filled(size_t words, uint64_t seed) {
  uint64_t *p = aligned_alloc(64, words ? (words + 7) / 8 * 64 : 64);
  if (p) write_words(p, words, seed * 0x9e3779b97f4a7c15u);
  return p;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int usage(void) {
  fprintf(stderr, "usage: floor [--repeat N] [--warmup N] [--threads N] IN[+IN...]:OUT...\n");
  return 2;
}

int main(int argc, char **argv) {
  long repeat = 20, warmup = 3, threads = 1;
  stage stages[MAX_STAGES];
  int n_stages = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atol(argv[++i]);
    else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) warmup = atol(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atol(argv[++i]);
    else if (n_stages < MAX_STAGES && parse_stage(argv[i], &stages[n_stages], n_stages)) n_stages++;
    else return usage();
  }
  if (n_stages == 0 || repeat < 1 || warmup < 0 || threads < 1 || threads > 256) return usage();
  for (int s = 0; s < n_stages; s++) {
    stage *st = &stages[s];
    for (int k = 0; k < st->n_in; k++) {
      if (st->from[k] >= 0) st->in[k] = stages[st->from[k]].out;
      else if (!(st->in[k] = filled(st->in_words[k], (uint64_t)(s * MAX_STREAMS + k)))) return 3;
    }
    if (!(st->out = filled(st->out_words, 99))) return 3;
    plan_walk(st);
  }
  team.stages = stages;
  team.n_stages = n_stages;
  team.threads = (int)threads;
  pthread_t workers[256];
  team.go.n = team.stage.n = (int)threads;
  for (long t = 1; t < threads; t++)
    if (pthread_create(&workers[t], NULL, team_worker, (void *)(intptr_t)t)) return 3;
  uint64_t sink = 0;
  uint64_t *times = malloc((size_t)repeat * sizeof *times), *best = malloc((size_t)repeat * sizeof *best);
  if (!times || !best) return 3;
  uint64_t best_batch = 1, best_median = UINT64_MAX;
  int best_mode = 0;
  /* Each way of storing (plain, then streaming): warm up, then time batches
   * of runs long enough for the clock's own cost (tens of ns) to vanish: a
   * tiny node takes less than that. The floor is the faster way's median. */
  for (streaming = 0; streaming <= HAVE_STREAM; streaming++) {
    uint64_t t0, batch;
    for (long i = 0; i < warmup; i++)
      sink ^= run_all();
    t0 = now_ns();
    sink ^= run_all();
    uint64_t one = now_ns() - t0;
    batch = one >= BATCH_NS ? 1 : BATCH_NS / (one ? one : 1);
    for (long i = 0; i < repeat; i++) {
      t0 = now_ns();
      for (uint64_t b = 0; b < batch; b++)
        sink ^= run_all();
      times[i] = now_ns() - t0;
    }
    qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
    if ((times[repeat / 2] + batch / 2) / batch < best_median) {
      best_median = (times[repeat / 2] + batch / 2) / batch;
      best_batch = batch;
      best_mode = streaming;
      memcpy(best, times, (size_t)repeat * sizeof *times);
    }
  }
  if (threads > 1) { /* the workers leave at the next start */
    team.quit = 1;
    barrier_wait(&team.go);
    for (long t = 1; t < threads; t++) pthread_join(workers[t], NULL), sink ^= team.sinks[t];
  }
  printf("runs=%ld batch=%" PRIu64 " stores=%s min_ns=%.1f sink=%d\n", repeat, best_batch,
         best_mode ? "streaming" : "plain", (double)best[0] / (double)best_batch, (int)(sink & 1));
  printf("ns_per_run=%" PRIu64 "\n", best_median);
  return 0;
}
