/* File helpers for the CLI (and the tests that read cases like it):
 * whole-file reads, sorted directory listings, a case's expect_error. */
#ifndef MINNX_TOOLS_FILES_H
#define MINNX_TOOLS_FILES_H

#include <stddef.h>

/* Reads a whole file into a malloc'd buffer; 0 on success, else errno. */
int read_file(const char *path, unsigned char **data, size_t *size);
/* Writes a whole file; 0 on success, else errno. */
int write_file(const char *path, const void *data, size_t size);
int is_dir(const char *path);
int is_file(const char *path);
/* "a/b" into a malloc'd string. */
char *path_join(const char *a, const char *b);
/* The names in dir (no "." or ".."), sorted, as a malloc'd array of malloc'd
 * strings; NULL on error. */
char **list_dir(const char *dir, size_t *count);
void free_list(char **list, size_t count);
/* A refused case's expectation, from dir/expect_error: line 1 the stage
 * ("load" or "run"), line 2 a word the message must hold. Returns whether
 * the file is there; stage and word are "" where it does not say. */
int read_expectation(const char *dir, char *stage, size_t sn, char *word, size_t wn);
/* A case's own tolerance, from dir/tolerance: one line "ATOL RTOL" (two
 * finite numbers >= 0), the bound |got - expected| <= ATOL + RTOL |expected|
 * replacing ONNX's for the outputs compared within a tolerance. Returns 1
 * when the file is there and says so, 0 when it is absent (atol and rtol
 * untouched), -1 when it is there but malformed. */
int read_tolerance(const char *dir, double *atol, double *rtol);
/* Whether needle occurs in hay, ASCII case ignored (an empty one does). */
int contains_ci(const char *hay, const char *needle);

#endif
