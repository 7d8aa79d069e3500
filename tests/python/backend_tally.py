"""Runs onnx's backend runner over minnx (tests/python/test_onnx_backend.py)
under pytest and checks its tally against the one README.md shows.

    backend_tally.py PYTHON README
Exit 0 when pytest passes and its last line's counts ("30 passed, 902
skipped") are the README's; else the difference is printed.
"""
import os
import re
import subprocess
import sys

python, readme = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
proc = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join(here, "test_onnx_backend.py")],
                      capture_output=True, text=True)
print(proc.stdout[-3000:], proc.stderr[-2000:])
last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
got = re.sub(r" in [0-9.]+s.*", "", last.strip("= "))
text = open(readme, encoding="utf-8").read()
shown = re.search(r"^(\d+ passed.*?) in [0-9.]+s$", text, re.M)
if proc.returncode != 0:
    sys.exit(f"pytest failed ({proc.returncode})")
if not shown or shown.group(1) != got:
    sys.exit(f"README shows '{shown.group(1) if shown else None}', the runner gives '{got}'")
print(f"tally: {got} (as README shows)")
