# cmake --install: the header, the static and shared libraries, a CMake
# package (find_package(minnx): minnx::minnx, the static library, and
# minnx::minnx_shared) and a pkg-config file (minnx.pc).
include(CMakePackageConfigHelpers)

set(minnx_installed minnx)
if(TARGET minnx_shared)
  list(APPEND minnx_installed minnx_shared)
endif()
install(TARGETS ${minnx_installed} EXPORT minnxTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/minnx.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(minnx_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/minnx)
install(EXPORT minnxTargets NAMESPACE minnx:: DESTINATION ${minnx_cmake_dir})

# Whether the libraries need libprotobuf-c (not when its source is built in):
# the package finds it for minnx::minnx, pkg-config lists it in Libs.private.
set(minnx_pc_private "")
set(minnx_uses_protobuf_c OFF)
if(PROTOBUF_C_LIBRARY)
  set(minnx_pc_private "-lprotobuf-c")
  set(minnx_uses_protobuf_c ON)
endif()
if(MINNX_LIBM)
  string(APPEND minnx_pc_private " -lm")
endif()
set(minnx_uses_threads ${MINNX_THREADS})
if(MINNX_THREADS)
  string(APPEND minnx_pc_private " -pthread")
endif()
configure_package_config_file(cmake/minnxConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/minnxConfig.cmake
                              INSTALL_DESTINATION ${minnx_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/minnxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/minnxConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/minnxConfigVersion.cmake
        DESTINATION ${minnx_cmake_dir})

# pkg-config: the static library needs libprotobuf-c after it (Libs.private).
# Relocatable: the prefix is found from where the file is (cmake --install --prefix).
file(RELATIVE_PATH minnx_pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" minnx_pc_to_prefix "${minnx_pc_to_prefix}")
# minnx.pc links the shared library (-lminnx picks libminnx.so where both are);
# minnx-static.pc names libminnx.a itself, since no -l flag makes the linker
# prefer it, with libprotobuf-c after it.
configure_file(cmake/minnx.pc.in ${CMAKE_CURRENT_BINARY_DIR}/minnx.pc @ONLY)
configure_file(cmake/minnx-static.pc.in ${CMAKE_CURRENT_BINARY_DIR}/minnx-static.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/minnx.pc ${CMAKE_CURRENT_BINARY_DIR}/minnx-static.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(TARGET minnx_cli)
  install(TARGETS minnx_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
