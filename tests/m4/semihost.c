/* The semihosting calls: operation number in r0, a parameter block's address
 * in r1, `bkpt 0xab` traps to the debugger (here qemu), the result in r0.
 * Operation numbers and blocks are those of Arm's semihosting specification. */
#include "semihost.h"

#include <stdint.h>
#include <string.h>

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_READ = 0x06,
  SYS_FLEN = 0x0C,
  SYS_GET_CMDLINE = 0x15,
  SYS_EXIT = 0x18,
  SYS_EXIT_EXTENDED = 0x20,
  ADP_STOPPED_APPLICATION_EXIT = 0x20026,
  OPEN_MODE_RB = 1, /* fopen's "rb" */
  STDOUT_HANDLE = 1 /* from opening ":tt" for writing: qemu's console */
};

static intptr_t call(uintptr_t op, const void *block) {
  register uintptr_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = block;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (intptr_t)r0;
}

int sh_open(const char *path) {
  uintptr_t block[3] = {(uintptr_t)path, OPEN_MODE_RB, strlen(path)};
  return (int)call(SYS_OPEN, block);
}

void sh_close(int handle) {
  uintptr_t block[1] = {(uintptr_t)handle};
  call(SYS_CLOSE, block);
}

long sh_length(int handle) {
  uintptr_t block[1] = {(uintptr_t)handle};
  return (long)call(SYS_FLEN, block);
}

int sh_read(int handle, void *dst, size_t n) {
  uintptr_t block[3] = {(uintptr_t)handle, (uintptr_t)dst, n};
  return call(SYS_READ, block) != 0; /* the bytes NOT read */
}

void sh_puts(const char *s) { call(SYS_WRITE0, s); }

int sh_cmdline(char *buf, size_t size) {
  uintptr_t block[2] = {(uintptr_t)buf, size};
  return call(SYS_GET_CMDLINE, block) != 0;
}

_Noreturn void sh_exit(int status) {
  /* The extended call carries the status itself; qemu passes it on as its own. */
  uintptr_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status};
  call(SYS_EXIT_EXTENDED, block);
  call(SYS_EXIT, (const void *)(uintptr_t)ADP_STOPPED_APPLICATION_EXIT); /* older hosts */
  for (;;) {
  }
}
