#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# compdb.sh - a library builds with its own flags, read from its compilation database:
# a two-file library whose header is found only through a relative -I and which needs a
# -D, both only in compile_commands.json. The build fails clearly without the database,
# works with -p and with the database found upward from FILE, the source without an entry
# gets FILE's flags, and a changed entry rebuilds (an unrelated one does not).
. "$(dirname "$0")/lib.sh"
mkdir -p lib/src lib/include build empty
cat >lib/include/scale.h <<'H'
#ifndef LIB_FACTOR
#error "LIB_FACTOR must be defined by the library's build"
#endif
double lib_helper(double x);
double lib_scale(double x);
H
cat >lib/src/scale.c <<'C'
#include "scale.h"
double lib_scale(double x) { return LIB_FACTOR * lib_helper(x); }
C
cat >lib/src/helper.c <<'C'
#include "scale.h"
double lib_helper(double x) { return x + LIB_FACTOR; }
C
# Only scale.c has an entry (helper.c gets FILE's flags); -I relative to "directory".
db() { # db FACTOR [EXTRA_ENTRY]: the database's text
  printf '[{"directory": "%s/lib/src", "arguments": ["cc", "-I../include", "-DLIB_FACTOR=%s", "-O3", "-Werror", "-Wall", "-c", "scale.c", "-o", "scale.o"], "file": "scale.c"}%s]\n' \
    "$WORK" "$1" "${2:-}"
}
ret_of() { # ret_of DIR [BUILD FLAGS]: the return value of lib_scale(1) in the harness DIR
  "$MRFUZZ" run --build-dir "$@" lib/src/scale.c:lib_scale lib/src/helper.c -n 1 --range x=1:1 --trace t.trace >/dev/null 2>&1
  "$MRFUZZ" trace t.trace | "$PYTHON" -c 'import sys,json; print(sorted({json.loads(l)["out"]["return"] for l in sys.stdin}))'
}

check "without the database: exit 2, clang's message and a hint at -p"
expect_exit 2 "$MRFUZZ" build --build-dir h0 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "'scale.h' file not found"
# no database, or only one upward without an entry for it (this tree's own build's)
grep -qE "give the library's build directory with -p|has no entry for it; give the build directory of its own library with -p" err ||
  { cat err >&2; fail "no hint at -p"; }

check "-p BUILD_DIR: both files build with the entry's -I and -D; -v names the database"
db 3 >build/compile_commands.json
expect_exit 0 "$MRFUZZ" build -v -p build --build-dir h1 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "compilation database $WORK/build/compile_commands.json"
expect_err "-I$WORK/lib/src/../include"
expect_err "-DLIB_FACTOR=3"
# 3 * (1 + 3): helper.c, not in the database, got scale.c's -D
[ "$(ret_of h1 -p build)" = "[12]" ] || fail "lib_scale(1) = $(ret_of h1 -p build), want [12]"
check "the database's -O3 and -Werror are not used (mrpass warns in helper.c, which lacks the target)"
expect_err "built h1/harness"
expect_err "-O2"
expect_err "-Wall"
! grep -q -- "-O3" err || fail "the database's -O3 reached the compiler"
! grep -q -- "-Werror" err || fail "the database's -Werror reached the compiler"

check "-p naming a directory without a database: exit 2"
expect_exit 2 "$MRFUZZ" build -p empty --build-dir h1 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "no compile_commands.json there"

check "found upward from FILE (lib/src -> lib)"
db 3 >lib/compile_commands.json
expect_exit 0 "$MRFUZZ" build -v --build-dir h2 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "compilation database $WORK/lib/compile_commands.json"
[ "$(ret_of h2)" = "[12]" ] || fail "lib_scale(1) = $(ret_of h2), want [12]"
check "up to date while the database is the same"
expect_exit 0 "$MRFUZZ" build --build-dir h2 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "is up to date"
check "an entry of another file changed: still up to date (the flags used are the same)"
db 3 ', {"directory": "/elsewhere", "command": "cc -DOTHER -c other.c", "file": "other.c"}' >lib/compile_commands.json
expect_exit 0 "$MRFUZZ" build --build-dir h2 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "is up to date"
check "the entry's -D changed: rebuilt, and the new flags are in the code"
db 5 >lib/compile_commands.json
expect_exit 0 "$MRFUZZ" build --build-dir h2 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "built h2/harness"
[ "$(ret_of h2)" = "[30]" ] || fail "lib_scale(1) = $(ret_of h2) after the edit, want [30]"
check "a user's -D wins over the database's"
expect_exit 0 "$MRFUZZ" build --build-dir h3 -D LIB_FACTOR=2 lib/src/scale.c:lib_scale lib/src/helper.c
[ "$(ret_of h3 -D LIB_FACTOR=2)" = "[6]" ] || fail "lib_scale(1) = $(ret_of h3 -D LIB_FACTOR=2) with -D LIB_FACTOR=2, want [6]"
check "a truncated database is refused with the byte where it ends (exit 2), not used in part"
db 3 | head -c 120 >build/compile_commands.json
expect_exit 2 "$MRFUZZ" build -p build --build-dir h4 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "not a compilation database (a JSON array of entries): it ends inside an entry (truncated?), at byte 120"
printf '[{"file": "a.c", "directory": "/", "command": "cc a.c"} {"file": "b.c"}]' >build/compile_commands.json
expect_exit 2 "$MRFUZZ" build -p build --build-dir h4 lib/src/scale.c:lib_scale lib/src/helper.c
expect_err "entries are not separated by ','"

check "a large database (20000 other entries around FILE's): the entry is found"
"$PYTHON" - "$WORK" >build/compile_commands.json <<'PY'
import json, sys
w = sys.argv[1]
other = [{"directory": "/src/lib%d" % i, "file": "f%d.c" % i,
          "arguments": ["cc", "-DX=%d" % i, "-I/usr/include/x%d" % i, "-c", "f%d.c" % i]} for i in range(20000)]
mine = {"directory": w + "/lib/src", "file": "scale.c",
        "arguments": ["cc", "-I../include", "-DLIB_FACTOR=4", "-c", "scale.c"]}
json.dump(other[:10000] + [mine] + other[10000:], sys.stdout)
PY
expect_exit 0 "$MRFUZZ" build -p build --build-dir h5 lib/src/scale.c:lib_scale lib/src/helper.c
[ "$(ret_of h5 -p build)" = "[20]" ] || fail "lib_scale(1) = $(ret_of h5 -p build) with the large database, want [20]"
echo "ok"
