/* The memory-bandwidth floor of a workload: one thread streaming the bytes a
 * kernel must move, reading every input byte once and writing every output
 * byte once, in a plain C loop built with the same flags as minnx.
 *
 *   floor [--repeat N] [--warmup N] STAGE...
 *   STAGE = IN[+IN...]:OUT   byte counts, one stage per node, run in order;
 *                            an IN of @J is the output of stage J
 *
 * The streams of a stage that have its largest size are walked in one fused
 * loop, as an elementwise kernel walks them (a single thread gets more
 * bandwidth from concurrent streams than from one after the other); smaller
 * streams (a broadcast operand, an ArgMax output) are read or written in
 * step with them. Prints ns_per_run=<median> last, like `minnx bench`. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_STREAMS 4
#define MAX_STAGES 8
#define SLICE_WORDS 8192 /* of the largest streams, per step */
#define BATCH_NS 20000   /* a timed sample lasts at least this long */

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

static uint64_t fused(uint64_t *out, const uint64_t *const *p, int n, size_t m, uint64_t x) {
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

static uint64_t read_words(const uint64_t *p, size_t m) {
  uint64_t x = 0;
  for (size_t i = 0; i < m; i++) x ^= p[i];
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

static uint64_t run_stage(const stage *st) {
  uint64_t x = 0;
  for (size_t s = 0; s < st->steps; s++) {
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
  uint64_t *p = malloc(words ? words * 8 : 8);
  if (p) write_words(p, words, seed * 0x9e3779b97f4a7c15u);
  return p;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int usage(void) {
  fprintf(stderr, "usage: floor [--repeat N] [--warmup N] IN[+IN...]:OUT...\n");
  return 2;
}

int main(int argc, char **argv) {
  long repeat = 20, warmup = 3;
  stage stages[MAX_STAGES];
  int n_stages = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atol(argv[++i]);
    else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) warmup = atol(argv[++i]);
    else if (n_stages < MAX_STAGES && parse_stage(argv[i], &stages[n_stages], n_stages)) n_stages++;
    else return usage();
  }
  if (n_stages == 0 || repeat < 1 || warmup < 0) return usage();
  for (int s = 0; s < n_stages; s++) {
    stage *st = &stages[s];
    for (int k = 0; k < st->n_in; k++) {
      if (st->from[k] >= 0) st->in[k] = stages[st->from[k]].out;
      else if (!(st->in[k] = filled(st->in_words[k], (uint64_t)(s * MAX_STREAMS + k)))) return 3;
    }
    if (!(st->out = filled(st->out_words, 99))) return 3;
    plan_walk(st);
  }
  uint64_t sink = 0;
  /* Warm up, then time batches of runs long enough for the clock's own cost
   * (tens of ns) to vanish: a tiny node takes less than that. */
  uint64_t t0, batch;
  for (long i = 0; i < warmup; i++)
    for (int s = 0; s < n_stages; s++) sink ^= run_stage(&stages[s]);
  t0 = now_ns();
  for (int s = 0; s < n_stages; s++) sink ^= run_stage(&stages[s]);
  uint64_t one = now_ns() - t0;
  batch = one >= BATCH_NS ? 1 : BATCH_NS / (one ? one : 1);
  uint64_t *times = malloc((size_t)repeat * sizeof *times);
  if (!times) return 3;
  for (long i = 0; i < repeat; i++) {
    t0 = now_ns();
    for (uint64_t b = 0; b < batch; b++)
      for (int s = 0; s < n_stages; s++) sink ^= run_stage(&stages[s]);
    times[i] = now_ns() - t0;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
  printf("runs=%ld batch=%" PRIu64 " min_ns=%.1f sink=%d\n", repeat, batch, (double)times[0] / (double)batch,
         (int)(sink & 1));
  printf("ns_per_run=%" PRIu64 "\n", (times[repeat / 2] + batch / 2) / batch);
  return 0;
}
