# SPDX-License-Identifier: MIT
# fuzz_spec: mrpass's MR_SPEC and MR_FUNCTIONS parsers (pass/Spec.cpp) on arbitrary bytes.
# mrpass.so links no LLVM library (clang provides the symbols) and is never sanitized, so
# both executables compile Spec.cpp themselves (with the project's sanitizer flags, and
# with libFuzzer's coverage in the fuzz binary) and link LLVMSupport from LLVM's build:
# the shared libLLVM when LLVM was built with it (Debian), else the static component.
if(TARGET LLVM)
  set(mr_spec_llvm_libs LLVM)
else()
  llvm_map_components_to_libnames(mr_spec_llvm_libs support)
endif()

block()
  # The libFuzzer binary is C++ here: it needs clang for C++ too.
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(MR_FUZZ OFF)
  endif()
  mr_fuzz_target(fuzz_spec SOURCES fuzz_spec.cpp ${PROJECT_SOURCE_DIR}/pass/Spec.cpp
                 LIBS ${mr_spec_llvm_libs})
endblock()

# What pass/CMakeLists.txt gives mrpass: C++17, LLVM headers and definitions, its warnings.
separate_arguments(mr_spec_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
set(mr_spec_cxx_flags -Wall -Wextra -Wshadow)
if(NOT LLVM_ENABLE_RTTI)
  list(APPEND mr_spec_cxx_flags -fno-rtti)
endif()
if(MR_WERROR)
  list(APPEND mr_spec_cxx_flags -Werror)
endif()
foreach(t fuzz_spec_replay fuzz_spec)
  if(TARGET ${t})
    set_target_properties(${t} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
                                          CXX_EXTENSIONS OFF)
    target_include_directories(${t} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/pass)
    target_compile_definitions(${t} PRIVATE ${mr_spec_llvm_defs})
    target_compile_options(${t} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${mr_spec_cxx_flags}>)
  endif()
endforeach()
