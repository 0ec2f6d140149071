#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_triage.sh - which execution of a violated relation looks wrong (issue #27; docs/
# checking.md, "Triage"), on inputs/triage_subjects.c: check and repro call each
# execution's function next to its input and name the result off its neighbours' trend.
#   - odd_spike, faulty on a sliver around 1.25: f(-x) = -f(x) breaks at x = 1.25; the
#     execution at +1.25 looks wrong, the one at -1.25 follows its neighbours;
#   - the same on the fixed code: nothing violated, no triage;
#   - ramp_cut, faulty from 4 on (a region): x2 = x1 / 2 breaks for x1 in (4, 8); inside
#     the region every execution follows its neighbours' trend, and that is said rather
#     than a guess; at x1 = 4 (the body's literal, in libFuzzer's dictionary) the
#     execution sits at a jump.
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/triage_subjects.c"

cat >odd.mr <<'MR'
mrdsl 1;
subject odd_spike(double x) -> double y;
domain x = [-1.25, 1.25];
relation odd {
  x2 = -x1;
  where x1 == 1.25;
  check approx(y2, -y1, rel=1e-12);
}
MR

check "odd_spike, faulty at 1.25: the execution at +1.25 looks wrong, the one at -1.25 follows"
# x1 = 1.25 exactly: libFuzzer's dictionary holds the body's literal (a run stops at its
# first violation)
expect_exit 1 "$MRFUZZ" check "$S:odd_spike" -DFAULT --mr odd.mr --build-dir b_odd --jobs 1 -- -runs=2000000
grep -q "^triage .*execution 1 looks wrong" err || { cat err; fail "execution 1 not named as wrong"; }
grep -q "^triage .*execution 2 follows its neighbours" err || { cat err; fail "execution 2 not said to follow its neighbours"; }
r=$(grep -o 'reproducer: [^ ]*' out err | head -n 1 | cut -d' ' -f2)
[ -f "$r" ] || { cat out err; fail "no reproducer"; }

check "repro says the same"
expect_exit 1 "$MRFUZZ" repro "$S:odd_spike" -DFAULT --mr odd.mr --build-dir b_odd "$r"
grep -q "^triage .*execution 1 looks wrong" out err || { cat out err; fail "repro: no triage"; }

check "odd_spike, fixed: nothing violated, no triage"
expect_exit 0 "$MRFUZZ" check "$S:odd_spike" --mr odd.mr --build-dir b_odd_fix --jobs 1 -- -runs=100000
! grep -q "^triage" out err || fail "a triage line without a violation"

cat >ramp.mr <<'MR'
mrdsl 1;
subject ramp_cut(double x) -> double y;
domain x = [2.0, 7.5];
relation half {
  x2 = x1 / 2;
  where x1 > 4.5;
  check approx(y2, y1 / 2, rel=1e-12);
}
MR

check "ramp_cut, faulty over a region: every execution follows its neighbours (no guess)"
expect_exit 1 "$MRFUZZ" check "$S:ramp_cut" -DFAULT --mr ramp.mr --build-dir b_ramp --jobs 1 -- -runs=2000000
grep -q "^triage .*every execution follows its neighbours' trend" err || { cat err; fail "no region verdict"; }

sed -i "s/where x1 > 4.5;/where x1 == 4.0;/" ramp.mr
check "ramp_cut at its edge x = 4: the execution sits at a jump"
expect_exit 1 "$MRFUZZ" check "$S:ramp_cut" -DFAULT --mr ramp.mr --build-dir b_ramp --jobs 1 -- -runs=2000000
grep -q "^triage .*execution 1 sits at a jump" err || { cat err; fail "no jump at the edge"; }
echo "ok"
