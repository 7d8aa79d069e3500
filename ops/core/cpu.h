/* Kernels built twice: for the target's baseline, and on x86-64 for AVX2 as
 * well, taken when the CPU has it. MX_X86_AVX2 says whether a build has the
 * AVX2 variants at all: x86-64 with gcc or clang, unless -DMINNX_X86_AVX2=OFF
 * (MX_NO_AVX2); 0 on aarch64, the Cortex-M4 and other compilers, where
 * nothing is built for AVX2 and the CPU is never asked. The matrix
 * products' microkernels (ops/math/) also have AVX2+FMA and AVX-512F
 * variants under the same switch. */
#ifndef MX_CPU_H
#define MX_CPU_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MX_X86_GNU 1
#else
#define MX_X86_GNU 0
#endif
/* The levels' target attributes (below) name F16C, which the AVX2 level
 * includes and which Cast's float16 loops use. MX_AVX2_TARGET leaves FMA
 * out; the kernel templates' AVX2 instances take MX_FMA_TARGET (the AVX2
 * level needs a CPU with FMA), for mathf.h's explicit fused multiply-adds.
 * No compiler fuses a*b+c on its own: the project builds with
 * -ffp-contract=off (clang's default would round once where the portable
 * loop rounds twice). */
#if MX_X86_GNU && !defined(MX_NO_AVX2)
#define MX_X86_AVX2 1
#define MX_AVX2_TARGET __attribute__((target("avx2,f16c")))
#define MX_FMA_TARGET __attribute__((target("avx2,f16c,fma")))
#define MX_AVX512_TARGET __attribute__((target("avx2,f16c,fma,avx512f,avx512dq")))
#else
#define MX_X86_AVX2 0
#endif

/* The ISA levels a kernel is built for (ops/core/kernels.cmake instantiates
 * templates per level; a table row names its level). */
typedef enum mx_isa { MX_ISA_PORTABLE = 0, MX_ISA_AVX2 = 1, MX_ISA_AVX512 = 2 } mx_isa;

/* The matrix products' two questions, answers of mx_cpu_isa (below):
 * mx_cpu_fma, the AVX2 level (the FMA microkernels); mx_cpu_avx512, the
 * AVX-512 level. Functions of the library's on x86-64, as only the library
 * knows whether it left the x86 variants out (tests are compiled without its
 * definitions); elsewhere a constant 0. */
#if MX_X86_GNU
int mx_cpu_fma(void);
int mx_cpu_avx512(void);
#else
static inline int mx_cpu_fma(void) { return 0; }
static inline int mx_cpu_avx512(void) { return 0; }
#endif

/* Its name: "portable", "avx2", "avx512" (the CLI's --isa words). */
static inline const char *mx_isa_name(mx_isa isa) {
  return isa == MX_ISA_AVX512 ? "avx512" : isa == MX_ISA_AVX2 ? "avx2" : "portable";
}

/* The highest level this build has whose instructions the CPU has, asked
 * of the CPU once and kept (CPUID, which a VM traps), capped by
 * minnx_load_options.max_isa and handed to each prepare as mx_op_ctx.isa.
 * MX_ISA_AVX2 needs AVX2, FMA and F16C (every CPU with AVX2 that x86-64
 * builds meet has all three), MX_ISA_AVX512 AVX-512 F and DQ as well.
 * MX_ISA_PORTABLE off x86-64 and in builds without the x86 variants
 * (MX_NO_AVX2). */
#if MX_X86_GNU
mx_isa mx_cpu_isa(void);
#else
static inline mx_isa mx_cpu_isa(void) { return MX_ISA_PORTABLE; }
#endif

/* The last-level cache's bytes (one instance of it: what one core's data
 * can fill), from CPUID's cache descriptions (leaf 4 on Intel, 0x8000001D on
 * AMD), asked once and kept; where no leaf describes them, 32 MiB or the L3
 * of AMD's older leaf 0x80000006 if smaller (cpu.c); 0 off x86-64. Nodes compare
 * their output with it at prepare (ops/core/kernel.h, mx_streams_out). */
#if MX_X86_GNU
unsigned long mx_cpu_llc_bytes(void);
#else
static inline unsigned long mx_cpu_llc_bytes(void) { return 0; }
#endif


#endif
