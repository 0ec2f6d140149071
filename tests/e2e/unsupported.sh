#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unsupported.sh - signatures mrfuzz cannot generate values for are refused with exit
# code 2 and a message naming the function, the parameter, its type and its location.
. "$(dirname "$0")/lib.sh"
src=$E2E/inputs/unsupported.c

check "a union passed by value: exit 2, names 'u' and its type (structs: structs_mr.sh)"
expect_exit 2 "$MRFUZZ" build --build-dir h "$src:by_union"
expect_err "parameter 'u' of 'by_union' has type 'union num' which mrfuzz cannot generate: unions are not supported"

check "a function pointer: exit 2, names 'cb' and its type"
expect_exit 2 "$MRFUZZ" build --build-dir h "$src:with_callback"
expect_err "parameter 'cb' of 'with_callback' has type 'int (*)(int)' which mrfuzz cannot generate"

check "a variadic function: exit 2"
expect_exit 2 "$MRFUZZ" build --build-dir h "$src:variadic"
expect_err "'variadic' is variadic"

check "long double: exit 2"
expect_exit 2 "$MRFUZZ" build --build-dir h "$src:wide"
expect_err "parameter 'x' of 'wide' has type 'long double'"

check "void *: exit 2"
expect_exit 2 "$MRFUZZ" build --build-dir h "$src:untyped"
expect_err "parameter 'p' of 'untyped' has type 'void *'"

check "a refused signature writes no harness"
[ ! -e h/harness ] || fail "h/harness exists"
echo "ok"
