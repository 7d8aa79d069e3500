#!/bin/sh
# A case's own tolerance (a `tolerance` file: "ATOL RTOL"): it replaces ONNX's
# bound for that case's inexact outputs, never makes an exact model inexact,
# and a malformed one fails the case.
#   tolerance.sh MINNX PYTHON
set -eu
minnx=$1 python=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$python" - "$tmp" <<'PY'
import os, sys
import numpy as np
import onnx
from onnx import TensorProto, helper as h, numpy_helper
d = sys.argv[1]
def case(name, node, expected_shift):
    g = h.make_graph([node], "g", [h.make_tensor_value_info("a", TensorProto.FLOAT, [1, 1]),
                                   h.make_tensor_value_info("b", TensorProto.FLOAT, [1, 1])],
                     [h.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1])])
    os.makedirs(f"{d}/{name}/test_data_set_0")
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), f"{d}/{name}/model.onnx")
    a, b = np.array([[0.01]], np.float32), np.array([[1.0]], np.float32)
    y = (a @ b if node.op_type == "MatMul" else np.maximum(a, b)) + np.float32(expected_shift)
    for f, t in (("input_0", a), ("input_1", b), ("output_0", y.astype(np.float32))):
        with open(f"{d}/{name}/test_data_set_0/{f}.pb", "wb") as fh:
            fh.write(numpy_helper.from_array(t).SerializeToString())
# MatMul (a sum: compared within a tolerance) off by 5e-5 at 0.01: beyond ONNX's 1e-7 + 1e-3 |0.01|
case("matmul", h.make_node("MatMul", ["a", "b"], ["y"]), 5e-5)
# Max (exact) off by one unit in the last place
case("max", h.make_node("Max", ["a", "b"], ["y"]), 1.2e-7)
PY
line() { "$minnx" test "$tmp/$1" | head -n 1; }
case "$(line matmul)" in "FAIL matmul: output 'y': element 0 is "*", beyond |got - expected| <= 1e-07 + 0.001 |expected|"*) ;;
  *) fail "without a tolerance file: $(line matmul)" ;; esac
echo "1e-4 1e-3" >"$tmp/matmul/tolerance"
case "$(line matmul)" in "PASS matmul (max abs err 5e-05,"*) ;; *) fail "1e-4 1e-3: $(line matmul)" ;; esac
echo "1e-5 0" >"$tmp/matmul/tolerance"
case "$(line matmul)" in *"beyond |got - expected| <= 1e-05 + 0 |expected|"*) ;; *) fail "1e-5 0: $(line matmul)" ;; esac
for bad in "abc" "1e-4" "1e-4 1e-3 7" "-1 0" "nan 0" "inf 0"; do
  echo "$bad" >"$tmp/matmul/tolerance"
  case "$(line matmul)" in "FAIL matmul: the case's tolerance file is not one line 'ATOL RTOL' of two numbers >= 0") ;;
    *) fail "tolerance '$bad': $(line matmul)" ;; esac
done
echo "1 1" >"$tmp/max/tolerance"
case "$(line max)" in "FAIL max: output 'y':"*) ;; *) fail "an exact model with a tolerance file: $(line max)" ;; esac
echo ok
