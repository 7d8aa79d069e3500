/* What the test firmware's startup code offers its main: the stack's
 * high-water mark, measured on a painted stack. */
#ifndef MINNX_M4_STARTUP_H
#define MINNX_M4_STARTUP_H

#include <stddef.h>
#include <stdint.h>

extern uint32_t __stack_limit[];
#define M4_STACK_PAINT 0xA5C3E1F0u

/* Paints the free stack below the caller's stack pointer; returns that
 * pointer. Inline, so that the pointer is the caller's own. Nothing runs on
 * this stack between paint and measure but the caller's callees: the
 * firmware takes no interrupts. */
static inline uintptr_t m4_stack_paint(void) {
  uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  for (volatile uint32_t *p = __stack_limit; (uintptr_t)p < sp; p++) *p = M4_STACK_PAINT;
  return sp;
}

/* The bytes below `top` (what m4_stack_paint returned) that have been written
 * since it painted them. */
size_t m4_stack_used(uintptr_t top);

#endif
