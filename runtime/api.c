/* Model loading and introspection: the stages of the flow, in order. */
#include <string.h>

#include "graph/shape.h"
#include "graph/validate.h"
#include "loader/loader.h"
#include "mx_op_have.h"
#include "ops/core/infer.h"
#include "ops/core/registry.h"
#include "runtime/model.h"
#ifdef MX_HAVE_Conv
#include "ops/nn/conv.h"
#endif

/* Load-time inference over the declared shapes; the results go into the IR.
 * When every shape is then known, the arena is planned here, once for all
 * sessions. */
static minnx_status infer_declared(minnx_model *m, mx_err *err) {
  mx_graph *g = &m->g;
  mx_pool *pool = &m->pool;
  size_t nv = (size_t)(g->n_values ? g->n_values : 1), nn = (size_t)(g->n_nodes ? g->n_nodes : 1);
  void *bufs_mem = mx_pool_temp(pool, mx_node_bufs_carve(NULL, NULL, m->max_node_inputs, m->max_node_outputs));
  void *params = mx_pool_temp(pool, m->max_params ? m->max_params : 1);
  size_t *scratch = mx_pool_temp(pool, nn * sizeof *scratch);
  minnx_status st = MINNX_OK;
  if (!bufs_mem || !params || !scratch) {
    st = mx_fail(err, MINNX_E_NOMEM, "out of memory during shape inference");
    goto done;
  }
  mx_node_bufs bufs;
  mx_node_bufs_carve(&bufs, bufs_mem, m->max_node_inputs, m->max_node_outputs);
  /* Inference reads and writes the values' own shapes and dtypes (copies
   * of them were two more passes over 120 bytes a value, and 76 bytes a
   * value more at the load's peak). Where shapes are known, prepare runs
   * too: for the scratch each node asks for, and so that its refusals come
   * at load. */
  mx_prep prep = {.one = params, .scratch = scratch, .isa = (mx_isa)m->isa};
#if MX_OPS_PACKED
  prep.packed = !m->weights_in_place;
#endif
  if ((st = mx_infer(g, g->values, pool, NULL, NULL, &bufs, &prep, err))) goto done;
#if MX_OPS_VIEWS && defined(MX_HAVE_Conv)
  /* a Conv's one reader, a Relu or Clip, into its stores (now that constants are folded; before the plan) */
  if ((st = mx_conv_fuse(g, pool, scratch, err))) goto done;
#endif
  /* Every dim known, not just every size: a graph input of [2,0,?] holds no
   * bytes, but the node reading it prepares (and asks for scratch) by its
   * bound dims, so such a model is planned when the inputs are bound. */
  int known = 1;
  for (int32_t v = 0; v < g->n_values; v++)
    known &= mx_shape_known(&g->values[v].shape) && mx_shape_count(&g->values[v].shape) >= 0 &&
             (!MX_OPS_SHAPES || g->values[v].kind != MX_VALUE_BIND);
  if (!known) goto done;
  m->plan.offsets = mx_pool_alloc(pool, (nv + nn) * sizeof *m->plan.offsets); /* values', then scratch */
  m->plan.scratch = m->plan.offsets + nv;
  minnx_allocator temp = mx_pool_temp_allocator(pool);
  if (!m->plan.offsets) st = mx_fail(err, MINNX_E_NOMEM, "out of memory while planning the arena");
  else st = mx_plan_arena(g, NULL, NULL, scratch, &temp, &m->plan, err); /* the values hold the shapes now */
  m->planned = st == MINNX_OK;
done:
  mx_pool_temp_free(pool, scratch);
  mx_pool_temp_free(pool, params);
  mx_pool_temp_free(pool, bufs_mem);
  return st;
}

int minnx_op_since(const char *domain, const char *op_type, int64_t opset_version) {
  if (!op_type) return -1;
  return mx_op_since(!domain || strcmp(domain, "ai.onnx") == 0 ? "" : domain, op_type, opset_version);
}

minnx_isa minnx_isa_available(void) { return (minnx_isa)(mx_cpu_isa() + 1); }

/* The level asked for in options, checked against what this build and CPU have. */
static minnx_status isa_of(const minnx_load_options *options, unsigned char *isa, mx_err *err) {
  minnx_isa have = minnx_isa_available(), want = options && options->max_isa ? (minnx_isa)options->max_isa : have;
  if (want < MINNX_ISA_PORTABLE || want > MINNX_ISA_AVX512)
    return mx_fail(err, MINNX_E_ARG, "max_isa %d is not a minnx_isa", options->max_isa);
  if (want > have)
    return mx_fail(err, MINNX_E_UNSUPPORTED, "max_isa %s: this build and CPU have up to %s", mx_isa_name(want - 1),
                   mx_isa_name(have - 1));
  *isa = (unsigned char)(want - 1);
  return MINNX_OK;
}

static minnx_status build(minnx_model *m, const void *data, size_t size, const mx_external *ext,
                          const minnx_load_options *options, mx_err *err) {
  mx_graph *g = &m->g;
  int in_place = options && options->weights_in_place;
  minnx_status st = isa_of(options, &m->isa, err);
  if (st) return st;
  st = mx_load_model(data, size, mx_op_known, ext, in_place, &m->pool, g, err);
  if (!st) st = mx_graph_order(g, &m->pool, err);
  if (!st) st = mx_resolve(g, err);
  if (st) return st;
  m->shapes_read_inputs = MX_OPS_DATA && mx_shapes_read_inputs(g);
  for (int32_t i = 0; i < g->n_nodes; i++) {
    const mx_node *n = &g->nodes[i];
    size_t params = mx_params_size(n);
    if (n->n_inputs > m->max_node_inputs) m->max_node_inputs = n->n_inputs;
    if (n->n_outputs > m->max_node_outputs) m->max_node_outputs = n->n_outputs;
    if (params > m->max_params) m->max_params = params;
    m->params_bytes += params;
#if MX_OPS_PACKED
    if (!in_place) m->params_bytes += mx_packed_size(g, n); /* after the node's params, in each session */
#endif
  }
#if MX_OPS_PACKED
  m->weights_in_place = (unsigned char)in_place;
#endif
  return infer_declared(m, err);
}

minnx_status mx_model_load(const void *data, size_t size, const minnx_load_options *options, const mx_external *ext,
                           size_t held, minnx_model **out, mx_err *err) {
  *out = NULL;
  mx_mem mem;
  mx_mem_init(&mem, options ? &options->allocator : NULL, options ? options->max_memory : 0);
  mem.used = held;
  minnx_model *m = mx_mem_alloc(&mem, sizeof *m);
  if (!m) return mx_mem_status(&mem, mx_fail(err, MINNX_E_NOMEM, "out of memory for the model"), err);
  memset(m, 0, sizeof *m);
  m->mem = mem;
  mx_pool_init(&m->pool, &m->mem);
  minnx_status st = mx_mem_status(&m->mem, build(m, data ? data : "", size, ext, options, err), err);
  m->mem.used -= held;
  if (st) {
    minnx_model_free(m);
    return st;
  }
  *out = m;
  return MINNX_OK;
}

static mx_external external_of(const minnx_load_options *options) {
  mx_external ext = {options ? options->read_external : NULL, options ? options->read_external_user : NULL};
  return ext;
}

minnx_status minnx_model_load_buffer(const void *data, size_t size, const minnx_load_options *options,
                                     minnx_model **out, minnx_error *err) {
  if (!out || (!data && size)) return mx_fail(err, MINNX_E_ARG, "minnx_model_load_buffer: NULL argument");
  mx_external ext = external_of(options);
  return mx_model_load(data, size, options, &ext, 0, out, err);
}

/* Loads into caller memory; *used receives the region's state at the end,
 * whatever the outcome (the region is the caller's: nothing is freed). The
 * hooks and max_memory are kept for sessions made with minnx_session_create. */
static minnx_status load_in(const void *data, size_t size, void *mem, size_t mem_size, const minnx_load_options *options,
                            minnx_model **out, mx_region *used, mx_err *err) {
  mx_region r;
  mx_region_init(&r, mem, mem_size);
  minnx_model *m = mx_region_alloc(&r, sizeof *m);
  minnx_status st = MINNX_E_NOMEM;
  if (m) {
    mx_external ext = external_of(options);
    mx_mem_init(&m->mem, options ? &options->allocator : NULL, options ? options->max_memory : 0);
    m->region = r; /* from here on the model's copy is the region */
    mx_pool_init_region(&m->pool, &m->region, &m->mem);
    st = build(m, data ? data : "", size, &ext, options, err);
    r = m->region;
  }
  *used = r;
  if (r.exhausted)
    return mx_fail(err, MINNX_E_NOMEM, "the memory given (%zu bytes) is too small for this model; "
                   "minnx_model_memory_needed gives the size", mem_size);
  if (st == MINNX_OK) *out = m;
  return st;
}

minnx_status minnx_model_load_in(const void *data, size_t size, void *mem, size_t mem_size,
                                 const minnx_load_options *options, minnx_model **out, minnx_error *err) {
  if (!out || (!data && size) || (!mem && mem_size)) return mx_fail(err, MINNX_E_ARG, "minnx_model_load_in: NULL argument");
  *out = NULL;
  mx_region used;
  return load_in(data, size, mem, mem_size, options, out, &used, err);
}

/* A dry run: the load into ever larger regions from the hooks until it fits;
 * the region's peak is then what a region needs (each step is the same
 * sequence of requests, whatever the region's size). */
minnx_status minnx_model_memory_needed(const void *data, size_t size, const minnx_load_options *options,
                                       size_t *bytes, minnx_error *err) {
  if (!bytes || (!data && size)) return mx_fail(err, MINNX_E_ARG, "minnx_model_memory_needed: NULL argument");
  *bytes = 0;
  mx_mem heap;
  mx_mem_init(&heap, options ? &options->allocator : NULL, options ? options->max_memory : 0);
  size_t cap = size < SIZE_MAX / 4 - (1 << 16) ? 2 * size + (1 << 16) : SIZE_MAX / 2;
  for (;;) {
    void *mem = mx_mem_alloc(&heap, cap);
    if (!mem)
      return mx_mem_status(&heap, mx_fail(err, MINNX_E_NOMEM, "out of memory measuring the model (%zu bytes)", cap), err);
    minnx_model *m = NULL;
    mx_region used;
    minnx_status st = load_in(data, size, mem, cap, options, &m, &used, err);
    mx_mem_free(&heap, mem);
    if (st == MINNX_OK) {
      *bytes = used.peak;
      return MINNX_OK;
    }
    if (!used.exhausted) return st;
    if (cap >= SIZE_MAX / 4) return mx_fail(err, MINNX_E_LIMIT, "the model needs more memory than can be addressed");
    cap *= 2;
  }
}

size_t minnx_model_memory_used(const minnx_model *m) {
  if (!m) return 0;
  /* Caller memory: what follows is free from the next aligned byte on. The
   * hooks: the same count, give or take the padding at chunk ends. */
  return mx_region_size(m->pool.region ? m->region.lo : mx_region_size(sizeof *m) + m->pool.used);
}

size_t minnx_model_memory_peak(const minnx_model *m) {
  return m && m->pool.region ? m->region.peak : 0;
}

void minnx_model_free(minnx_model *m) {
  if (!m || m->pool.region) return; /* caller memory: nothing of minnx's to give back */
  mx_mapping mapping = m->mapping;
  mx_pool_release(&m->pool);
  mx_mem mem = m->mem;
  mx_mem_free(&mem, m);
  if (mapping.unmap) mapping.unmap(mapping.addr, mapping.size); /* after the last use of its bytes */
}

/* ---- introspection ---- */

static void to_tensor(const mx_value *v, minnx_tensor *t) {
  memset(t, 0, sizeof *t);
  t->dtype = v->dtype;
  t->rank = v->shape.rank;
  memcpy(t->dims, v->shape.dims, sizeof t->dims);
}

size_t minnx_model_input_count(const minnx_model *m) { return m ? (size_t)m->g.n_inputs : 0; }
size_t minnx_model_output_count(const minnx_model *m) { return m ? (size_t)m->g.n_outputs : 0; }

const char *minnx_model_input_name(const minnx_model *m, size_t i) {
  return m && i < (size_t)m->g.n_inputs ? m->g.values[m->g.inputs[i]].name : NULL;
}

const char *minnx_model_output_name(const minnx_model *m, size_t i) {
  return m && i < (size_t)m->g.n_outputs ? m->g.values[m->g.outputs[i]].name : NULL;
}

minnx_status minnx_model_input_info(const minnx_model *m, size_t i, minnx_tensor *out) {
  if (!m || !out || i >= (size_t)m->g.n_inputs) return MINNX_E_ARG;
  to_tensor(&m->g.values[m->g.inputs[i]], out);
  return MINNX_OK;
}

int minnx_model_exact(const minnx_model *m) {
  if (!m) return 0;
  for (int32_t i = 0; i < m->g.n_nodes; i++)
    if (m->g.nodes[i].row->inexact) return 0;
  return 1;
}

size_t minnx_model_node_count(const minnx_model *m) { return m ? (size_t)m->g.n_nodes : 0; }

minnx_status minnx_model_node_info(const minnx_model *m, size_t i, const char **name, const char **op_type,
                                   const char **domain, int *since_version) {
  if (!m || i >= (size_t)m->g.n_nodes) return MINNX_E_ARG;
  const mx_node *n = &m->g.nodes[i];
  if (name) *name = mx_node_label(&m->g, n);
  if (op_type) *op_type = n->op_type;
  if (domain) *domain = n->domain;
  if (since_version) *since_version = n->row->since;
  return MINNX_OK;
}

int64_t minnx_model_node_fused(const minnx_model *m, size_t i) {
  return m && i < (size_t)m->g.n_nodes ? m->g.nodes[i].fused : 0;
}

size_t minnx_model_opset_count(const minnx_model *m) { return m ? (size_t)m->g.n_opsets : 0; }

minnx_status minnx_model_opset(const minnx_model *m, size_t i, const char **domain, int64_t *version) {
  if (!m || i >= (size_t)m->g.n_opsets) return MINNX_E_ARG;
  if (domain) *domain = m->g.opsets[i].domain;
  if (version) *version = m->g.opsets[i].version;
  return MINNX_OK;
}

size_t minnx_model_value_count(const minnx_model *m) { return m ? (size_t)m->g.n_values : 0; }

minnx_status minnx_model_value_info(const minnx_model *m, size_t i, const char **name, minnx_tensor *out) {
  if (!m || i >= (size_t)m->g.n_values) return MINNX_E_ARG;
  if (name) *name = m->g.values[i].name;
  if (out) {
    to_tensor(&m->g.values[i], out);
    if (m->g.values[i].kind == MX_VALUE_INITIALIZER) out->data = (void *)m->g.values[i].data, out->nbytes = m->g.values[i].nbytes;
  }
  return MINNX_OK;
}

minnx_known minnx_model_value_known(const minnx_model *m, size_t i) {
  if (!m || i >= (size_t)m->g.n_values) return (minnx_known)0;
  switch (m->g.values[mx_bytes_of(&m->g, (int32_t)i)].kind) {
  case MX_VALUE_INITIALIZER: return MINNX_KNOWN_LOAD;
  case MX_VALUE_BIND: return MINNX_KNOWN_BIND;
  default: return MINNX_KNOWN_RUN;
  }
}

const char *minnx_model_value_dim_param(const minnx_model *m, size_t i, int dim) {
  if (!m || i >= (size_t)m->g.n_values || dim < 0 || dim >= MX_MAX_RANK) return NULL;
  const mx_value *v = &m->g.values[i];
  int32_t sym = dim < v->shape.rank ? mx_value_sym(&m->g, v, dim) : -1;
  return sym >= 0 ? m->g.sym_names[sym] : NULL;
}
