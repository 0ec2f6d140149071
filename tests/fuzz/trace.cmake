# SPDX-License-Identifier: MIT
# fuzz_trace: the trace reader and renderers (rt/core) on arbitrary bytes.
# libmrrt itself is never built for fuzzing (it is linked into instrumented programs), so
# the libFuzzer binary links a copy of the same sources built with fuzzer-no-link; the
# replay test links the real libmrrt.
set(mr_trace_fuzz_libs mrrt)
if(MR_FUZZ AND MR_SANITIZE AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  get_target_property(mr_rt_srcs mrrt SOURCES)
  get_target_property(mr_rt_dir mrrt SOURCE_DIR)
  list(TRANSFORM mr_rt_srcs PREPEND "${mr_rt_dir}/")
  find_package(Threads REQUIRED)
  add_library(mrrt_fuzzcov STATIC ${mr_rt_srcs})
  set_target_properties(mrrt_fuzzcov PROPERTIES C_VISIBILITY_PRESET hidden)
  mr_c_target(mrrt_fuzzcov)
  target_compile_options(mrrt_fuzzcov PRIVATE -fsanitize=fuzzer-no-link)
  target_link_libraries(mrrt_fuzzcov PUBLIC Threads::Threads m)
  set(mr_trace_fuzz_libs mrrt_fuzzcov)
endif()
mr_fuzz_target(fuzz_trace SOURCES fuzz_trace.c LIBS mrrt FUZZ_LIBS ${mr_trace_fuzz_libs})
