#!/bin/sh
# A known divergence accepts only the documented difference (tools/divergence.c): copies of
# Debian's test_cast_FLOAT_to_BFLOAT16 with one expected element changed otherwise must FAIL,
# and one whose expected values are all rounded to nearest even (fixed data) must PASS.
set -eu
minnx=$1 python=$2 official=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir=$official/test_cast_FLOAT_to_BFLOAT16
for variant in off_by_two rounded_up_wrongly fixed; do
  mkdir -p "$tmp/$variant/test_cast_FLOAT_to_BFLOAT16"
  cp -r "$case_dir/." "$tmp/$variant/test_cast_FLOAT_to_BFLOAT16/"
done
"$python" - "$tmp" <<'PY'
import sys, numpy as np, onnx
from onnx import TensorProto
d = sys.argv[1]
sub = "test_cast_FLOAT_to_BFLOAT16/test_data_set_0"
x = onnx.TensorProto()
x.ParseFromString(open(f"{d}/fixed/{sub}/input_0.pb", "rb").read())
bits = np.frombuffer(x.raw_data, "<u4")
trunc = (bits >> 16).astype("<u2")
rne = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
up = np.nonzero(rne != trunc)[0]
assert len(up) > 0
def write(variant, values, dtype):
    t = onnx.TensorProto()
    t.ParseFromString(open(f"{d}/{variant}/{sub}/output_0.pb", "rb").read())
    t.raw_data = values.astype("<u2").tobytes()
    t.data_type = dtype
    open(f"{d}/{variant}/{sub}/output_0.pb", "wb").write(t.SerializeToString())
v = trunc.copy(); v[0] ^= 2                    # neither the truncation nor the rounding
write("off_by_two", v, TensorProto.UINT16)
v = trunc.copy(); v[up[0]] = rne[up[0]] + 1    # one above the rounding
write("rounded_up_wrongly", v, TensorProto.UINT16)
write("fixed", rne, TensorProto.BFLOAT16)      # what newer ONNX data hold: a plain pass
PY
for variant in off_by_two rounded_up_wrongly; do
  if "$minnx" test "$tmp/$variant/test_cast_FLOAT_to_BFLOAT16" >"$tmp/out" 2>&1; then
    echo "FAIL: $variant was accepted"; cat "$tmp/out"; exit 1
  fi
  grep -q "^FAIL test_cast_FLOAT_to_BFLOAT16: output 'output': element .*not the documented truncation" "$tmp/out" ||
    { echo "FAIL: $variant: no FAIL line naming the element"; cat "$tmp/out"; exit 1; }
  echo "ok: $variant: $(head -n 1 "$tmp/out")"
done
"$minnx" test "$tmp/fixed/test_cast_FLOAT_to_BFLOAT16" >"$tmp/out"
grep -q "^PASS test_cast_FLOAT_to_BFLOAT16$" "$tmp/out" || { echo "FAIL: fixed data did not pass"; cat "$tmp/out"; exit 1; }
echo "ok: fixed: $(head -n 1 "$tmp/out")"
