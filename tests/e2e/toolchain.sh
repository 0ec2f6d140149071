#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# toolchain.sh - a broken toolchain is named, not blamed on the user's code (issue #28): a
# MRFUZZ_CLANG that is not clang, a MRFUZZ_PLUGIN that is no plugin, a MRFUZZ_INCLUDE
# without mrfuzz's headers, and no linker on the PATH each exit 3 naming the override or
# the tool, without the hint to give the library's flags with -p. A clang of another LLVM than
# the plugin's exits 2 naming both versions.
. "$E2E/lib.sh"
GCD="$EXAMPLES/intmath/intmath.c:gcd"

broken() { # broken DIR WANT: the run exits 3, names WANT, and gives no -p hint
  expect_exit 3 "$@"
  grep -q "the toolchain is broken, not your code" err || { cat err >&2; fail "the toolchain is not named"; }
  ! grep -q "give the library's build directory with -p" err || fail "the user's flags are blamed"
}

check "MRFUZZ_CLANG that is not clang"
printf '#!/bin/sh\necho "cc (GCC) 12"\nexit 1\n' >notclang
chmod +x notclang
MRFUZZ_CLANG=$PWD/notclang broken "$MRFUZZ" run --build-dir a "$GCD" -n 3
expect_err "MRFUZZ_CLANG=$PWD/notclang is not clang"

check "MRFUZZ_PLUGIN that is no plugin"
echo junk >bad.so
MRFUZZ_PLUGIN=$PWD/bad.so broken "$MRFUZZ" run --build-dir b "$GCD" -n 3
expect_err "MRFUZZ_PLUGIN=$PWD/bad.so (clang) cannot compile a one-line program with it"

check "MRFUZZ_INCLUDE without mrfuzz's headers"
mkdir -p emptyinc
MRFUZZ_INCLUDE=$PWD/emptyinc broken "$MRFUZZ" run --build-dir c "$GCD" -n 3
expect_err "MRFUZZ_INCLUDE=$PWD/emptyinc holds no mrfuzz/mr_rt.h"

check "no linker on the PATH"
mkdir -p nobin
broken env PATH="$PWD/nobin" "$MRFUZZ" run --build-dir d "$GCD" -n 3
expect_err "cannot link a one-line program (is binutils' ld installed?)"

check "a clang of another LLVM than the plugin's is refused, naming both versions (#29)"
mine=$("$MR_CLANG" -dumpversion | cut -d. -f1)
other=$(other_clang)
theirs=$("$other" -dumpversion | cut -d. -f1)
MRFUZZ_CLANG=$other expect_exit 2 "$MRFUZZ" run --build-dir v "$GCD" -n 3
expect_err "MRFUZZ_CLANG=$other is clang $theirs, the plugin at"
expect_err "is built for LLVM $mine"
[[ ! -e v/harness ]] || fail "a harness was built with the mismatched clang"

check "the user's own error is still the user's: exit 2 and the -p hint"
printf 'double f(double x) { return x +; }\n' >bad.c
expect_exit 2 "$MRFUZZ" run --build-dir e bad.c:f -n 3
! grep -q "toolchain is broken" err || fail "the toolchain was blamed for the user's code"
echo "ok"
