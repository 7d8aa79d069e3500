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
run_minnx run "$model" -i "data_0=$tmp/a.npy" -i "data_1=$tmp/b.npy" -i "data_2=$tmp/c.npy" -o "$tmp/out"
run_minnx run "$model" -i "data_0=$tmp/a.npy" -i "data_1=$tmp/b.npy" -i "data_2=$tmp/c.npy" --print >"$tmp/printed"
"$python" - "$tmp" <<'PY'
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
print("run -o and --print match numpy:", want)
PY
# a .pb input written by -o feeds straight back in
run_minnx run "$model" -i "data_0=$tmp/out/result.pb" -i "data_1=$tmp/a.npy" -i "data_2=$tmp/b.npy" --print
