/* The layout ops' copies against their reference loops, byte for byte, on
 * sizes the conformance cases are too small to reach: Transpose's tiles
 * with remainders on both sides, batched, the walk over every permutation
 * of ranks 1 to 4 with dims of 1 among others, each element size; Gather
 * along each axis with slices of every size, int32 and int64 indices,
 * negative ones, and out-of-range ones (zeros written, the fault reported);
 * Pad's, Tile's and Expand's copy (remap.h) in every mode with random pads
 * (cropping and extending, reflect up to its limit, wrap far beyond the dim)
 * and counts, ranks 1 to 4, each element size, large enough for tasks;
 * Concat through a session, large enough for tasks, along each axis (the
 * tasks' ranges crossing rows and inputs), with the session's tasks in
 * reverse order, against an index-by-index loop here;
 * the copies cut into tasks run in reverse order as another thread would. */
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "check.h"
#include "minnx.h"
#include "ops/core/kernel.h"
#include "ops/tensor/gather.h"
#include "ops/tensor/remap.h"
#include "ops/tensor/transpose.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Tasks in reverse order. */
static void reversed(void *pool, minnx_task_fn task, void *ctx, size_t n) {
  (void)pool;
  for (size_t i = n; i-- > 0;) task(ctx, i);
}

static void fill(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)next();
}

static void transpose_one(size_t elem, int rank, const int64_t *dims, const int64_t *perm) {
  int64_t count = 1;
  for (int d = 0; d < rank; d++) count *= dims[d];
  size_t bytes = (size_t)count * elem;
  unsigned char *src = calloc(bytes + 1, 1), *got = calloc(bytes + 1, 1), *want = calloc(bytes + 1, 1);
  if (!src || !got || !want) abort();
  fill(src, bytes);
  mx_transpose_ref(elem, rank, dims, perm, src, want);
  mx_transpose_plan p;
  mx_transpose_plan_init(&p, elem, rank, dims, perm);
  mx_exec x = {.parallel = reversed};
  memset(got, 0, bytes);
  mx_transpose_run(&p, &x, src, got);
  CHECK(memcmp(got, want, bytes) == 0);
  free(src);
  free(got);
  free(want);
}

/* Every permutation of [0, rank): of all rank^rank maps, the bijections. */
static void every_perm(size_t elem, int rank, const int64_t *dims) {
  int64_t perm[4];
  int total = 1;
  for (int d = 0; d < rank; d++) total *= rank;
  for (int code = 0; code < total; code++) {
    unsigned seen = 0;
    int c = code, ok = 1;
    for (int d = 0; d < rank; d++, c /= rank) {
      perm[d] = c % rank;
      ok &= !(seen >> perm[d] & 1);
      seen |= 1u << perm[d];
    }
    if (ok) transpose_one(elem, rank, dims, perm);
  }
}

static void gather_one(size_t elem, int64_t outer, int64_t dim, int64_t n_idx, int64_t inner, int idx32, int bad) {
  mx_gather_params p = {outer, dim, n_idx, inner, elem, idx32, 1};
  size_t in_bytes = (size_t)(outer * dim * inner) * elem, out_bytes = (size_t)(outer * n_idx * inner) * elem;
  unsigned char *data = calloc(in_bytes + 1, 1), *got = calloc(out_bytes + 1, 1), *want = calloc(out_bytes + 1, 1);
  int64_t *idx = calloc((size_t)n_idx + 1, sizeof *idx);
  if (!data || !got || !want || !idx) abort();
  fill(data, in_bytes);
  for (int64_t j = 0; j < n_idx; j++) {
    int64_t k = (int64_t)(next() % (uint64_t)(2 * dim)) - dim; /* [-dim, dim) */
    if (bad && j == n_idx / 2) k = j % 2 ? dim : -dim - 1;
    if (idx32) ((int32_t *)idx)[j] = (int32_t)k;
    else idx[j] = k;
  }
  int fault = 0;
  mx_exec x = {.parallel = reversed, .fault = &fault};
  int ref_bad = mx_gather_ref(&p, data, idx, want);
  mx_gather_run(&p, &x, data, idx, got);
  CHECK(memcmp(got, want, out_bytes) == 0);
  CHECK_EQ_INT(ref_bad, bad);
  CHECK_EQ_INT(fault, bad ? MX_FAULT_INDEX : MX_FAULT_NONE);
  free(data);
  free(got);
  free(want);
  free(idx);
}

/* One random remap of the mode given: dims up to `most`, pads from -2 to 5 kept valid. */
static void remap_one(size_t elem, int mode, int rank, int64_t most) {
  mx_remap_params p = {.rank = rank, .mode = mode, .elem = elem};
  int64_t in_count = 1, out_count = 1;
  for (int d = 0; d < rank; d++) {
    int64_t dim = (int64_t)(next() % (uint64_t)(most + 1)), b = (int64_t)(next() % 8) - 2, e = (int64_t)(next() % 8) - 2;
    if (mode == MX_REMAP_WRAP && next() % 4 == 0) b += 3 * dim, e += 2 * dim; /* around the ring more than once */
    if (b < -dim) b = -dim;
    if (e < -(dim + (b < 0 ? b : 0))) e = -(dim + (b < 0 ? b : 0));
    int64_t lo = b < 0 ? -b : 0, kept = dim - lo - (e < 0 ? -e : 0);
    int64_t room = mode == MX_REMAP_REFLECT ? kept - 1 : mode != MX_REMAP_CONSTANT && kept == 0 ? 0 : INT64_MAX;
    if (b > room) b = room > 0 ? room : 0;
    if (e > room) e = room > 0 ? room : 0;
    lo = b < 0 ? -b : 0, kept = dim - lo - (e < 0 ? -e : 0);
    p.in_dims[d] = dim, p.lo[d] = lo, p.n[d] = kept, p.begin[d] = b > 0 ? b : 0;
    p.out_dims[d] = kept + (b > 0 ? b : 0) + (e > 0 ? e : 0);
    in_count *= dim, out_count *= p.out_dims[d];
  }
  unsigned char value[8];
  fill(value, sizeof value);
  unsigned char *src = calloc((size_t)in_count * elem + 1, 1), *got = calloc((size_t)out_count * elem + 1, 1),
                *want = calloc((size_t)out_count * elem + 1, 1);
  if (!src || !got || !want) abort();
  fill(src, (size_t)in_count * elem);
  mx_remap_ref(&p, src, value, want);
  mx_exec x = {.parallel = reversed};
  mx_remap_run(&p, &x, src, value, got);
  CHECK(memcmp(got, want, (size_t)out_count * elem) == 0);
  free(src);
  free(got);
  free(want);
}

/* y = Concat(a, b, c) along axis of [2, 5, 37, 113] float32 inputs (500 KiB out: 7 tasks), each run inline,
 * with its tasks reversed through the parallel-for hook, and on 2 threads, against y's elements from the
 * inputs' by their indices. */
static void concat_one(int64_t axis) {
  test_model tm = {.n_opsets = 1, .opset_domain = {""}, .opset_version = {13}, .n_inputs = 3, .inputs = {"a", "b", "c"},
                   .dtype = MINNX_FLOAT, .rank = 4, .dims = {2, 5, 37, 113}, .n_nodes = 1,
                   .nodes = {{"Concat", NULL, 3, {"a", "b", "c"}, "y", "axis", axis}}, .output = "y"};
  enum { N = 2 * 5 * 37 * 113 };
  static float in[3][N];
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < N; i++) in[k][i] = (float)(k * N + i);
  uint8_t *bytes = NULL;
  size_t size = build_model_edit(&tm, NULL, NULL, &bytes);
  minnx_error err;
  minnx_model *m = NULL;
  CHECK(minnx_model_load_buffer(bytes, size, NULL, &m, &err) == MINNX_OK);
  for (int way = 0; m && way < 3; way++) {
    minnx_session *s = NULL;
    CHECK(minnx_session_create(m, &s, &err) == MINNX_OK);
    if (!s) break;
    if (way == 1) CHECK(minnx_session_set_parallel(s, reversed, NULL, 2, &err) == MINNX_OK);
    if (way == 2) { /* (a build without the default workers says so, and runs inline) */
      minnx_status st = minnx_session_set_threads(s, 2, &err);
      CHECK(st == MINNX_OK || st == MINNX_E_FEATURE);
    }
    for (int k = 0; k < 3; k++) {
      minnx_tensor t = {MINNX_FLOAT, 4, {2, 5, 37, 113}, in[k], sizeof in[k]};
      CHECK(minnx_session_bind_input(s, k, &t, &err) == MINNX_OK);
    }
    minnx_tensor y = {0};
    CHECK(minnx_session_run(s, &err) == MINNX_OK);
    CHECK(minnx_session_output(s, 0, &y) == MINNX_OK);
    CHECK(y.nbytes == 3 * sizeof in[0]);
    const int64_t d[4] = {2, 5, 37, 113};
    int64_t od[4] = {2, 5, 37, 113};
    od[axis] *= 3;
    size_t wrong = 0;
    const float *py = y.data;
    for (int64_t i = 0; py && i < 3 * (int64_t)N; i++) {
      int64_t idx[4], r = i;
      for (int q = 3; q >= 0; q--) idx[q] = r % od[q], r /= od[q];
      int64_t k = idx[axis] / d[axis], at = 0;
      idx[axis] %= d[axis];
      for (int q = 0; q < 4; q++) at = at * d[q] + idx[q];
      wrong += py[i] != in[k][at];
    }
    CHECK(wrong == 0);
    minnx_session_free(s);
  }
  minnx_model_free(m);
  free(bytes);
}

int main(void) {
  for (int64_t axis = 0; axis < 4; axis++) concat_one(axis);
  static const size_t elems[] = {1, 2, 4, 8};
  for (int e = 0; e < 4; e++)
    for (int mode = MX_REMAP_CONSTANT; mode <= MX_REMAP_WRAP; mode++)
      for (int k = 0; k < 200; k++) remap_one(elems[e], mode, 1 + k % 4, k % 4 == 3 ? 9 : k % 4 == 0 ? 3000 : 40);
  static const int64_t shapes[][4] = {{7, 1, 1, 1}, {33, 70, 1, 1}, {3, 17, 40, 1}, {2, 5, 1, 9},
                                      {1, 6, 1, 4},  {2, 3, 4, 5},   {4, 33, 2, 3}, {0, 3, 2, 1}};
  static const int ranks[] = {1, 2, 3, 4, 4, 4, 4, 4};
  for (int e = 0; e < 4; e++)
    for (int s = 0; s < 8; s++) every_perm(elems[e], ranks[s], shapes[s]);
  /* large enough to be cut into tasks: a tiled 2-D transpose, a batched one (NCHW -> NHWC), a walk */
  static const int64_t big2[] = {300, 333}, big4[] = {2, 64, 30, 31}, walk[] = {40, 50, 60};
  static const int64_t p2[] = {1, 0}, nhwc[] = {0, 2, 3, 1}, nchw[] = {0, 3, 1, 2}, pw[] = {2, 0, 1};
  for (int e = 0; e < 4; e++) {
    transpose_one(elems[e], 2, big2, p2);
    transpose_one(elems[e], 4, big4, nhwc);
    transpose_one(elems[e], 4, big4, nchw);
    transpose_one(elems[e], 3, walk, pw);
  }
  for (int e = 0; e < 4; e++)
    for (int bad = 0; bad < 2; bad++) {
      gather_one(elems[e], 3, 7, 5, 1, bad, bad);      /* the last axis: one element per slice */
      gather_one(elems[e], 1, 9, 4, 3, !bad, bad);     /* odd slices */
      gather_one(elems[e], 4, 2, 6, 64, bad, bad);     /* long slices */
      gather_one(elems[e], 700, 5, 33, 3, !bad, bad);  /* cut into tasks */
      gather_one(elems[e], 2, 1, 3, 20000, bad, bad);  /* few slices, each cut apart by nothing: one per task */
    }
  return check_report("test_layout");
}
