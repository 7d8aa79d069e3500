#!/bin/sh
# The CLI's shared workers (tools/workers.c, minnx_workers_create) when the system refuses its Nth pthread
# start call (MINNX_SYSFAIL_AT, tests/unit/sysfail.h), for every N: `run`,
# `bench` and `test` at --threads 3 must fail with a message naming what was
# refused and the error, with their exit statuses (2; test 1), never crash
# or leak (LeakSanitizer, or valgrind as MINNX_WRAPPER, reports in the output;
# the wrappers count threads, mutexes and condition variables left alive);
# once N is past the last call, all pass. The N at which they first pass is
# the number of start calls, so the wrappers cannot have been bypassed.
set -eu
minnx=$1 dir=$2
# shellcheck disable=SC2086 # MINNX_WRAPPER is words by design
run_minnx() { ${MINNX_WRAPPER:-} "$minnx" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
threads=3
calls=$((4 + threads - 1)) # 2 mutexes, 2 condition variables, then the workers
fail() { echo "refusing start call $n: $*"; cat "$tmp/out"; exit 1; }
n=0
while [ "$n" -le "$calls" ]; do
  case $n in
  0 | 1) what="a mutex: ENOMEM" ;;
  2 | 3) what="a condition variable: EAGAIN" ;;
  *) what="worker thread $((n - 3)) of $((threads - 1)): EAGAIN" ;;
  esac
  for cmd in run bench test; do
    case $cmd in
    run) set -- run "$dir/model.onnx" -i "a=$dir/test_data_set_0/input_0.pb" -i "b=$dir/test_data_set_0/input_1.pb" ;;
    bench) set -- bench "$dir/model.onnx" --repeat 1 --warmup 0 ;;
    test) set -- test "$dir" ;;
    esac
    refused=2
    [ "$cmd" = test ] && refused=1
    rc=0
    MINNX_SYSFAIL_AT=$n run_minnx "$@" --threads "$threads" >"$tmp/out" 2>&1 || rc=$?
    if grep -q '==[0-9]*==\|Sanitizer' "$tmp/out"; then fail "$cmd: a sanitizer's or valgrind's report"; fi
    grep -q "^sysfail: [0-9]* start calls; alive at exit: 0 threads, 0 mutexes, 0 condition variables$" "$tmp/out" ||
      fail "$cmd: something of the pool left alive, or the wrappers not reached"
    if [ "$n" -lt "$calls" ]; then
      [ "$rc" -eq "$refused" ] || fail "$cmd: exit status $rc, expected $refused"
      grep -q "a pool of $threads threads could not start: the system refused $what" "$tmp/out" ||
        fail "$cmd: no message naming '$what'"
    else
      [ "$rc" -eq 0 ] || fail "$cmd: exit status $rc with nothing refused (more start calls than $calls?)"
    fi
  done
  n=$((n + 1))
done
echo "pool-fail: $calls refusals, each an error naming it; then a pass"
