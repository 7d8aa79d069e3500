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
  mx_mem a;
  minnx_error err;
  mx_mem_init(&a, NULL, 0);
  CHECK_EQ_INT(mx_plan_arena(&g, shapes, dtypes, &a, &plan, &err), MINNX_OK);
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
  CHECK_EQ_INT(mx_plan_arena(&g, shapes, dtypes, &a, &plan, &err), MINNX_OK);
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
  return check_report("test_planner");
}
