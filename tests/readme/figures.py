"""README.md cannot drift from what the tools print.

    figures.py tools PYTHON MINNX ONNX_NODE_DATA README
        the memory table (tests/memory/figures.py's output, row for row), the
        `minnx info` sample of examples/max_argmax (its caller-memory line,
        values block), the firmware walk-through's numbers, and the tallies
        `minnx test` gives for the official and the project's own cases
    figures.py sizes TABLE_OUTPUT README
        the code-size table and the whole-program line, from what
        tests/size/table.sh printed (run by .ci/run, which has the arm toolchain)
    figures.py m4-models TABLE_OUTPUT README
        the real models' Cortex-M4 firmware table, from what `tests/m4/models.py table`
        printed (run by .ci/run after the m4 build's ctest)
Prints each difference and exits 1 when there is one.
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.dirname(os.path.dirname(here))
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)


def memory(python, minnx, data, readme):
    text = open(readme, encoding="utf-8").read()
    # (not under ctest's wrapper: the memory/figures test runs the same table under it already)
    env = {k: v for k, v in os.environ.items() if k != "MINNX_WRAPPER"}
    table = subprocess.run([python, os.path.join(src, "tests/memory/figures.py"), minnx, data], check=True,
                           capture_output=True, text=True, env=env).stdout
    for row in table.strip().splitlines():
        need(row in text.splitlines(), f"README's memory table lacks the row the tool prints: {row}")
    info = subprocess.run([minnx, "info", os.path.join(src, "examples/max_argmax/model.onnx")], check=True,
                          capture_output=True, text=True).stdout
    arena = [line for line in info.splitlines() if line.startswith(("arena:", "caller memory"))]
    for line in arena:
        need(line in text.splitlines(), f"README lacks the info line: {line}")
    values = info.split("values:\n")[1].split("arena:")[0]
    need("values:\n" + values in text, f"README lacks info's values block:\n{values}")
    load, kept, session = map(int, re.search(r"model (\d+) bytes to load \((\d+) kept\), session (\d+)", info).groups())
    whole = max(load, kept + session)
    for phrase in (f"The load needs {load} bytes, of which the model keeps the first {kept}",
                   f"session needs {session},", f"max({load}, {kept} + {session}) = {whole} bytes",
                   f"mem[MEM_BYTES];  /* {whole} */", f"minnx_model_memory_used(model);          /* {kept} */"):
        need(phrase in re.sub(r"\s*\n\s*", " ", text) or phrase in text, f"README's walk-through lacks: {phrase}")


def tallies(minnx, data, readme):
    text = re.sub(r"\s+", " ", open(readme, encoding="utf-8").read())

    def passed(path):
        out = subprocess.run([minnx, "test", path], capture_output=True, text=True).stdout
        return int(re.search(r"^(\d+) passed, (\d+) failed", out, re.M).group(1))

    official = passed(data)
    need(f"the example and {official} official cases pass (" in text,
         f"README's Quick start does not say the {official} official cases pass")
    # the Quick start's own command: the line it prints last, as its prose quotes it
    last = subprocess.run([minnx, "test", data, os.path.join(src, "examples/max_argmax")], capture_output=True,
                          text=True).stdout.splitlines()[-1]
    need(f"the last line it prints is `{last}`" in text, f"README's Quick start does not quote its last line: {last}")
    own = os.path.join(src, "onnx_backend_data")
    n_own = passed(own)
    refused = sum(os.path.exists(os.path.join(own, d, "expect_error")) for d in os.listdir(own))
    need(f"checked by {n_own} cases of the project's own" in text, f"README does not say {n_own} own cases")
    need(f"({n_own - refused} that must run and match their reference" in text and f" {refused} that must be refused" in text,
         f"README does not split the own cases as {n_own - refused} and {refused}")
    n_bad = len(os.listdir(os.path.join(src, "tests/bad/data/cases")))
    need(f"`tests/bad/` holds {n_bad} bad inputs" in text, f"README does not say {n_bad} bad inputs")


def sizes(table_output, readme):
    text = open(readme, encoding="utf-8").read().splitlines()
    out = open(table_output, encoding="utf-8").read().splitlines()
    for row in (r for r in out if r.startswith("| ") and not r.startswith("| target")):
        need(row in text, f"README's size table lacks: {row}")
    totals = dict(re.match(r"total (\S+): (.*)", r).groups() for r in out if r.startswith("total "))
    para = " ".join(text)
    for name, kind in (("cortex-m4-min", "min"), ("cortex-m4-full", "full")):
        if name in totals:
            t, d, b = re.match(r"text (\d+), data (\d+), bss (\d+)", totals[name]).groups()
            need(f"{kind} text {t}, data {d}, bss {b}" in para, f"README's whole-program sizes lack: {kind} text {t}, "
                                                               f"data {d}, bss {b}")


def m4_models(table_output, readme):
    text = open(readme, encoding="utf-8").read().splitlines()
    rows = [r for r in open(table_output, encoding="utf-8").read().splitlines()
            if r.startswith("| ") and not r.startswith("| model")]
    need(rows, f"{table_output} holds no row")
    for row in rows:
        need(row in text, f"README's Cortex-M4 model table lacks: {row}")


if sys.argv[1] == "tools":
    memory(*sys.argv[2:6])
    tallies(*sys.argv[3:6])
elif sys.argv[1] == "sizes":
    sizes(*sys.argv[2:4])
elif sys.argv[1] == "m4-models":
    m4_models(*sys.argv[2:4])
else:
    sys.exit(__doc__)
for p in problems:
    print(p)
print(f"{len(problems)} difference(s)" if problems else "README's figures are the tools' output")
sys.exit(1 if problems else 0)
