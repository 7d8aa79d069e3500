/* The arena planner: values whose lifetimes do not overlap share bytes,
 * overlapping ones never do, and the arena stays within the no-reuse sum. */
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"
#include "graph/pool.h"
#include "runtime/model.h"

/* A chain y1 = Max(a,b), y2 = Max(y1,a), ..., each value read only by the next. */
static void chain_graph(mx_graph *g, mx_value *values, mx_node *nodes, int32_t (*io)[3], int n_nodes, int64_t dim) {
  memset(g, 0, sizeof *g);
  g->values = values;
  g->nodes = nodes;
  g->n_values = 2 + n_nodes;
  g->n_nodes = n_nodes;
  for (int v = 0; v < g->n_values; v++) {
    values[v] = (mx_value){.name = "v", .kind = v < 2 ? MX_VALUE_INPUT : MX_VALUE_NODE, .dtype = MINNX_FLOAT,
                           .shape = {.rank = 1, .dims = {dim}}, .producer = v < 2 ? -1 : v - 2};
  }
  for (int i = 0; i < n_nodes; i++) {
    io[i][0] = i == 0 ? 0 : i + 1; /* previous output */
    io[i][1] = 1;
    io[i][2] = i + 2;
    nodes[i] = (mx_node){.name = "n", .op_type = "Max", .domain = "", .n_inputs = 2, .n_outputs = 1,
                         .inputs = io[i], .outputs = &io[i][2]};
  }
  static int32_t out;
  out = n_nodes + 1;
  g->outputs = &out;
  g->n_outputs = 1;
}

static int overlap(size_t a, size_t as, size_t b, size_t bs) { return a < b + bs && b < a + as; }

/* ---- random graphs against an independent reading of the rules ---- */

static uint32_t rng = 12345;
static uint32_t next(void) {
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}

#define RN 12  /* nodes in the first 500 graphs */
#define RN_MAX 60 /* nodes at most */
#define RV (RN_MAX + 3)

typedef struct {
  mx_graph g;
  mx_value values[RV];
  mx_node nodes[RN_MAX];
  int32_t ins[RN_MAX][3], outs[RN_MAX], graph_out[2];
  mx_shape shapes[RV];
  mx_dtype dtypes[RV];
  int first[RV], last[RV]; /* lifetimes as the test reads them */
  size_t bytes[RV];
} rgraph;

/* Three inputs, then n nodes each reading 1-3 earlier values; the last node
 * and one random node are graph outputs. Sizes vary over three orders, or,
 * with `few`, come from a handful (empty ones too), so that many values of
 * one size are alive at once, some of them long. */
static void random_graph(rgraph *r, int n, int few) {
  static const int64_t few_dims[] = {0, 1, 16, 17, 700};
  memset(r, 0, sizeof *r);
  r->g.values = r->values;
  r->g.nodes = r->nodes;
  r->g.n_values = 3 + n;
  r->g.n_nodes = n;
  for (int v = 0; v < 3 + n; v++) {
    int64_t dim = few ? few_dims[next() % 5] : 1 + (int64_t)(next() % 3000);
    r->values[v] = (mx_value){.name = "v", .kind = v < 3 ? MX_VALUE_INPUT : MX_VALUE_NODE, .dtype = MINNX_FLOAT,
                              .shape = {.rank = 1, .dims = {dim}}, .producer = v < 3 ? -1 : v - 3};
    r->shapes[v] = r->values[v].shape;
    r->dtypes[v] = MINNX_FLOAT;
    r->bytes[v] = (size_t)dim * 4;
    r->first[v] = r->last[v] = v - 3;
  }
  for (int i = 0; i < n; i++) {
    int k = 1 + (int)(next() % 3);
    for (int j = 0; j < k; j++) {
      int32_t v = (int32_t)(next() % (uint32_t)(3 + i)); /* an input or an earlier node's output */
      if (few && next() % 4) v = 3 + i - 1 - (int32_t)(next() % (uint32_t)(i < 6 ? i + 1 : 6)); /* mostly a recent one */
      r->ins[i][j] = v;
      if (v >= 3 && r->last[v] < i) r->last[v] = i;
    }
    r->outs[i] = 3 + i;
    r->nodes[i] = (mx_node){.name = "n", .op_type = "Max", .domain = "", .n_inputs = k, .n_outputs = 1,
                            .inputs = r->ins[i], .outputs = &r->outs[i]};
  }
  r->graph_out[0] = 3 + n - 1;
  r->graph_out[1] = 3 + (int32_t)(next() % (uint32_t)n);
  r->g.outputs = r->graph_out;
  r->g.n_outputs = 2;
  for (int k = 0; k < 2; k++) r->last[r->graph_out[k]] = n; /* read after the run */
}

static size_t aligned(size_t v) { return (v + 63) & ~(size_t)63; }

/* TensorFlow Lite Micro's greedy plan, written from its description: largest
 * (in aligned bytes) first, ties in production order, each at the lowest
 * offset clear of every value placed so far whose lifetime overlaps. The
 * offsets (in off) and the arena it needs. */
static size_t greedy_reference(const rgraph *r, size_t off[RV]) {
  int order[RV], n = 0;
  size_t arena = 0;
  for (int v = 3; v < r->g.n_values; v++) order[n++] = v;
  for (int i = 1; i < n; i++) /* insertion sort: size descending, then production order */
    for (int j = i; j > 0 && (aligned(r->bytes[order[j]]) > aligned(r->bytes[order[j - 1]]) ||
                              (aligned(r->bytes[order[j]]) == aligned(r->bytes[order[j - 1]]) && order[j] < order[j - 1]));
         j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = 0; i < n; i++) {
    int v = order[i];
    size_t at = 0;
    for (int moved = 1; moved;) { /* move past every conflict until none is left */
      moved = 0;
      for (int j = 0; j < i; j++) {
        int u = order[j];
        int live = r->first[u] <= r->last[v] && r->first[v] <= r->last[u];
        if (live && off[u] < at + aligned(r->bytes[v]) && at < off[u] + aligned(r->bytes[u])) {
          at = off[u] + aligned(r->bytes[u]);
          moved = 1;
        }
      }
    }
    off[v] = at;
    if (at + aligned(r->bytes[v]) > arena) arena = at + aligned(r->bytes[v]);
  }
  return arena;
}

/* 500 graphs of up to 12 nodes, then 500 of up to 60 with few sizes. */
static void random_graphs(void) {
  int strictly_smaller = 0;
  for (int trial = 0; trial < 1000; trial++) {
    rgraph r;
    int few = trial >= 500;
    random_graph(&r, few ? 2 + trial % (RN_MAX - 1) : 2 + trial % (RN - 1), few);
    size_t offsets[RV];
    mx_plan plan = {.offsets = offsets};
    minnx_allocator a = mx_allocator_or_default(NULL);
    minnx_error err;
    CHECK_EQ_INT(mx_plan_arena(&r.g, r.shapes, r.dtypes, NULL, &a, &plan, &err), MINNX_OK);
    size_t sum = 0, aligned_sum = 0, peak_live = 0;
    for (int v = 3; v < r.g.n_values; v++) sum += r.bytes[v], aligned_sum += aligned(r.bytes[v]);
    CHECK_EQ_INT(plan.values_size, sum);
    /* valid: aligned, inside the arena, and values alive together never share a byte */
    for (int v = 3; v < r.g.n_values; v++) {
      CHECK(offsets[v] % MX_ARENA_ALIGN == 0);
      CHECK(offsets[v] + r.bytes[v] <= plan.arena_size);
      for (int u = 3; u < v; u++)
        if (r.first[u] <= r.last[v] && r.first[v] <= r.last[u])
          CHECK(!overlap(offsets[u], aligned(r.bytes[u]), offsets[v], aligned(r.bytes[v])));
    }
    /* no better than every live set at once allows, no worse than the greedy plan */
    for (int i = 0; i <= r.g.n_nodes; i++) {
      size_t live = 0;
      for (int v = 3; v < r.g.n_values; v++) live += r.first[v] <= i && i <= r.last[v] ? aligned(r.bytes[v]) : 0;
      if (live > peak_live) peak_live = live;
    }
    CHECK(plan.arena_size >= peak_live);
    CHECK(plan.arena_size <= aligned_sum);
    strictly_smaller += !few && plan.arena_size < aligned_sum;
    /* and exactly the greedy plan, value by value */
    size_t expected[RV];
    CHECK_EQ_INT(plan.arena_size, greedy_reference(&r, expected));
    for (int v = 3; v < r.g.n_values; v++) CHECK_EQ_INT(offsets[v], expected[v]);
  }
  CHECK(strictly_smaller > 400); /* with 12 nodes most graphs have values that never meet */
}

int main(void) {
  enum { N = 6 };
  mx_graph g;
  mx_value values[N + 2];
  mx_node nodes[N];
  int32_t io[N][3];
  chain_graph(&g, values, nodes, io, N, 1000);
  mx_shape shapes[N + 2];
  mx_dtype dtypes[N + 2];
  for (int v = 0; v < N + 2; v++) shapes[v] = values[v].shape, dtypes[v] = values[v].dtype;
  size_t offsets[N + 2];
  mx_plan plan = {.offsets = offsets};
  minnx_allocator a = mx_allocator_or_default(NULL);
  minnx_error err;
  CHECK_EQ_INT(mx_plan_arena(&g, shapes, dtypes, NULL, &a, &plan, &err), MINNX_OK);
  /* 6 values of 4000 bytes (4032 aligned); at most two live at once */
  CHECK_EQ_INT(plan.values_size, N * 4000);
  CHECK_EQ_INT(plan.arena_size, 2 * 4032);
  CHECK(plan.arena_size < plan.values_size);
  CHECK_EQ_INT(offsets[0], (long long)SIZE_MAX); /* inputs live outside the arena */
  for (int v = 2; v < N + 2; v++) {
    CHECK(offsets[v] % MX_ARENA_ALIGN == 0);
    CHECK(offsets[v] + 4000 <= plan.arena_size);
    /* a value and its consumer's output are live together: never the same bytes */
    if (v + 1 < N + 2) CHECK(!overlap(offsets[v], 4000, offsets[v + 1], 4000));
  }

  /* A value read by a late node stays live across everything in between. */
  io[N - 1][1] = 2; /* the last node also reads the first node's output */
  CHECK_EQ_INT(mx_plan_arena(&g, shapes, dtypes, NULL, &a, &plan, &err), MINNX_OK);
  for (int v = 3; v < N + 2; v++) CHECK(!overlap(offsets[2], 4000, offsets[v], 4000));
  CHECK_EQ_INT(plan.arena_size, 3 * 4032);

  /* Through the public API: the arena of a 6-node chain loaded from bytes. */
  test_model m = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 2, .inputs = {"a", "b"},
                  .dtype = MINNX_FLOAT, .rank = 2, .dims = {100, 10}, .n_nodes = 6, .output = "y5"};
  static const char *names[] = {"y0", "y1", "y2", "y3", "y4", "y5"};
  for (int i = 0; i < 6; i++) m.nodes[i] = (test_node){"Max", "", 2, {i ? names[i - 1] : "a", "b"}, names[i], NULL, 0};
  uint8_t *bytes;
  size_t size = build_model(&m, &bytes);
  minnx_model *model;
  minnx_session *s;
  CHECK_EQ_INT(minnx_model_load_buffer(bytes, size, NULL, &model, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_create(model, &s, &err), MINNX_OK);
  CHECK_EQ_INT(minnx_session_values_size(s), 6 * 4000);
  CHECK_EQ_INT(minnx_session_arena_size(s), 2 * 4032);
  minnx_session_free(s);
  minnx_model_free(model);
  free(bytes);
  random_graphs();
  return check_report("test_planner");
}
