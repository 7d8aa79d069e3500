/* The windows' shape rules (window.h), shared by Conv and the pools. */
#include <string.h>

#include "graph/shape.h"
#include "ops/nn/window.h"

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };

/* An ints attribute: its values and count (absent: n = -1). */
static const int64_t *ints_attr(const mx_node *n, const char *name, int64_t *count) {
  const mx_attr *a = mx_node_attr(n, name);
  *count = a ? (int64_t)a->n : -1;
  return a ? a->ints : NULL;
}

static int auto_pad_of(const mx_node *n) {
  const mx_attr *a = mx_node_attr(n, "auto_pad");
  static const char *const names[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  if (!a) return PAD_NOTSET;
  for (int k = 0; k < 4; k++)
    if (strcmp(a->s, names[k]) == 0) return k;
  return -1;
}

/* One dim's output size and padding; in or k -1 (not known yet) gives out
 * -1. Returns a refusal's text, or NULL. */
static const char *one_dim(int mode, int ceil_mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t *pb, int64_t *pe,
                           int64_t *out) {
  int64_t dk, padded;
  *out = -1;
  if (in < 0 || k < 0) return NULL;
  if (__builtin_mul_overflow(k - 1, d, &dk) || __builtin_add_overflow(dk, 1, &dk)) return "the dilated kernel overflows";
  if (mode == PAD_SAME_UPPER || mode == PAD_SAME_LOWER) {
    int64_t o = in / s + (in % s != 0), total;
    if (__builtin_add_overflow(o > 0 ? (o - 1) * s : 0, dk, &total)) return "the padding SAME needs overflows";
    total = total > in ? total - in : 0;
    *pb = mode == PAD_SAME_UPPER ? total / 2 : total - total / 2;
    *pe = total - *pb;
    *out = o;
    return NULL;
  }
  if (mode == PAD_VALID) *pb = *pe = 0;
  if (__builtin_add_overflow(in, *pb, &padded) || __builtin_add_overflow(padded, *pe, &padded))
    return "the padded input overflows";
  if (padded < dk) return "the (dilated) kernel is larger than the padded input";
  *out = (padded - dk) / s + 1;
  int64_t start; /* of a last window the ceiling adds: kept if it starts in the input or its start padding */
  if (ceil_mode && (padded - dk) % s != 0 && !__builtin_mul_overflow(*out, s, &start) && start < in + *pb) *out += 1;
  return NULL;
}

minnx_status mx_window_infer(mx_op_ctx *c, int sp, const int64_t *in, const int64_t *k, mx_window *w) {
  const mx_node *n = c->node;
  int64_t ns, nd, np;
  const int64_t *st = ints_attr(n, "strides", &ns), *dl = ints_attr(n, "dilations", &nd), *pd = ints_attr(n, "pads", &np);
  int mode = auto_pad_of(n), ceil_mode = mx_attr_int(n, "ceil_mode", 0) != 0;
  if (mode < 0)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute auto_pad '%s' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID",
                      mx_node_attr(n, "auto_pad")->s);
  if (mode != PAD_NOTSET && np >= 0)
    return mx_op_fail(c, MINNX_E_MODEL, "attribute pads cannot be given with auto_pad other than NOTSET");
  if ((ns >= 0 && ns != sp) || (nd >= 0 && nd != sp) || (np >= 0 && np != 2 * sp))
    return mx_op_fail(c, MINNX_E_MODEL, "attributes strides and dilations need %d values and pads %d for %d spatial dims", sp,
                      2 * sp, sp);
  for (int d = 0; d < 3; d++) w->in[d] = w->k[d] = w->out[d] = w->stride[d] = w->dil[d] = 1, w->pad[d] = w->pad_end[d] = 0;
  for (int d = 0; d < sp; d++) {
    int at = 3 - sp + d;
    w->stride[at] = ns >= 0 ? st[d] : 1;
    w->dil[at] = nd >= 0 ? dl[d] : 1;
    w->pad[at] = np >= 0 ? pd[d] : 0;
    w->pad_end[at] = np >= 0 ? pd[sp + d] : 0;
    w->in[at] = in[d];
    w->k[at] = k[d];
    if (w->stride[at] < 1 || w->dil[at] < 1 || w->pad[at] < 0 || w->pad_end[at] < 0)
      return mx_op_fail(c, MINNX_E_MODEL, "spatial dim %d: attributes stride %lld, dilation %lld, pads %lld and %lld; "
                        "strides and dilations must be >= 1, pads >= 0", d, (long long)w->stride[at],
                        (long long)w->dil[at], (long long)w->pad[at], (long long)w->pad_end[at]);
    const char *why = one_dim(mode, ceil_mode, in[d], k[d], w->stride[at], w->dil[at], &w->pad[at], &w->pad_end[at],
                              &w->out[at]);
    if (why)
      return mx_op_fail(c, MINNX_E_SHAPE, "spatial dim %d of the input's shape (%lld), kernel %lld, dilation %lld, pads %lld "
                        "and %lld: %s", d, (long long)in[d], (long long)k[d], (long long)w->dil[at], (long long)w->pad[at],
                        (long long)w->pad_end[at], why);
  }
  return MINNX_OK;
}
