#!/usr/bin/env bash
# Each operator's cost in the Cortex-M4 firmware core (graph/, ops/, runtime/
# .text of examples/firmware.c linked with -Os and --gc-sections; float only,
# no messages, no file I/O, the size-first kernels): what adding it to a
# firmware with Max alone adds (Max's own: what it adds to ArgMax alone).
#   usage: tests/size/ops.sh PATH/TO/protobuf-c.c WORKDIR FIRMWARE_SIZES_H [STEP]
# (FIRMWARE_SIZES_H: a host build's examples/firmware_sizes.h, as table.sh makes.
# STEP: measure every STEP-th operator of ops/ops.cmake's list, not all: each is
# a build of its own, about 20 s, and there are some ninety; the last line
# says how many were measured.)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
pbc=$(realpath "$1")
work=$2
sizes=$(realpath "$3")
step=${4:-1}
mkdir -p "$work"
ops=$(sed -n 's/^minnx_op(\([A-Za-z]*\) .*/\1/p' "$src/ops/ops.cmake")

core() { # core OPS: the core's .text for a build with MINNX_OPS=OPS
  local dir="$work/${1//;/-}"
  cmake -S "$src" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/arm-none-eabi.cmake" -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DBUILD_TESTING=OFF -DMINNX_WERROR=ON "-DMINNX_PROTOBUF_C_SOURCE=$pbc" "-DMINNX_FIRMWARE_SIZES=$sizes" \
    -DMINNX_FILE_IO=OFF -DMINNX_MESSAGES=OFF -DMINNX_DTYPES=float -DMINNX_SMALL_KERNELS=ON "-DMINNX_OPS=$1" \
    >"$dir.log" 2>&1 && cmake --build "$dir" -j2 --target firmware >>"$dir.log" 2>&1 || {
    cat "$dir.log" >&2
    return 1
  }
  python3 "$src/tests/size/sizes.py" x "$dir/examples/firmware.map" | awk -F'|' '$3 ~ /core/ {gsub(/ /, "", $4); print $4}'
}

max=$(core Max)
echo "| operator | core .text added (bytes) |"
echo "|---|--:|"
echo "| Max | $(($(core "ArgMax;Max") - $(core ArgMax))) |"
n=0 measured=0
for op in $ops; do
  [ "$op" = Max ] && continue
  n=$((n + 1))
  [ $(((n - 1) % step)) -eq 0 ] || continue
  measured=$((measured + 1))
  echo "| $op | $(($(core "Max;$op") - max)) |"
done
echo "core with Max alone: $max; $measured of the $n other operators measured (every ${step}th of ops/ops.cmake's list)"
