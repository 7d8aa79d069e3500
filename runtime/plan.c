/* The arena planner: greedy by size, first fit over lifetimes (the approach
 * of TensorFlow Lite Micro). Larger values are placed first, each at the
 * lowest offset free during its whole lifetime. The values placed so far are
 * kept in offset order, so that placing one is a single pass over them. */
#include <stdlib.h>
#include <string.h>

#include "runtime/model.h"

typedef struct {
  int32_t id;          /* a value, or -1 - i for node i's scratch */
  int32_t first, last; /* node indices: produced at first, last read at last */
  size_t size, offset;
} span;

static int by_size_desc(const void *a, const void *b) {
  const span *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return x->first - y->first;
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

size_t mx_plan_temp_bytes(const mx_graph *g) {
  size_t n = (size_t)planned_count(g);
  if (n == 0) return 0;
  return mx_region_temp_size(n * sizeof(span)) + mx_region_temp_size(n * sizeof(span *)) +
         mx_region_temp_size((size_t)g->n_values * sizeof(int32_t));
}

static void release(const minnx_allocator *a, void *p) {
  if (p) a->free(a->user, p);
}

minnx_status mx_plan_arena(const mx_graph *g, const mx_shape *shapes, const mx_dtype *dtypes, const size_t *scratch,
                           const minnx_allocator *a, mx_plan *plan, mx_err *err) {
  int32_t n = planned_count(g);
  plan->arena_size = 0;
  plan->values_size = 0;
  for (int32_t v = 0; v < g->n_values; v++) plan->offsets[v] = SIZE_MAX;
  for (int32_t i = 0; i < g->n_nodes && MX_OPS_SCRATCH && plan->scratch; i++) plan->scratch[i] = SIZE_MAX;
  if (n == 0) return MINNX_OK;
  span *spans = a->alloc(a->user, (size_t)n * sizeof(span));
  span **placed = a->alloc(a->user, (size_t)n * sizeof(span *));
  int32_t *index = a->alloc(a->user, (size_t)g->n_values * sizeof(int32_t));
  minnx_status st = MINNX_OK;
  if (!spans || !placed || !index) {
    st = mx_fail(err, MINNX_E_NOMEM, "out of memory while planning the arena");
    goto done;
  }
  n = 0;
  for (int32_t v = 0; v < g->n_values; v++) {
    index[v] = -1;
    if (!owns_bytes(&g->values[v])) continue;
    size_t bytes = mx_shape_bytes(&shapes[v], dtypes[v]);
    if (bytes == SIZE_MAX || bytes > SIZE_MAX / 4) {
      st = mx_fail(err, MINNX_E_LIMIT, "value '%s' is too large to plan", g->values[v].name);
      goto done;
    }
    span *s = &spans[n];
    s->id = v;
    s->first = s->last = g->values[v].producer;
    s->size = align_up(bytes);
    index[v] = n++;
    plan->values_size += bytes < SIZE_MAX - plan->values_size ? bytes : SIZE_MAX - plan->values_size;
  }
  for (int32_t i = 0; i < g->n_nodes && MX_OPS_SCRATCH && scratch; i++) {
    if (!scratch[i]) continue;
    if (scratch[i] > SIZE_MAX / 4) {
      st = mx_fail(err, MINNX_E_LIMIT, "node '%s' asks for too much scratch memory", mx_node_label(g, &g->nodes[i]));
      goto done;
    }
    spans[n] = (span){.id = -1 - i, .first = i, .last = i, .size = align_up(scratch[i])};
    n++;
  }
  /* A view's readers keep the bytes it shares alive. */
  for (int32_t i = 0; i < g->n_nodes; i++)
    for (int32_t k = 0; k < g->nodes[i].n_inputs; k++) {
      int32_t v = g->nodes[i].inputs[k];
      if (v >= 0) v = mx_bytes_of(g, v);
      if (v >= 0 && index[v] >= 0 && spans[index[v]].last < i) spans[index[v]].last = i;
    }
  for (int32_t k = 0; k < g->n_outputs; k++) {
    int32_t v = mx_bytes_of(g, g->outputs[k]);
    if (index[v] >= 0) spans[index[v]].last = g->n_nodes; /* read after the run */
  }

  qsort(spans, (size_t)n, sizeof *spans, by_size_desc);
  for (int32_t i = 0; i < n; i++) {
    span *s = &spans[i];
    size_t at = 0;
    for (int32_t j = 0; j < i; j++) {
      const span *p = placed[j];
      if (p->offset >= at + s->size) break; /* the gap before p fits s */
      if (p->first <= s->last && s->first <= p->last && p->offset + p->size > at) at = p->offset + p->size;
    }
    if (at > SIZE_MAX / 2 - s->size) {
      st = mx_fail(err, MINNX_E_LIMIT, "the arena would be too large (at %s '%s')", s->id >= 0 ? "value" : "the scratch of node",
                   s->id >= 0 ? g->values[s->id].name : mx_node_label(g, &g->nodes[-1 - s->id]));
      goto done;
    }
    int32_t lo = 0, hi = i; /* s goes after every placed offset <= at */
    while (lo < hi) {
      int32_t mid = lo + (hi - lo) / 2;
      if (placed[mid]->offset <= at) lo = mid + 1;
      else hi = mid;
    }
    memmove(&placed[lo + 1], &placed[lo], (size_t)(i - lo) * sizeof *placed);
    placed[lo] = s;
    s->offset = at;
    if (at + s->size > plan->arena_size) plan->arena_size = at + s->size;
    if (!MX_OPS_SCRATCH || s->id >= 0) plan->offsets[s->id] = at;
    else plan->scratch[-1 - s->id] = at;
  }
done:
  release(a, spans);
  release(a, placed);
  release(a, index);
  return st;
}
