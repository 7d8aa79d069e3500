#!/bin/sh
# The CLI explains itself: help, COMMAND --help, --version (the header's and
# minnx.pc's), info's marks and dim_param names, --filter as a substring,
# bench on a MODEL with generated or -i inputs, --isa and --digest.
#   points.sh MINNX SOURCE_DIR BUILD_DIR OFFICIAL_DATA OWN_DATA
set -eu
minnx=$1 src=$2 build=$3 official=$4 own=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$minnx" help >"$tmp/help"
"$minnx" --help | cmp -s - "$tmp/help" || fail "minnx --help differs from minnx help"
for word in "minnx run MODEL" "minnx test PATH" "minnx info MODEL" "minnx bench MODEL|DIR" "-i NAME=FILE" "-o DIR" \
            "--format npy|pb" "--print" "--filter PATTERN" "--repeat N" "(default 100)" "--warmup N" "(default 10)" \
            "--seed N" "(default 1)" "--version" "COMMAND --help" "Exit status: 0 success; 1" "Input files:" \
            "Output files"; do
  grep -qF -- "$word" "$tmp/help" || fail "minnx help lacks '$word'"
done
for cmd in run test info bench; do
  "$minnx" "$cmd" --help >"$tmp/h" || fail "minnx $cmd --help exit $?"
  head -n 1 "$tmp/h" | grep -q "^usage: minnx $cmd " || fail "minnx $cmd --help: $(head -n 1 "$tmp/h")"
done

version=$(sed -n 's/^#define MINNX_VERSION "\(.*\)"$/\1/p' "$src/include/minnx.h")
[ "$("$minnx" --version)" = "minnx $version" ] || fail "--version: $("$minnx" --version), header $version"
grep -qx "Version: $version" "$build/minnx.pc" || fail "minnx.pc: $(grep Version "$build/minnx.pc")"
grep -q "PACKAGE_VERSION \"$version\"" "$build/minnxConfigVersion.cmake" || fail "CMake package version"

"$minnx" info "$own/err_run_max13_dim_param/model.onnx" >"$tmp/info"
grep -Eq '^  x0: float \[N\]  \(graph input\)$' "$tmp/info" || fail "info: $(cat "$tmp/info")"
"$minnx" info "$src/examples/max_argmax/model.onnx" >"$tmp/info"
grep -q '^  idx: int64 \[2\]  (graph output)$' "$tmp/info" || fail "info: $(cat "$tmp/info")"
"$minnx" info "$own/graph_init_raw_float32/model.onnx" >"$tmp/info"
grep -q '^  w: float \[3\]  (initializer)$' "$tmp/info" || fail "info: $(cat "$tmp/info")"

"$minnx" test "$official" --filter t_max_exam >"$tmp/t"
[ "$(cat "$tmp/t")" = "PASS test_max_example
1 passed, 0 failed, 0 skipped" ] || fail "--filter t_max_exam: $(cat "$tmp/t")"
"$minnx" test "$official" --filter 'test_max_*int*' >"$tmp/t"
[ "$(tail -n 1 "$tmp/t")" = "8 passed, 0 failed, 0 skipped" ] || fail "--filter glob: $(tail -n 1 "$tmp/t")"

"$minnx" bench "$src/examples/max_argmax/model.onnx" --repeat 3 --warmup 1 --seed 7 | grep -Eq '^ns_per_run=[0-9]+$' ||
  fail "bench MODEL with generated inputs"
d=$official/test_max_example/test_data_set_0
"$minnx" bench "$official/test_max_example/model.onnx" -i "data_1=$d/input_1.pb" --repeat 3 | grep -Eq '^ns_per_run=' ||
  fail "bench MODEL with one -i, others generated"
"$minnx" bench "$official/test_max_example" --repeat 3 | grep -Eq '^ns_per_run=' || fail "bench DIR"

# --profile: every node that runs, by node and by operator, the shares summing to the whole; bench's lines last
"$minnx" bench "$src/examples/max_argmax/model.onnx" --repeat 3 --warmup 1 --profile >"$tmp/p"
head -n 1 "$tmp/p" | grep -qx 'profile: 2 of 2 nodes ran, 3 runs at [0-9]* threads*; ns per run (a node'"'"'s median over the runs), the share of the medians'"'"' sum' ||
  fail "bench --profile: $(head -n 1 "$tmp/p")"
grep -Eq "^ +[0-9]+ +[0-9.]+%  node 0 '[^']+' \(Max-13\)$" "$tmp/p" || fail "bench --profile: no Max node: $(cat "$tmp/p")"
grep -Eq "^ +[0-9]+ +[0-9.]+%  node 1 '[^']+' \(ArgMax-13\)$" "$tmp/p" || fail "bench --profile: no ArgMax node"
grep -Eq "^ +[0-9]+ +[0-9.]+%  ArgMax \(1 node\)$" "$tmp/p" || fail "bench --profile: no ArgMax row by operator"
awk '/%  node /{s += $2} END {if (s < 99.7 || s > 100.3) exit 1}' "$tmp/p" || fail "bench --profile: shares do not sum to 100%"
grep -Eq '^profile total: [0-9]+ ns, the medians. sum; [0-9]+ ns, the median run ' "$tmp/p" || fail "bench --profile: no total line"
tail -n 1 "$tmp/p" | grep -Eq '^ns_per_run=[0-9]+$' || fail "bench --profile: the last line is $(tail -n 1 "$tmp/p")"
"$minnx" bench "$src/examples/max_argmax/model.onnx" --repeat 3 --warmup 1 --profile --profile-top 1 >"$tmp/p"
[ "$(grep -c "%  node " "$tmp/p")" = 1 ] && grep -Eq "^ +[0-9]+ +[0-9.]+%  the other 1 nodes$" "$tmp/p" ||
  fail "bench --profile-top 1: $(cat "$tmp/p")"
"$minnx" info "$src/examples/max_argmax/model.onnx" --profile --repeat 2 --threads 1 >"$tmp/p"
grep -q '^arena: ' "$tmp/p" && grep -qx 'profile: 2 of 2 nodes ran, 2 runs at 1 thread; ns per run (a node'"'"'s median over the runs), the share of the medians'"'"' sum' "$tmp/p" ||
  fail "info --profile: $(cat "$tmp/p")"

# --isa: every level the CPU has gives the same digest; a word that is no level is bad usage
"$minnx" test "$official" --filter 'test_max_*' --digest --isa portable >"$tmp/p"
grep -Eq '^PASS test_max_example digest=[0-9a-f]{16}$' "$tmp/p" || fail "--digest: $(head -n 1 "$tmp/p")"
for isa in native avx2 avx512; do
  "$minnx" test "$official" --filter 'test_max_*' --digest --isa $isa >"$tmp/i" 2>&1 || {
    grep -q "this build and CPU have up to" "$tmp/i" || fail "--isa $isa: $(cat "$tmp/i")"
    continue
  }
  cmp -s "$tmp/p" "$tmp/i" || fail "--isa $isa: other digests than portable's"
done
"$minnx" run "$src/examples/max_argmax/model.onnx" --isa fast 2>"$tmp/e" && fail "--isa fast accepted"
grep -q "takes native, portable, avx2 or avx512" "$tmp/e" || fail "--isa fast: $(cat "$tmp/e")"
echo "ok"
