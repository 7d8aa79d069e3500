/* The arena planner: greedy by size, first fit over lifetimes (the approach
 * of TensorFlow Lite Micro). Larger values are placed first (ties in
 * production order), each at the lowest offset free during its whole
 * lifetime.
 *
 * Only the values already placed whose lifetimes overlap the new one's
 * matter, and they are of two kinds:
 * - larger ones, placed in an earlier run of equal sizes: a tree over the
 *   values ordered by the node that produces them, holding the latest last
 *   use of the placed ones under each branch, finds them without looking at
 *   the others; they are then sorted by offset;
 * - ones of the same size, placed earlier in the same run: as a run goes in
 *   production order, these are the run's values still alive when the new
 *   one is produced. A sweep keeps them, sorted by offset, in an array (a
 *   heap by last use drops the dead ones), so no search and no sort is
 *   needed for them, which matters in graphs of many values of one size.
 * One merged walk over both, by offset, finds the lowest gap. Planning costs
 * O(n log n + sum of (k log n + a)), k being the larger values alive with
 * the one placed and a the same-size ones alive with it (a memmove and a
 * walk over them each); the placement is the one a sweep over every placed
 * value gives. */
#include <stdlib.h>
#include <string.h>

#include "graph/prefetch.h"
#include "runtime/model.h"

/* A size-first build (a firmware's few values) plans through the tree alone:
 * the sweep of same-size runs is for graphs of many thousand values, and
 * would cost such a core half a kilobyte. The offsets are the same. */
#ifdef MX_SMALL_KERNELS
#define MX_PLAN_SWEEP 0
#else
#define MX_PLAN_SWEEP 1
#endif

typedef struct {
  int32_t id;          /* a value, or -1 - i for node i's scratch */
  int32_t first, last; /* node indices: produced at first, last read at last */
  size_t size; /* its offset, once placed, is only in the plan: a span is not written back */
} span;

typedef struct {
  size_t lo, hi; /* offsets a placed neighbour takes */
} range;

typedef struct {
  int32_t last;  /* a live span of the run, by the node that reads it last, */
  size_t offset; /* and where it is */
} dying;

/* The planner's work arrays, all from the caller's temporary hooks. */
typedef struct {
  span *spans;      /* in placing order (size, descending) */
  int32_t *index;   /* value id -> span, -1 for values not in the arena */
  int32_t *pos;     /* span -> its leaf (spans ordered by first) */
  range *at;        /* leaf -> the bytes of its span once placed (in leaf order: neighbours in time are near) */
  int32_t *upto;    /* node i -> leaves of spans produced at or before i */
  int32_t *tree;    /* max last of the placed spans under each branch, -1: none */
  range *near;      /* the larger placed spans alive with the one being placed */
  range *live;      /* the run's placed spans alive now, by offset */
  dying *heap;      /* the same spans, a min-heap by last use */
  int32_t leaves;   /* a power of two >= the span count */
  int32_t n_live;
} work;

/* Size descending, then production order; of one node, its outputs in
 * order, then its scratch: a total order, so the plan does not depend on
 * the order qsort is given. */
static int by_size_desc(const void *a, const void *b) {
  const span *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  int64_t kx = x->id >= 0 ? x->id : (int64_t)INT32_MAX + 1, ky = y->id >= 0 ? y->id : (int64_t)INT32_MAX + 1;
  return (kx > ky) - (kx < ky);
}

static int by_offset(const void *a, const void *b) {
  const range *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

static size_t align_up(size_t v) { return (v + MX_ARENA_ALIGN - 1) & ~(size_t)(MX_ARENA_ALIGN - 1); }

/* Values with bytes of their own in the arena: node outputs that are not views. */
static int owns_bytes(const mx_value *v) { return v->kind == MX_VALUE_NODE && (!MX_OPS_VIEWS || !v->view_of); }

/* Spans at most: every such value, and a scratch per node. */
static int32_t planned_count(const mx_graph *g) {
  int32_t n = MX_OPS_SCRATCH ? g->n_nodes : 0;
  for (int32_t v = 0; v < g->n_values; v++) n += owns_bytes(&g->values[v]);
  return n;
}

static int32_t leaves_for(int32_t n) {
  int32_t p = 1;
  while (p < n) p *= 2;
  return p;
}

/* The size of each work array, in the order they are taken. */
enum { W_SPANS, W_INDEX, W_POS, W_AT, W_UPTO, W_TREE, W_NEAR, W_LIVE, W_HEAP, W_COUNT };

static void work_sizes(const mx_graph *g, int32_t n, size_t size[W_COUNT]) {
  size_t leaves = (size_t)leaves_for(n);
  size[W_SPANS] = (size_t)n * sizeof(span);
  size[W_INDEX] = (size_t)g->n_values * sizeof(int32_t);
  size[W_POS] = (size_t)n * sizeof(int32_t);
  size[W_AT] = leaves * sizeof(range);
  size[W_UPTO] = ((size_t)g->n_nodes + 2) * sizeof(int32_t);
  size[W_TREE] = 2 * leaves * sizeof(int32_t);
  size[W_NEAR] = (size_t)n * sizeof(range);
  size[W_LIVE] = (size_t)n * sizeof(range);
  size[W_HEAP] = (size_t)n * sizeof(dying);
}

size_t mx_plan_temp_bytes(const mx_graph *g) {
  int32_t n = planned_count(g);
  if (n == 0) return 0;
  size_t size[W_COUNT], total = 0;
  work_sizes(g, n, size);
  for (int i = 0; i < W_COUNT; i++) total += mx_region_temp_size(size[i]);
  return total;
}

/* The span of every value with bytes of its own and of every node's scratch,
 * with its lifetime, counted in *count; values_size is summed on the way.
 * One walk over the nodes in their (topological) order makes the spans of
 * their outputs and extends those of their inputs, made before: each
 * node's ids, values and spans are read once, while they are in cache (a
 * walk over the values, then another over the nodes, read each from DRAM in
 * a graph of a million). A view takes the span of the value it shares
 * (produced before it, as it is its node's input): its readers keep those
 * bytes alive. *sorted tells whether the spans came in placing order
 * (one size, or falling sizes), told here rather than in a pass of its own.
 */
/* Whether span n, just made, keeps the spans in placing order. */
static int still_sorted(const work *w, int32_t n) { return !n || by_size_desc(&w->spans[n - 1], &w->spans[n]) <= 0; }

/* How many values ahead the walk asks for: outputs mostly come in id order,
 * and beside the walk's four other streams the hardware prefetcher leaves
 * the values' lines to miss (a plan of 10^6 values 7% faster). */
enum { VALUES_AHEAD = 16 };

static minnx_status make_spans(const mx_graph *g, const mx_shape *shapes, const mx_dtype *dtypes,
                               const size_t *scratch, work *w, mx_plan *plan, int32_t *count, int *sorted,
                               mx_err *err) {
  int32_t n = 0;
  *sorted = 1;
  for (int32_t v = 0; v < g->n_values; v++) w->index[v] = -1;
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *node = &g->nodes[i];
    for (int32_t k = 0; k < node->n_inputs; k++) {
      int32_t v = node->inputs[k];
      if (v >= 0 && w->index[v] >= 0) w->spans[w->index[v]].last = i; /* nodes come in order: i is the latest */
    }
    for (int32_t k = 0; k < node->n_outputs; k++) {
      int32_t v = node->outputs[k];
      if (v < 0) continue;
      if (v + VALUES_AHEAD < g->n_values) mx_prefetch(&g->values[v + VALUES_AHEAD], 0);
      const mx_value *val = &g->values[v];
      if (MX_OPS_VIEWS && val->view_of) w->index[v] = w->index[val->view_of - 1];
      if (!owns_bytes(val)) continue;
      /* the values' own shapes share the line just read; a separate array
       * would be another stream of 72 bytes a value */
      size_t bytes = shapes ? mx_shape_bytes(&shapes[v], dtypes[v]) : mx_shape_bytes(&val->shape, val->dtype);
      if (bytes == SIZE_MAX || bytes > SIZE_MAX / 4)
        return mx_fail(err, MINNX_E_LIMIT, "value '%s' is too large to plan", val->name);
      w->spans[n] = (span){.id = v, .first = i, .last = i, .size = align_up(bytes)};
      *sorted &= still_sorted(w, n);
      w->index[v] = n++;
      plan->values_size += bytes < SIZE_MAX - plan->values_size ? bytes : SIZE_MAX - plan->values_size;
    }
  }
  for (int32_t i = 0; i < g->n_nodes && MX_OPS_SCRATCH && scratch; i++) {
    if (!scratch[i]) continue;
    if (scratch[i] > SIZE_MAX / 4)
      return mx_fail(err, MINNX_E_LIMIT, "node '%s' asks for too much scratch memory", mx_node_label(g, &g->nodes[i]));
    w->spans[n] = (span){.id = -1 - i, .first = i, .last = i, .size = align_up(scratch[i])};
    *sorted &= still_sorted(w, n++);
  }
  for (int32_t k = 0; k < g->n_outputs; k++) {
    int32_t v = g->outputs[k];
    if (w->index[v] >= 0) w->spans[w->index[v]].last = g->n_nodes; /* read after the run */
  }
  *count = n;
  return MINNX_OK;
}

/* Leaves in order of the producing node (a counting sort), and an empty tree. */
static void make_tree(const mx_graph *g, int32_t n, work *w) {
  int32_t *upto = w->upto; /* first a count per node, then running sums */
  memset(upto, 0, ((size_t)g->n_nodes + 2) * sizeof *upto);
  for (int32_t i = 0; i < n; i++) upto[w->spans[i].first + 1]++;
  for (int32_t i = 0; i <= g->n_nodes; i++) upto[i + 1] += upto[i];
  for (int32_t i = 0; i < n; i++) {
    w->pos[i] = upto[w->spans[i].first]++; /* upto[f] ends as the start of f + 1 */
  }
  for (int32_t i = 0; i < 2 * w->leaves; i++) w->tree[i] = -1;
}

/* Where s was placed. */
static size_t placed_at(const mx_plan *plan, const span *s) {
  return !MX_OPS_SCRATCH || s->id >= 0 ? plan->offsets[s->id] : plan->scratch[-1 - s->id];
}

static void tree_insert(work *w, int32_t i, size_t at) {
  const span *s = &w->spans[i];
  w->at[w->pos[i]].lo = at;
  w->at[w->pos[i]].hi = at + s->size;
  int32_t t = w->leaves + w->pos[i], last = s->last;
  for (; t >= 1 && w->tree[t] < last; t /= 2) w->tree[t] = last;
}

/* The placed spans alive with s: produced by node s->last at the latest (a
 * prefix of the leaves) and read at s->first or later. Returns their count. */
static int32_t alive_with(const work *w, const span *s) {
  int32_t end = w->upto[s->last]; /* leaves [0, end) */
  int32_t k = 0, top = 0;
  /* branches still to visit, with their first leaf and leaf count: at most
   * one per level beside the path */
  struct {
    int32_t t, lo, width;
  } stack[64];
  stack[top].t = 1, stack[top].lo = 0, stack[top++].width = w->leaves;
  while (top) {
    int32_t t = stack[--top].t, lo = stack[top].lo, width = stack[top].width;
    if (w->tree[t] < s->first || lo >= end) continue;
    if (width == 1) {
      w->near[k++] = w->at[lo];
      continue;
    }
    width /= 2;
    stack[top].t = 2 * t + 1, stack[top].lo = lo + width, stack[top++].width = width;
    stack[top].t = 2 * t, stack[top].lo = lo, stack[top++].width = width;
  }
  return k;
}

/* ---- the run's live spans: sorted by offset, and a heap by last use ---- */

/* The index of the first live span at offset lo or above (offsets of spans
 * alive at once differ: they share no byte and none is empty). The search
 * halves without a branch to guess (a select per step): its outcomes are
 * the offsets' order, which no predictor learns. */
static int32_t live_find(const work *w, size_t lo) {
  const range *base = w->live;
  int32_t len = w->n_live;
  if (len == 0) return 0;
  while (len > 1) {
    int32_t half = len / 2;
    base = base[half].lo < lo ? base + half : base;
    len -= half;
  }
  return (int32_t)(base - w->live) + (base->lo < lo);
}

/* The heap's top removed, its n entries after that kept in order: the hole
 * at the root goes down to a leaf along the smaller children, then the last
 * entry fills it and rises to its place (mostly not at all). The way down
 * runs the heap's depth with a select per level, not a guess per level on
 * which child and whether to stop (the sift-down that stops early was the
 * planner's costliest part in graphs of many values alive at once). */
static void heap_pop(dying *h, int32_t n) {
  dying moved = h[n];
  int32_t at = 0;
  for (int32_t c = 1; c < n; c = 2 * at + 1) {
    c += c + 1 < n && h[c + 1].last < h[c].last;
    h[at] = h[c];
    at = c;
  }
  while (at > 0 && h[(at - 1) / 2].last > moved.last) {
    h[at] = h[(at - 1) / 2];
    at = (at - 1) / 2;
  }
  h[at] = moved;
}

static void live_add(work *w, const span *s, size_t offset) {
  int32_t j = live_find(w, offset), n = w->n_live;
  memmove(&w->live[j + 1], &w->live[j], (size_t)(n - j) * sizeof *w->live);
  w->live[j] = (range){offset, offset + s->size};
  dying *h = w->heap;
  int32_t at = n;
  for (; at > 0 && h[(at - 1) / 2].last > s->last; at = (at - 1) / 2) h[at] = h[(at - 1) / 2];
  h[at] = (dying){s->last, offset};
  w->n_live = n + 1;
}

/* Drops the live spans last read before node `now`. */
static void live_expire(work *w, int32_t now) {
  while (w->n_live && w->heap[0].last < now) {
    int32_t j = live_find(w, w->heap[0].offset), n = --w->n_live;
    memmove(&w->live[j], &w->live[j + 1], (size_t)(n - j) * sizeof *w->live);
    heap_pop(w->heap, n);
  }
}

/* The lowest offset where `size` bytes fit between the k larger neighbours
 * and the live spans of the run, both sorted by offset. */
static size_t lowest_gap(const work *w, int32_t k, size_t size) {
  size_t at = 0;
  int32_t a = 0, b = 0, live = MX_PLAN_SWEEP ? w->n_live : 0;
  for (;;) {
    const range *r;
    if (a < k && (b == live || w->near[a].lo <= w->live[b].lo)) r = &w->near[a++];
    else if (b < live) r = &w->live[b++];
    else break;
    if (r->lo >= at + size) break;
    if (r->hi > at) at = r->hi;
  }
  return at;
}

/* Spans made in production order and of one size (or falling sizes) need no
 * sort: qsort's n log n on arrays of a million costs more than the check. */
static minnx_status place(const mx_graph *g, int32_t n, int sorted, work *w, mx_plan *plan, mx_err *err) {
  if (!MX_PLAN_SWEEP || !sorted) qsort(w->spans, (size_t)n, sizeof *w->spans, by_size_desc);
  int32_t run = 0; /* the first span of the current run of equal sizes */
  for (int32_t i = 0; i < n; i++) {
    const span *s = &w->spans[i];
    if (s->size != w->spans[run].size || (!MX_PLAN_SWEEP && i > run)) { /* a new run: the last one's go into the tree */
      if (run == 0) make_tree(g, n, w); /* only now: a graph of one size never needs it */
      for (; run < i; run++) tree_insert(w, run, placed_at(plan, &w->spans[run]));
      w->n_live = 0;
    }
    size_t at = 0; /* an empty span blocks nothing: at 0 it is never counted */
    if (s->size) {
      if (MX_PLAN_SWEEP) live_expire(w, s->first);
      int32_t k = run ? alive_with(w, s) : 0;
      if (k > 1) qsort(w->near, (size_t)k, sizeof *w->near, by_offset); /* a call per value costs the chain a tenth */
      at = lowest_gap(w, k, s->size);
    }
    if (at > SIZE_MAX / 2 - s->size)
      return mx_fail(err, MINNX_E_LIMIT, "the arena would be too large (at %s '%s')",
                     s->id >= 0 ? "value" : "the scratch of node",
                     s->id >= 0 ? g->values[s->id].name : mx_node_label(g, &g->nodes[-1 - s->id]));
    if (MX_PLAN_SWEEP && s->size) live_add(w, s, at);
    if (at + s->size > plan->arena_size) plan->arena_size = at + s->size;
    if (!MX_OPS_SCRATCH || s->id >= 0) plan->offsets[s->id] = at;
    else plan->scratch[-1 - s->id] = at;
  }
  return MINNX_OK;
}

minnx_status mx_plan_arena(const mx_graph *g, const mx_shape *shapes, const mx_dtype *dtypes, const size_t *scratch,
                           const minnx_allocator *a, mx_plan *plan, mx_err *err) {
  int32_t n = planned_count(g);
  plan->arena_size = 0;
  plan->values_size = 0;
  for (int32_t v = 0; v < g->n_values; v++) plan->offsets[v] = SIZE_MAX;
  for (int32_t i = 0; i < g->n_nodes && MX_OPS_SCRATCH && plan->scratch; i++) plan->scratch[i] = SIZE_MAX;
  if (n == 0) return MINNX_OK;
  size_t size[W_COUNT];
  void *arrays[W_COUNT] = {0};
  work_sizes(g, n, size);
  minnx_status st = MINNX_OK;
  for (int i = 0; i < W_COUNT && !st; i++)
    if (!(arrays[i] = a->alloc(a->user, size[i])))
      st = mx_fail(err, MINNX_E_NOMEM, "out of memory while planning the arena");
  if (!st) {
    work w = {arrays[W_SPANS], arrays[W_INDEX], arrays[W_POS], arrays[W_AT], arrays[W_UPTO], arrays[W_TREE],
              arrays[W_NEAR], arrays[W_LIVE], arrays[W_HEAP], leaves_for(n), 0};
    int sorted;
    st = make_spans(g, shapes, dtypes, scratch, &w, plan, &n, &sorted, err);
    if (!st) st = place(g, n, sorted, &w, plan, err);
  }
  for (int i = W_COUNT - 1; i >= 0; i--)
    if (arrays[i]) a->free(a->user, arrays[i]);
  return st;
}
