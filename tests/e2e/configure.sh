#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# configure.sh SOURCE_DIR - plain CMake without the preset (issue #18): with CC and CXX
# unset, `cmake -S SRC -B DIR` chooses clang-14 itself and configures; with CC=gcc the
# configure step fails at once with a message naming the preset (skipped without gcc).
# Configure only, nothing is built.
. "$(dirname "$0")/lib.sh"
src=${1:?SOURCE_DIR}

check "plain cmake -S -B, CC and CXX unset: clang-14 is chosen, the configure succeeds"
expect_exit 0 env -u CC -u CXX cmake -S "$src" -B plain
expect_out "The C compiler identification is Clang 14."
expect_out "The CXX compiler identification is Clang 14."
grep -q 'set(CMAKE_C_COMPILER ".*clang-14")' plain/CMakeFiles/*/CMakeCCompiler.cmake ||
  fail "the C compiler is not clang-14: $(grep 'set(CMAKE_C_COMPILER ' plain/CMakeFiles/*/CMakeCCompiler.cmake)"

check "a second configure of the same directory keeps clang-14"
expect_exit 0 env -u CC -u CXX cmake plain
grep -q 'set(CMAKE_C_COMPILER ".*clang-14")' plain/CMakeFiles/*/CMakeCCompiler.cmake ||
  fail "the reconfigure changed the C compiler"

if command -v gcc >/dev/null && command -v g++ >/dev/null; then
  check "CC=gcc CXX=g++: the configure fails, naming the compiler found and the preset"
  expect_exit 1 env CC=gcc CXX=g++ cmake -S "$src" -B gcc
  tr -s ' \n' '  ' <err >err.flat
  grep -qF 'but the C compiler is GNU' err.flat || { cat err >&2; fail "stderr does not name GNU"; }
  grep -qF 'cmake --preset release' err.flat || { cat err >&2; fail "stderr does not name the preset"; }
  [ ! -e gcc/build.ninja ] && [ ! -e gcc/Makefile ] || fail "a build system was generated for gcc"
else
  check "gcc is absent: the CC=gcc case is skipped"
fi
echo "configure: ok"
