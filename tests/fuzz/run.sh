#!/bin/sh
# Runs each libFuzzer target for a bounded time, two at a time (CI has two
# cores), from the seed corpus (every official, own and bad case) and every
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

# Seeds are copied under content-hash names: libFuzzer reads flat folders. (One
# python process for the ten thousand files: a cp and a sha1sum per file took
# minutes of CI.)
seed() { # seed TARGET SUFFIX
  mkdir -p "$work/seeds-$1"
  python3 - "$work/seeds-$1" "$2" "$node" "$own" "$here/../bad/data" <<'PY'
import hashlib, os, shutil, sys
out, suffix = sys.argv[1], sys.argv[2]
for top in sys.argv[3:]:
    for folder, _, files in os.walk(top):
        for name in files:
            if name.endswith(suffix):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
                shutil.copyfile(path, os.path.join(out, digest))
PY
}
seed model .onnx
seed tensor .pb
mkdir -p "$work/seeds-struct" "$work/seeds-diff"
cp "$here"/seeds/diff/* "$work/seeds-diff/"

# One target's run; what it says goes to $work/said-$t (the lanes below run side by side).
fuzz() { # fuzz TARGET
  t=$1
  exec >"$work/said-$t"
  mkdir -p "$work/corpus-$t"
  log=$work/fuzz-$t.log
  # 64 KiB inputs: big enough for every seed, small enough for many execs.
  # A unit that takes 25 s is a hang (OSS-Fuzz's limit too): under ASan, UBSan
  # and coverage, legitimate ones take seconds (a Pad writing 16 MB of int16
  # rows of 7, 3 s; a float16 Conv of 17M products, 2 s) and 12 s on a machine
  # running two builds (CI's timeout of 0ed6daae at the old 10 s limit).
  failed=0
  if ! "$build/tests/fuzz_$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" \
      "$work/corpus-$t" "$work/seeds-$t" "$here/regressions/$t" >"$log" 2>&1; then
    failed=1
    echo "fuzz_$t FAILED; input(s) in $work/artifacts/:"
    grep -E 'ERROR|SUMMARY|Test unit written|Seed:' "$log" | head -20
    # where it was (a timeout's stack names the op that ran on)
    grep -E '^ *#[0-9]+ 0x' "$log" | head -30
    # CI's checkout goes away with its artifacts: the log keeps each input
    # (base64; decode with base64 -d into tests/fuzz/regressions/<target>/)
    for a in "$work/artifacts/$t-"*; do
      [ -f "$a" ] || continue
      echo "input $(basename "$a"), $(wc -c <"$a") bytes, base64:"
      base64 -w 76 "$a" | head -c 90000
    done
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  corpus=$(ls "$work/corpus-$t" | wc -l)
  echo "fuzz_$t: ${execs:-?} execs in ${seconds}s, corpus $corpus inputs"
  return $failed
}

# Two lanes, one per core, each target still its SECONDS alone: half the wall time of one
# after the other, the same fuzzing. (A lane is a subshell: a failure ends neither lane.)
(status=0; fuzz model || status=1; fuzz struct || status=1; exit $status) & lane1=$!
(status=0; fuzz tensor || status=1; fuzz diff || status=1; exit $status) & lane2=$!
status=0
wait $lane1 || status=1
wait $lane2 || status=1
for t in model tensor struct diff; do
  cat "$work/said-$t"
done
exit $status
