/* The reference loop of MatMul and Gemm (gemm.h): each output element on its
 * own, in the documented order, one operation at a time. Slow on purpose:
 * it is the oracle the kernels are held to, bit for bit. */
#include <math.h>
#include <string.h>

#include "ops/math/gemm.h"
#include "ops/tensor/convert.h"

void mx_gemm_offsets(const mx_gemm_dims *d, int64_t bi, int64_t *offa, int64_t *offb) {
  int64_t oa = 0, ob = 0;
  for (int r = d->brank; r-- > 0;) {
    int64_t digit = bi % d->bdims[r];
    bi /= d->bdims[r];
    oa += digit * d->bsa[r];
    ob += digit * d->bsb[r];
  }
  *offa = oa;
  *offb = ob;
}

/* float16 and bfloat16 to float and back, through Cast's conversions
 * (chosen once per call; float itself is copied). */
typedef struct {
  mx_convert_params to_f32, from_f32;
  int half;
} halves;

static float as_float(const halves *h, const void *p) {
  float f;
  if (h->half) mx_convert_run(&h->to_f32, &f, p, 1);
  else memcpy(&f, p, sizeof f);
  return f;
}

static void store_float(const halves *h, float f, void *p) {
  if (h->half) mx_convert_run(&h->from_f32, p, &f, 1);
  else memcpy(p, &f, sizeof f);
}

static uint64_t as_u64(size_t es, const unsigned char *p) {
  uint32_t u32;
  uint64_t u64;
  if (es == 4) {
    memcpy(&u32, p, 4);
    return u32;
  }
  memcpy(&u64, p, 8);
  return u64;
}

static void one(mx_dtype t, const halves *h, const mx_gemm_dims *d, const unsigned char *a, const unsigned char *b,
                const unsigned char *c, unsigned char *y, int64_t i, int64_t j) {
  size_t es = mx_dtype_size(t);
  const unsigned char *cij = c ? c + (size_t)(i * d->rsc + j * d->csc) * es : NULL;
  if (t == MINNX_DOUBLE) {
    double acc = 0, x, w, cv;
    for (int64_t k = 0; k < d->k; k++) {
      memcpy(&x, a + (size_t)(i * d->rsa + k * d->csa) * es, 8);
      memcpy(&w, b + (size_t)(k * d->rsb + j * d->csb) * es, 8);
      acc = MX_FMA64(x, w, acc);
    }
    if (d->gemm) {
      acc = d->alpha * acc;
      if (cij) memcpy(&cv, cij, 8), acc = acc + d->beta * cv;
    }
    memcpy(y, &acc, 8);
  } else if (t == MINNX_FLOAT || t == MINNX_FLOAT16 || t == MINNX_BFLOAT16) {
    float acc = 0;
    for (int64_t k = 0; k < d->k; k++)
      acc = fmaf(as_float(h, a + (size_t)(i * d->rsa + k * d->csa) * es),
                 as_float(h, b + (size_t)(k * d->rsb + j * d->csb) * es), acc);
    if (d->gemm) {
      acc = (float)d->alpha * acc;
      if (cij) acc = acc + (float)d->beta * as_float(h, cij);
    }
    store_float(h, acc, y);
  } else { /* the integers: modulo 2^bits, as unsigned */
    uint64_t acc = 0;
    for (int64_t k = 0; k < d->k; k++)
      acc += as_u64(es, a + (size_t)(i * d->rsa + k * d->csa) * es) * as_u64(es, b + (size_t)(k * d->rsb + j * d->csb) * es);
    if (d->gemm) {
      acc = (uint64_t)d->ialpha * acc;
      if (cij) acc += (uint64_t)d->ibeta * as_u64(es, cij);
    }
    if (es == 4) {
      uint32_t u32 = (uint32_t)acc;
      memcpy(y, &u32, 4);
    } else {
      memcpy(y, &acc, 8);
    }
  }
}

void mx_gemm_ref(mx_dtype t, const mx_gemm_dims *d, const void *a, const void *b, const void *c, void *y) {
  size_t es = mx_dtype_size(t);
  halves h = {.half = (t == MINNX_FLOAT16 || t == MINNX_BFLOAT16) && mx_convert_choose(&h.to_f32, (int)t, MINNX_FLOAT) &&
                      mx_convert_choose(&h.from_f32, MINNX_FLOAT, (int)t)};
  for (int64_t bi = 0; bi < d->batch; bi++) {
    int64_t oa, ob;
    mx_gemm_offsets(d, bi, &oa, &ob);
    for (int64_t i = 0; i < d->m; i++)
      for (int64_t j = 0; j < d->n; j++)
        one(t, &h, d, (const unsigned char *)a + (size_t)oa * es, (const unsigned char *)b + (size_t)ob * es,
            d->has_c ? c : NULL, (unsigned char *)y + (size_t)((bi * d->m + i) * d->n + j) * es, i, j);
  }
}
