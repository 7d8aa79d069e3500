#!/usr/bin/python3
"""Code size of a linked program, split by origin, from GNU ld's link map
(-Wl,-Map): what the link kept after --gc-sections, not what the objects hold.

usage: sizes.py LABEL MAP [LABEL MAP]...   (prints Markdown table rows)

Parts: core (graph/, ops/, runtime/), loader (loader/, the generated onnx.pb-c.c
and protobuf-c's runtime when built in), app (the program's own files), C
library (libc, libgcc, start-up code). .text counts .text and .rodata; unwind
tables are left out."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linkmap import placements  # noqa: E402

LOADER = {"loader.c", "tensor.c", "wire.c", "unpack.c", "onnx.pb-c.c", "protobuf-c.c"}


def part(path):
    member = re.search(r"libminnx\.a\((.+?)\.(?:obj|o)\)$", path)
    if member:
        return "loader" if member.group(1) in LOADER else "core"
    if "CMakeFiles/firmware.dir" in path or "CMakeFiles/example_model.dir" in path:  # the program, its model bytes
        return "app"
    return "C library"


def kind(section):
    if section.startswith((".text", ".rodata")):
        return 0
    if section.startswith((".data", ".sdata")):
        return 1
    if section.startswith((".bss", ".sbss")) or section == "COMMON":
        return 2
    return None


def sizes(map_path):
    totals = {}
    for section, size, path in placements(map_path):
        k = kind(section)
        if k is not None:
            totals.setdefault(part(path), [0, 0, 0])[k] += size
    return totals


def main():
    args = sys.argv[1:]
    for label, path in zip(args[::2], args[1::2]):
        t = sizes(path)
        for p in ("core", "loader", "app", "C library"):
            text, data, bss = t.get(p, [0, 0, 0])
            print("| %s | %s | %d | %d | %d |" % (label, p, text, data, bss))


main()
