#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rebuild.sh - "builds if needed": an up-to-date harness is reused, any edit of a source
# or of a header it includes rebuilds it (never a stale harness), a failed build leaves
# the previous harness working, and the trace reflects the edited code.
. "$(dirname "$0")/lib.sh"
cp "$E2E/inputs/edit.c" "$E2E/inputs/edit.h" .

ret_of() { # the return values of the trace t.trace
  "$MRFUZZ" trace t.trace | "$PYTHON" -c 'import sys,json; print(sorted({json.loads(l)["out"]["return"] for l in sys.stdin}))'
}

check "first run builds"
expect_exit 0 "$MRFUZZ" run --build-dir h edit.c:bump -n 5 --range x=0:0 --trace t.trace
expect_err "built h/harness"
[ "$(ret_of)" = "[1]" ] || fail "bump(0) = $(ret_of), want 1"
check "second run reuses the harness (nothing on stderr)"
expect_exit 0 "$MRFUZZ" run --build-dir h edit.c:bump -n 5 --range x=0:0 --trace t.trace
[ ! -s err ] || { cat err; fail "rebuilt although nothing changed"; }
check "build says up to date"
expect_exit 0 "$MRFUZZ" build --build-dir h edit.c:bump
expect_err "is up to date"

check "editing the header rebuilds, and the new code runs"
sed -i 's/BUMP 1/BUMP 2/' edit.h
expect_exit 0 "$MRFUZZ" run --build-dir h edit.c:bump -n 5 --range x=0:0 --trace t.trace
expect_err "built h/harness"
[ "$(ret_of)" = "[2]" ] || fail "bump(0) = $(ret_of) after the edit, want 2"

check "restoring the same contents does not rebuild (content, not mtime)"
touch edit.c edit.h
expect_exit 0 "$MRFUZZ" build --build-dir h edit.c:bump
expect_err "is up to date"

check "another -O level rebuilds"
expect_exit 0 "$MRFUZZ" build -O 0 --build-dir h edit.c:bump
expect_err "-O0"
check "-f rebuilds"
expect_exit 0 "$MRFUZZ" build -O 0 -f --build-dir h edit.c:bump
expect_err "built h/harness"

check "a syntax error: exit 2 with clang's message; the old harness stays and works"
cp edit.c edit.c.good
echo 'int broken(int x) { return x +; }' >>edit.c
expect_exit 2 "$MRFUZZ" run -O 0 --build-dir h edit.c:bump -n 1
expect_err "error: expected expression"
[ -x h/harness ] || fail "the previous harness was removed"
expect_exit 0 h/harness run -n 1
check "after the fix the next run rebuilds"
cp edit.c.good edit.c
sed -i 's/x + BUMP/x + BUMP + 40/' edit.c
expect_exit 0 "$MRFUZZ" run -O 0 --build-dir h edit.c:bump -n 5 --range x=0:0 --trace t.trace
expect_err "built h/harness"
[ "$(ret_of)" = "[42]" ] || fail "bump(0) = $(ret_of), want 42"
check "no temporary files are left in the build directory"
! ls h | grep -q '\.tmp\.' || fail "temporary files left: $(ls h)"
echo "ok"
