#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh - `mrfuzz check / repro / minimize` on subjects with hand-seeded faults
# (inputs/chk_bug.c): a wrong answer is found under libFuzzer and with --engine random
# within a bounded run, its reproducer replays with the same report and minimizes to the
# same relation; a crash of the target is reported as a crash, not a violation; a corrupted
# or mismatched .mr fails before anything runs; the fixed program reports nothing.
. "$(dirname "$0")/lib.sh"
SRC="$E2E/inputs/chk_bug.c"
MEAN_MR="$E2E/inputs/chk_mean.mr"

check "corrupted .mr: exit 2 with its position, before building or fuzzing"
sed 's/a2 = reverse(a1);/a2 = reverse(a1;/' "$MEAN_MR" >bad.mr
expect_exit 2 "$MRFUZZ" check --build-dir hb "$SRC:chk_mean" --mr bad.mr -- -runs=10
grep -qE "bad.mr:[0-9]+:[0-9]+: error" err || { cat err >&2; fail "no position in the message"; }
expect_err "nothing was run"
[ ! -e hb ] || fail "a build directory was created for a corrupted .mr"
echo "ok"

check "mismatched .mr (another function's subject): exit 2 before fuzzing"
expect_exit 2 "$MRFUZZ" check --build-dir hm "$SRC:chk_crash" --mr "$MEAN_MR" -- -runs=10
expect_err "the relations are for 'chk_mean', not 'chk_crash'"
[ -z "$(ls hm/corpus 2>/dev/null)" ] || fail "the corpus was touched"
expect_exit 2 "$MRFUZZ" check --build-dir hm "$SRC:chk_crash" --mr "$MEAN_MR" --engine random -- -runs=10
echo "ok"

check "libFuzzer finds the seeded wrong answer (bounded: -runs), exit 1, report + reproducer"
mkdir -p art
expect_exit 1 "$MRFUZZ" check --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" -- -runs=500000 -seed=1 -artifact_prefix=art/
expect_err "==== mrfuzz: relation violated: "
expect_err "residual "
expect_err "execution 2 (follow-up):"
expect_out "reproducer: art/crash-"
expect_out "(relation "
REPRO=$(sed -n 's/.*reproducer: \(art\/crash-[0-9a-f]*\) (relation.*/\1/p' out | head -1)
REL=$(sed -n 's/.*reproducer: art\/crash-[0-9a-f]* (relation \([a-z_]*\);.*/\1/p' out | head -1)
[ -n "$REPRO" ] && [ -f "$REPRO" ] || fail "no reproducer file"
grep -qE "executions in .* relations, [0-9]+ checks, 1 violated; blocks [0-9]+/[0-9]+, edges" out ||
  { cat out >&2; fail "summary line"; }
echo "found relation $REL, reproducer $REPRO"
echo "ok"

check "repro replays it deterministically: exit 1, the same relation and report, twice"
expect_exit 1 "$MRFUZZ" repro --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" "$REPRO"
expect_err "relation violated: $REL"
sed -n '/^execution/,/^residual/p' err >r1
expect_exit 1 "$MRFUZZ" repro --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" "$REPRO"
sed -n '/^execution/,/^residual/p' err >r2
cmp -s r1 r2 || fail "two replays printed different reports"
grep -q "residual" r1 || fail "no residual in the replayed report"
echo "ok"

check "minimize keeps the same relation violated and does not grow the input"
expect_exit 0 "$MRFUZZ" minimize --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" "$REPRO" -o min.bin
expect_err "still violated"
[ -f min.bin ] || fail "no minimized file"
[ "$(stat -c %s min.bin)" -le "$(stat -c %s "$REPRO")" ] || fail "minimized input is larger"
expect_exit 1 "$MRFUZZ" repro --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" min.bin
expect_err "relation violated: $REL"
echo "minimized $(stat -c %s "$REPRO") -> $(stat -c %s min.bin) bytes"
echo "ok"

check "--engine random finds it too, saves a reproducer that replays"
expect_exit 1 "$MRFUZZ" check --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" --engine random -- -runs=200000 -seed=7 -artifact_prefix=art/
expect_err "relation violated: "
RREPRO=$(sed -n 's/.*reproducer: \(art\/crash-[0-9a-f]*\) (relation.*/\1/p' out | head -1)
[ -n "$RREPRO" ] || { cat out >&2; fail "no reproducer listed"; }
expect_exit 1 "$MRFUZZ" repro --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" "$RREPRO"
echo "ok"

check "a crash of the target is a crash, not a relation violation (libFuzzer and random)"
mkdir -p cart
expect_exit 1 "$MRFUZZ" check --build-dir hc "$SRC:chk_crash" --mr "$E2E/inputs/chk_crash.mr" -- -runs=200000 -seed=3 -artifact_prefix=cart/
expect_out "the target itself failed"
! grep -q "relation violated" err || fail "a crash was reported as a violation"
expect_exit 1 "$MRFUZZ" check --build-dir hc "$SRC:chk_crash" --mr "$E2E/inputs/chk_crash.mr" --engine random -- -runs=200000 -seed=3 -artifact_prefix=cart/
expect_err "the target crashed (not a relation violation)"
! grep -q "relation violated" err || fail "a crash was reported as a violation"
echo "ok"

check "the fixed program: no finding (libFuzzer -runs, random), exit 0, corpus kept"
expect_exit 0 "$MRFUZZ" check --build-dir hf "$SRC:chk_mean" -D CHK_FIXED=1 --mr "$MEAN_MR" -- -runs=100000 -seed=2
grep -qE "checks, 0 violated" out || { cat out >&2; fail "violations on the fixed program"; }
[ -n "$(ls hf/corpus)" ] || fail "the corpus directory is empty"
expect_exit 0 "$MRFUZZ" check --build-dir hf "$SRC:chk_mean" -D CHK_FIXED=1 --mr "$MEAN_MR" --engine random -- -runs=100000 -seed=2
expect_out "checks, 0 violated"
echo "ok"

check "-fork=2 --keep-going: the run continues after a finding, one report per relation"
mkdir -p fart
expect_exit 1 "$MRFUZZ" check --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" --keep-going -- -fork=2 -runs=400000 -seed=5 -artifact_prefix=fart/
[ "$(ls h/check-stats | grep -c '^stats-')" -ge 3 ] || fail "fewer processes than -fork=2 implies"
grep -q "relation violated: " err || fail "no report printed"
for r in $(sed -n 's/.*relation violated: \([a-z_]*\) .*/\1/p' err | sort | uniq -d); do
  fail "relation $r reported twice"
done
for r in $(sed -n 's/.*reproducer: fart.* (relation \([a-z_]*\);.*/\1/p' out | sort | uniq -d); do
  fail "relation $r has two reproducers"
done
expect_out "reproducer: fart/crash-"
echo "$(grep -c 'reproducer: fart' out) reproducers, one per violated relation, from $(ls h/check-stats | grep -c '^stats-') processes"
echo "ok"
