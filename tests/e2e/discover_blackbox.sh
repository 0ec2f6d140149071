#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_blackbox.sh - discovery on functions nobody here wrote, called as black boxes
# (no mined constants: seeds come from the generic table alone): glibc's sin (Table I (a),
# (c), (g) of AutoMR) and log1p; then the differential use: the relations found on glibc's
# sin, checked on the trig example's sine with `harness verify --any-name`, hold.
. "$(dirname "$0")/lib.sh"

check "glibc sin as a black box, types I and II: Table I (a), (c), (g)"
expect_exit 0 "$MRFUZZ" discover math.h:sin -l m --types I,II --seed 2 -o libm_sin.mr
expect_err "black box"
expect_exit 0 "$MRFUZZ" lint libm_sin.mr
"$PYTHON" "$E2E/discover_tablei.py" libm_sin.mr a,c,g
expect_exit 0 .mrfuzz/sin/harness verify --mr libm_sin.mr -n 100000 --seed 7
grep "0 failed" out || { cat out; fail "relations of libm sin fail on libm sin"; }

check "differential: libm sin's relations hold on trig_sin (verify --any-name, 100000 inputs)"
expect_exit 0 "$MRFUZZ" build "$EXAMPLES/trig/trig.c:trig_sin"
expect_exit 0 .mrfuzz/trig_sin/harness verify --mr libm_sin.mr -n 100000 --seed 8 --any-name
grep "0 failed" out || { cat out; fail "differential check"; }
check "without --any-name the other function's file is refused (exit 2)"
expect_exit 2 .mrfuzz/trig_sin/harness verify --mr libm_sin.mr -n 10

check "glibc log1p on [-0.9, 100], types I and VII: runs, and what it reports holds"
expect_exit 0 "$MRFUZZ" discover math.h:log1p -l m --types I,VII --range x=-0.9:100 --seed 2 -o log1p.mr
expect_exit 0 "$MRFUZZ" lint log1p.mr
expect_exit 0 .mrfuzz/log1p/harness verify --mr log1p.mr -n 100000 --seed 7 --range x=-0.9:100
grep "0 failed" out || { cat out; fail "log1p relations fail"; }
echo "ok"
