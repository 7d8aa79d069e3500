#!/bin/sh
# Bad input given to the CLI must give a clear error and the contract's exit
# code: usage bad_input.sh MINNX CASE OWN_DATA OFFICIAL_DATA
# Each case runs one command (under MINNX_WRAPPER when set) and checks its
# exit code and that stderr has a "minnx: error: " line naming the cause.
set -u
minnx=$1 case=$2 own=$3 official=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
model=$official/test_max_example/model.onnx

# expect CODE REGEX -- COMMAND...: runs COMMAND, checks its exit code and stderr.
expect() {
  want=$1 regex=$2
  shift 3
  # shellcheck disable=SC2086 # MINNX_WRAPPER (e.g. valgrind) is words by design
  ${MINNX_WRAPPER:-} "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "exit $got, expected $want: $*"; cat "$tmp/err"; exit 1
  fi
  if ! grep -Eiq "^minnx: error: .*($regex)" "$tmp/err"; then
    echo "stderr lacks 'minnx: error: ...$regex':"; cat "$tmp/err"; exit 1
  fi
  if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
    echo "stderr has more than one line:"; cat "$tmp/err"; exit 1
  fi
  echo "ok: exit $got: $(cat "$tmp/err")"
}

case $case in
  empty) : >"$tmp/m.onnx"; expect 2 'no graph' -- "$minnx" run "$tmp/m.onnx" ;;
  garbage) printf '\377\377\377\377\377\377\377\377\377\377garbage' >"$tmp/m.onnx"
           expect 2 'protobuf' -- "$minnx" run "$tmp/m.onnx" ;;
  truncated-*)
    n=${case#truncated-}
    head -c "$n" "$model" >"$tmp/m.onnx"
    expect 2 'protobuf|not defined|no graph|no tensor type|not produced|not imported' -- "$minnx" run "$tmp/m.onnx" ;;
  missing-file) expect 2 'cannot open' -- "$minnx" run "$tmp/nothing.onnx" ;;
  unknown-op) expect 2 'operator' -- "$minnx" run "$own/err_unknown_op/model.onnx" ;;
  no-opset-import) expect 2 'domain' -- "$minnx" run "$own/err_domain_not_imported/model.onnx" ;;
  shapes) expect 2 'shape' -- "$minnx" run "$own/err_max_shape_3_x_4/model.onnx" ;;
  axis) expect 2 'axis' -- "$minnx" info "$own/err_argmax_axis_pos/model.onnx" ;;
  run-shapes)
    d=$own/err_run_max13_dim_param/test_data_set_0
    expect 3 'shape' -- "$minnx" run "$own/err_run_max13_dim_param/model.onnx" -i "x0=$d/input_0.pb" -i "x1=$d/input_1.pb" ;;
  input-dtype)
    expect 2 'declared float' -- "$minnx" run "$model" -i "data_0=$official/test_max_int8/test_data_set_0/input_0.pb" ;;
  input-shape)
    expect 2 'shape' -- "$minnx" run "$model" -i "data_0=$official/test_argmax_default_axis_example/test_data_set_0/input_0.pb" \
      -i "data_1=$official/test_max_example/test_data_set_0/input_1.pb" \
      -i "data_2=$official/test_max_two_inputs/test_data_set_0/input_1.pb" ;;
  input-garbage) printf 'garbage' >"$tmp/x.pb"; expect 2 'TensorProto' -- "$minnx" run "$model" -i "data_0=$tmp/x.pb" ;;
  input-unbound) expect 2 'not bound' -- "$minnx" run "$model" ;;
  usage) expect 2 "unknown command 'frobnicate'" -- "$minnx" frobnicate ;;
  no-command) expect 2 'no command given' -- "$minnx" ;;
  unknown-option) expect 2 "run: unknown option '--output'" -- "$minnx" run "$model" --output "$tmp/o" ;;
  missing-value) expect 2 'run: -o needs a value' -- "$minnx" run "$model" -o ;;
  bad-count) expect 2 'bench: --repeat 0: takes a count' -- "$minnx" bench "$model" --repeat 0 ;;
  extra-argument) expect 2 "info: unexpected argument 'extra'" -- "$minnx" info "$model" extra ;;
  missing-model) expect 2 'run: missing MODEL' -- "$minnx" run -i "data_0=x.npy" ;;
  bad-format) expect 2 '--format txt: takes npy or pb' -- "$minnx" run "$model" --format txt ;;
  repeated-input)
    d=$official/test_max_example/test_data_set_0
    expect 2 'data_0=.*given twice' -- "$minnx" run "$model" -i "data_0=$d/input_0.pb" -i "data_0=$d/input_1.pb" ;;
  unwritable-output)
    d=$official/test_max_example/test_data_set_0
    : >"$tmp/file"
    expect 3 'cannot create the folder' -- "$minnx" run "$model" -i "data_0=$d/input_0.pb" -i "data_1=$d/input_1.pb" \
      -i "data_2=$d/input_2.pb" -o "$tmp/file/out" --print
    [ ! -s "$tmp/out" ] || { echo "printed output despite the error:"; cat "$tmp/out"; exit 1; } ;;
  output-in-the-way)
    # DIR/result.pb is a folder: nothing is written, no temporary file is left
    d=$official/test_max_example/test_data_set_0
    mkdir -p "$tmp/o/result.pb"
    expect 3 "cannot write '.*/o/result.pb'" -- "$minnx" run "$model" -i "data_0=$d/input_0.pb" -i "data_1=$d/input_1.pb" \
      -i "data_2=$d/input_2.pb" -o "$tmp/o"
    [ "$(ls -A "$tmp/o")" = "result.pb" ] && [ -d "$tmp/o/result.pb" ] || { echo "left: $(ls -A "$tmp/o")"; exit 1; } ;;
  second-output-in-the-way)
    # the first output is renamed in place, the second cannot be: both are gone
    c=$own/graph_fanout_two_consumers d=$own/graph_fanout_two_consumers/test_data_set_0
    mkdir -p "$tmp/o/z.npy"
    expect 3 "cannot write '.*/o/z.npy'" -- "$minnx" run "$c/model.onnx" -i "x0=$d/input_0.pb" -i "x1=$d/input_1.pb" \
      -i "x2=$d/input_2.pb" -o "$tmp/o" --format npy
    [ "$(ls -A "$tmp/o")" = "z.npy" ] || { echo "left: $(ls -A "$tmp/o")"; exit 1; } ;;
  run-error-no-output)
    # the run fails: no folder is created, nothing is printed
    d=$own/err_run_max13_dim_param/test_data_set_0
    expect 3 'shape' -- "$minnx" run "$own/err_run_max13_dim_param/model.onnx" -i "x0=$d/input_0.pb" \
      -i "x1=$d/input_1.pb" -o "$tmp/new" --print
    [ ! -e "$tmp/new" ] && [ ! -s "$tmp/out" ] || { echo "output left after a failed run"; ls -la "$tmp"; exit 1; } ;;
  test-nothing-found) mkdir "$tmp/empty"; expect 1 'no test case found' -- "$minnx" test "$tmp/empty" ;;
  test-nothing-matched) expect 1 "no test case matched --filter 'no_such_case'" -- "$minnx" test "$official" --filter no_such_case ;;
  bench-symbolic) expect 2 "symbolic dim: give it with -i" -- "$minnx" bench "$own/err_run_max13_dim_param/model.onnx" ;;
  bench-unknown-input) expect 2 "no input named 'zz'" -- "$minnx" bench "$model" -i "zz=$tmp/x.npy" ;;
  *) echo "unknown case $case"; exit 1 ;;
esac
