/* Cast's element conversions between minnx's twelve numeric dtypes and bool.
 *
 * The rules (README, "Cast semantics"):
 * - float to float rounds to nearest, ties to even; NaN stays NaN; a value
 *   beyond the target's range becomes +-inf. Each conversion rounds once, from
 *   the exact source value (never through an intermediate rounding).
 * - float to integer truncates toward zero and saturates: NaN gives 0, a value
 *   below the target's range (and -inf) its minimum, above it (and +inf) its
 *   maximum.
 * - integer to integer keeps the low bits (two's complement, modulo 2^bits).
 * - integer to float rounds to nearest, ties to even.
 * - to bool is x != 0 (NaN is true); bool is 0 or 1, and a stored byte other
 *   than 0 reads as true.
 * They assume the C environment's default floating-point rounding mode. */
#ifndef MX_CONVERT_H
#define MX_CONVERT_H

#include <stdint.h>

#include "ops/core/cpu.h"

/* Elements converted per step of the two-stage path: its block of wide
 * values (8 bytes each) lives on eval's stack. */
#define MX_CONVERT_BLOCK 32

/* A conversion chosen once, at prepare: one direct loop for the frequent
 * pairs (float with float16, bfloat16, int32, int64; and a copy for equal
 * dtypes); otherwise a load of a block into wide values, exact for every
 * source (double for floats, 64-bit integers for integers and bool), then a
 * store that rounds once into the target. The loops come from the kernel
 * tables (convert_kernels.h). */
typedef struct {
  void (*direct)(void *out, const void *in, int64_t n);
  void (*direct_stream)(void *out, const void *in, int64_t n); /* direct with streaming stores (kernel.h), or NULL */
  void (*load)(void *wide, const void *in, int64_t n);
  void (*store)(void *out, const void *wide, int64_t n);
  int64_t in_size, out_size; /* bytes per element */
} mx_convert_params;

/* Chooses the conversion from dtype `from` to dtype `to`, with the loops of
 * the highest ISA level the CPU has (mx_cpu_isa). Returns 0 when either is
 * not a numeric dtype or bool that this build computes on. */
int mx_convert_choose(mx_convert_params *p, int from, int to);
/* The same with the direct loops' level given: the portable ones, or those
 * for AVX2 (with F16C), or for AVX-512 (F and DQ; a pair that has no such
 * loop takes AVX2's), as far as this build has them (tests run every level
 * the CPU has). The two-stage path's loops are portable at every level. */
int mx_convert_choose_isa(mx_convert_params *p, int from, int to, mx_isa isa);
/* Converts n elements from in to out (which do not overlap). */
void mx_convert_run(const mx_convert_params *p, void *out, const void *in, int64_t n);

#endif
