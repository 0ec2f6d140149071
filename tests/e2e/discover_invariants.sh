#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_invariants.sh - one-call invariants learned on the whole input space (issue
# #27; docs/discover.md, "Invariants"), on the held-out inputs/inv_subjects.c built with
# and without -DFAULT:
#   - round_long's fault lives above 2^52, far outside any box: from the faulty code alone
#     discovery reports `abs(y1 - x1) <= 0.5` as a suspected fault whose reproducer
#     violates it on the faulty code and replays clean on the fixed code, with a plain
#     `mrfuzz repro` (the suspects file states its domain: `domain x = whole;`); on the
#     fixed code the same invariant is written as a relation, and nothing is suspected;
#   - pos_diff's fault lives at the infinities: `where x1 <= y1; check ret1 == 0` is the
#     suspect, found the same way;
#   - arc_cosh's fixed version gets its NaN domain (`where x1 < 1.0; check isnan(y1)`)
#     and NaN propagation, and no suspect; its faulty version gives acosh(|x|) on every
#     x <= -2, half the negative numbers: that is the function's behaviour, not a rare
#     misbehaviour, and no suspect is claimed (a false suspect would be worse);
#   - recip (1 / (x - 3)): its relations between calls excuse NaN and predicted overflows,
#     never an infinite output as such, so the fixed code's relations find the faulty
#     one's +inf near the pole (a guard `isfinite(y1) && isfinite(y2)` skipped exactly
#     those), and the fixed code stays clean under check;
#   - check finds nothing on the fixed code with the written invariants, whose guards
#     read inputs only, and check of the faulty code with the fixed code's invariants
#     (their own `domain x = whole;`) finds the faults; `--invariants 0` writes none;
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/inv_subjects.c"
FAST=(--seed 1 --types I --runs 2 --fuzz-falsify 0)

# disc FN VARIANT CODE: discover FN (VARIANT bug: -DFAULT) into FN.VARIANT.mr; exit CODE.
disc() {
  local fl=()
  [ "$2" = bug ] && fl=(-DFAULT)
  expect_exit "$3" "$MRFUZZ" discover "$S:$1" "${fl[@]}" "${FAST[@]}" -o "$1.$2.mr" --build-dir "b_$1.$2"
}


check "round_long, faulty above 2^52: the invariant |y - x| <= 1/2 is a suspected fault"
disc round_long bug 1
expect_out "one-call invariants:"
grep -qF "domain x = whole;" round_long.bug.suspects.mr || fail "the suspects file states no domain"
found round_long "check abs(y1 - x1) <= 0.5;"

check "round_long, fixed: the invariant is written, nothing suspected"
disc round_long fix 0
grep -qF "check abs(y1 - x1) <= 0.5;" round_long.fix.mr || { cat round_long.fix.mr; fail "no invariant"; }
grep -qF 'origin = "discover/invariant"' round_long.fix.mr || fail "the invariant does not say where it comes from"
[ ! -e round_long.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "pos_diff, faulty at the infinities: x <= y gives 0 is a suspected fault"
disc pos_diff bug 1
found pos_diff "check ret1 == 0;"

check "pos_diff, fixed: written, nothing suspected"
disc pos_diff fix 0
grep -qF "where x1 <= y1;" pos_diff.fix.mr || { cat pos_diff.fix.mr; fail "no invariant x <= y"; }
[ ! -e pos_diff.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "arc_cosh, fixed: NaN below 1 and NaN in, NaN out; no suspect"
disc arc_cosh fix 0
grep -qF "where x1 < 1.0;" arc_cosh.fix.mr || { cat arc_cosh.fix.mr; fail "no NaN domain"; }
grep -qF "where isnan(x1);" arc_cosh.fix.mr || fail "no NaN propagation"
[ ! -e arc_cosh.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "arc_cosh, faulty on half the negative numbers: no NaN domain, no suspect claimed"
disc arc_cosh bug 0
! grep -qF "where x1 < 1.0;" arc_cosh.bug.mr || fail "the NaN domain is written where the code breaks it"

check "check: the fixed code keeps its invariants (bounded runs)"
for f in round_long pos_diff arc_cosh; do
  expect_exit 0 "$MRFUZZ" check "$S:$f" --mr "$f.fix.mr" --build-dir "b_$f.fix" --jobs 1 -- -runs=20000
done

check "regression: check of the faulty code with the fixed code's relations finds the fault"
# the invariants say `domain x = whole;`: check draws their inputs from the whole space
grep -qF "domain x = whole;" round_long.fix.mr || fail "the invariant states no domain of its own"
for f in round_long pos_diff; do
  expect_exit 1 "$MRFUZZ" check "$S:$f" -DFAULT --mr "$f.fix.mr" --build-dir "b_$f.bug" --jobs 1 -- -runs=200000
  r=$(grep -o 'reproducer: [^ ]*' out | head -n 1 | cut -d' ' -f2)
  [ -f "$r" ] || { cat out; fail "$f: no reproducer"; }
  expect_exit 0 "$MRFUZZ" repro "$S:$f" --mr "$f.fix.mr" --build-dir "b_$f.fix" "$r"
done

check "recip (a pole at 3): no guard on the outputs being finite; check finds nothing on the fixed code"
expect_exit 0 "$MRFUZZ" discover "$S:recip" "${FAST[@]}" -o recip.fix.mr --build-dir b_recip.fix
grep -q "^relation t" recip.fix.mr || { cat recip.fix.mr; fail "no relation between calls"; }
! grep -q "isfinite(y" recip.fix.mr || { cat recip.fix.mr; fail "a guard on the outputs being finite"; }
[ ! -e recip.fix.suspects.mr ] || { cat recip.fix.suspects.mr; fail "a suspect on the fixed code"; }
expect_exit 0 "$MRFUZZ" check "$S:recip" --mr recip.fix.mr --build-dir b_recip.fix --jobs 1 -- -runs=200000
check "recip, faulty (+inf within 0.5 of the pole, where the result is finite): the fixed code's relations find it"
expect_exit 1 "$MRFUZZ" check "$S:recip" -DFAULT --mr recip.fix.mr --build-dir b_recip.bug --jobs 1 -- -runs=500000
grep -q "outputs: return = inf;" err || { cat err; fail "the report shows no infinity"; }
r=$(grep -o 'reproducer: [^ ]*' out | head -n 1 | cut -d' ' -f2)
expect_exit 0 "$MRFUZZ" repro "$S:recip" --mr recip.fix.mr --build-dir b_recip.fix "$r"
echo "ok"

check "--invariants 0: none"
expect_exit 0 "$MRFUZZ" discover "$S:round_long" "${FAST[@]}" --invariants 0 -o none.mr --build-dir b_none
! grep -q "discover/invariant" none.mr || fail "--invariants 0 wrote an invariant"
echo "ok"
