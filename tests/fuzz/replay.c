/* Runs a fuzz target's LLVMFuzzerTestOneInput once on each file given, or on
 * every file under each folder given, without libFuzzer: the corpus and the
 * past crashes become a regression test in any build (gcc, valgrind). An
 * input that takes longer than 30 s (a past timeout) fails the run.
 *   replay [--suffix .onnx] PATH...   (the suffix filters files found in folders) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *suffix = "";
static long count;
static char current[4096]; /* the input running, for the timeout message */

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "replay: timeout on ";
  if (write(2, msg, sizeof msg - 1) < 0 || write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0) _exit(2);
  _exit(2);
}

static int has_suffix(const char *s) {
  size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return perror(path), 1;
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    uint8_t *bigger = realloc(buf, cap * 2);
    if (!bigger) free(buf);
    buf = bigger;
    cap *= 2;
  }
  fclose(f);
  if (!buf) return fprintf(stderr, "%s: out of memory\n", path), 1;
  snprintf(current, sizeof current, "%s", path);
  alarm(30);
  LLVMFuzzerTestOneInput(buf, len);
  alarm(0);
  free(buf);
  count++;
  return 0;
}

static int run_path(const char *path, int top) {
  struct stat st;
  if ((top ? stat(path, &st) : lstat(path, &st)) != 0) return perror(path), 1;
  if (S_ISLNK(st.st_mode)) return 0; /* a folder's links (the bad cases' escapes) are not inputs */
  if (!S_ISDIR(st.st_mode)) return top || has_suffix(path) ? run_file(path) : 0;
  DIR *d = opendir(path);
  if (!d) return perror(path), 1;
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) && !rc) {
    if (e->d_name[0] == '.') continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *child = malloc(n);
    if (!child) return closedir(d), 1;
    snprintf(child, n, "%s/%s", path, e->d_name);
    rc = run_path(child, 0);
    free(child);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  int rc = 0;
  signal(SIGALRM, on_alarm);
  for (int i = 1; i < argc && !rc; i++) {
    if (strcmp(argv[i], "--suffix") == 0 && i + 1 < argc) suffix = argv[++i];
    else rc = run_path(argv[i], 1);
  }
  printf("replayed %ld inputs\n", count);
  return rc || count == 0;
}
