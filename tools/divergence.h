/* The known divergences of `minnx test` from the ONNX test data it runs
 * (README, "Known divergences"): cases named here, whose data a documented
 * defect makes unusable as it is, are repaired in the one documented way and
 * reported as `DIVERGE name: what`, never as PASS; anything beyond the
 * documented difference still FAILs. */
#ifndef MINNX_TOOLS_DIVERGENCE_H
#define MINNX_TOOLS_DIVERGENCE_H

#include <stddef.h>

#include "minnx.h"

typedef struct divergence divergence;

/* What a case's data needed, for its DIVERGE line. */
typedef struct {
  int relabeled;          /* tensors stored as uint16 read as the bfloat16 the model declares */
  int like_replaced;      /* CastLike `like` inputs of the wrong shape bound as zeros */
  long truncated, total;  /* expected elements made by truncation, of all compared */
  void *zeros;            /* the replacement `like` data (divergence_note_free) */
} divergence_note;

/* The known divergence of the case called `name`, or NULL. */
const divergence *divergence_find(const char *name);

/* Repairs input `index` of the data set (t, read from a file) as the case's
 * divergence allows, before it is bound. Returns 0 with why set when the
 * repair needs memory it cannot have. */
int divergence_repair_input(const divergence *d, const minnx_model *m, size_t index, minnx_tensor *t,
                            divergence_note *note, char *why, size_t wn);
/* An expected output stored as uint16 where minnx's output is bfloat16 is read as bfloat16. */
void divergence_relabel_expected(const divergence *d, minnx_tensor *want, const minnx_tensor *got,
                                 divergence_note *note);
/* For a case whose expected bfloat16 output was made by truncating `input`
 * (float): 1 when every element of got equals want, or want is the truncation
 * of the input and got its rounding to nearest even; else 0 with why naming
 * the first element that is neither. */
int divergence_truncation(const divergence *d, const minnx_tensor *input, const minnx_tensor *want,
                          const minnx_tensor *got, divergence_note *note, char *why, size_t wn);
/* Whether the case diverged (some repair or truncation was needed), and its description. */
int divergence_describe(const divergence *d, const divergence_note *note, char *buf, size_t n);
void divergence_note_free(divergence_note *note);

#endif
