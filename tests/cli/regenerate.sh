#!/bin/sh
# The committed conformance cases are exactly what generate.py writes:
# regenerate into a temporary folder and compare byte for byte.
set -eu
python=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" "$src/generate.py" --out "$tmp" >/dev/null
cp "$src"/*.py "$tmp/" # the generator and its modules (gen_*.py)
diff -r -x __pycache__ "$src" "$tmp"
echo "regenerated $(ls "$tmp" | wc -l) entries: identical"
