#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_twins.sh - a float function's double twin as its oracle (issue #27;
# docs/discover.md, "Twins"), on the held-out inputs/twin_subjects.c:
#   - soft_exp2f, faulty (-DFAULT: inf from 127 on, where 2^x is finite up to 128), has its
#     twin soft_exp2 found by name and signature; the relation across the two is a
#     suspected fault whose reproducer violates it on the faulty code and replays clean on
#     the fixed code with a plain `mrfuzz repro` (both subjects and `domain x = whole;` in
#     the suspects file);
#   - soft_exp2f, fixed: the relation across the two is written (`calls soft_exp2f,
#     soft_exp2`), nothing suspected, and check finds nothing with it, in the default box
#     and on the whole input space;
#   - wavef, faulty (a cancellation: sinf(x) - 0.5f, thousands of ulps off next to the
#     roots), is a suspect whose reproducer replays clean on the fixed code; fixed, its
#     twin relation is written;
#   - half_stepf is no twin of half_step (it rounds first): said, nothing written or
#     suspected; soft_exp2 (no trailing f) has no twin; --twin-inputs 0 writes none.
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/twin_subjects.c"
FAST=(--seed 1 --types I --runs 2 --fuzz-falsify 0)

check "soft_exp2f, faulty: its twin soft_exp2 is found and the relation across them is a suspect"
expect_exit 1 "$MRFUZZ" discover "$S:soft_exp2f" -DFAULT "${FAST[@]}" -o bug.mr --build-dir b_bug
expect_out "twin: soft_exp2, the double version of soft_exp2f, is its oracle on the whole input space"
expect_out "a suspected fault"
grep -qF "relation suspect_twin_soft_exp2 calls soft_exp2f, soft_exp2 {" bug.suspects.mr || { cat bug.suspects.mr; fail "no twin suspect"; }
# triage: the float function jumps at its wrong overflow threshold, the double twin does not
grep -q "triage .*execution 1 sits at a jump.*execution 2 follows its neighbours" out ||
  { cat out; fail "no triage naming the float execution"; }
grep -qF "subject soft_exp2(double x) -> double y;" bug.suspects.mr || fail "the suspects file lacks the twin's subject"
# replays F PREFIX SUSPECTS: how many of the suspect's reproducers violate on the faulty
# F and replay clean on the fixed F (one that violates on both fails the test)
replays() {
  local n=0 r code
  for r in "$2".suspects/suspect_twin_"$3"-*.min; do
    [ -f "$r" ] || continue
    code=0
    "$MRFUZZ" repro "$S:$1" -DFAULT --mr "$2".suspects.mr --build-dir "r_$2" "$r" >/dev/null 2>&1 || code=$?
    [ "$code" = 1 ] || continue
    "$MRFUZZ" repro "$S:$1" --mr "$2".suspects.mr --build-dir "r_$2_fix" "$r" >rep.out 2>&1 ||
      { cat rep.out >&2; fail "$r violates the twin relation on the fixed $1 too"; }
    n=$((n + 1))
  done
  echo "$n"
}
n=$(replays soft_exp2f bug soft_exp2) || exit 1
[ "$n" -gt 0 ] || fail "no reproducer violates the twin relation on the faulty code"
echo "$n reproducers violate on the faulty code and replay clean on the fixed code"

check "soft_exp2f, fixed: the relation across the twins is written; check finds nothing"
expect_exit 0 "$MRFUZZ" discover "$S:soft_exp2f" "${FAST[@]}" -o fix.mr --build-dir b_fix
expect_out "twin: soft_exp2f is soft_exp2 within"
grep -qF "relation twin_soft_exp2 calls soft_exp2f, soft_exp2 {" fix.mr || { cat fix.mr; fail "no twin relation"; }
grep -qF 'origin = "discover/twin"' fix.mr || fail "the twin relation does not say where it comes from"
[ ! -e fix.suspects.mr ] || { cat fix.suspects.mr; fail "a suspect on the fixed code"; }
expect_exit 0 "$MRFUZZ" check "$S:soft_exp2f" --mr fix.mr --build-dir c_fix --jobs 1 -- -runs=20000
expect_exit 0 "$MRFUZZ" check "$S:soft_exp2f" --mr fix.mr --build-dir c_fix --jobs 1 --range x=whole -- -runs=20000

check "regression: check of the faulty code with the fixed code's twin relation finds the fault"
# --seed: libFuzzer finds x in (127, 128] within 10^4 to 4 x 10^4 executions, by chance
expect_exit 1 "$MRFUZZ" check "$S:soft_exp2f" -DFAULT --mr fix.mr --build-dir c_bug --jobs 1 --seed 1 -- -runs=200000
r=$(grep -o 'reproducer: [^ ]*' out | head -n 1 | cut -d' ' -f2)
[ -f "$r" ] || { cat out; fail "no reproducer"; }
expect_exit 0 "$MRFUZZ" repro "$S:soft_exp2f" --mr fix.mr --build-dir c_fix "$r"

check "wavef cancels near its roots: a suspect on the faulty code, the twin relation on the fixed"
expect_exit 1 "$MRFUZZ" discover "$S:wavef" -DFAULT "${FAST[@]}" -o wbug.mr --build-dir w_bug
expect_out "grossly wrong: a suspected fault"
n=$(replays wavef wbug wave) || exit 1
[ "$n" -gt 0 ] || fail "no reproducer of wavef's suspect violates on the faulty code"
expect_exit 0 "$MRFUZZ" discover "$S:wavef" "${FAST[@]}" -o wfix.mr --build-dir w_fix
grep -qF "relation twin_wave calls wavef, wave {" wfix.mr || { cat wfix.mr; fail "no twin relation for the fixed wavef"; }
[ ! -e wfix.suspects.mr ] || { cat wfix.suspects.mr; fail "a suspect on the fixed wavef"; }

check "half_stepf rounds where half_step does not: no twin written, no suspect"
expect_exit 0 "$MRFUZZ" discover "$S:half_stepf" "${FAST[@]}" -o half.mr --build-dir b_half
expect_out "twin: half_stepf is not half_step within"
! grep -q "calls half_stepf, half_step" half.mr || fail "a twin relation that does not hold"
[ ! -e half.suspects.mr ] || fail "a suspect for a function that is no twin"

check "no trailing f: no twin; --twin-inputs 0: none"
expect_exit 0 "$MRFUZZ" discover "$S:soft_exp2" "${FAST[@]}" -o d.mr --build-dir b_d
! grep -q "^twin:" out || fail "a twin for a function without a trailing f"
expect_exit 0 "$MRFUZZ" discover "$S:soft_exp2f" "${FAST[@]}" --twin-inputs 0 -o none.mr --build-dir b_fix
! grep -q "calls soft_exp2f, soft_exp2" none.mr || fail "--twin-inputs 0 wrote a twin relation"
echo "ok"
