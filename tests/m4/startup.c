/* The test firmware's start: the vector table, the reset handler (data and
 * bss, the FPU, main, its status to the host) and a handler for every fault,
 * which ends the emulation with a failure instead of hanging it. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "semihost.h"
#include "startup.h"

extern uint32_t __stack_top[], __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern char __heap_start[], __heap_end[];

int main(void);
void m4_reset(void);
void *_sbrk(ptrdiff_t increment);

#define CPACR (*(volatile uint32_t *)0xE000ED88u) /* Coprocessor Access Control */

static void m4_fault(void) {
  sh_puts("firmware: fault\n");
  sh_exit(3);
}

/* The first 16 entries: initial stack pointer, reset, NMI, HardFault,
 * MemManage, BusFault, UsageFault, 4 reserved, SVCall, DebugMonitor, reserved,
 * PendSV, SysTick. No interrupt is ever enabled, so no IRQ entries follow. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)__stack_top, m4_reset, m4_fault, m4_fault, m4_fault, m4_fault, m4_fault, 0, 0, 0,
    0, m4_fault, m4_fault, 0, m4_fault, m4_fault};

void m4_reset(void) {
  memcpy(__data_start, __data_load, (size_t)((char *)__data_end - (char *)__data_start));
  memset(__bss_start, 0, (size_t)((char *)__bss_end - (char *)__bss_start));
  /* CP10 and CP11 (the FPU) fully accessible: the code is built for the hard-float ABI */
  CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  sh_exit(main());
}

size_t m4_stack_used(uintptr_t top) {
  const uint32_t *p = __stack_limit;
  while ((uintptr_t)p < top && *p == M4_STACK_PAINT) p++;
  return (size_t)(top - (uintptr_t)p);
}

/* newlib's malloc grows its heap through this: the PSRAM, and no further. */
void *_sbrk(ptrdiff_t increment) {
  static char *brk = __heap_start;
  if (increment > __heap_end - brk || increment < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += increment;
  return old;
}
