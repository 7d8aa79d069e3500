/* See cpu.h; nothing here off x86-64. */
#include "ops/core/cpu.h"

#if MX_X86_AVX2
#include <cpuid.h>
#endif

#if MX_X86_GNU
int mx_cpu_fma(void) { return mx_cpu_isa() >= MX_ISA_AVX2; }

int mx_cpu_avx512(void) { return mx_cpu_isa() >= MX_ISA_AVX512; }
#endif

#if MX_X86_GNU
mx_isa mx_cpu_isa(void) {
#if MX_X86_AVX2
  unsigned a, b, c, d;
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !__get_cpuid(1, &a, &b, &c, &d) ||
      !(c & bit_F16C))
    return MX_ISA_PORTABLE;
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? MX_ISA_AVX512 : MX_ISA_AVX2;
#else
  return MX_ISA_PORTABLE;
#endif
}
#endif
