#!/bin/sh
# The committed bad-input cases are exactly what generate.py writes:
# regenerate into a temporary folder and compare byte for byte (symbolic
# links by their targets).
set -eu
python=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" "$(dirname "$0")/generate.py" --out "$tmp"
diff -r --no-dereference "$data" "$tmp"
echo "identical"
