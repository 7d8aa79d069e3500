#!/bin/sh
# One case of a batch (run.sh): prints the line the batch wrote for case NAME
# (`PASS NAME ...`, `FAIL NAME: ...`, `SKIP NAME: ...`, `DIVERGE NAME: ...`),
# which CTest's PASS_REGULAR_EXPRESSION and SKIP_REGULAR_EXPRESSION judge; no
# such line (or a line twice) fails.
#   case.sh LOG NAME
set -eu
log=$1 name=$2
[ -f "$log" ] || { echo "no batch log $log: its batch test did not run"; exit 1; }
awk -v n="$name" '$2 == n || $2 == n ":" { print; found++ }
                  END { if (found != 1) { print "case " n ": " found + 0 " lines in the batch log"; exit 1 } }' "$log"
