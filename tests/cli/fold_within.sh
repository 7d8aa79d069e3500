#!/bin/sh
# A Slice, Split or Gather of an initializer whose result is one run of the initializer's bytes is
# folded at load into a pointer into those bytes, not a copy (ops/core/infer.c, mx_fold_within):
# with a 256 KiB weight cut into 128 KiB pieces, the model keeps the weight and little else
# (minnx info's kept bytes, weights copied). Before, each piece was a copy kept with the weight.
# Two Concats of the same such pieces (the two branches of an If) share one copy.
# The pieces' values are the own cases' (onnx_backend_data/slice_fold_*, split_fold_*, gather_fold_*).
set -eu
cli=$1 python=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # shellcheck disable=SC2086 # MINNX_WRAPPER (e.g. valgrind) is words by design
  ${MINNX_WRAPPER:-} "$cli" "$@"; }
"$python" - "$tmp" <<'PY'
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto as T
w = np.arange(8 * 128 * 64, dtype=np.float32).reshape(8, 128, 64)  # 256 KiB
L = lambda n, v: numpy_helper.from_array(np.array(v, np.int64), n)
forms = {"Slice": ([L("s", [2]), L("e", [6]), L("a", [0])], ["w", "s", "e", "a"], ["f"], [4, 128, 64]),
         "Split": ([], ["w"], ["f", "g"], [4, 128, 64]),
         "Gather": ([L("i", 5)], ["w", "i"], ["f"], [128, 64])}
for op, (inits, ins, outs, shape) in forms.items():
    nodes = [helper.make_node(op, ins, outs), helper.make_node("Add", ["x", "f"], ["y"])]
    g = helper.make_graph(nodes, op, [helper.make_tensor_value_info("x", T.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", T.FLOAT, shape)], [numpy_helper.from_array(w, "w")] + inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), f"{sys.argv[1]}/{op}.onnx")
# two Concats of the same two Slices (swapped, as LSTM gates are), in the two branches of an If
# whose condition is an input: the second shares the first's copy
cut = [helper.make_node("Slice", ["w", s, e, "a"], [o]) for s, e, o in (("s", "e", "g0"), ("e", "z", "g1"))]
branch = lambda k: helper.make_graph(cut + [helper.make_node("Concat", ["g1", "g0"], [f"c{k}"], axis=0)], f"b{k}", [],
                                     [helper.make_tensor_value_info(f"c{k}", T.FLOAT, [8, 128, 64])])
nodes = [helper.make_node("If", ["cond"], ["c"], then_branch=branch(0), else_branch=branch(1)),
         helper.make_node("Add", ["x", "c"], ["y"])]
g = helper.make_graph(nodes, "Concat", [helper.make_tensor_value_info("cond", T.BOOL, []),
                                        helper.make_tensor_value_info("x", T.FLOAT, [8, 128, 64])],
                      [helper.make_tensor_value_info("y", T.FLOAT, [8, 128, 64])],
                      [numpy_helper.from_array(w, "w"), L("s", [0]), L("e", [4]), L("z", [8]), L("a", [0])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), f"{sys.argv[1]}/Concat.onnx")
PY
weight=$((8 * 128 * 64 * 4))
for op in Slice Split Gather; do
  kept=$(run info "$tmp/$op.onnx" | sed -n 's/^caller memory: model [0-9]* bytes to load (\([0-9]*\) kept).*/\1/p')
  [ -n "$kept" ] || { echo "FAIL: $op: no caller-memory line"; exit 1; }
  [ "$kept" -ge "$weight" ] && [ "$kept" -lt $((weight + 16384)) ] ||
    { echo "FAIL: $op of a $weight-byte weight: the model keeps $kept bytes (a copy of a piece is 131072)"; exit 1; }
  echo "$op: $kept bytes kept for a $weight-byte weight"
done
kept=$(run info "$tmp/Concat.onnx" | sed -n 's/^caller memory: model [0-9]* bytes to load (\([0-9]*\) kept).*/\1/p')
[ -n "$kept" ] && [ "$kept" -ge $((2 * weight)) ] && [ "$kept" -lt $((2 * weight + 16384)) ] ||
  { echo "FAIL: two Concats of the same Slices of a $weight-byte weight: the model keeps '$kept' bytes, not one copy"; exit 1; }
echo "Concat twice: $kept bytes kept for a $weight-byte weight and one copy"
