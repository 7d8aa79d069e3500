/* The bits of a float or a double and back: memcpy, which compilers turn
 * into a register move (a union or pointer cast would break C's aliasing
 * rules). */
#ifndef MX_BITS_H
#define MX_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t mx_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float mx_f32_of_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint64_t mx_f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static inline double mx_f64_of_bits(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

#endif
