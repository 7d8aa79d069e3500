/* Arm semihosting: the test firmware's only way to the host (qemu's
 * -semihosting-config enable=on,target=native): files, the console, the
 * command line and the exit status. */
#ifndef MINNX_M4_SEMIHOST_H
#define MINNX_M4_SEMIHOST_H

#include <stddef.h>

/* A host file opened for binary reading: a handle >= 0, or -1. */
int sh_open(const char *path);
void sh_close(int handle);
/* The file's length in bytes, or -1. */
long sh_length(int handle);
/* Reads exactly n bytes; 0 on success. */
int sh_read(int handle, void *dst, size_t n);
/* Writes a string to the host's console (qemu's standard output). */
void sh_puts(const char *s);
/* The command line qemu was given (-semihosting-config arg=...), into buf; 0 on success. */
int sh_cmdline(char *buf, size_t size);
/* Ends the emulation: status 0 is success, anything else failure. */
_Noreturn void sh_exit(int status);

#endif
