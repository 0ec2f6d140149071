# SPDX-License-Identifier: MIT
# mrdsl's fuzz targets (included by tests/fuzz/CMakeLists.txt).
mr_fuzz_target(fuzz_parse SOURCES fuzz_parse.c LIBS mrdsl FUZZ_LIBS mrdsl_fuzz)
mr_fuzz_target(fuzz_eval_smt SOURCES fuzz_eval_smt.c LIBS mrdsl FUZZ_LIBS mrdsl_fuzz)
