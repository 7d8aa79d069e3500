"""GNU ld's link map (-Wl,-Map) read as placements: what the link kept after
--gc-sections, not what the objects hold. tests/size/sizes.py and
tests/m4/models.py sum them their own ways."""
import re

PLACE = re.compile(r"^\s*0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")


def placements(map_path):
    """(output section, bytes, input file) for every input section the map places; fill and
    symbol lines are left out."""
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
        size, path = int(placed.group(1), 16), placed.group(2).strip()
        if " " in path:  # a symbol line (address and name), not a placement
            continue
        yield section, size, path
