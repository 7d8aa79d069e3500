/* See cpu.h; nothing here off x86-64. */
#include "ops/core/cpu.h"

#include <stddef.h>

#if MX_X86_GNU
#include <cpuid.h>
#endif

#if MX_X86_GNU
int mx_cpu_fma(void) { return mx_cpu_isa() >= MX_ISA_AVX2; }

int mx_cpu_avx512(void) { return mx_cpu_isa() >= MX_ISA_AVX512; }
#endif

#if MX_X86_GNU
mx_isa mx_cpu_isa(void) {
#if MX_X86_AVX2
  /* asked once and kept (level + 1; 0: not asked yet): the products' plans ask it for every convolution at
   * prepare, and each CPUID a VM traps had cost MobileNet v2's load 837 of them, about 10 ms */
  static int kept;
  int v = __atomic_load_n(&kept, __ATOMIC_RELAXED);
  if (!v) {
    unsigned a, b, c, d;
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !__get_cpuid(1, &a, &b, &c, &d) ||
        !(c & bit_F16C))
      v = 1 + MX_ISA_PORTABLE;
    else
      v = 1 + (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? MX_ISA_AVX512 : MX_ISA_AVX2);
    __atomic_store_n(&kept, v, __ATOMIC_RELAXED);
  }
  return (mx_isa)(v - 1);
#else
  return MX_ISA_PORTABLE;
#endif
}
#endif

#if MX_X86_GNU
/* The largest level's size among the data or unified caches that leaf
 * `leaf` describes (subleaf k: type in EAX 4:0, 0 ends; level 7:5; ways,
 * partitions and line size less one in EBX, sets less one in ECX). */
static unsigned long llc_of(unsigned leaf) {
  unsigned long best = 0;
  unsigned best_level = 0;
  for (unsigned k = 0; k < 16; k++) {
    unsigned a, b, c, d;
    __cpuid_count(leaf, k, a, b, c, d);
    unsigned type = a & 31, level = (a >> 5) & 7;
    if (type == 0) break;
    if (type == 2 || level < best_level) continue; /* instructions */
    best_level = level;
    best = (unsigned long)((b >> 22) + 1) * (((b >> 12) & 1023) + 1) * ((b & 4095) + 1) * ((unsigned long)c + 1);
  }
  return best;
}

unsigned long mx_cpu_llc_bytes(void) {
  static unsigned long kept; /* 0: not asked yet; ~0: asked, unknown */
  unsigned long v = __atomic_load_n(&kept, __ATOMIC_RELAXED);
  if (!v) {
    unsigned a, b, c, d, top = __get_cpuid_max(0, NULL), ext = __get_cpuid_max(0x80000000, NULL);
    /* AMD (and Hygon) describe their caches in 0x8000001D when topology extensions (0x80000001 ECX 22) say so */
    int amd = ext >= 0x8000001D && __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 22 & 1);
    v = amd ? llc_of(0x8000001D) : top >= 4 ? llc_of(4) : 0;
    if (!v) v = ~0UL;
    __atomic_store_n(&kept, v, __ATOMIC_RELAXED);
  }
  return v == ~0UL ? 0 : v;
}
#endif
