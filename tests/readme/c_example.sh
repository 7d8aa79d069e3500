#!/bin/sh
# The README's C program (compiled from its "## The C API" block by
# tests/readme/c_example.cmake), run from the source folder: what it prints
# must be the block under "It prints:" there. CTest also checks the values
# against numpy's.
#   c_example.sh PROGRAM SOURCE_DIR
set -eu
program=$1 src=$2
cd "$src"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^## The C API/,/^## /{/^It prints:$/,/^```$/p}' README.md | sed '1,/^```text$/d;/^```$/,$d' >"$tmp/expected"
[ -s "$tmp/expected" ] || { echo "no 'It prints:' block under '## The C API' in README.md"; exit 1; }
# shellcheck disable=SC2086 # MINNX_WRAPPER (e.g. valgrind) is words by design
${MINNX_WRAPPER:-} "$program" >"$tmp/out" || { echo "the README's C program failed (exit $?)"; cat "$tmp/out"; exit 1; }
cat "$tmp/out"
diff -u "$tmp/expected" "$tmp/out" || { echo "the README's C program printed not what README says"; exit 1; }
