/*
 * minnx: a small, exact ONNX interpreter.
 *
 * Life cycle: load a model (from a file or a memory buffer), create one or more
 * sessions on it, bind inputs, run, read outputs. A model is immutable once
 * loaded and may be shared by sessions on many threads; a session is used by
 * one thread at a time. Running a planned session allocates nothing.
 *
 * Every fallible call returns a minnx_status and, when `err` is not NULL, fills
 * it with the status and a one-line message naming the cause (which node,
 * which value, which shape). The library keeps no global state and never
 * prints, exits or aborts.
 */
#ifndef MINNX_H
#define MINNX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MINNX_MAX_RANK 8

typedef enum minnx_status {
  MINNX_OK = 0,
  MINNX_E_ARG = 1,         /* a NULL or out-of-range argument */
  MINNX_E_NOMEM = 2,       /* an allocation failed */
  MINNX_E_IO = 3,          /* a file could not be read */
  MINNX_E_PARSE = 4,       /* bytes that are not a valid protobuf message */
  MINNX_E_MODEL = 5,       /* a structurally invalid model or tensor */
  MINNX_E_UNSUPPORTED = 6, /* an operator minnx does not implement */
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

/* The name of a status, e.g. "shape". Never NULL. */
const char *minnx_status_name(minnx_status status);
/* The ONNX name of a dtype, e.g. "float16"; "?" for an unknown value. */
const char *minnx_dtype_name(minnx_dtype dtype);
/* Bytes per element of a dtype; 0 for an unknown value. */
size_t minnx_dtype_size(minnx_dtype dtype);

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
} minnx_load_options;

/* Loads a model from a file. `options` may be NULL. On success *out owns the
 * model: release it with minnx_model_free after its sessions. */
minnx_status minnx_model_load_file(const char *path, const minnx_load_options *options, minnx_model **out,
                                   minnx_error *err);
/* Loads a model from `size` bytes at `data`. The bytes are copied as needed:
 * the caller may release them when the call returns. */
minnx_status minnx_model_load_buffer(const void *data, size_t size, const minnx_load_options *options,
                                     minnx_model **out, minnx_error *err);
/* Releases a model. NULL is allowed. Sessions on it must be freed first. */
void minnx_model_free(minnx_model *model);

/* Graph inputs and outputs, in the model's order. The returned tensor
 * describes the declared dtype and shape (a dim of -1 is symbolic) with
 * data NULL. Names are owned by the model. */
size_t minnx_model_input_count(const minnx_model *model);
size_t minnx_model_output_count(const minnx_model *model);
const char *minnx_model_input_name(const minnx_model *model, size_t index);
const char *minnx_model_output_name(const minnx_model *model, size_t index);
minnx_status minnx_model_input_info(const minnx_model *model, size_t index, minnx_tensor *out);

/* Creates a session: values get their places in one arena planned from the
 * declared shapes, which is allocated here. When the model has symbolic
 * dimensions, the plan is made (again) at the first run after inputs with new
 * shapes are bound; runs with unchanged shapes allocate nothing. */
minnx_status minnx_session_create(const minnx_model *model, minnx_session **out, minnx_error *err);
void minnx_session_free(minnx_session *session);

/* Binds graph input `index` to a caller tensor. The data is borrowed, not
 * copied: it must stay valid and unchanged until the run that uses it returns.
 * Dtype and declared dims are checked here. */
minnx_status minnx_session_bind_input(minnx_session *session, size_t index, const minnx_tensor *tensor,
                                      minnx_error *err);
/* The same, by name. */
minnx_status minnx_session_bind_input_name(minnx_session *session, const char *name,
                                           const minnx_tensor *tensor, minnx_error *err);

/* Runs the graph. Every input must be bound. */
minnx_status minnx_session_run(minnx_session *session, minnx_error *err);

/* Output `index` of the last successful run. The data points into the session
 * (or at a bound input or a model initializer) and stays valid until the next
 * run, bind or free of the session. */
minnx_status minnx_session_output(const minnx_session *session, size_t index, minnx_tensor *out);

/* The arena bytes the session's current plan uses, and the sum of all planned
 * value sizes (what a plan without reuse would take). */
size_t minnx_session_arena_size(const minnx_session *session);
size_t minnx_session_values_size(const minnx_session *session);

/* Introspection for tools. Node `index` in execution order. */
size_t minnx_model_node_count(const minnx_model *model);
/* Fills the node's name, op type, domain (never NULL; "" for the default
 * domain) and the since_version of the schema it resolved to. */
minnx_status minnx_model_node_info(const minnx_model *model, size_t index, const char **name,
                                   const char **op_type, const char **domain, int *since_version);
size_t minnx_model_opset_count(const minnx_model *model);
minnx_status minnx_model_opset(const minnx_model *model, size_t index, const char **domain, int64_t *version);
/* Every value of the model (inputs, initializers, node outputs) with its
 * inferred dtype and shape (-1 for a dim unknown before binding). */
size_t minnx_model_value_count(const minnx_model *model);
minnx_status minnx_model_value_info(const minnx_model *model, size_t index, const char **name, minnx_tensor *out);

/* Decodes a serialized ONNX TensorProto (a .pb test file) into a tensor whose
 * data is allocated with `allocator` (NULL: malloc); release it with
 * minnx_tensor_free. Its name, if any, goes to *name when name is not NULL
 * (allocated likewise; NULL when absent). */
minnx_status minnx_tensor_decode(const void *data, size_t size, const minnx_allocator *allocator,
                                 minnx_tensor *out, char **name, minnx_error *err);
/* Serializes a tensor as an ONNX TensorProto with raw_data into a buffer
 * allocated with `allocator` (NULL: malloc). */
minnx_status minnx_tensor_encode(const minnx_tensor *tensor, const char *name, const minnx_allocator *allocator,
                                 void **out, size_t *out_size, minnx_error *err);
/* Releases memory returned by minnx_tensor_decode / minnx_tensor_encode. */
void minnx_tensor_free(const minnx_allocator *allocator, void *ptr);

#ifdef __cplusplus
}
#endif
#endif
