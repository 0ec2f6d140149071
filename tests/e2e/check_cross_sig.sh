#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_cross_sig.sh - relations across functions of different signatures (issue #19,
# docs/mrdsl.md "Relations across functions"): inputs/geom.mr relates geom_hyp(x, y) and
# geom_root(v) (inputs/geom.c). The correct functions check clean; geom_root off by a
# relative 1e-9 (-DGEOM_BUG) is caught by a relation with geom_hyp, and the report names
# each execution's function with its own parameters, as does the standalone test of
# `repro --emit-test`. `mrfuzz embed`'s C gives the oracle API's verdicts and calls, with
# and without a fault. inputs/bytes.mr relates functions whose arrays and out-buffers
# differ in kind (a uint8_t array, a char out-buffer, a string, int32_t elements): clean on
# the correct build, a fault in the string function caught. Registered twice: compiled
# and interpreted (MRFUZZ_CHECK_INTERP=1).
. "$(dirname "$0")/lib.sh"
GEOM=$E2E/inputs/geom.c
MR=$E2E/inputs/geom.mr
check "the relation file lints clean and is canonical"
expect_exit 0 "$MRFUZZ" lint "$MR"
expect_exit 0 "$MRFUZZ" fmt --check "$MR"
check "the correct functions: every relation checked, none violated"
expect_exit 0 "$MRFUZZ" check "$GEOM" --mr "$MR" --build-dir ok --jobs 1 -- -runs="$(runs 1500000)" -seed=1
for r in pythagoras swap chain; do
  grep -qE "^  $r +checked [1-9][0-9]*, skipped [0-9]+, violated 0$" out || { cat out; fail "$r not checked clean"; }
done
check "a fault in geom_root alone is caught against geom_hyp"
expect_exit 1 "$MRFUZZ" check "$GEOM" -D GEOM_BUG --mr "$MR" --build-dir bug --jobs 1 -- -max_total_time=30
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (relation \(pythagoras\|chain\); replay: .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out err; fail "no reproducer of a relation across functions"; }
check "the report names each execution's function by its own parameters; the reproducer replays"
expect_err "(source, geom_hyp): x1 = "
expect_err "(follow-up, geom_root): v2 = "
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$GEOM" -D GEOM_BUG --mr "$MR" "$rep"
expect_err "(follow-up, geom_root): v2 = "
expect_exit 0 "$MRFUZZ" repro --build-dir ok "$GEOM" --mr "$MR" "$rep"
expect_err "no relation violated"
check "repro --emit-test: a standalone test with each execution in its function's layout"
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$GEOM" -D GEOM_BUG --mr "$MR" "$rep" --emit-test t.c
grep -qE '^  in2\[0\] = 0x[0-9a-f]+u; /\* v = ' t.c || { cat t.c; fail "execution 2 is not geom_root's"; }
CC=${MR_CLANG:-clang-14}
$CC -std=c11 -Wall -Wextra -Werror -DGEOM_BUG t.c "$GEOM" -lm -o t_bug
expect_exit 1 ./t_bug
expect_out "(follow-up, geom_root): v2 = "
$CC -std=c11 -Wall -Wextra -Werror t.c "$GEOM" -lm -o t_ok
expect_exit 0 ./t_ok
check "arrays, strings and out-buffers of different kinds across functions (inputs/bytes.mr)"
BYTES=$E2E/inputs/bytes.c
expect_exit 0 "$MRFUZZ" check "$BYTES" --mr "$E2E/inputs/bytes.mr" --build-dir bytes_ok --jobs 1 -- -runs="$(runs 500000)" -seed=1
for r in measured summed; do
  grep -qE "^  $r +checked [1-9][0-9]*, skipped [0-9]+, violated 0$" out || { cat out; fail "$r not checked clean"; }
done
expect_exit 1 "$MRFUZZ" check "$BYTES" -D BYTES_BUG --mr "$E2E/inputs/bytes.mr" --build-dir bytes_bug --jobs 1 \
  -- -max_total_time=30
grep -qE "^  measured +checked [0-9]+, skipped [0-9]+, violated 1$" out || { cat out; fail "hex_len's fault not caught"; }
expect_err "(follow-up, hex_len): t2 = \""
check "mrfuzz embed: the generated C == the oracle API's interpreter, with and without the fault"
ROOT=$(cd "$E2E/../.." && pwd)
LIB=$(cd "$(dirname "$MRFUZZ")/../lib" && pwd)
SAN="" # the libraries of the asan preset need the sanitizers' runtimes (embed.sh)
if nm "$LIB/libmreng.a" 2>/dev/null | grep -q __asan_report; then
  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
fi
expect_exit 0 "$MRFUZZ" embed "$MR" -o geom.h
# shellcheck disable=SC2086
$CC -std=c11 -O1 -g $SAN -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" -I. \
  -DEMBED_H='"geom.h"' "$E2E/embed_geom.c" "$GEOM" \
  "$LIB/libmreng.a" "$LIB/libmrdsl.a" "$LIB/libmrrt.a" -lz3 -llapacke -llapack -lblas -lm -lpthread -o geom
expect_exit 0 ./geom "$MR" 3000 7
cat out
[ "$(grep -c identical out)" = 6 ] || fail "not every relation and fault compared"
echo ok
