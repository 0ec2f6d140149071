#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libcalls.sh OPT [SANITIZE] - a user's own test traced (issue #30), below the driver: the
# library of inputs/libcalls/ (lib_f.c defines the target f; lib_g.c calls f directly and
# through a pointer) is compiled with clang -fpass-plugin=mrpass, MR_FUNCTIONS=f and
# MR_LIBCALLS=1, the test program plainly, linked with libmrrt, and run under MR_TRACE
# with MR_TEST_NAME. `mrfuzz trace` must name the test on every call, and say "from":
# "library" on the calls the library made (through g, through apply's pointer), not on
# the test's own; the summary counts both kinds, the tests and the processes.
. "$(dirname "$0")/lib.sh"
: "${MR_CLANG:?}" "${MR_PLUGIN:?}" "${MR_RTLIB:?}"
opt=$1
san=()
[ "${2:-OFF}" != ON ] || san=(-fsanitize=address,undefined)
in=$E2E/inputs/libcalls
cc=("$MR_CLANG" -std=c11 -O"$opt" -g "${san[@]}")

check "both library sources build with the plugin and MR_LIBCALLS=1, without a warning"
for src in lib_f lib_g; do
  expect_exit 0 env MR_FUNCTIONS=f MR_LIBCALLS=1 "${cc[@]}" -fpass-plugin="$MR_PLUGIN" \
    -c "$in/$src.c" -o $src.o
  [ ! -s err ] || { cat err >&2; fail "$src.c: unexpected messages on stderr"; }
done
check "lib_g.o, which marks calls, defines its own __mr_lib_calls (thread-local, weak, hidden)"
readelf -sW lib_g.o | grep -qE ' TLS +WEAK +HIDDEN .* __mr_lib_calls$' ||
  { readelf -sW lib_g.o >&2; fail "lib_g.o: no weak hidden TLS counter"; }

check "the test program (no plugin) links with the library and libmrrt"
expect_exit 0 "${cc[@]}" -c "$in/test_lib.c" -o test_lib.o
expect_exit 0 "${cc[@]}" test_lib.o lib_f.o lib_g.o "$MR_RTLIB" -lpthread -lm -o test_lib

check "two tests run under MR_TRACE, each with its MR_TEST_NAME"
expect_exit 0 env MR_TRACE="$WORK/t.trace" MR_TEST_NAME=test_one ./test_lib
expect_exit 0 env MR_TRACE="$WORK/t.trace" MR_TEST_NAME=test_two ./test_lib
expect_exit 0 "$MRFUZZ" trace t.trace
cp out t.jsonl

check "the test's own call has no \"from\"; the library's calls say \"from\":\"library\""
"$PYTHON" - t.jsonl <<'PY'
import json, sys
calls = [json.loads(line) for line in open(sys.argv[1])]
got = sorted((c.get("proc", 0), c["test"], c["in"]["x"], c.get("from", "test"), c["out"]["return"])
             for c in calls)
want = sorted((p, t, x, frm, 2 * x) for p, t in ((0, "test_one"), (1, "test_two"))
              for x, frm in ((1, "test"), (3, "library"), (5, "library")))
if got != want or any(c["fn"] != "f" for c in calls):
    sys.exit("FAIL: calls\n%s\nwant\n%s" % ("\n".join(map(str, got)), "\n".join(map(str, want))))
print("ok: %d calls of f, the test's own and the library's told apart" % len(calls))
PY

check "the summary counts the calls by caller, the tests and the processes"
expect_exit 0 "$MRFUZZ" trace --summary t.trace
grep -A2 '^f (' out | grep -qxF '  from tests: 2  from the library: 4  tests: 2  processes: 2' ||
  { cat out >&2; fail "summary of f"; }

check "without MR_TEST_NAME no call names a test"
expect_exit 0 env MR_TRACE="$WORK/u.trace" ./test_lib
expect_exit 0 "$MRFUZZ" trace u.trace
[ "$(grep -c '"from":"library"' out)" = 2 ] && ! grep -q '"test"' out || { cat out >&2; fail "u.trace"; }
check "a marked object links on its own: lib_g.o with a plain f and no runtime"
expect_exit 0 "${cc[@]}" test_lib.o lib_g.o "$in/lib_f.c" -o plain
expect_exit 0 ./plain
expect_out 19
echo "libcalls.sh: ok"
