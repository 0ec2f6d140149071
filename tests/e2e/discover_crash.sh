#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_crash.sh - a subject that segfaults on part of its domain (x in (40, 41)):
# discovery runs its calls in forked workers, so it finishes, reports the crashing inputs
# (confirmed in a throwaway child) and the slice probed around them, excludes it, and
# still finds the oddness f(-x) = -f(x), which holds outside the crashing slice, guarded
# against it. The crash is a finding: exit 1 (tests/e2e/discover_misbehave.sh has more).
. "$(dirname "$0")/lib.sh"
# $1 = ON in the sanitizer preset: the libFuzzer stage a fifth of the default 10^6 executions
# (about the 5 s it had when it was timed; the harness is ~5x slower at it there)
FUZZ=()
[ "${1:-OFF}" != ON ] || FUZZ=(--fuzz-runs 200000)

check "discover on a crashing subject: exit 1, crashes reported with their inputs and the slice (40, 41)"
expect_exit 1 "$MRFUZZ" discover "$E2E/inputs/disc_crash.c:disc_crash" --types I --seed 4 "${FUZZ[@]}" \
  -o crash.mr
cat out
expect_out "excluded inputs:"
grep -E "crash at x=4[0-9]\.[0-9]*" out || fail "no crashing input reported in (40, 41)"
awk '/crash at x=/ { split($3, a, "="); if (a[2] <= 40 || a[2] >= 41) bad = 1 } END { exit bad }' out ||
  fail "a reported crashing input is outside (40, 41)"
grep -qE "crash at x=.*excluded: 40(\.0)? < x < 41(\.0)?$" out || fail "the slice is not reported as 40 < x < 41"

check "the relation file lints and contains the oddness x2 = -x1, y1 + y2 = 0, guarded against the slice"
expect_exit 0 "$MRFUZZ" lint crash.mr
grep -q "x2 = -x1;" crash.mr || { cat crash.mr; fail "no x2 = -x1"; }
grep -q "where !(x1 >= 40.0 && x1 <= 41.0) && !(-x1 >= 40.0 && -x1 <= 41.0);" crash.mr ||
  { cat crash.mr; fail "x2 = -x1 is not guarded against the slice"; }

check "the reported relations hold away from the crash (verify on x in [-30, 30])"
expect_exit 0 .mrfuzz/disc_crash/harness verify --mr crash.mr -n 20000 --range x=-30:30
grep "0 failed" out || { cat out; fail "verify"; }
echo "ok"
