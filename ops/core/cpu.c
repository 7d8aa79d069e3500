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

/* When no leaf describes the caches (a VM may hide leaf 4 and AMD's topology
 * extensions: one of this project's hosts did), AMD's older leaf 0x80000006
 * may still give an L3 size (EDX 31:18, in 512 KiB units) but not how many
 * cores share it, and a VM may give the whole package's: that host said 508
 * MiB, the L3 of all 16 core complexes of its Zen 5, of which one core
 * reaches 32 MiB. So without a description minnx takes MX_LLC_GUESS, or the
 * older leaf's L3 where it is smaller. */
#define MX_LLC_GUESS (32UL << 20)

static unsigned long llc_guess(unsigned ext) {
  unsigned a, b, c, d;
  unsigned long l3 = 0;
  if (ext >= 0x80000006 && __get_cpuid(0x80000006, &a, &b, &c, &d)) l3 = (unsigned long)(d >> 18) << 19;
  return l3 && l3 < MX_LLC_GUESS ? l3 : MX_LLC_GUESS;
}

unsigned long mx_cpu_llc_bytes(void) {
  static unsigned long kept; /* 0: not asked yet */
  unsigned long v = __atomic_load_n(&kept, __ATOMIC_RELAXED);
  if (!v) {
    unsigned a, b, c, d, top = __get_cpuid_max(0, NULL), ext = __get_cpuid_max(0x80000000, NULL);
    /* AMD (and Hygon) describe their caches in 0x8000001D when topology extensions (0x80000001 ECX 22) say so */
    int amd = ext >= 0x8000001D && __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 22 & 1);
    v = amd ? llc_of(0x8000001D) : top >= 4 ? llc_of(4) : 0;
    if (!v) v = llc_guess(ext);
    __atomic_store_n(&kept, v, __ATOMIC_RELAXED);
  }
  return v;
}
#endif
