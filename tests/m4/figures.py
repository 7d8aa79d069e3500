#!/usr/bin/python3
"""The README's Cortex-M4 memory table: runs the test firmware of an M4 build (tests/m4/) on
qemu's MPS2 AN386 over every case, and sums its per-case figures up by case class: the region
minnx_model_load_in needs (weights copied, and in place), what the model keeps of it, the session
region, and the deepest stack minnx's calls took (painted stack) while loading and while running.

    /usr/bin/python3 tests/m4/figures.py BUILD_DIR     (a build with cmake/arm-none-eabi.cmake)
"""
import collections
import glob
import os
import re
import subprocess
import sys

LINE = re.compile(r"^PASS (\S+) region=(\d+) kept=(\d+) session=(\d+) stack_load=(\d+) stack_run=(\d+) "
                  r"in_place_region=(\d+) digest=[0-9a-f]{16}$")


def case_class(name):
    official = re.match(r"test_(reduce_max|reduce_min|[a-z]+)", name)
    if official:
        return "official " + official.group(1)
    return "own " + name.split("_")[0]


def run(build):
    firmware = os.path.join(build, "tests", "m4", "m4_tests")
    lines = []
    for lst in sorted(glob.glob(os.path.join(build, "tests", "m4", "*.list"))):
        out = subprocess.run(["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-monitor", "none", "-serial",
                              "none", "-semihosting-config", "enable=on,target=native,arg=" + lst, "-kernel",
                              firmware], capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            sys.exit("firmware failed on %s:\n%s" % (lst, out.stdout + out.stderr))
        lines += out.stderr.splitlines()  # qemu writes the semihosting console to stderr
    return lines


def span(values):
    values = [v for v in values if v]  # 0: a refused case has no region
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else "%d-%d" % (lo, hi)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = collections.OrderedDict()
    for line in run(sys.argv[1]):
        m = LINE.match(line)
        if m:
            rows.setdefault(case_class(m.group(1)), []).append([int(x) for x in m.groups()[1:]])
    if not rows:
        sys.exit("no PASS line from the firmware")
    print("| cases | n | load region | in place | model kept | session region | stack, load | stack, run |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    deepest = 0
    for cls in sorted(rows):
        r = rows[cls]
        col = lambda i: [x[i] for x in r]
        deepest = max(deepest, max(col(3)), max(col(4)))
        print("| %s | %d | %s | %s | %s | %s | %d | %d |" % (cls, len(r), span(col(0)), span(col(5)), span(col(1)),
                                                        span(col(2)), max(col(3)), max(col(4))))
    print("deepest stack over all cases: %d bytes" % deepest)


if __name__ == "__main__":
    main()
