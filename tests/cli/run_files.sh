#!/bin/sh
# `minnx run` with .npy and .pb inputs, -o and --print, checked against numpy.
set -eu
minnx=$1 python=$2 official=$3
# MINNX_WRAPPER, when set, prefixes minnx (valgrind; qemu-user in a cross build).
# shellcheck disable=SC2086 # MINNX_WRAPPER is words by design
run_minnx() { ${MINNX_WRAPPER:-} "$minnx" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$official/test_max_example/model.onnx
"$python" - "$tmp" <<'PY'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
for name in ("a", "b", "c"):
    x = rng.standard_normal(3).astype(np.float32)
    x[rng.integers(3)] = -np.inf
    np.save(f"{d}/{name}.npy", x)
PY
mkdir "$tmp/out"
# -o says what it wrote, a line per file, and nothing else
expect_stdout() {
  [ "$(cat "$tmp/stdout")" = "$1" ] || { printf 'stdout:\n%s\nexpected:\n%s\n' "$(cat "$tmp/stdout")" "$1"; exit 1; }
}
run_minnx run "$model" -i "data_0=$tmp/a.npy" -i "data_1=$tmp/b.npy" -i "data_2=$tmp/c.npy" -o "$tmp/out" --format pb >"$tmp/stdout"
expect_stdout "wrote $tmp/out/result.pb (float [3])"
# -o creates the folders; with .npy inputs the default format is npy
run_minnx run "$model" -i "data_0=$tmp/a.npy" -i "data_1=$tmp/b.npy" -i "data_2=$tmp/c.npy" -o "$tmp/new/deep" >"$tmp/stdout"
expect_stdout "wrote $tmp/new/deep/result.npy (float [3])"
[ "$(ls -A "$tmp/new/deep")" = "result.npy" ] || { echo "-o wrote: $(ls -A "$tmp/new/deep")"; exit 1; }
# two outputs, each its line in the model's order; with --print, each printed too
example=$(dirname "$0")/../../examples/max_argmax
set0=$example/test_data_set_0
run_minnx run "$example/model.onnx" -i "a=$set0/input_0.pb" -i "b=$set0/input_1.pb" -o "$tmp/two" >"$tmp/stdout"
expect_stdout "wrote $tmp/two/m.pb (float [2,4])
wrote $tmp/two/idx.pb (int64 [2])"
run_minnx run "$example/model.onnx" -i "a=$set0/input_0.pb" -i "b=$set0/input_1.pb" -o "$tmp/two" --print >"$tmp/stdout"
run_minnx run "$example/model.onnx" -i "a=$set0/input_0.pb" -i "b=$set0/input_1.pb" --print >"$tmp/printed_only"
grep -v '^wrote ' "$tmp/stdout" | cmp -s - "$tmp/printed_only" || { echo "-o changed what --print prints"; exit 1; }
[ "$(grep -c '^wrote ' "$tmp/stdout")" = 2 ] || { echo "-o --print: not one wrote line per output"; exit 1; }
# --print nests like numpy: rank 1, and a rank-3 ArgMax output
argmax=$official/test_argmax_keepdims_random/model.onnx
run_minnx run "$official/test_max_one_input/model.onnx" -i "data_0=$tmp/a.npy" --print >"$tmp/printed1"
run_minnx run "$argmax" -i "data=$official/test_argmax_keepdims_random/test_data_set_0/input_0.pb" --print >"$tmp/printed3"
run_minnx run "$model" -i "data_0=$tmp/a.npy" -i "data_1=$tmp/b.npy" -i "data_2=$tmp/c.npy" --print >"$tmp/printed"
"$python" - "$tmp" "$official" <<'PY'
import sys, numpy as np, onnx
from onnx import numpy_helper
d = sys.argv[1]
want = np.maximum.reduce([np.load(f"{d}/{n}.npy") for n in ("a", "b", "c")])
t = onnx.TensorProto()
t.ParseFromString(open(f"{d}/out/result.pb", "rb").read())
got = numpy_helper.to_array(t)
assert t.name == "result", t.name
assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want), (got, want)
printed = open(f"{d}/printed").read().strip()
values = [float(v) for v in printed.split("= [")[1].rstrip("]").split(",")]
assert printed.startswith("result: float [3] = ["), printed
assert np.array_equal(np.array(values, dtype=np.float32), want), (printed, want)
got_npy = np.load(f"{d}/new/deep/result.npy")
assert got_npy.dtype == want.dtype and np.array_equal(got_npy, want), (got_npy, want)
# a rank-3 output printed nested: the text after "=" is a Python literal of numpy's nesting
import ast
text = open(f"{d}/printed3").read()
head, body = text.split("=\n", 1)
assert head.startswith("result: int64 [2,1,4] "), head
nested = ast.literal_eval(body.strip())
t.ParseFromString(open(f"{sys.argv[2]}/test_argmax_keepdims_random/test_data_set_0/output_0.pb", "rb").read())
assert np.array_equal(np.array(nested), numpy_helper.to_array(t)), (nested, numpy_helper.to_array(t))
print("run -o (pb, npy) and --print (rank 1, rank 3) match numpy:", want)
PY
# a .pb input written by -o feeds straight back in
run_minnx run "$model" -i "data_0=$tmp/out/result.pb" -i "data_1=$tmp/a.npy" -i "data_2=$tmp/b.npy" --print
