/* See cpu.h; nothing here off x86-64. */
#include "ops/core/cpu.h"

#if MX_X86_GNU
int mx_cpu_avx2(void) {
#if MX_X86_AVX2
  return __builtin_cpu_supports("avx2") != 0;
#else
  return 0;
#endif
}

int mx_cpu_fma(void) {
#if MX_X86_AVX2
  return mx_cpu_avx2() && __builtin_cpu_supports("fma");
#else
  return 0;
#endif
}

int mx_cpu_avx512(void) {
#if MX_X86_AVX2
  return mx_cpu_fma() && __builtin_cpu_supports("avx512f");
#else
  return 0;
#endif
}
#endif
