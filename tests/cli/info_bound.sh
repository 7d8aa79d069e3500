#!/bin/sh
# minnx info with -i for every input of a model with symbolic dims prints the session's whole size for
# those shapes (minnx_session_memory_needed_for: the arena included, no "+ the arena"), which grows with
# the batch; with some input missing it prints the figure without the arena; an unknown name is refused.
set -eu
cli=$1 data=$2 python=$3
case=$data/bindshape_where_expand
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # shellcheck disable=SC2086 # MINNX_WRAPPER (e.g. valgrind) is words by design
  ${MINNX_WRAPPER:-} "$cli" "$@"; }
session() { sed -n 's/^caller memory: model [0-9]* bytes to load ([0-9]* kept), session \([0-9]*\) bytes\(.*\)$/\1\2/p'; }
free=$(run info "$case/model.onnx" | session)
small=$(run info "$case/model.onnx" -i "x=$case/test_data_set_0/input_0.pb" | session)
# a batch of 4096 rows of [2,3] floats (96 KiB), which the Expands make larger still
"$python" -c "import numpy as np; np.save('$tmp/x.npy', np.ones((4096, 2, 3), np.float32))"
big=$(run info "$case/model.onnx" -i "x=$tmp/x.npy" | session)
case $free in *" + the arena") ;; *) echo "FAIL: without -i, info gave '$free', not the size + the arena"; exit 1 ;; esac
case $small$big in *arena*|"") echo "FAIL: with every input bound, info gave '$small' and '$big'"; exit 1 ;; esac
[ "$small" -gt "${free% + the arena}" ] || { echo "FAIL: bound session $small is not more than the unbound $free"; exit 1; }
[ "$big" -gt $((small + 4096 * 6 * 4)) ] || { echo "FAIL: a batch of 4096 needs $big bytes, batch 1 $small"; exit 1; }
if run info "$case/model.onnx" -i "nope=$tmp/x.npy" >"$tmp/out" 2>&1; then echo "FAIL: an unknown input name was taken"; exit 1; fi
grep -q "the model has no input named 'nope'" "$tmp/out" || { echo "FAIL: $(cat "$tmp/out")"; exit 1; }
echo "info -i: session $free unbound, $small at batch 1, $big at batch 4096"
