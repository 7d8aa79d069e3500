/*
 * minnx: a small, exact ONNX interpreter.
 *
 * Life cycle: load a model (from a file, a memory buffer, or into a memory
 * region the caller owns), create one or more sessions on it, bind inputs,
 * run, read outputs.
 *
 * Ownership: a pointer the caller passes in stays the caller's; minnx keeps
 * none beyond the call unless the function says so (bound input data, caller
 * memory regions). What minnx returns through `out` parameters is released
 * with the matching _free function; names and views it returns belong to the
 * model or session and live as long as it does.
 *
 * Threads: a model is immutable once loaded, and every function taking a
 * `const minnx_model *` may be called on one model from many threads at once,
 * sessions included. A session is used by one thread at a time.
 *
 * Errors: every fallible call returns a minnx_status and, when `err` is not
 * NULL, fills it with the status and a one-line message naming the cause
 * (which node, which value, which shape); built with MINNX_MESSAGES=OFF, the
 * message is the status's name. On error, `out` parameters are set to NULL or
 * zero and nothing is kept. The library keeps no global state and never
 * prints, exits or aborts.
 */
#ifndef MINNX_H
#define MINNX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; minnx_version() gives the library's. CMake
 * reads the project version from these lines (one source of truth). */
#define MINNX_VERSION_MAJOR 0
#define MINNX_VERSION_MINOR 1
#define MINNX_VERSION_PATCH 0
#define MINNX_VERSION "0.1.0"

#define MINNX_MAX_RANK 8

typedef enum minnx_status {
  MINNX_OK = 0,
  MINNX_E_ARG = 1,         /* a NULL or out-of-range argument */
  MINNX_E_NOMEM = 2,       /* an allocation failed */
  MINNX_E_IO = 3,          /* a file could not be read */
  MINNX_E_PARSE = 4,       /* bytes that are not a valid protobuf message */
  MINNX_E_MODEL = 5,       /* a structurally invalid model or tensor */
  MINNX_E_UNSUPPORTED = 6, /* an operator or a dtype (string, complex) minnx does not implement */
  MINNX_E_TYPE = 7,        /* a dtype not allowed where it is used */
  MINNX_E_SHAPE = 8,       /* shapes that do not fit */
  MINNX_E_LIMIT = 9,       /* a size beyond minnx's limits */
  MINNX_E_FEATURE = 10     /* a model feature minnx does not support (e.g. sparse tensors) */
} minnx_status;

/* Element types; the numbers are ONNX's TensorProto.DataType. */
typedef enum minnx_dtype {
  MINNX_UNDEFINED = 0,
  MINNX_FLOAT = 1,
  MINNX_UINT8 = 2,
  MINNX_INT8 = 3,
  MINNX_UINT16 = 4,
  MINNX_INT16 = 5,
  MINNX_INT32 = 6,
  MINNX_INT64 = 7,
  MINNX_BOOL = 9,
  MINNX_FLOAT16 = 10,
  MINNX_DOUBLE = 11,
  MINNX_UINT32 = 12,
  MINNX_UINT64 = 13,
  MINNX_BFLOAT16 = 16
} minnx_dtype;

typedef struct minnx_error {
  minnx_status status;
  char message[256];
} minnx_error;

/* Allocation hooks. `alloc` returns memory aligned for any C type or NULL;
 * `free` accepts what `alloc` returned. `user` is passed back unchanged. */
typedef struct minnx_allocator {
  void *(*alloc)(void *user, size_t size);
  void (*free)(void *user, void *ptr);
  void *user;
} minnx_allocator;

/* A tensor view. `data` is borrowed: whoever fills the struct owns it. */
typedef struct minnx_tensor {
  minnx_dtype dtype;
  int rank;
  int64_t dims[MINNX_MAX_RANK];
  void *data;
  size_t nbytes;
} minnx_tensor;

typedef struct minnx_model minnx_model;
typedef struct minnx_session minnx_session;

/* The library's version, e.g. "0.1.0": a static string. A program built
 * against one header and run with another library can compare it with
 * MINNX_VERSION. */
const char *minnx_version(void);

/* The name of a status, e.g. "shape": a static string, never NULL. */
const char *minnx_status_name(minnx_status status);
/* The ONNX name of a dtype, e.g. "float16": a static string; "unknown dtype"
 * for a value minnx does not know. */
const char *minnx_dtype_name(minnx_dtype dtype);
/* Bytes per element of a dtype; 0 for a value minnx cannot hold. */
size_t minnx_dtype_size(minnx_dtype dtype);

/* Instruction-set levels of the kernels. Every level gives the same bits
 * (README, "Numbers"): a level is a choice of speed only, and tests compare
 * the levels' outputs. */
typedef enum minnx_isa {
  MINNX_ISA_NATIVE = 0,   /* the highest level this build and CPU have */
  MINNX_ISA_PORTABLE = 1, /* plain C, as aarch64 and the Cortex-M4 run it */
  MINNX_ISA_AVX2 = 2,     /* x86-64 with AVX2, FMA and F16C */
  MINNX_ISA_AVX512 = 3    /* and AVX-512 F and DQ */
} minnx_isa;

/* The highest level this build has whose instructions this CPU has
 * (MINNX_ISA_PORTABLE off x86-64). */
minnx_isa minnx_isa_available(void);

/* Whether this build has an operator (MINNX_OPS lists those it links): the
 * since version of the schema a node of `op_type` in `domain` ("" or
 * "ai.onnx" for the default domain, NULL too) resolves to in a model
 * importing that domain at `opset_version`; 0 when the operator is linked in
 * but has no version at or below that opset; -1 when this build does not
 * have it (not implemented by minnx, or left out by MINNX_OPS). `minnx ops`
 * asks it for each operator of a model. */
int minnx_op_since(const char *domain, const char *op_type, int64_t opset_version);

/* How a model is loaded. A zeroed struct (or NULL) means the defaults. */
typedef struct minnx_load_options {
  /* Memory for the model and its sessions; alloc NULL means malloc/free. The
   * hooks are kept by the model and used by its sessions. */
  minnx_allocator allocator;
  /* Reads exactly `length` bytes at `offset` of the external-data file
   * `location` into dst; returns MINNX_OK, or an error status with a message
   * in err. minnx has checked that `location` is relative and never goes up
   * ("..") and that the range fits the tensor. A model loaded from a buffer
   * reads external data only through this (NULL: it cannot use any). NULL
   * for a model loaded from a file: minnx reads from the model's folder and
   * nothing outside it (no absolute path, no "..", no symbolic link). */
  minnx_status (*read_external)(void *user, const char *location, uint64_t offset, uint64_t length, void *dst,
                                minnx_error *err);
  void *read_external_user;
  /* A cap on the bytes the model takes from the allocator, counted at their
   * peak during loading and while it is loaded, and separately for each of
   * its sessions (tables and arena). Beyond it a call fails with
   * MINNX_E_LIMIT. 0: no cap. */
  size_t max_memory;
  /* Nonzero: initializers and Constant tensors stored as raw_data are used
   * where they are in the model's bytes instead of being copied, each one whose bytes sit at a
   * multiple of its element size (on a little-endian host; single-byte dtypes
   * anywhere). The bytes given to minnx_model_load_buffer or
   * minnx_model_load_in must then stay valid and unchanged as long as the
   * model is used (flash or ROM on a microcontroller, a mapped file).
   * minnx_model_load_file maps the file instead of reading it, and keeps the
   * mapping until minnx_model_free. Other tensors are copied as usual. */
  int weights_in_place;
  /* A minnx_isa: the highest level the kernels of the model's sessions use
   * (0, MINNX_ISA_NATIVE: what minnx_isa_available gives). A level above
   * that is refused with MINNX_E_UNSUPPORTED, a value that is no level with
   * MINNX_E_ARG. */
  int max_isa;
} minnx_load_options;

/* Loads a model from a file. `options` may be NULL (malloc, no external-data
 * reader). On success *out is the caller's: release it with minnx_model_free
 * after its sessions. The file is read whole and closed before the call
 * returns. Errors: MINNX_E_IO (cannot open or read), MINNX_E_NOMEM, and those
 * of minnx_model_load_buffer. Absent from builds with MINNX_FILE_IO=OFF. */
minnx_status minnx_model_load_file(const char *path, const minnx_load_options *options, minnx_model **out,
                                   minnx_error *err);
/* Loads a model from `size` bytes at `data`, with memory from the options'
 * allocator (NULL options or hooks: malloc). The bytes are copied as needed:
 * the caller may release them when the call returns. On success *out is the
 * caller's, released with minnx_model_free. Errors: MINNX_E_ARG (NULL out, or
 * NULL data with a size), MINNX_E_PARSE (not a protobuf ModelProto),
 * MINNX_E_UNSUPPORTED (an operator, or a graph value of a dtype, minnx does not implement), MINNX_E_MODEL,
 * MINNX_E_TYPE, MINNX_E_SHAPE (the model breaks a rule; the message names the
 * node), MINNX_E_FEATURE, MINNX_E_LIMIT, MINNX_E_NOMEM. */
minnx_status minnx_model_load_buffer(const void *data, size_t size, const minnx_load_options *options,
                                     minnx_model **out, minnx_error *err);
/* Releases a model and everything it owns (names, initializers, the plan).
 * NULL is allowed; a model in caller memory has nothing to release. Sessions
 * on it must no longer be used. */
void minnx_model_free(minnx_model *model);

/* ---- caller memory: no allocation at all ----
 * A model can live in one memory region the caller provides, and a session in
 * another (or in the model's region after the bytes the model keeps); minnx
 * then allocates nothing anywhere else, and never calls the hooks or malloc.
 * The sizes are exact: a region of the size reported, starting at a multiple
 * of MINNX_REGION_ALIGN, is enough, and one byte less is refused with
 * MINNX_E_NOMEM, with nothing kept. A region that starts elsewhere loses the
 * bytes up to the next boundary. Sizes depend on the ABI: a 32-bit target
 * needs no more than a 64-bit host reports for the same model. */
#define MINNX_REGION_ALIGN 64

/* Loads a model into the `mem_size` bytes at `mem`, which hold everything the
 * load takes: protobuf-c's decoded message (at the top, gone once the IR is
 * built), the IR, initializers and the arena plan (at the bottom). `options`
 * may be NULL; its allocator is only used by minnx_session_create on this
 * model. The data bytes may be released when the call returns; `mem` must
 * stay valid and untouched while the model is used (minnx_model_free on it
 * does nothing). Errors: those of minnx_model_load_buffer, with MINNX_E_NOMEM
 * meaning the region is too small; *out is then NULL and nothing in `mem` is
 * to be kept. */
minnx_status minnx_model_load_in(const void *data, size_t size, void *mem, size_t mem_size,
                                 const minnx_load_options *options, minnx_model **out, minnx_error *err);
/* The exact bytes minnx_model_load_in needs for this model (a multiple of 16),
 * found by dry runs of that load in memory from the options' allocator (NULL:
 * malloc), all given back before the call returns: call it at build time or on
 * a host (`minnx info` prints it), then size a static buffer. Errors: those of
 * the load itself, MINNX_E_NOMEM when the dry run's memory cannot be had. */
minnx_status minnx_model_memory_needed(const void *data, size_t size, const minnx_load_options *options,
                                       size_t *bytes, minnx_error *err);
/* The bytes a loaded model keeps (a multiple of MINNX_REGION_ALIGN; 0 for
 * NULL). For a model loaded in caller memory these are the first bytes of the
 * region; the rest was only needed during the load and may be reused, for
 * example for a session at mem + used, mem_size - used. For a model on the
 * hooks, about what the hooks hold for it. */
size_t minnx_model_memory_used(const minnx_model *model);
/* For a model loaded by minnx_model_load_in, the region bytes its load used
 * at its worst moment: what minnx_model_memory_needed gives for the same
 * bytes and options, learnt from one load into a region that was large
 * enough (`minnx info` loads into a large reservation of address space and
 * reads this). 0 for a model on the hooks, or NULL. */
size_t minnx_model_memory_peak(const minnx_model *model);

/* Graph inputs and outputs, in the model's order: counts (0 for NULL), names
 * (owned by the model; NULL for an index out of range), and an input's declared
 * dtype and shape (a dim of -1 is symbolic, rank -1 unknown) with data NULL
 * (MINNX_E_ARG for NULL or an index out of range). */
size_t minnx_model_input_count(const minnx_model *model);
size_t minnx_model_output_count(const minnx_model *model);
const char *minnx_model_input_name(const minnx_model *model, size_t index);
const char *minnx_model_output_name(const minnx_model *model, size_t index);
minnx_status minnx_model_input_info(const minnx_model *model, size_t index, minnx_tensor *out);

/* Creates a session on `model`, in one block from the model's hooks (malloc by
 * default) holding its bookkeeping, kernels' params and arena. When every shape
 * is declared, the arena was planned at load; with symbolic dims it is planned
 * at the first run after inputs with new shapes are bound, from the hooks if
 * it outgrows the block. Runs with unchanged shapes allocate nothing. A shape
 * that depends on an input's bytes (Reshape's `shape`, Squeeze's `axes` given
 * as a graph input rather than a constant) is planned at every run, and such
 * a run allocates if the arena outgrows the block. On
 * success *out is the caller's, released with minnx_session_free before the
 * model. Errors: MINNX_E_ARG, MINNX_E_NOMEM, MINNX_E_LIMIT (a value too large
 * to plan). */
minnx_status minnx_session_create(const minnx_model *model, minnx_session **out, minnx_error *err);
/* The same in the `size` bytes at `mem`, which hold the session's
 * bookkeeping, kernels' params and arena; nothing else is allocated, ever. `mem`
 * must stay valid and untouched while the session is used; any number of
 * sessions may share one model, each in its own memory. Errors: MINNX_E_ARG,
 * MINNX_E_NOMEM (the region is too small: *out is NULL), MINNX_E_LIMIT. */
minnx_status minnx_session_create_in(const minnx_model *model, void *mem, size_t size, minnx_session **out,
                                     minnx_error *err);
/* The exact bytes minnx_session_create_in needs for a session on `model` (a
 * multiple of 16; 0 for NULL), computed from the model alone. With symbolic
 * dims, or shapes given by an input's bytes, the arena depends on the inputs
 * bound: then this covers everything but the arena and the values computed
 * from the shapes bound (MINNX_KNOWN_BIND), which must fit in what is left
 * when the run after binding plans it (else that run fails with
 * MINNX_E_NOMEM, naming the bytes needed, and the session stays usable);
 * minnx_session_memory_needed_for gives the whole for given shapes. */
size_t minnx_session_memory_needed(const minnx_model *model);
/* The exact bytes (a multiple of 16) minnx_session_create_in needs for a
 * session on `model` to bind and run inputs of the dtypes and shapes of
 * `inputs` (n_inputs tensors, one per graph input in the model's order):
 * its bookkeeping, the values computed from those shapes, the planner's
 * temporaries and the arena, at their worst moment. Found by a dry run in
 * memory from the model's hooks, given back before the call returns; the
 * tensors' data is not read (NULL is fine) unless a shape depends on an
 * input's bytes (Reshape's `shape` given as a graph input), whose data must
 * then be given. Errors: MINNX_E_ARG (NULL, or not one tensor per input),
 * those of minnx_session_bind_input and of planning a run
 * (minnx_session_run: MINNX_E_SHAPE for shapes the graph cannot take, naming
 * the node), MINNX_E_NOMEM when the dry run's memory cannot be had. */
minnx_status minnx_session_memory_needed_for(const minnx_model *model, const minnx_tensor *inputs, size_t n_inputs,
                                             size_t *bytes, minnx_error *err);
/* Releases a session created by minnx_session_create; NULL and sessions in
 * caller memory (nothing to release) are allowed. Outputs read from it are
 * invalid afterwards. */
void minnx_session_free(minnx_session *session);

/* ---- intra-op threads ----
 * A session runs on the calling thread only unless it is given threads: the
 * library never starts a thread unasked. Large nodes are then split into
 * tasks run at once; small ones still run inline. Outputs are bit-identical
 * for every thread count. */

/* pthreadpool's convention (pthreadpool_task_1d_t and the arguments of
 * pthreadpool_parallelize_1d): run task(context, i) for every i in [0, n),
 * in any order, on any threads, and return when all are done. */
typedef void (*minnx_task_fn)(void *context, size_t index);
typedef void (*minnx_parallel_fn)(void *pool, minnx_task_fn task, void *context, size_t n);

/* Runs the session's nodes over `threads` threads (the caller's and
 * threads - 1 more), in a pool started now and stopped by minnx_session_free
 * or the next call; 0 or 1: the calling thread only, the default. The pool's
 * bookkeeping comes from the hooks (and counts in max_memory); its threads'
 * stacks from the C library. A worker that the system has not scheduled yet
 * never holds a run up: the others take its tasks. Errors, after which the
 * session keeps running as before (on the calling thread, or in the pool an
 * earlier call started): MINNX_E_ARG (NULL, or a session in caller memory,
 * which allocates nothing: give it a hook instead), MINNX_E_NOMEM (the pool
 * could not start: its memory, or a thread, mutex or condition variable the
 * system refused, which the message names with pthread's error, e.g. EAGAIN;
 * nothing of it is left), MINNX_E_FEATURE (a build without the pool,
 * MINNX_THREADS=OFF). The pool never runs on fewer threads than asked. */
minnx_status minnx_session_set_threads(minnx_session *session, size_t threads, minnx_error *err);
/* Runs the session's tasks through the caller's hook: `parallel(pool, ...)`
 * may be called from each minnx_session_run on this session, never after
 * minnx_session_free or the next set call; work is split over at most
 * `threads` tasks at a time (>= 1). A hook and its pool may serve many
 * sessions (pthreadpool's own pthreadpool_parallelize_1d and a
 * pthreadpool_t fit as they are). parallel NULL: back to the calling thread
 * only. Stops a pool that minnx_session_set_threads started. Errors:
 * MINNX_E_ARG (NULL session, threads 0 with a hook). */
minnx_status minnx_session_set_parallel(minnx_session *session, minnx_parallel_fn parallel, void *pool,
                                        size_t threads, minnx_error *err);
/* The number of threads the session splits its work over (1: inline; 0 for NULL). */
size_t minnx_session_threads(const minnx_session *session);

/* Workers: one default pool shared by many sessions (on one model or many),
 * so that a program starts its threads once rather than once per session. */
typedef struct minnx_workers minnx_workers;
/* Starts a pool of `threads` threads (the caller's and threads - 1 more; 1:
 * none is started, its sessions run inline), its bookkeeping from
 * `allocator` (NULL: malloc), its threads' stacks from the C library. On
 * success *out is the caller's, released with minnx_workers_free after every
 * session using it is freed or given other threads. Errors, with *out NULL
 * and nothing left running: MINNX_E_ARG (NULL out, threads 0 or above 65536), MINNX_E_NOMEM
 * (its memory, or a thread, mutex or condition variable the system refused,
 * which the message names with pthread's error, as minnx_session_set_threads
 * says), MINNX_E_FEATURE (a build without the pool, MINNX_THREADS=OFF). */
minnx_status minnx_workers_create(size_t threads, const minnx_allocator *allocator, minnx_workers **out,
                                  minnx_error *err);
/* The threads the pool runs on (0 for NULL). */
size_t minnx_workers_threads(const minnx_workers *workers);
/* Stops the pool's threads and releases it; NULL is allowed. */
void minnx_workers_free(minnx_workers *workers);
/* Runs the session's tasks in `workers` (minnx_session_threads becomes its
 * thread count) until minnx_session_free or the next set or use call; NULL:
 * back to the calling thread only. Any number of sessions may use one pool,
 * from any threads: runs that reach it at once take turns. Allocates nothing,
 * so a session in caller memory may use it. Stops a pool that
 * minnx_session_set_threads started. Errors: MINNX_E_ARG (NULL session). */
minnx_status minnx_session_use_workers(minnx_session *session, const minnx_workers *workers, minnx_error *err);

/* Binds graph input `index` to a caller tensor. The data is borrowed, not
 * copied: it must stay valid and unchanged until the last run that uses it
 * returns. Errors (the binding is then unchanged): MINNX_E_ARG (index out of
 * range, bad rank or dims, nbytes not what the shape needs), MINNX_E_TYPE
 * (not the declared dtype), MINNX_E_SHAPE (not the declared dims),
 * MINNX_E_LIMIT. An input left unbound by a failed bind makes the run fail
 * with that bind's status and cause (see minnx_session_run). */
minnx_status minnx_session_bind_input(minnx_session *session, size_t index, const minnx_tensor *tensor,
                                      minnx_error *err);
/* The same, by name; MINNX_E_ARG when the model has no input of that name. */
minnx_status minnx_session_bind_input_name(minnx_session *session, const char *name,
                                           const minnx_tensor *tensor, minnx_error *err);

/* Runs the graph. Every input must be bound (or have an initializer). With new
 * shapes bound, the session is planned again first; otherwise the run
 * allocates nothing. Errors: MINNX_E_ARG (an input is not bound; when its
 * last bind failed, that bind's status instead, MINNX_E_TYPE, MINNX_E_SHAPE,
 * MINNX_E_ARG or MINNX_E_LIMIT, with a message naming the input and what the
 * tensor given did not match, e.g. its declared shape; a build without
 * messages, MINNX_MESSAGES=OFF, keeps no such cause: MINNX_E_ARG),
 * MINNX_E_SHAPE (bound shapes that do not fit the graph, or that disagree on
 * a symbolic dim), MINNX_E_NOMEM (a re-planned arena does not fit),
 * MINNX_E_LIMIT, MINNX_E_MODEL (data a node cannot use, e.g. Gather's index
 * out of range: the run stops after that node, which the message names,
 * having read nothing out of bounds). Outputs are valid only after a
 * successful run. */
minnx_status minnx_session_run(minnx_session *session, minnx_error *err);

/* A profiler's hook: minnx_session_run calls hook(user, i) just before each
 * node i that runs (in execution order, minnx_model_node_info's index; views
 * and values folded at load or bind run nothing and are not called), and
 * hook(user, minnx_model_node_count(model)) once after the last node of a
 * run that succeeded. Time between two calls is the first node's (an If or
 * Loop counts its subgraphs' nodes as its own). The hook runs on the calling
 * thread, between nodes, never inside one; NULL removes it. Set it only
 * between runs. Errors: MINNX_E_ARG (NULL session), MINNX_E_FEATURE (a build
 * without it, MINNX_NODE_HOOK=OFF: the default of cross builds, which then
 * have no test between nodes). */
typedef void (*minnx_node_hook)(void *user, size_t node);
minnx_status minnx_session_set_node_hook(minnx_session *session, minnx_node_hook hook, void *user,
                                         minnx_error *err);

/* Output `index` of the last successful run, as a view: the data points into
 * the session's arena (or at a bound input or a model initializer) and stays
 * valid until the next run, bind or free of the session. MINNX_E_ARG (no
 * message: there is no err) for NULL, an index out of range, or no successful
 * run since the last bind. */
minnx_status minnx_session_output(const minnx_session *session, size_t index, minnx_tensor *out);

/* The arena bytes the session's current plan uses, and the sum of all planned
 * value sizes (what a plan without reuse would take); 0 before a plan (symbolic
 * dims not yet bound) and for NULL. */
size_t minnx_session_arena_size(const minnx_session *session);
size_t minnx_session_values_size(const minnx_session *session);
/* 1 when the session's arena is planned for its current inputs (an arena of
 * 0 bytes is a plan too: a graph of views and constants), 0 otherwise. */
int minnx_session_planned(const minnx_session *session);
/* How many times the session has planned: at creation when every shape is
 * known, then at each run after inputs of new shapes were bound (or at every
 * run when a shape depends on an input's bytes); 0 for NULL. A run with the
 * shapes of the last plans nothing, computes nothing at bind again and
 * allocates nothing. */
size_t minnx_session_plan_count(const minnx_session *session);

/* 1 when every node the model runs gives exact results under the numeric
 * contract (selection, comparison, copies, conversions, one IEEE operation
 * per element: the same bits as any correct implementation), 0 when some
 * node's result depends on minnx's documented order of a sum or on its own
 * transcendental functions, and is to be compared with an independent
 * reference within a tolerance (README, "Semantics minnx guarantees"); 0 for NULL. */
int minnx_model_exact(const minnx_model *model);

/* Introspection for tools. Strings returned are owned by the model; every
 * `out` pointer may be NULL to skip it; MINNX_E_ARG for NULL or an index out
 * of range. Node `index` in execution order. */
size_t minnx_model_node_count(const minnx_model *model);
/* Fills the node's name (its own, else its first output's), op type, domain
 * (never NULL; "" for the default domain) and the since_version of the schema
 * it resolved to. */
minnx_status minnx_model_node_info(const minnx_model *model, size_t index, const char **name,
                                   const char **op_type, const char **domain, int *since_version);
/* The fusion of node `index` (README, "Conv"): a float32 Conv whose output
 * only a Relu or a Clip with constant bounds reads (and which is no graph
 * output) does that node's work as it stores its results, and the node runs
 * nothing. For such a Conv, 1 + the index of the node fused into it; for that
 * node, -(1 + the index) of the Conv; 0 for every other node, NULL, or an
 * index out of range. */
int64_t minnx_model_node_fused(const minnx_model *model, size_t index);
/* The model's opset imports: domain ("" for ai.onnx) and version. */
size_t minnx_model_opset_count(const minnx_model *model);
minnx_status minnx_model_opset(const minnx_model *model, size_t index, const char **domain, int64_t *version);
/* Every value of the model (inputs, initializers, node outputs) with its
 * inferred dtype and shape (-1 for a dim unknown before binding); for an
 * initializer, data and nbytes are its bytes (owned by the model, read-only),
 * else data is NULL. */
size_t minnx_model_value_count(const minnx_model *model);
minnx_status minnx_model_value_info(const minnx_model *model, size_t index, const char **name, minnx_tensor *out);
/* When the bytes of value `index` are known: at load (an initializer, a
 * Constant, or folded from them), when the inputs are bound (computed from
 * the inputs' shapes and constants only, as Shape -> Gather -> Concat over a
 * symbolic batch: a session computes them once for the shapes bound, before
 * it plans its arena, and keeps them while the shapes stay the same), or at
 * each run (a graph input's, or computed from tensor data); a view's are
 * those of the value it views. 0 for NULL or an index out of range. Its shape
 * is known at load when minnx_model_value_info gives no dim of -1, else when
 * the inputs are bound. */
typedef enum minnx_known { MINNX_KNOWN_LOAD = 1, MINNX_KNOWN_BIND = 2, MINNX_KNOWN_RUN = 3 } minnx_known;
minnx_known minnx_model_value_known(const minnx_model *model, size_t index);
/* The dim_param name the model declares for dim `dim` of value `index` (a
 * graph input's, output's or value_info's; owned by the model), or NULL when
 * that dim is declared as a number or not at all, or out of range. */
const char *minnx_model_value_dim_param(const minnx_model *model, size_t index, int dim);

/* Decodes a serialized ONNX TensorProto (a .pb test file) into a tensor whose
 * data is allocated with `allocator` (NULL: malloc) and is the caller's:
 * release it with minnx_tensor_free and the same allocator. Its name, if any,
 * goes to *name when name is not NULL (allocated likewise; NULL when absent).
 * Errors: MINNX_E_ARG, MINNX_E_PARSE, MINNX_E_MODEL, MINNX_E_TYPE,
 * MINNX_E_FEATURE, MINNX_E_LIMIT, MINNX_E_NOMEM; nothing is allocated then. */
minnx_status minnx_tensor_decode(const void *data, size_t size, const minnx_allocator *allocator,
                                 minnx_tensor *out, char **name, minnx_error *err);
/* Serializes a tensor as an ONNX TensorProto with raw_data (little-endian)
 * into a buffer allocated with `allocator` (NULL: malloc); *out is the
 * caller's, released with minnx_tensor_free. Errors: MINNX_E_ARG,
 * MINNX_E_NOMEM. */
minnx_status minnx_tensor_encode(const minnx_tensor *tensor, const char *name, const minnx_allocator *allocator,
                                 void **out, size_t *out_size, minnx_error *err);
/* Releases memory returned by minnx_tensor_decode / minnx_tensor_encode, with
 * the allocator that made it (NULL: free). NULL is allowed. */
void minnx_tensor_free(const minnx_allocator *allocator, void *ptr);

#ifdef __cplusplus
}
#endif
#endif
