#!/usr/bin/python3
"""Code size of a linked program, split by origin, from GNU ld's link map
(-Wl,-Map): what the link kept after --gc-sections, not what the objects hold.

usage: sizes.py LABEL MAP [LABEL MAP]...   (prints Markdown table rows)

Parts: core (graph/, ops/, runtime/), loader (loader/, the generated onnx.pb-c.c
and protobuf-c's runtime when built in), app (the program's own files), C
library (libc, libgcc, start-up code). .text counts .text and .rodata; unwind
tables are left out."""
import re
import sys

LOADER = {"loader.c", "tensor.c", "wire.c", "unpack.c", "onnx.pb-c.c", "protobuf-c.c"}
PLACE = re.compile(r"^\s*0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")


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
    section = None
    in_map = False
    for line in open(map_path):
        if line.startswith("Linker script and memory map"):
            in_map = True
            continue
        if not in_map or not line.startswith(" ") or line.startswith(" *fill*"):
            continue
        m = re.match(r"^ (\S+)(.*)$", line)
        if m and not line.startswith("  "):
            section, rest = m.group(1), m.group(2)
            if not rest.strip():
                continue  # the placement follows on the next line
            line = rest
        placed = PLACE.match(line)
        if not placed or section is None or placed.group(2).startswith("0x"):
            continue
        k = kind(section)
        if k is None:
            continue
        size, path = int(placed.group(1), 16), placed.group(2).strip()
        if " " in path:  # a symbol line (address and name), not a placement
            continue
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
