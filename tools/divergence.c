/* The known divergences (divergence.h; README, "Known divergences"). */
#include "divergence.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* The defects of a case's data. */
enum {
  BF16_AS_UINT16 = 1, /* bfloat16 tensors stored with data_type uint16 */
  LIKE_SHAPE = 2,     /* CastLike's `like` given with another shape than the model declares */
  TRUNCATED = 4,      /* the expected bfloat16 output is the input truncated, not rounded */
};

struct divergence {
  const char *name;
  unsigned defects;
};

/* Debian's python3-onnx 1.12 test data (libonnx-testdata): its generator made
 * the bfloat16 cases by truncating float32 and stored bfloat16 as uint16, and
 * the bfloat16 CastLike models declare `like` as [3,4] where the data holds
 * one element. (ONNX later rounds to nearest even, as minnx does.) */
static const divergence known[] = {
    {"test_cast_BFLOAT16_to_FLOAT", BF16_AS_UINT16},
    {"test_cast_FLOAT_to_BFLOAT16", BF16_AS_UINT16 | TRUNCATED},
    {"test_castlike_BFLOAT16_to_FLOAT", BF16_AS_UINT16 | LIKE_SHAPE},
    {"test_castlike_BFLOAT16_to_FLOAT_expanded", BF16_AS_UINT16 | LIKE_SHAPE},
    {"test_castlike_FLOAT_to_BFLOAT16", BF16_AS_UINT16 | LIKE_SHAPE | TRUNCATED},
    {"test_castlike_FLOAT_to_BFLOAT16_expanded", BF16_AS_UINT16 | LIKE_SHAPE | TRUNCATED},
};

const divergence *divergence_find(const char *name) {
  for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
    if (strcmp(known[k].name, name) == 0) return &known[k];
  return NULL;
}

static int same_shape(const minnx_tensor *a, const minnx_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return 1;
}

/* Whether a declared shape (dims of -1 symbolic) admits t's. */
static int admits(const minnx_tensor *decl, const minnx_tensor *t) {
  if (decl->rank < 0) return 1;
  if (decl->rank != t->rank) return 0;
  for (int i = 0; i < decl->rank; i++)
    if (decl->dims[i] >= 0 && decl->dims[i] != t->dims[i]) return 0;
  return 1;
}

int divergence_repair_input(const divergence *d, const minnx_model *m, size_t index, minnx_tensor *t,
                            divergence_note *note, char *why, size_t wn) {
  minnx_tensor decl;
  if (minnx_model_input_info(m, index, &decl) != MINNX_OK) return 1; /* binding reports it */
  if ((d->defects & BF16_AS_UINT16) && t->dtype == MINNX_UINT16 && decl.dtype == MINNX_BFLOAT16) {
    t->dtype = MINNX_BFLOAT16;
    note->relabeled++;
  }
  if ((d->defects & LIKE_SHAPE) && strcmp(minnx_model_input_name(m, index), "like") == 0 && !admits(&decl, t)) {
    size_t count = 1;
    for (int i = 0; i < decl.rank; i++) {
      if (decl.dims[i] < 0) return 1; /* symbolic: nothing to make up, binding reports it */
      count *= (size_t)decl.dims[i];
    }
    size_t bytes = count * minnx_dtype_size(decl.dtype);
    free(note->zeros);
    note->zeros = calloc(bytes ? bytes : 1, 1);
    if (!note->zeros) return snprintf(why, wn, "out of memory"), 0;
    decl.data = note->zeros;
    decl.nbytes = bytes;
    *t = decl;
    note->like_replaced++;
  }
  return 1;
}

void divergence_relabel_expected(const divergence *d, minnx_tensor *want, const minnx_tensor *got,
                                 divergence_note *note) {
  if ((d->defects & BF16_AS_UINT16) && want->dtype == MINNX_UINT16 && got->dtype == MINNX_BFLOAT16) {
    want->dtype = MINNX_BFLOAT16;
    note->relabeled++;
  }
}

static uint16_t load16(const void *p, size_t i) {
  uint16_t v;
  memcpy(&v, (const unsigned char *)p + 2 * i, 2);
  return v;
}

static int bf16_nan(uint16_t b) { return (b & 0x7fff) > 0x7f80; }

/* float32 bits to bfloat16, rounded to nearest even (NaN: any NaN matches). */
static uint16_t rounded(uint32_t x) { return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16); }

int divergence_truncation(const divergence *d, const minnx_tensor *input, const minnx_tensor *want,
                          const minnx_tensor *got, divergence_note *note, char *why, size_t wn) {
  if (!(d->defects & TRUNCATED) || !input || input->dtype != MINNX_FLOAT || want->dtype != MINNX_BFLOAT16 ||
      got->dtype != MINNX_BFLOAT16 || !same_shape(want, got) || !same_shape(input, want) ||
      want->nbytes != got->nbytes || input->nbytes != 2 * want->nbytes)
    return 0; /* why keeps the plain comparison's reason */
  size_t n = want->nbytes / 2;
  long truncated = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t x;
    memcpy(&x, (const unsigned char *)input->data + 4 * i, 4);
    uint16_t w = load16(want->data, i), g = load16(got->data, i);
    if (same_element(MINNX_BFLOAT16, &w, &g)) continue;
    if (w == (uint16_t)(x >> 16) && g == rounded(x) && !bf16_nan(g)) {
      truncated++;
      continue;
    }
    snprintf(why, wn,
             "element %zu is bfloat16 0x%04x, expected 0x%04x: not the documented truncation (0x%04x) against rounding "
             "to nearest even (0x%04x) of the input 0x%08x",
             i, g, w, (unsigned)(x >> 16), rounded(x), (unsigned)x);
    return 0;
  }
  note->truncated += truncated;
  note->total += (long)n;
  return 1;
}

int divergence_describe(const divergence *d, const divergence_note *note, char *buf, size_t n) {
  (void)d;
  if (!note->relabeled && !note->like_replaced && !note->truncated) return 0;
  size_t at = 0;
  at += (size_t)snprintf(buf + at, n - at, "Debian's onnx 1.12 data:");
  if (note->relabeled && at < n) at += (size_t)snprintf(buf + at, n - at, " bfloat16 stored as uint16 (read as bfloat16);");
  if (note->like_replaced && at < n)
    at += (size_t)snprintf(buf + at, n - at, " 'like' of another shape than declared (bound as zeros; only its dtype is used);");
  if (note->truncated && at < n)
    at += (size_t)snprintf(buf + at, n - at,
                           " %ld of %ld expected values truncated where minnx rounds to nearest even, the rest equal",
                           note->truncated, note->total);
  else if (at < n)
    at += (size_t)snprintf(buf + at, n - at, " values equal");
  return 1;
}

void divergence_note_free(divergence_note *note) {
  free(note->zeros);
  memset(note, 0, sizeof *note);
}
