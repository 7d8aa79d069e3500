#!/usr/bin/python3
"""The cost of the corpus of real models (tests/models): for each model, `minnx bench` on its
opset-17 static case (batch 1, the case's own input) at 1 and 2 threads, interleaved over several
rounds, the median of each round's median; and its memory as `minnx info` reports it (arena,
session, the model with its weights copied and left in place).

    /usr/bin/python3 tests/bench/models.py [--minnx build/minnx] [--cache build/models] [--rounds 5]
                                           [--repeat 20] [--only NAME,...]

The corpus is exported into CACHE as the ctests do (tests/models/run.py generate: once per
version of the generator; Debian's python3-torch and python3-torchvision). Not part of ctest:
timings need a quiet machine. A model minnx refuses is a row saying why, not a timing.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUN = os.path.join(ROOT, "tests", "models", "run.py")


def models():
    with open(os.path.join(ROOT, "tests", "models", "generate.py")) as fh:
        block = fh.read().split("\nMODELS = [", 1)[1].split("\n]", 1)[0]
    return re.findall(r'^    \("(\w+)", ', block, re.M)


def bench(minnx, case, threads, repeat):
    r = subprocess.run([minnx, "bench", case, "--threads", str(threads), "--repeat", str(repeat), "--warmup", "3"],
                       capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip()
    return int(re.search(r"^ns_per_run=(\d+)", r.stdout, re.M).group(1)), None


def memory(minnx, case):
    r = subprocess.run([minnx, "info", os.path.join(case, "model.onnx")], capture_output=True, text=True)
    if r.returncode:
        return None
    arena = re.search(r"^arena: (\d+) bytes", r.stdout, re.M)
    copied = re.search(r"^caller memory: model \d+ bytes to load \((\d+) kept\), session (\d+) bytes", r.stdout, re.M)
    in_place = re.search(r"^caller memory, weights in place: model \d+ bytes to load \((\d+) kept\)", r.stdout, re.M)
    return {"arena": int(arena.group(1)) if arena else None, "session": int(copied.group(2)),
            "model": int(copied.group(1)), "model_in_place": int(in_place.group(1))}


def kib(n):
    return "-" if n is None else f"{n / 1024:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minnx", default=os.path.join(ROOT, "build", "minnx"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--only", help="model names, comma-separated (default: every model)")
    args = ap.parse_args()
    names = models()
    r = subprocess.run([sys.executable, RUN, "generate", args.cache] + names)
    if r.returncode:
        sys.exit(f"the corpus could not be exported (run.py generate exited {r.returncode})")
    if args.only:
        unknown = set(args.only.split(",")) - set(names)
        if unknown:
            sys.exit(f"unknown models: {', '.join(sorted(unknown))} (the corpus has {', '.join(names)})")
        names = [n for n in names if n in args.only.split(",")]
    rows = []
    for name in names:
        case = os.path.join(args.cache, "cases", f"{name}_opset17_static")
        times = {1: [], 2: []}
        why = None
        for _ in range(args.rounds):
            for t in (1, 2):
                ns, why = bench(args.minnx, case, t, args.repeat)
                if why:
                    break
                times[t].append(ns)
            if why:
                break
        mem = memory(args.minnx, case)
        if why:
            rows.append(f"| {name} | refused: {why} | | | | | |")
            continue
        t1, t2 = statistics.median(times[1]), statistics.median(times[2])
        rows.append(f"| {name} | {t1 / 1e6:.3f} | {t2 / 1e6:.3f} | {t1 / t2:.2f} | {kib(mem['arena'])} | "
                    f"{kib(mem['session'])} | {kib(mem['model'])} / {kib(mem['model_in_place'])} |")
        print(rows[-1], file=sys.stderr, flush=True)
    print("| model (opset 17, batch 1) | ms, 1 thread | ms, 2 threads | speedup | arena KiB | session KiB "
          "| model KiB (copied / weights in place) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
