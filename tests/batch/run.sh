#!/bin/sh
# One batch process (`minnx test` over many cases, or the Cortex-M4 firmware's
# boot), its output kept in LOG for the per-case tests that read it (case.sh),
# and printed for CTest's own check of the batch. Its exit status is the
# process's.
#   run.sh LOG COMMAND...
set -u
log=$1
shift
rm -f "$log"
"$@" >"$log.part" 2>&1
status=$?
mv "$log.part" "$log"
cat "$log"
exit $status
