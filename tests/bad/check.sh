#!/bin/sh
# Runs one case of the bad-input suite (see generate.py): the CLI, inside the
# case folder, must exit with the expected status and write exactly one
# stderr line "minnx: error: ..." matching the expected cause (for the
# controls that must succeed: no stderr, and stdout matching).
#   check.sh MINNX CASE_DIR
# MINNX_WRAPPER, when set, prefixes the command (e.g. valgrind).
set -u
minnx=$1 dir=$2
want=$(sed -n 1p "$dir/expect") regex=$(sed -n 2p "$dir/expect") args=$(sed -n 3p "$dir/expect")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 1
# shellcheck disable=SC2086 # args are words by design
${MINNX_WRAPPER:-} "$minnx" $args >"$tmp/out" 2>"$tmp/err"
got=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; head -c 2000 "$tmp/out"; echo "--- stderr"; head -c 2000 "$tmp/err"; exit 1; }
[ "$got" -eq "$want" ] || fail "exit $got, expected $want: minnx $args"
if [ "$want" -eq 0 ]; then
  [ -s "$tmp/err" ] && fail "a control case wrote to stderr"
  grep -Eq -- "$regex" "$tmp/out" || fail "stdout lacks /$regex/"
  echo "ok: exit 0: $(head -n 1 "$tmp/out")"
  exit 0
fi
# AddressSanitizer (with allocator_may_return_null=1) reports each allocation
# it refuses on stderr; minnx's own message is what is checked.
sed -i '/^==[0-9]*==WARNING: AddressSanitizer failed to allocate/d' "$tmp/err"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "stderr is not exactly one line"
grep -Eq -- "^minnx: error: .*($regex)" "$tmp/err" || fail "stderr lacks 'minnx: error: .../$regex/'"
echo "ok: exit $got: $(cat "$tmp/err")"
