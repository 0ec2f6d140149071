#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_cross.sh - relations across functions (issue #19, docs/mrdsl.md "Relations across
# functions"): examples/trig/trig_api.mr relates trig_sin, trig_cos and trig_tan. The
# correct library checks clean; a fault seeded in trig_cos alone (a wrong result on one
# range) is caught by an identity with trig_sin, the report names the function of every
# execution, the reproducer replays and minimizes; score mutates every function the
# relations call and says which mutants only the relations across functions kill.
. "$(dirname "$0")/lib.sh"
TRIG=$EXAMPLES/trig
MR=$TRIG/trig_api.mr
check "the example lints clean"
expect_exit 0 "$MRFUZZ" lint "$MR"
check "the correct functions: every relation checked, none violated"
expect_exit 0 "$MRFUZZ" check "$TRIG/trig.c" --mr "$MR" --build-dir ok --jobs 1 -- -runs="$(runs 1000000)" -seed=1
for r in periodic odd cos_shift pythagoras quotient; do
  grep -qE "^  $r +checked [1-9][0-9]*, skipped [0-9]+, violated 0$" out || { cat out; fail "$r not checked clean"; }
done
check "a fault in trig_cos alone is caught against trig_sin"
# trig.c with trig_cos off by a relative 1e-6 on (2, 2.1): its definition renamed, a wrapper added
sed 's/^double trig_cos(double x) {/static double cos_ok(double x) {/' "$TRIG/trig.c" >bug.c
cat >>bug.c <<'C'
double trig_cos(double x) {
  double r = cos_ok(x);
  return x > 2.0 && x < 2.1 ? r * (1 + 1e-6) : r;
}
C
cp "$TRIG/trig.h" .
expect_exit 1 "$MRFUZZ" check bug.c --mr "$MR" --build-dir bug --jobs 1 --sarif bug.sarif -- -max_total_time=30
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (relation \(cos_shift\|pythagoras\|quotient\); replay: .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out err; fail "no reproducer of a relation across functions"; }
validate sarif bug.sarif
check "the reproducer replays, names each execution's function, minimizes, and passes on the correct code"
expect_exit 1 "$MRFUZZ" repro --build-dir bug bug.c --mr "$MR" "$rep"
expect_err "(source, trig_sin): x1 = "
expect_err "(follow-up, trig_cos): x2 = "
expect_exit 0 "$MRFUZZ" minimize --build-dir bug bug.c --mr "$MR" "$rep" -- -runs=300
[ -f "$rep.min" ] || fail "no minimized reproducer"
expect_exit 1 "$MRFUZZ" repro --build-dir bug bug.c --mr "$MR" "$rep.min"
expect_exit 0 "$MRFUZZ" repro --build-dir ok "$TRIG/trig.c" --mr "$MR" "$rep"
expect_err "no relation violated"
check "a .mr whose other subject FILE does not define: a clear error, nothing run"
sed 's/^subject trig_tan(/subject trig_atan(/; s/trig_tan {/trig_atan {/' "$MR" >atan.mr
expect_exit 2 "$MRFUZZ" check "$TRIG/trig.c" --mr atan.mr --build-dir atan -- -runs=10
expect_err "trig_atan"
check "score mutates every function the relations call and counts what only the identities kill"
expect_exit 0 "$MRFUZZ" score "$TRIG/trig.c:trig_sin" --mr "$MR" --build-dir sc --mutate target
grep -qE "^trig_cos +trig.c +[1-9]" out || { cat out; fail "no mutants of trig_cos"; }
grep -qE "^trig_tan +trig.c +[1-9]" out || { cat out; fail "no mutants of trig_tan"; }
n=$(sed -n 's/^killed only by relations across functions: \([0-9]*\) mutant.*/\1/p' out)
[ -n "$n" ] && [ "$n" -gt 0 ] || { cat out; fail "no mutant killed only by the relations across functions"; }
echo ok
