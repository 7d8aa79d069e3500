#!/bin/sh
# `minnx ops MODEL`: the MINNX_OPS list a model needs (sorted, ';'-separated,
# subgraphs included, domain-qualified outside ai.onnx), and what this build
# lacks (one error line, exit 1), on models made here with onnx's helper.
#   ops.sh MINNX PYTHON SOURCE_DIR OFFICIAL_DATA
set -eu
minnx=$1 python=$2 src=$3 official=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# runs minnx ops on $1; sets out, err, rc
ops() {
  rc=0
  "$minnx" ops "$1" >"$tmp/out" 2>"$tmp/err" || rc=$?
  out=$(cat "$tmp/out") err=$(cat "$tmp/err")
}
expect() { # MODEL STDOUT STDERR RC
  ops "$1"
  [ "$out" = "$2" ] || fail "ops $1: stdout '$out', expected '$2'"
  [ "$err" = "$3" ] || fail "ops $1: stderr '$err', expected '$3'"
  [ "$rc" = "$4" ] || fail "ops $1: exit $rc, expected $4"
}

expect "$src/examples/max_argmax/model.onnx" "ArgMax;Max" "" 0

"$python" - "$tmp" <<'PY'
import sys
import onnx
from onnx import TensorProto, helper as h
d = sys.argv[1]
def vi(n):
    return h.make_tensor_value_info(n, TensorProto.FLOAT, [2])
def model(nodes, opsets, name, inputs=("x",), outputs=("y",)):
    g = h.make_graph(nodes, "g", [vi(i) for i in inputs], [vi(o) for o in outputs])
    m = h.make_model(g, opset_imports=[h.make_opsetid(dom, v) for dom, v in opsets])
    onnx.save(m, f"{d}/{name}.onnx")
# If's branches hold Add and Sub (one of them in a nested If); Relu twice, listed once; a custom domain
then_g = h.make_graph([h.make_node("Add", ["x", "x"], ["t"])], "then", [], [vi("t")])
inner = h.make_graph([h.make_node("Sub", ["x", "x"], ["u"])], "inner", [], [vi("u")])
else_g = h.make_graph([h.make_node("If", ["c"], ["e"], then_branch=inner, else_branch=inner)], "else", [], [vi("e")])
model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Relu", ["r"], ["r2"]),
       h.make_node("ReduceMax", ["r2"], ["c"], keepdims=0),
       h.make_node("If", ["c"], ["i"], then_branch=then_g, else_branch=else_g),
       h.make_node("Foo", ["i"], ["y"], domain="com.example")],
      [("", 13), ("com.example", 1)], "nested")
# Gelu comes with opset 20: none at 13
model([h.make_node("Gelu", ["x"], ["y"])], [("", 13)], "old_opset")
# a domain the model does not import; "ai.onnx" is the default domain spelt out
model([h.make_node("Relu", ["x"], ["r"], domain="ai.onnx"), h.make_node("Bar", ["r"], ["y"], domain="com.other")],
      [("ai.onnx", 13)], "no_import")
# no nodes
model([], [("", 13)], "empty", outputs=("x",))
PY

expect "$tmp/nested.onnx" "Add;If;ReduceMax;Relu;Sub;com.example.Foo" \
  "minnx: error: $tmp/nested.onnx: this build lacks 1 of its 6 operators: com.example.Foo (not implemented by minnx)" 1
expect "$tmp/old_opset.onnx" "Gelu" \
  "minnx: error: $tmp/old_opset.onnx: this build lacks 1 of its 1 operators: Gelu (no version at or below opset 13)" 1
expect "$tmp/no_import.onnx" "Relu;com.other.Bar" \
  "minnx: error: $tmp/no_import.onnx: this build lacks 1 of its 2 operators: com.other.Bar (domain 'com.other' not imported)" 1
expect "$tmp/empty.onnx" "" "" 0

# What the tool lists is what onnx finds, on every 5th official case (by name; ~185 of them: all of them took two
# minutes on a loaded machine) whose model has nodes of the default domain only
"$python" - "$official" "$minnx" <<'PY'
import glob, subprocess, sys
import onnx
official, minnx = sys.argv[1:]
def walk(g, ops):
    for n in g.node:
        ops.add(n.op_type)
        for a in n.attribute:
            for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                walk(sub, ops)
    return ops
n = 0
for path in sorted(glob.glob(f"{official}/test_*/model.onnx"))[::5]:
    m = onnx.load(path)
    if any(n.domain not in ("", "ai.onnx") for n in m.graph.node):
        continue
    want = ";".join(sorted(walk(m.graph, set())))
    got = subprocess.run([minnx, "ops", path], capture_output=True, text=True).stdout.strip()
    if got != want:
        sys.exit(f"FAIL: ops {path}: {got}, onnx says {want}")
    n += 1
if n < 100:
    sys.exit(f"FAIL: only {n} official models compared")
print(f"{n} official models (every 5th): the list matches onnx's")
PY

# not a model; a missing file; no argument
printf 'hello' >"$tmp/text.onnx"
expect "$tmp/text.onnx" "" "minnx: error: $tmp/text.onnx: not an ONNX model (the bytes are no protobuf message)" 2
ops "$tmp/none.onnx"
[ "$rc" = 2 ] && [ -z "$out" ] || fail "ops on a missing file: exit $rc, '$out'"
"$minnx" ops --help >"$tmp/h" || fail "ops --help exit $?"
head -n 1 "$tmp/h" | grep -qx "usage: minnx ops MODEL" || fail "ops --help: $(head -n 1 "$tmp/h")"
grep -q 'this build lacks an operator' "$tmp/h" || fail "ops --help does not give the exit status"
echo "ok"
