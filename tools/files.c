#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int read_file(const char *path, unsigned char **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return errno;
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  int e = 0;
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    unsigned char *bigger = realloc(buf, cap * 2);
    if (!bigger) free(buf);
    buf = bigger;
    cap *= 2;
  }
  if (!buf) e = ENOMEM;
  else if (ferror(f)) e = errno ? errno : EIO;
  fclose(f);
  if (e) {
    free(buf);
    return e;
  }
  *data = buf;
  *size = len;
  return 0;
}

int write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return errno;
  int e = fwrite(data, 1, size, f) == size ? 0 : (errno ? errno : EIO);
  if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
  return e;
}

int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *path_join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *r = malloc(la + lb + 2);
  if (!r) return NULL;
  memcpy(r, a, la);
  size_t k = la;
  if (la && a[la - 1] != '/') r[k++] = '/';
  memcpy(r + k, b, lb + 1);
  return r;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **list_dir(const char *dir, size_t *count) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  size_t n = 0, cap = 64;
  char **list = malloc(cap * sizeof *list);
  struct dirent *e;
  while (list && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n == cap) {
      char **bigger = realloc(list, cap * 2 * sizeof *list);
      if (!bigger) break;
      list = bigger;
      cap *= 2;
    }
    if (!(list[n] = strdup(e->d_name))) break;
    n++;
  }
  closedir(d);
  if (list) qsort(list, n, sizeof *list, cmp_str);
  *count = n;
  return list;
}

void free_list(char **list, size_t count) {
  for (size_t i = 0; list && i < count; i++) free(list[i]);
  free(list);
}

int read_expectation(const char *dir, char *stage, size_t sn, char *word, size_t wn) {
  char *path = path_join(dir, "expect_error");
  unsigned char *data = NULL;
  size_t size = 0;
  int found = path && read_file(path, &data, &size) == 0;
  free(path);
  stage[0] = word[0] = '\0';
  if (!found) return 0;
  char *text = malloc(size + 1);
  if (text) {
    memcpy(text, data, size);
    text[size] = '\0';
    char *line2 = strchr(text, '\n');
    if (line2) *line2++ = '\0';
    snprintf(stage, sn, "%.*s", (int)strcspn(text, " \r\t"), text);
    if (line2) snprintf(word, wn, "%.*s", (int)strcspn(line2, " \r\t\n"), line2);
    free(text);
  }
  free(data);
  return 1;
}

int read_tolerance(const char *dir, double *atol, double *rtol) {
  char *path = path_join(dir, "tolerance");
  unsigned char *data = NULL;
  size_t size = 0;
  int found = path && read_file(path, &data, &size) == 0;
  free(path);
  if (!found) return 0;
  char text[128];
  snprintf(text, sizeof text, "%.*s", (int)(size < sizeof text - 1 ? size : sizeof text - 1), (const char *)data);
  free(data);
  double a, r;
  int used = 0;
  if (size >= sizeof text || sscanf(text, "%lf %lf %n", &a, &r, &used) != 2 || text[used] ||
      !(a >= 0 && r >= 0 && a < HUGE_VAL && r < HUGE_VAL))
    return -1;
  *atol = a, *rtol = r;
  return 1;
}

int contains_ci(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++)
    if (strncasecmp(hay, needle, n) == 0) return 1;
  return n == 0;
}
