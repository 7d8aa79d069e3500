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
#endif
