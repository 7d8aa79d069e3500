# Cross build for 64-bit Arm Linux with Debian's gcc-aarch64-linux-gnu; the
# test programs run under qemu-user (Debian's qemu-user), the target's C
# library taken from the cross toolchain's sysroot:
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Headers of header-only and host-side dependencies (xxHash, protobuf-c's API)
# come from the host's /usr/include after the target's own; protobuf-c's
# runtime is built in from its source (MINNX_PROTOBUF_C_SOURCE).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(MINNX_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L ${MINNX_AARCH64_SYSROOT})
