# Cross build for a Cortex-M4 (with its single-precision FPU, hard-float ABI)
# with Debian's gcc-arm-none-eabi and libnewlib-arm-none-eabi:
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake
# Programs link against newlib's stubs (nosys): no operating system, no file
# system; sections are collected so that only what is used stays in.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nosys.specs -Wl,--gc-sections")
