# SPDX-License-Identifier: MIT
# cmake/install.cmake: `cmake --install` and `cpack -G DEB`. The layout (MR_INSTALL_*, top
# level) is fixed, so the installed mrfuzz finds its plugin, libraries and headers relative
# to itself and the prefix can move. A user's build finds mrfuzz through the CMake package
# (mrfuzzConfig.cmake: imported targets, mrfuzz_instrument()) or pkg-config (mrfuzz.pc,
# mrfuzz-oracle.pc); both locate the prefix relative to their own file.
include(CMakePackageConfigHelpers)

install(TARGETS mrpass LIBRARY DESTINATION ${MR_INSTALL_PKGLIBDIR})
install(TARGETS mrrt mreng mrdsl ARCHIVE DESTINATION ${MR_INSTALL_PKGLIBDIR})
# The Mutation Testing Elements bundle `mrfuzz report` inlines (absent without npm ci).
install(FILES ${MR_MTE_BUNDLE} DESTINATION ${MR_INSTALL_PKGLIBDIR} OPTIONAL)
# `--strip` (and cpack's CPACK_STRIP_FILES) strips executables and modules only: drop the
# archives' debug info too (it names this build tree), keeping their symbols.
if(CMAKE_STRIP)
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP)
      foreach(a libmrrt.a libmreng.a libmrdsl.a)
        execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
                        \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${MR_INSTALL_PKGLIBDIR}/\${a}\")
      endforeach()
    endif()")
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mrfuzz DESTINATION ${MR_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
# Docs keep README's relative links: share/doc/mrfuzz/{README.md,docs/,examples/}.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${MR_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs ${PROJECT_SOURCE_DIR}/examples
        DESTINATION ${MR_INSTALL_DOCDIR})

# The CMake package: paths relative to the config file, filled in here.
file(RELATIVE_PATH MR_CMAKEDIR_TO_PREFIX /p/${MR_INSTALL_CMAKEDIR} /p)
file(RELATIVE_PATH MR_PKGCONFIGDIR_TO_PREFIX /p/${MR_INSTALL_PKGCONFIGDIR} /p)
set(mr_pkg ${CMAKE_BINARY_DIR}/package)
configure_file(${CMAKE_CURRENT_LIST_DIR}/mrfuzzConfig.cmake.in ${mr_pkg}/mrfuzzConfig.cmake @ONLY)
write_basic_package_version_file(${mr_pkg}/mrfuzzConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${mr_pkg}/mrfuzzConfig.cmake ${mr_pkg}/mrfuzzConfigVersion.cmake
        DESTINATION ${MR_INSTALL_CMAKEDIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/mrfuzz.pc.in ${mr_pkg}/mrfuzz.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/mrfuzz-oracle.pc.in ${mr_pkg}/mrfuzz-oracle.pc @ONLY)
install(FILES ${mr_pkg}/mrfuzz.pc ${mr_pkg}/mrfuzz-oracle.pc
        DESTINATION ${MR_INSTALL_PKGCONFIGDIR})

# `cpack -G DEB` (from the release build): /usr/bin/mrfuzz, /usr/lib/mrfuzz/... The
# dependencies are what mrfuzz runs at run time: clang-N of its LLVM (and libFuzzer in
# libclang-rt-N-dev; clang-15 has it in libclang-common-15-dev, a dependency of clang-15) compile and link harnesses, libclang reads signatures, and harnesses
# link Z3, LAPACKE, LAPACK and BLAS through their development symlinks (libz3.so, ...).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mrfuzz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "metamorphic testing for C: relation discovery, checking under libFuzzer, mutation scores")
set(CPACK_PACKAGE_CONTACT "mrfuzz maintainers <mrfuzz@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(mr_v ${MR_LLVM_VERSION})
set(mr_rt_dep ", libclang-rt-${mr_v}-dev")
if(mr_v EQUAL 15)
  set(mr_rt_dep "")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-${mr_v}, llvm-${mr_v}, libclang1-${mr_v}${mr_rt_dep}, libz3-dev, liblapacke-dev, liblapack-dev, libblas-dev")
include(CPack)
