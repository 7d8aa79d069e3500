/* Tensors from and to files and the terminal: .npy and TensorProto .pb
 * inputs, a case's input_N.pb / output_N.pb series, and printing. */
#ifndef MINNX_TOOLS_TENSOR_IO_H
#define MINNX_TOOLS_TENSOR_IO_H

#include <stddef.h>
#include <stdio.h>

#include "minnx.h"

/* A tensor read from a file; its data is owned here, from data_alloc. */
typedef struct {
  minnx_tensor t;
  char *name; /* from a .pb file, or NULL */
} file_tensor;

void file_tensor_free(file_tensor *f);
/* Memory for a tensor's data, released with free(): its address a multiple
 * of 64 bytes, a cache line, as the arena's are. malloc's large blocks
 * start 16 bytes past one, and with every 64-byte vector load across two
 * lines minnx's streaming kernels took up to 1.8x the time on such inputs
 * (README, "Caller buffers"); the tools' inputs are their own memory, given
 * the alignment a user who wants the speed gives them. NULL when out of
 * memory. */
void *data_alloc(size_t n);
int ends_with(const char *s, const char *suffix);
/* Reads a .npy file (by its name) or a TensorProto (any other name); on
 * failure returns 0 and why holds the cause. */
int read_tensor(const char *path, file_tensor *out, char *why, size_t wn);
/* Reads the files prefix_0.pb, prefix_1.pb, ... of a data set, up to the
 * first missing one; *count of them, at most max. 0 with why on an error. */
int read_series(const char *dir, const char *prefix, file_tensor *out, int max, int *count, char *why, size_t wn);

/* "float [2,4]" */
void print_type(FILE *f, const minnx_tensor *t);
/* "name: float [2,4] = [...]", nested like numpy's repr. */
void print_tensor(const char *name, const minnx_tensor *t);

#endif
