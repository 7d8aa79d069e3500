/* The library's only file system access: a model file, and the external data
 * of its initializers, read only from inside the model's folder. A build for
 * a host without a file system leaves this file out. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/model.h"

#ifdef MX_HAVE_MMAN
#include <sys/mman.h>
#endif

typedef struct {
  char *path; /* the model's folder */
  int fd;     /* the folder, opened at the first external tensor; -1 before */
} folder;

/* Opens `name`, one path component, in the folder fd without following a
 * symbolic link; a directory unless `last`. */
static int open_component(int fd, const char *name, int last) {
  int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY);
  int r;
  do r = openat(fd, name, flags);
  while (r < 0 && errno == EINTR);
  return r;
}

/* Opens `location` below the folder: each component in turn, none of them
 * "..", none a symbolic link, so that nothing outside the folder is reached
 * whatever the files are. */
static minnx_status open_inside(folder *f, const char *location, int *out, mx_err *err) {
  if (f->fd < 0 && (f->fd = open(f->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return mx_fail(err, MINNX_E_IO, "cannot open the model's folder '%s': %s", f->path, strerror(errno));
  if (location[0] == '/')
    return mx_fail(err, MINNX_E_MODEL, "external data location '%s' is an absolute path", location);
  int fd = f->fd;
  for (const char *c = location;;) {
    size_t n = strcspn(c, "/");
    int last = c[n] == '\0';
    char name[256];
    const char *why = NULL;
    if (n >= sizeof name) why = "has a component too long";
    else if ((n == 2 && c[0] == '.' && c[1] == '.') || (last && n == 0))
      why = "does not name a file inside the model's folder";
    if (why) {
      if (fd != f->fd) close(fd);
      return mx_fail(err, MINNX_E_MODEL, "external data location '%s' %s", location, why);
    }
    memcpy(name, c, n);
    name[n] = '\0';
    c += n + !last;
    if (!last && (n == 0 || strcmp(name, ".") == 0)) continue; /* "a//b", "./a" */
    int next = open_component(fd, name, last);
    int e = errno;
    struct stat st; /* O_NOFOLLOW says ELOOP, or ENOTDIR with O_DIRECTORY */
    int link = next < 0 && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
    if (fd != f->fd) close(fd);
    if (link)
      return mx_fail(err, MINNX_E_MODEL, "external data location '%s': '%s' is a symbolic link, which minnx does not follow",
                     location, name);
    if (next < 0) return mx_fail(err, MINNX_E_IO, "external data location '%s': cannot open '%s': %s", location, name, strerror(e));
    if (last) {
      *out = next;
      return MINNX_OK;
    }
    fd = next;
  }
}

static minnx_status read_fd(int fd, const char *location, uint64_t offset, uint64_t length, void *dst, mx_err *err) {
  struct stat st;
  if (fstat(fd, &st) != 0) return mx_fail(err, MINNX_E_IO, "external data '%s': %s", location, strerror(errno));
  if (!S_ISREG(st.st_mode)) return mx_fail(err, MINNX_E_MODEL, "external data '%s' is not a regular file", location);
  uint64_t size = (uint64_t)st.st_size;
  if (offset > size || length > size - offset)
    return mx_fail(err, MINNX_E_MODEL, "external data '%s' has %llu bytes; the tensor needs %llu at offset %llu", location,
                   (unsigned long long)size, (unsigned long long)length, (unsigned long long)offset);
  unsigned char *p = dst;
  while (length > 0) {
    size_t want = length < ((size_t)1 << 30) ? (size_t)length : (size_t)1 << 30;
    ssize_t got = pread(fd, p, want, (off_t)offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return mx_fail(err, MINNX_E_IO, "external data '%s': %s", location, got < 0 ? strerror(errno) : "the file got shorter");
    p += got;
    offset += (uint64_t)got;
    length -= (uint64_t)got;
  }
  return MINNX_OK;
}

/* The reader for models loaded from a file (minnx_load_options.read_external's contract). */
static minnx_status read_confined(void *user, const char *location, uint64_t offset, uint64_t length, void *dst,
                                  mx_err *err) {
  int fd;
  minnx_status st = open_inside(user, location, &fd, err);
  if (st) return st;
  st = read_fd(fd, location, offset, length, dst, err);
  close(fd);
  return st;
}

/* The whole file into memory from mem. Read in growing steps rather than
 * trusting a size from fstat: works for pipes too. */
static minnx_status read_model(const char *path, mx_mem *mem, unsigned char **out, size_t *out_len, mx_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return mx_fail(err, MINNX_E_IO, "cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = mx_mem_alloc(mem, cap);
  minnx_status st = MINNX_OK;
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    if (cap > SIZE_MAX / 2) {
      st = mx_fail(err, MINNX_E_LIMIT, "'%s' is too large", path);
      break;
    }
    unsigned char *bigger = mx_mem_alloc(mem, cap * 2);
    if (bigger) memcpy(bigger, buf, len);
    mx_mem_free(mem, buf);
    buf = bigger;
    cap *= 2;
  }
  if (!buf) st = mx_fail(err, MINNX_E_NOMEM, "out of memory reading '%s'", path);
  else if (!st && ferror(f)) st = mx_fail(err, MINNX_E_IO, "cannot read '%s': %s", path, strerror(errno));
  fclose(f);
  if (st) {
    mx_mem_free(mem, buf);
    return mx_mem_status(mem, st, err);
  }
  *out = buf;
  *out_len = len;
  return MINNX_OK;
}

#ifdef MX_HAVE_MMAN
static void unmap_file(void *addr, size_t size) { munmap(addr, size); }

/* The file mapped read-only, for weights in place: 1 mapped, 0 when it cannot
 * be (not a regular file, empty, mmap refused or absent): it is then read. */
static int map_model(const char *path, mx_mapping *map) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return 0;
  void *addr = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX)
    addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd); /* the mapping stays valid without it */
  if (addr == MAP_FAILED) return 0;
  *map = (mx_mapping){addr, (size_t)st.st_size, unmap_file};
  return 1;
}
#else
static void unmap_file(void *addr, size_t size) { (void)addr, (void)size; }
static int map_model(const char *path, mx_mapping *map) { return (void)path, (void)map, 0; }
#endif

minnx_status minnx_model_load_file(const char *path, const minnx_load_options *options, minnx_model **out,
                                   minnx_error *err) {
  if (!path || !out) return mx_fail(err, MINNX_E_ARG, "minnx_model_load_file: NULL argument");
  *out = NULL;
  mx_mem mem;
  mx_mem_init(&mem, options ? &options->allocator : NULL, options ? options->max_memory : 0);
  const char *slash = strrchr(path, '/');
  size_t dir_len = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
  folder f = {mx_mem_alloc(&mem, dir_len + 1), -1};
  if (!f.path) return mx_mem_status(&mem, mx_fail(err, MINNX_E_NOMEM, "out of memory for the model's path"), err);
  memcpy(f.path, slash ? path : ".", dir_len);
  f.path[dir_len] = '\0';
  unsigned char *bytes = NULL;
  size_t size = 0;
  mx_mapping map = {0};
  minnx_load_options opts = {0};
  if (options) opts = *options;
  minnx_status st = MINNX_OK;
  if (opts.weights_in_place && map_model(path, &map)) {
    bytes = map.addr;
    size = map.size;
  } else {
    opts.weights_in_place = 0; /* the bytes read go when the load ends */
    st = read_model(path, &mem, &bytes, &size, err);
  }
  if (!st) {
    /* The caller's reader, when given, serves file loads too. */
    mx_external ext = {read_confined, &f};
    if (opts.read_external) ext = (mx_external){opts.read_external, opts.read_external_user};
    st = mx_model_load(bytes, size, &opts, &ext, map.unmap ? 0 : mem.used, out, err);
  }
  if (f.fd >= 0) close(f.fd);
  if (!map.unmap) mx_mem_free(&mem, bytes);
  else if (st) unmap_file(map.addr, map.size);
  else (*out)->mapping = map;
  mx_mem_free(&mem, f.path);
  return st;
}
