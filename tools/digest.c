/* See digest.h. */
#include "digest.h"

#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static int floating(minnx_dtype t) {
  return t == MINNX_FLOAT || t == MINNX_DOUBLE || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16;
}

/* Whether the element at p of floating-point dtype t is a NaN. */
static int nan_at(minnx_dtype t, const unsigned char *p) {
  uint64_t bits = 0;
  switch (t) {
    case MINNX_FLOAT: memcpy(&bits, p, 4); return (bits & 0x7FFFFFFFu) > 0x7F800000u;
    case MINNX_DOUBLE: memcpy(&bits, p, 8); return (bits & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u;
    case MINNX_FLOAT16: memcpy(&bits, p, 2); return (bits & 0x7FFFu) > 0x7C00u;
    case MINNX_BFLOAT16: memcpy(&bits, p, 2); return (bits & 0x7FFFu) > 0x7F80u;
    default: return 0;
  }
}

static uint64_t digest_bytes(uint64_t h, const minnx_tensor *t) {
  size_t es = minnx_dtype_size(t->dtype);
  if (!t->data || !t->nbytes) return h;
  if (!floating(t->dtype) || !es) return XXH3_64bits_withSeed(t->data, t->nbytes, h);
  /* Floating point, in chunks (512 bytes: whole elements), each NaN made the one pattern 0xFF..: the
   * hardware picks a NaN's sign and payload (x86-64's invalid operations give a negative NaN, ARM's a
   * positive one), which the numeric contract does not promise (README, "Numbers"). */
  unsigned char chunk[512];
  const unsigned char *p = t->data;
  for (size_t off = 0; off < t->nbytes;) {
    size_t n = t->nbytes - off < sizeof chunk ? t->nbytes - off : sizeof chunk;
    memcpy(chunk, p + off, n);
    for (size_t k = 0; k + es <= n; k += es)
      if (nan_at(t->dtype, chunk + k)) memset(chunk + k, 0xFF, es);
    h = XXH3_64bits_withSeed(chunk, n, h);
    off += n;
  }
  return h;
}

uint64_t digest_tensor(uint64_t seed, const minnx_tensor *t) {
  /* a fixed layout, so that every target hashes the same header bytes (all are little-endian) */
  int64_t head[2 + MINNX_MAX_RANK];
  int rank = t->rank < 0 ? 0 : t->rank > MINNX_MAX_RANK ? MINNX_MAX_RANK : t->rank;
  head[0] = (int64_t)t->dtype;
  head[1] = (int64_t)t->rank;
  for (int d = 0; d < rank; d++) head[2 + d] = t->dims[d];
  return digest_bytes(XXH3_64bits_withSeed(head, (size_t)(2 + rank) * sizeof head[0], seed), t);
}
