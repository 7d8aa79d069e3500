/* File helpers for the CLI: whole-file reads, sorted directory listings. */
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

#endif
