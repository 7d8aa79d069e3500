/* Silero VAD with minnx: a speech probability per 32 ms of 16 kHz audio.
 *
 *   silero_vad MODEL.onnx AUDIO [--threads N] [--time]
 *
 * MODEL is Silero VAD as npm's @ricky0123/vad-web ships it: silero_vad_v5.onnx
 * (inputs `input` [1, 512], `state` [2, 1, 128], `sr`; outputs `output`
 * [1, 1], `stateN`) or the legacy v4 silero_vad_legacy.onnx (inputs `input`,
 * `sr`, `h` and `c` [2, 1, 64]; outputs `output`, `hn`, `cn`); the program
 * tells them by their inputs' names. AUDIO is 16 kHz mono 16-bit PCM: a WAV
 * file, or raw little-endian samples. The stream is cut into chunks of 512
 * samples (a last partial chunk is dropped), each given as floats v / 32768,
 * with sr = 16000 and the recurrent state the previous call gave (zeros at
 * the first): stateN goes back in as state (v4: hn as h, cn as c). Each chunk
 * prints `chunk <i> t=<end of the chunk, s> prob=<probability>`, and the last
 * line is `speech chunks <k> of <n> (prob >= 0.5)`. With --time, a line
 * `run_ns=<ns> audio_s=<s> rtf=<ratio>` follows: the wall time of the calls
 * (binding, running, copying the state; not loading or printing) over the
 * audio's duration (tests/bench/silero.py).
 *
 * One session runs every chunk; the shapes are the same at every call. The
 * model's If on sr is planned for the branch sr picks (README "Control flow:
 * If"). Exit status: 0; 1 on bad usage or unreadable audio; 2 when the model
 * cannot be loaded or run. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "minnx.h"

enum { CHUNK = 512, RATE = 16000, MAX_STATE = 2 * 128 };

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The whole file in a malloc'd buffer; NULL with a message on error. */
static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "silero_vad: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  unsigned char *buf = NULL;
  size_t n = 0, room = 0, got = 1;
  while (got) {
    if (n == room) {
      unsigned char *grown = realloc(buf, room = room ? 2 * room : 65536);
      if (!grown) {
        fprintf(stderr, "silero_vad: %s: out of memory\n", path);
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    got = fread(buf + n, 1, room - n, f);
    n += got;
  }
  if (ferror(f)) {
    fprintf(stderr, "silero_vad: %s: read error\n", path);
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *size = n;
  return buf;
}

/* The samples of AUDIO as v / 32768: a WAV file's data chunk (its fmt must
 * be PCM, mono, 16 bits, 16 kHz), else the file as raw samples. */
static float *read_samples(const char *path, size_t *count) {
  size_t size;
  unsigned char *bytes = slurp(path, &size);
  if (!bytes) return NULL;
  const unsigned char *pcm = bytes;
  size_t pcm_size = size;
  if (size >= 12 && !memcmp(bytes, "RIFF", 4) && !memcmp(bytes + 8, "WAVE", 4)) {
    int fmt = 0;
    pcm = NULL;
    for (size_t at = 12; at + 8 <= size && !pcm;) {
      uint32_t len = le32(bytes + at + 4);
      size_t left = size - at - 8;
      const unsigned char *body = bytes + at + 8;
      if (!memcmp(bytes + at, "fmt ", 4) && len >= 16 && left >= 16) {
        unsigned tag = body[0] | body[1] << 8, channels = body[2] | body[3] << 8, bits = body[14] | body[15] << 8;
        fmt = tag == 1 && channels == 1 && bits == 16 && le32(body + 4) == RATE ? 1 : -1;
        if (fmt < 0)
          fprintf(stderr, "silero_vad: %s: format tag %u, %u channels, %u bits, %lu Hz; need PCM (1), mono, 16 bits, "
                  "16000 Hz\n", path, tag, channels, bits, (unsigned long)le32(body + 4));
      } else if (!memcmp(bytes + at, "data", 4)) {
        pcm = body, pcm_size = len < left ? len : left; /* a streaming writer may leave len unset */
      }
      if (len > left) break;
      at += 8 + (size_t)len + (len & 1);
    }
    if (fmt <= 0 || !pcm) {
      if (fmt == 0 || pcm == NULL) fprintf(stderr, "silero_vad: %s: no %s chunk\n", path, fmt ? "data" : "fmt");
      free(bytes);
      return NULL;
    }
  }
  *count = pcm_size / 2;
  float *x = malloc((*count ? *count : 1) * sizeof *x);
  if (!x) fprintf(stderr, "silero_vad: %s: out of memory\n", path);
  for (size_t i = 0; x && i < *count; i++) x[i] = (float)(int16_t)(pcm[2 * i] | pcm[2 * i + 1] << 8) / 32768.0f;
  free(bytes);
  return x;
}

/* The model's recurrent state: v5 one tensor (state -> stateN), v4 two (h -> hn, c -> cn). */
typedef struct {
  int n;                  /* 1 or 2 */
  const char *in[2], *out[2];
  int64_t dims[3];        /* [2, 1, width] */
  float value[2][MAX_STATE];
} state;

static int state_of(const minnx_model *m, state *s) {
  size_t n = minnx_model_input_count(m);
  int v5 = 0, h = 0, c = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = minnx_model_input_name(m, i);
    v5 |= !strcmp(name, "state"), h |= !strcmp(name, "h"), c |= !strcmp(name, "c");
  }
  memset(s, 0, sizeof *s);
  if (v5) *s = (state){1, {"state"}, {"stateN"}, {2, 1, 128}, {{0}}};
  else if (h && c) *s = (state){2, {"h", "c"}, {"hn", "cn"}, {2, 1, 64}, {{0}}};
  return v5 || (h && c);
}

/* The output named `name` of s's model, into *t; 0 with a message when there is none. */
static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int output_named(const minnx_model *m, const minnx_session *s, const char *name, minnx_tensor *t) {
  for (size_t i = 0; i < minnx_model_output_count(m); i++)
    if (!strcmp(minnx_model_output_name(m, i), name)) return minnx_session_output(s, i, t) == MINNX_OK;
  fprintf(stderr, "silero_vad: the model has no output '%s'\n", name);
  return 0;
}

int main(int argc, char **argv) {
  const char *model_path = NULL, *audio_path = NULL;
  size_t threads = 1;
  int timed = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--time")) {
      timed = 1;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      char *end;
      long t = strtol(argv[++i], &end, 10);
      if (*end || t < 1 || t > 1024) {
        fprintf(stderr, "silero_vad: --threads takes 1 to 1024\n");
        return 1;
      }
      threads = (size_t)t;
    } else if (!model_path) {
      model_path = argv[i];
    } else if (!audio_path) {
      audio_path = argv[i];
    } else {
      model_path = NULL;
      break;
    }
  }
  if (!model_path || !audio_path) {
    fprintf(stderr, "usage: silero_vad MODEL.onnx AUDIO [--threads N] [--time]\n");
    return 1;
  }
  size_t count;
  float *audio = read_samples(audio_path, &count);
  if (!audio) return 1;

  minnx_error err;
  minnx_model *m = NULL;
  minnx_session *s = NULL;
  state st;
  int status = 2;
  if (minnx_model_load_file(model_path, NULL, &m, &err) || minnx_session_create(m, &s, &err) ||
      (threads > 1 && minnx_session_set_threads(s, threads, &err))) {
    fprintf(stderr, "silero_vad: %s: %s\n", model_path, err.message);
    goto done;
  }
  if (!state_of(m, &st)) {
    fprintf(stderr, "silero_vad: %s: neither Silero v5's inputs (input, state, sr) nor v4's (input, sr, h, c)\n",
            model_path);
    goto done;
  }
  const int64_t sr = RATE;
  const minnx_tensor sr_t = {MINNX_INT64, 0, {0}, (void *)&sr, sizeof sr};
  size_t speech = 0, chunks = count / CHUNK;
  int64_t spent = 0;
  for (size_t k = 0; k < chunks; k++) {
    int64_t start = now_ns();
    minnx_tensor in = {MINNX_FLOAT, 2, {1, CHUNK}, audio + k * CHUNK, CHUNK * sizeof(float)};
    int bad = minnx_session_bind_input_name(s, "input", &in, &err) || minnx_session_bind_input_name(s, "sr", &sr_t, &err);
    for (int j = 0; j < st.n && !bad; j++) {
      minnx_tensor t = {MINNX_FLOAT, 3, {st.dims[0], st.dims[1], st.dims[2]}, st.value[j],
                        (size_t)(st.dims[0] * st.dims[1] * st.dims[2]) * sizeof(float)};
      bad = minnx_session_bind_input_name(s, st.in[j], &t, &err);
    }
    if (bad || minnx_session_run(s, &err)) {
      fprintf(stderr, "silero_vad: chunk %zu: %s\n", k, err.message);
      goto done;
    }
    minnx_tensor prob;
    if (!output_named(m, s, "output", &prob)) goto done;
    if (prob.dtype != MINNX_FLOAT || prob.nbytes != sizeof(float)) {
      fprintf(stderr, "silero_vad: output is %s of %zu bytes, expected one float\n", minnx_dtype_name(prob.dtype),
              prob.nbytes);
      goto done;
    }
    for (int j = 0; j < st.n; j++) { /* the state the call gave goes into the next one */
      minnx_tensor next;
      size_t want = (size_t)(st.dims[0] * st.dims[1] * st.dims[2]) * sizeof(float);
      if (!output_named(m, s, st.out[j], &next) || next.dtype != MINNX_FLOAT || next.nbytes != want) {
        fprintf(stderr, "silero_vad: output %s: not the float [%lld, 1, %lld] state\n", st.out[j],
                (long long)st.dims[0], (long long)st.dims[2]);
        goto done;
      }
      memcpy(st.value[j], next.data, want);
    }
    float p = *(const float *)prob.data;
    spent += now_ns() - start;
    speech += p >= 0.5f;
    printf("chunk %zu t=%.3f prob=%.9g\n", k, (double)((k + 1) * CHUNK) / RATE, (double)p);
  }
  printf("speech chunks %zu of %zu (prob >= 0.5)\n", speech, chunks);
  if (timed) {
    double seconds = (double)(chunks * CHUNK) / RATE;
    printf("run_ns=%lld audio_s=%.3f rtf=%.6f\n", (long long)spent, seconds, seconds > 0 ? (double)spent / 1e9 / seconds : 0.0);
  }
  status = 0;
done:
  minnx_session_free(s);
  minnx_model_free(m);
  free(audio);
  return status;
}
