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
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

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


LINE = re.compile(r"^(PASS|FAIL|SKIP|DIVERGE) (\S+?)(?::|$| )(.*)$")


def check(cache, minnx, name):
    if read_stamp(cache) != generator_hash():
        print(f"SKIP {name}: the corpus is not generated (see the test models/generate)")
        return SKIP
    wrapper = os.environ.get("MINNX_WRAPPER", "").split()
    cmd = wrapper + [minnx, "test", os.path.join(cache, "cases"), "--filter", f"{name}_opset*"]
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
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
