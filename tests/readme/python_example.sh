#!/bin/sh
# The README's Python example, as written, from the source folder (PYTHONPATH
# set by CTest to the build tree's package).
#   python_example.sh PYTHON SOURCE_DIR
set -eu
python=$1 src=$2
cd "$src"
sed -n '/^## Python/,/^## /{/^```python$/,/^```$/{/^```/d;p}}' README.md >"${TMPDIR:-/tmp}/minnx-readme-$$.py"
trap 'rm -f "${TMPDIR:-/tmp}/minnx-readme-$$.py"' EXIT
[ -s "${TMPDIR:-/tmp}/minnx-readme-$$.py" ] || { echo "no python block under '## Python' in README.md"; exit 1; }
"$python" "${TMPDIR:-/tmp}/minnx-readme-$$.py"
