#!/bin/sh
# Runs each libFuzzer target for a bounded time, one after the other (CI has
# two cores), from the seed corpus (every official, own and bad case) and every
# past crash. A crash, a leak, a timeout or an out-of-memory fails the run and
# leaves the input in $work/artifacts/.
#   run.sh BUILD_DIR SECONDS_PER_TARGET [WORK_DIR]
set -eu
build=$1 seconds=$2
work=${3:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
node=${MINNX_ONNX_NODE_DATA:-/usr/share/libonnx-testdata/data/node}
own=$here/../../onnx_backend_data
mkdir -p "$work/artifacts"

# Seeds are copied under content-hash names: libFuzzer reads flat folders.
seed() { # seed TARGET SUFFIX
  mkdir -p "$work/seeds-$1"
  find "$node" "$own" "$here/../bad/data" -name "*$2" -type f | while read -r f; do
    cp "$f" "$work/seeds-$1/$(sha1sum "$f" | cut -c1-40)"
  done
}
seed model .onnx
seed tensor .pb
mkdir -p "$work/seeds-struct" "$work/seeds-diff"
cp "$here"/seeds/diff/* "$work/seeds-diff/"

status=0
for t in model tensor struct diff; do
  mkdir -p "$work/corpus-$t"
  log=$work/fuzz-$t.log
  # 64 KiB inputs: big enough for every seed, small enough for many execs.
  if ! "$build/tests/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" \
      "$work/corpus-$t" "$work/seeds-$t" "$here/regressions/$t" >"$log" 2>&1; then
    status=1
    echo "fuzz_$t FAILED; input(s) in $work/artifacts/:"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -20
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  corpus=$(ls "$work/corpus-$t" | wc -l)
  echo "fuzz_$t: ${execs:-?} execs in ${seconds}s, corpus $corpus inputs"
done
exit $status
