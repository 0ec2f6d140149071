#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# configure.sh SOURCE_DIR - plain CMake without the preset (issue #18): with CC and CXX
# unset, `cmake -S SRC -B DIR` chooses clang-14 itself and configures; with CC=gcc the
# configure step fails at once with a message naming the preset (skipped without gcc).
# -DMR_LLVM_VERSION=19 (issue #29) configures with clang-19 and LLVM 19; a clang of
# another version than the one asked is refused. Configure only, nothing is built.
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

check "-DMR_LLVM_VERSION=19: clang-19 and LLVM 19 are chosen (scripts/setup installs both)"
expect_exit 0 env -u CC -u CXX cmake -S "$src" -B v19 -DMR_LLVM_VERSION=19
expect_out "The C compiler identification is Clang 19."
expect_out "mrfuzz: LLVM 19."
grep -q '^MR_CLANG:FILEPATH=.*clang-19$' v19/CMakeCache.txt || fail "the run-time clang is not clang-19: $(grep ^MR_CLANG: v19/CMakeCache.txt)"

check "-DMR_LLVM_VERSION=19 with clang-14 given: refused, naming both"
expect_exit 1 env -u CC -u CXX cmake -S "$src" -B mixed -DMR_LLVM_VERSION=19 -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
tr -s ' \n' '  ' <err >err.flat
grep -qF '(LLVM 19: the plugin' err.flat && grep -qF 'but the C compiler is Clang 14.' err.flat ||
  { cat err >&2; fail "the mismatch is not named"; }

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
