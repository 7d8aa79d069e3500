/* Pad's, Tile's and Expand's copy (remap.h): the output as rows along its
 * last dim. A row whose coordinates before the last dim map to the constant
 * is filled with it; else its input row is found once, and the row is
 * written in three parts: before the kept part and after it by the mode
 * (the constant or an edge element filled, a reflection element by
 * element, a wrap as runs of memcpy), the kept part itself one memcpy.
 * Tasks are whole rows, cut by the output's size alone. */
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/tensor/remap.h"

static MX_ALWAYS_INLINE void fill_es(unsigned char *o, const unsigned char *v, int64_t n, size_t es) {
  for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * es, v, es);
}

/* Output elements [o0, o1) of a row, outside the kept part, from input row `src`. */
static MX_ALWAYS_INLINE void side_es(const mx_remap_params *p, const unsigned char *value, const unsigned char *src,
                                     unsigned char *dst, int64_t o0, int64_t o1, size_t es) {
  int d = p->rank - 1;
  if (o0 >= o1) return;
  switch (p->mode) {
    case MX_REMAP_CONSTANT: fill_es(dst + (size_t)o0 * es, value, o1 - o0, es); break;
    case MX_REMAP_EDGE: fill_es(dst + (size_t)o0 * es, src + (size_t)mx_remap_coord(p, d, o0) * es, o1 - o0, es); break;
    case MX_REMAP_WRAP: /* runs up to the kept part's end */
      for (int64_t o = o0; o < o1;) {
        int64_t s = mx_remap_coord(p, d, o), run = p->lo[d] + p->n[d] - s;
        if (run > o1 - o) run = o1 - o;
        memcpy(dst + (size_t)o * es, src + (size_t)s * es, (size_t)run * es);
        o += run;
      }
      break;
    default:
      for (int64_t o = o0; o < o1; o++) memcpy(dst + (size_t)o * es, src + (size_t)mx_remap_coord(p, d, o) * es, es);
      break;
  }
}

static MX_ALWAYS_INLINE void rows_es(const mx_remap_params *p, const unsigned char *value, const unsigned char *in,
                                     unsigned char *out, int64_t r0, int64_t r1, size_t es) {
  int last = p->rank - 1;
  int64_t w = p->out_dims[last], in_w = p->in_dims[last];
  int64_t k0 = p->begin[last] < 0 ? 0 : p->begin[last] > w ? w : p->begin[last];
  int64_t k1 = p->begin[last] + p->n[last] > w ? w : p->begin[last] + p->n[last];
  if (k1 < k0) k1 = k0;
  for (int64_t r = r0; r < r1; r++) {
    unsigned char *dst = out + (size_t)(r * w) * es;
    int64_t rest = r, at = 0, stride = in_w;
    int constant = 0;
    for (int d = last - 1; d >= 0; d--) {
      int64_t s = mx_remap_coord(p, d, rest % p->out_dims[d]);
      rest /= p->out_dims[d];
      constant |= s < 0;
      at += s * stride;
      stride *= p->in_dims[d];
    }
    if (constant) {
      fill_es(dst, value, w, es);
      continue;
    }
    const unsigned char *src = in + (size_t)at * es;
    side_es(p, value, src, dst, 0, k0, es);
    if (k1 > k0) memcpy(dst + (size_t)k0 * es, src + (size_t)(p->lo[last] + k0 - p->begin[last]) * es, (size_t)(k1 - k0) * es);
    side_es(p, value, src, dst, k1, w, es);
  }
}

typedef struct {
  const mx_remap_params *p;
  const void *in, *value;
  void *out;
  int64_t rows, tasks;
} remap_task;

static void remap_part(void *ctx, size_t i) {
  const remap_task *t = ctx;
  int64_t r0 = t->rows * (int64_t)i / t->tasks, r1 = t->rows * ((int64_t)i + 1) / t->tasks;
  switch (t->p->elem) {
    case 1: rows_es(t->p, t->value, t->in, t->out, r0, r1, 1); break;
    case 2: rows_es(t->p, t->value, t->in, t->out, r0, r1, 2); break;
    case 4: rows_es(t->p, t->value, t->in, t->out, r0, r1, 4); break;
    default: rows_es(t->p, t->value, t->in, t->out, r0, r1, 8); break;
  }
}

void mx_remap_run(const mx_remap_params *p, const mx_exec *x, const void *in, const void *value, void *out) {
  remap_task t = {p, in, value, out, 1, 1};
  for (int d = 0; d < p->rank - 1; d++) t.rows *= p->out_dims[d];
  int64_t w = p->out_dims[p->rank - 1];
  if (t.rows == 0 || w == 0) return;
  int64_t by_size = (int64_t)((size_t)(t.rows * w) * p->elem / MX_TASK_BYTES);
  t.tasks = by_size < 1 ? 1 : by_size > MX_MAX_TASKS ? MX_MAX_TASKS : by_size;
  if (t.tasks > t.rows) t.tasks = t.rows;
  if (t.tasks == 1) remap_part(&t, 0);
  else mx_parallel_for(x, remap_part, &t, (size_t)t.tasks);
}
