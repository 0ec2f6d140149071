#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_blackbox.sh - discovery on functions nobody here wrote, called as black boxes
# (no mined constants: seeds come from the generic table alone): glibc's sin (Table I (a),
# (c), (g) of AutoMR) and log1p (GSL's J0: discover_gsl.sh); then the differential use:
# the relations found on glibc's sin, checked on the trig example's sine with `harness
# verify --any-name` and with the checking engine (`mrfuzz check --engine random`), hold.
. "$(dirname "$0")/lib.sh"
# The libFuzzer stage has its own tests (discover_fuzz.sh, discover_gsl.sh); here it would
# only add a fuzz build and seconds per discovery.
DOPTS=(--fuzz-falsify 0)
# $1 = ON in the sanitizer preset: fewer PSO runs, a smaller filter, fewer verify inputs
VERIFY_N=100000
if [ "${1:-OFF}" = ON ]; then
  DOPTS+=(--runs 8 --iters 20 --filter 50:20)
  VERIFY_N=20000
  echo "note: sanitizer build: ${DOPTS[*]}, verify on $VERIFY_N inputs"
fi

check "glibc sin as a black box, types I and II: Table I (a), (c), (g)"
expect_exit 0 "$MRFUZZ" discover math.h:sin -l m --types I,II --seed 2 -o libm_sin.mr "${DOPTS[@]}"
expect_err "black box"
expect_exit 0 "$MRFUZZ" lint libm_sin.mr
"$PYTHON" "$E2E/discover_tablei.py" libm_sin.mr a,c,g
expect_exit 0 .mrfuzz/sin/harness verify --mr libm_sin.mr -n "$VERIFY_N" --seed 7
grep "0 failed" out || { cat out; fail "relations of libm sin fail on libm sin"; }

check "differential: libm sin's relations hold on trig_sin (verify --any-name, $VERIFY_N inputs)"
expect_exit 0 "$MRFUZZ" build "$EXAMPLES/trig/trig.c:trig_sin"
expect_exit 0 .mrfuzz/trig_sin/harness verify --mr libm_sin.mr -n "$VERIFY_N" --seed 8 --any-name
grep "0 failed" out || { cat out; fail "differential check"; }
check "without --any-name the other function's file is refused (exit 2)"
expect_exit 2 .mrfuzz/trig_sin/harness verify --mr libm_sin.mr -n 10
check "differential with the checking engine: libm sin's relations, renamed, on trig_sin (check --engine random)"
sed 's/^subject sin(/subject trig_sin(/' libm_sin.mr >diff_sin.mr
expect_exit 0 "$MRFUZZ" check "$EXAMPLES/trig/trig.c:trig_sin" --mr diff_sin.mr --engine random -- -runs=5000 -seed=3
grep -qE "checks, 0 violated" out || { cat out err; fail "differential check found violations"; }

check "glibc log1p on [-0.9, 100], types I and VII: runs, and what it reports holds"
expect_exit 0 "$MRFUZZ" discover math.h:log1p -l m --types I,VII --range x=-0.9:100 --seed 2 -o log1p.mr \
  "${DOPTS[@]}"
expect_exit 0 "$MRFUZZ" lint log1p.mr
expect_exit 0 .mrfuzz/log1p/harness verify --mr log1p.mr -n "$VERIFY_N" --seed 7 --range x=-0.9:100
grep "0 failed" out || { cat out; fail "log1p relations fail"; }

echo "ok"
