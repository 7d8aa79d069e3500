/* stdio's output on the test firmware: newlib's printf ends in _write, which
 * nosys.specs leaves a stub; this one hands stdout and stderr to the host's
 * console over semihosting (for tests/unit programs built for the M4). */
#include <errno.h>
#include <string.h>

#include "semihost.h"

int _write(int fd, const char *buf, int len);

int _write(int fd, const char *buf, int len) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  char piece[129];
  for (int done = 0; done < len;) {
    int n = len - done < 128 ? len - done : 128;
    memcpy(piece, buf + done, (size_t)n);
    piece[n] = '\0';
    sh_puts(piece);
    done += n;
  }
  return len;
}
