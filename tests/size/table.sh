#!/usr/bin/env bash
# The README's code-size table: examples/firmware.c linked with -Os and
# --gc-sections for a Cortex-M4 (Debian's gcc-arm-none-eabi, newlib's nosys
# stubs) and for x86-64, each with every build option on ("full") and with what
# a firmware leaves out ("min": no file loading, no message formatting, float
# only). protobuf-c's runtime is built in from its source, so the loader's
# figures include it.
#   usage: tests/size/table.sh PATH/TO/protobuf-c.c WORKDIR
# Also the compile-and-link check of graph/, ops/, runtime/ and loader/ for the
# Cortex-M4: any error or warning fails it.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
pbc=$(realpath "$1")
work=$2
mkdir -p "$work"
common=(-DCMAKE_BUILD_TYPE=MinSizeRel -DBUILD_TESTING=OFF -DMINNX_SHARED=OFF -DMINNX_WERROR=ON
        "-DMINNX_PROTOBUF_C_SOURCE=$pbc")
min=(-DMINNX_FILE_IO=OFF -DMINNX_MESSAGES=OFF -DMINNX_DTYPES=float -DMINNX_X86_AVX2=OFF "-DMINNX_OPS=Max;ArgMax"
     -DMINNX_SMALL_KERNELS=ON)
host=("-DCMAKE_C_FLAGS=-ffunction-sections -fdata-sections" "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--gc-sections")
sizes="-DMINNX_FIRMWARE_SIZES=$work/x86-64-full/examples/firmware_sizes.h"
arm=("-DCMAKE_TOOLCHAIN_FILE=$src/cmake/arm-none-eabi.cmake" "$sizes")

build() {
  local name=$1
  shift
  cmake -S "$src" -B "$work/$name" "${common[@]}" "$@" >"$work/$name.log" 2>&1 &&
    cmake --build "$work/$name" -j2 --target firmware >>"$work/$name.log" 2>&1 || {
    cat "$work/$name.log" >&2
    echo "size build $name failed" >&2
    return 1
  }
}

# x86-64 first: its minnx CLI measures the example model for the firmware's buffer.
build x86-64-full "${host[@]}"
"$work/x86-64-full/examples/firmware" # the firmware program runs on the host: its status says the outputs are numpy's
build x86-64-min "${host[@]}" "${min[@]}" "$sizes"
"$work/x86-64-min/examples/firmware"
build cortex-m4-full "${arm[@]}"
build cortex-m4-min "${arm[@]}" "${min[@]}"

echo "| target, options | part | .text | .data | .bss |"
echo "|---|---|--:|--:|--:|"
args=()
for name in cortex-m4-min cortex-m4-full x86-64-min x86-64-full; do
  args+=("$name" "$work/$name/examples/firmware.map")
done
python3 "$src/tests/size/sizes.py" "${args[@]}"
for name in cortex-m4-min cortex-m4-full; do
  arm-none-eabi-size "$work/$name/examples/firmware" | sed -n 2p | awk -v n="$name" '{print "total " n ": text " $1 ", data " $2 ", bss " $3}'
done
