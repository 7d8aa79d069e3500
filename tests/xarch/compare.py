#!/usr/bin/python3
"""The same bits everywhere (README, "Numbers"): compares the output digests of runs of the same cases.

Each LOG is the output of `minnx test --digest` (an x86-64 ISA level, aarch64 under qemu-user) or of
the Cortex-M4 test firmware (tests/m4/runner.c), whose PASS lines end with `digest=<16 hex>`: a hash
of the outputs' dtypes, shapes and bits (tools/digest.h). A case counts where it passed in two runs
or more; its digests must all be equal. Cases that passed in only some runs (a firmware build leaves
dtypes out, a level the CPU lacks has no log) are counted and named by run, never called equal.
    compare.py LABEL=LOG [LABEL=LOG]...       (a label given twice: one run in several logs)
Exit 0 when every case compared has one digest and some case was compared in every run; 1 else.
"""
import re
import sys
from collections import defaultdict

PASS = re.compile(r"^PASS (\S+) .*\bdigest=([0-9a-f]{16})$|^PASS (\S+) digest=([0-9a-f]{16})$")


def digests(path):
    found = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = PASS.match(line.rstrip("\n"))
            if m:
                name, digest = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
                if found.setdefault(name, digest) != digest:
                    sys.exit(f"{path}: case {name} twice with other digests")
    return found


def main(args):
    if len(args) < 2 or any("=" not in a for a in args):
        sys.exit(__doc__.split("\n\n")[0] + "\nusage: compare.py LABEL=LOG LABEL=LOG...")
    runs = {}
    for a in args:
        label, path = a.split("=", 1)
        found = digests(path)
        runs.setdefault(label, {}).update(found)
        print(f"xarch: {label}: {len(found)} cases passed with a digest ({path})")
    by_case = defaultdict(dict)
    for label, found in runs.items():
        for name, digest in found.items():
            by_case[name][label] = digest
    compared = {n: d for n, d in by_case.items() if len(d) >= 2}
    everywhere = sum(1 for d in compared.values() if len(d) == len(runs))
    differ = sorted(n for n, d in compared.items() if len(set(d.values())) > 1)
    for n in differ:
        print(f"DIFFER {n}: " + ", ".join(f"{label} {d}" for label, d in sorted(by_case[n].items())))
    for label in runs:
        missing = sum(1 for d in compared.values() if label not in d)
        if missing:
            print(f"xarch: {label} lacks {missing} of the compared cases (skipped or absent in that run)")
    print(f"xarch: {len(compared)} cases compared bit for bit across {len(runs)} runs "
          f"({everywhere} in every run, {len(compared) - everywhere} in some), {len(differ)} differ")
    if differ or everywhere == 0:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
