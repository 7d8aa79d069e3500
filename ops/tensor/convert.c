/* Cast's conversions (convert.h states the rules): the chooser, which takes
 * the loops from the kernel tables (convert_kernels.h) once, at prepare, and
 * the run. The loops are the templates convert_wide_float.c.in,
 * convert_wide_int.c.in, convert_to_float.c.in and convert_from_float.c.in,
 * instantiated per dtype and ISA level by convert.kernels.cmake. */
#include <string.h>

#include "graph/dtype.h"
#include "ops/core/cpu.h"
#include "ops/core/kernel.h"
#include "ops/tensor/convert.h"
#include "ops/tensor/convert_kernels.h"

/* The kind of wide value a source's load gives (convert_elem.h's
 * mx_widen_*), and so the store of the target that reads it. */
static mx_wide_kind wide_kind(int from) {
  switch (from) {
    case MINNX_FLOAT16:
    case MINNX_BFLOAT16:
    case MINNX_FLOAT:
    case MINNX_DOUBLE: return MX_WIDE_DOUBLE;
    case MINNX_UINT64: return MX_WIDE_UINT;
    default: return MX_WIDE_INT;
  }
}

int mx_convert_choose(mx_convert_params *p, int from, int to) { return mx_convert_choose_isa(p, from, to, mx_cpu_isa()); }

int mx_convert_choose_isa(mx_convert_params *p, int from, int to, mx_isa isa) {
  memset(p, 0, sizeof *p);
  /* a dtype without loads and stores is not numeric or bool, or not in this build */
  const struct mx_convert_wide_set *src = mx_kernel_find(mx_convert_wide_rows, mx_convert_wide_n_rows, from,
                                                         MX_ISA_PORTABLE);
  const struct mx_convert_wide_set *dst = mx_kernel_find(mx_convert_wide_rows, mx_convert_wide_n_rows, to,
                                                         MX_ISA_PORTABLE);
  if (!src || !dst) return 0;
  p->in_size = (int64_t)mx_dtype_size(from);
  p->out_size = (int64_t)mx_dtype_size(to);
  if (from == to) return 1; /* neither direct nor load: a copy */
  const struct mx_convert_to_float_set *to_float =
      to == MINNX_FLOAT ? mx_kernel_find(mx_convert_to_float_rows, mx_convert_to_float_n_rows, from, isa) : NULL;
  const struct mx_convert_from_float_set *from_float =
      from == MINNX_FLOAT ? mx_kernel_find(mx_convert_from_float_rows, mx_convert_from_float_n_rows, to, isa) : NULL;
  if (to_float || from_float) {
    p->direct = to_float ? to_float->loop : from_float->loop;
    p->direct_stream = to_float ? NULL : from_float->stream;
    return 1;
  }
  p->load = src->load;
  p->store = dst->store[wide_kind(from)];
  return 1;
}

void mx_convert_run(const mx_convert_params *p, void *out, const void *in, int64_t n) {
  if (p->direct) {
    p->direct(out, in, n);
  } else if (!p->load) {
    if (n > 0) memcpy(out, in, (size_t)(n * p->in_size));
  } else {
    mx_wide wide[MX_CONVERT_BLOCK];
    for (int64_t i = 0; i < n; i += MX_CONVERT_BLOCK) {
      int64_t m = n - i < MX_CONVERT_BLOCK ? n - i : MX_CONVERT_BLOCK;
      p->load(wide, (const char *)in + i * p->in_size, m);
      p->store((char *)out + i * p->out_size, wide, m);
    }
  }
}
