/* The one rule by which outputs are compared with expected ones (`minnx
 * test`, and the tests that run cases outside the CLI: caller memory, the
 * Cortex-M4 firmware). Dtype and shape must be equal. Then, for a model whose
 * every node is exact (minnx_model_exact), every element bit for bit, where
 * NaN matches NaN (any payload) and -0.0 matches +0.0; for one with an inexact
 * node, floating-point elements within a tolerance, as ONNX's backend tests
 * compare (numpy's assert_allclose): |got - want| <= atol + rtol |want|, NaN
 * matching only NaN and an infinity only the same infinity; other elements
 * exactly. */
#ifndef MINNX_TOOLS_COMPARE_H
#define MINNX_TOOLS_COMPARE_H

#include <stddef.h>

#include "minnx.h"

/* ONNX's runner's tolerance for its own data (onnx/backend/test/runner). */
#define COMPARE_RTOL 1e-3
#define COMPARE_ATOL 1e-7

/* The largest errors seen over the elements compared within a tolerance
 * (those that are numbers in both tensors), the relative one over those not
 * expected to be 0 (where only atol applies); start them at 0. */
typedef struct {
  double max_abs, max_rel;
  int compared; /* some floating-point tensor of equal dtype and shape was compared */
} compare_errors;

/* 1 when the element at got matches the one at want exactly, both of dtype t. */
int same_element(minnx_dtype t, const void *want, const void *got);
/* 1 when got matches want exactly; else 0, and why says how: the dtype,
 * the shape, or the first element that differs (its index, got, expected). */
int same_tensor(const minnx_tensor *want, const minnx_tensor *got, char *why, size_t wn);
/* 1 when got matches want within the tolerance, with the errors folded into
 * e; else 0, and why names the dtype or shape that differs, or the worst
 * element (the one farthest beyond its bound; a NaN or an infinity where
 * there should be none first), its index, got and expected. */
int close_tensor(const minnx_tensor *want, const minnx_tensor *got, double rtol, double atol, compare_errors *e,
                 char *why, size_t wn);

#endif
