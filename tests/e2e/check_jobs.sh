#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_jobs.sh - `mrfuzz check --jobs N` (issue #16, docs/checking.md "Processes"): several
# processes make one summary (executions summed, per-relation counts summed, one line per
# function), one corpus and one reproducer per finding (a relation of a function), however
# many processes found it; the random engine's split is fixed by --seed and --jobs; a
# replay gives the same counts and findings with any --jobs; bad values are refused.
. "$(dirname "$0")/lib.sh"
SRC="$E2E/inputs/chk_bug.c"
MEAN_MR="$E2E/inputs/chk_mean.mr"
LIB=$E2E/inputs/multi.c
MR=$E2E/inputs/multi_mr
nstats() { ls "$1" | grep -c '^stats-' || true; } # DIR: the stats files in DIR
reproducers() { grep -c '^  reproducer: ' out || true; }

check "bad --jobs values and combinations: exit 2 before anything is built"
for bad in 0 x 1025 -1; do
  expect_exit 2 "$MRFUZZ" check --build-dir hb "$SRC:chk_mean" --mr "$MEAN_MR" --jobs "$bad" -- -runs=10
  expect_err "--jobs"
done
expect_exit 2 "$MRFUZZ" check --build-dir hb "$SRC:chk_mean" --mr "$MEAN_MR" --jobs 2 --until-adequate 2 -- -runs=10
expect_err "tracks adequacy in one process"
expect_exit 2 "$MRFUZZ" repro --build-dir hb "$SRC:chk_mean" --mr "$MEAN_MR" --jobs 2 x
[ ! -e hb ] || fail "a build directory was created"
echo "ok"

check "--engine random --jobs 1: one process, today's behaviour"
expect_exit 0 "$MRFUZZ" check --build-dir hf "$SRC:chk_mean" -D CHK_FIXED=1 --mr "$MEAN_MR" --engine random --jobs 1 -- -runs=1001 -seed=2
[ "$(nstats hf/check-stats)" = 1 ] || fail "$(nstats hf/check-stats) stats files with --jobs 1"
expect_out "chk_mean: 1001 executions"
check "--engine random --jobs 3: the -runs split over 3 processes, summed in one summary"
expect_exit 0 "$MRFUZZ" check --build-dir hf "$SRC:chk_mean" -D CHK_FIXED=1 --mr "$MEAN_MR" --engine random --jobs 3 -- -runs=1001 -seed=2
[ "$(nstats hf/check-stats)" = 3 ] || fail "$(nstats hf/check-stats) stats files with --jobs 3"
[ "$(grep -c '^mrfuzz: check: chk_mean: ' out)" = 1 ] || { cat out; fail "not one summary"; }
expect_out "chk_mean: 1001 executions"
grep -q "^  reversed  *checked 1001, skipped 0, violated 0" out || { cat out; fail "per-relation counts not summed"; }
echo "ok"

check "a seeded fault found by both random processes: counted twice, one reproducer, the copy removed"
mkdir -p art
expect_exit 1 "$MRFUZZ" check --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" --engine random --jobs 2 -- -runs=200000 -seed=7 -artifact_prefix=art/
cp out first.out
[ "$(nstats h/check-stats)" = 2 ] || fail "$(nstats h/check-stats) stats files with --jobs 2"
grep -q "^  reversed  *checked [0-9]*, skipped 0, violated 2$" out || { cat out; fail "the two processes' violations are not summed"; }
[ "$(reproducers)" = 1 ] || { cat out; fail "$(reproducers) reproducers of one finding"; }
[ "$(ls art | wc -l)" = 1 ] || { ls art; fail "duplicate reproducer files left"; }
expect_err "1 more reproducer of findings already listed removed"
REP=$(sed -n 's/^  reproducer: \(art\/crash-[0-9a-f]*\) (relation reversed;.*/\1/p' out)
[ -n "$REP" ] && [ -f "$REP" ] || { cat out; fail "no reproducer of reversed"; }
expect_exit 1 "$MRFUZZ" repro --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" "$REP"
expect_err "relation violated: reversed"
check "the same seed and --jobs: the same run"
rm -rf art && mkdir art
expect_exit 1 "$MRFUZZ" check --build-dir h "$SRC:chk_mean" --mr "$MEAN_MR" --engine random --jobs 2 -- -runs=200000 -seed=7 -artifact_prefix=art/
diff <(grep -v ' executions in ' first.out) <(grep -v ' executions in ' out) || fail "a seeded run changed"
diff <(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' first.out) <(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' out) ||
  fail "a seeded run's executions changed"
echo "ok"

check "libFuzzer --jobs 2 on a multi-subject harness with a seeded fault: one summary per function, one reproducer per finding, one corpus"
expect_exit 1 "$MRFUZZ" check "$LIB" -D ML_BUG --mr "$MR/" --build-dir bug --jobs 2 -- -max_total_time=30
expect_err "checking in 2 processes"
for f in ml_affine ml_max ml_sum; do
  [ "$(grep -c "^mrfuzz: check: $f: " out)" = 1 ] || { cat out; fail "$f: not one summary line"; }
done
grep -q "relation violated: .* (ml_max, " err || { cat err >&2; fail "no ml_max violation report"; }
[ "$(reproducers)" -ge 1 ] || { cat out; fail "no reproducer"; }
dups=$(sed -n 's/^  reproducer: [^ ]* (\([a-z_]*\), relation \([a-z_]*\);.*/\1 \2/p' out | sort | uniq -d)
[ -z "$dups" ] || { cat out; fail "two reproducers of one finding: $dups"; }
[ "$(ls bug/findings | wc -l)" = "$(reproducers)" ] || { ls bug/findings; cat out; fail "findings/ holds other files than the listed reproducers"; }
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (ml_max, relation .*/\1/p' out | head -1)
[ -n "$rep" ] || { cat out; fail "no ml_max reproducer"; }
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$LIB" -D ML_BUG --mr "$MR/" "$rep"
expect_err "of ml_max"
[ "$(ls bug/corpus | wc -l)" -gt 0 ] || fail "no corpus in bug/corpus"
[ -z "$(find bug -mindepth 1 -maxdepth 2 -type d -name 'corpus*' ! -path bug/corpus)" ] || fail "a second corpus directory"
echo "ok: $(reproducers) reproducer(s) from $(nstats bug/check-stats/ml_max) ml_max stats files"

check "--replay of that corpus plus the reproducer: the same counts and findings with --jobs 1 and --jobs 3"
cp -r bug/corpus rc && cp "$rep" rc/
for j in 1 3; do
  expect_exit 1 "$MRFUZZ" check "$LIB" -D ML_BUG --mr "$MR/" --build-dir bug --replay --corpus rc --jobs $j --json r$j.json
  "$PYTHON" - r$j.json > r$j.txt <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print(j["executions"], j["calls"], j["exit_code"])
for f in j["functions"]:
    print(f["function"], f["executions"], f["calls"], f["coverage"], [(r["name"], r["checked"], r["skipped"], r["violated"]) for r in f["relations"]])
for f in j["findings"]:
    print(f["file"], f["function"], f["relation"])
PY
done
[ "$(nstats bug/check-stats/ml_max)" -ge 1 ] || fail "no stats"
diff r1.txt r3.txt || fail "the replay depends on --jobs"
grep -q "ml_max" r1.txt && grep -q "rc/" r1.txt || { cat r1.txt; fail "the reproducer is not a finding of the replay"; }
echo "ok"

check "Ctrl-C during an unbounded --engine random --jobs 2: both processes stop, one summary, exit 130"
"$MRFUZZ" check --build-dir hs "$SRC:chk_mean" -D CHK_FIXED=1 --mr "$MEAN_MR" --engine random --jobs 2 >out 2>err &
pid=$!
for _ in $(seq 600); do # until both processes have written statistics (at most a minute)
  [ -d hs/check-stats ] && [ "$(nstats hs/check-stats)" = 2 ] && break
  sleep 0.1
done
kill -INT $pid
rc=0
wait $pid || rc=$?
[ "$rc" = 130 ] || { cat out err; fail "exit $rc after Ctrl-C"; }
[ "$(grep -c '^mrfuzz: check: chk_mean: [1-9][0-9]* executions' out)" = 1 ] || { cat out err; fail "no summary after Ctrl-C"; }
[ "$(nstats hs/check-stats)" = 2 ] || fail "$(nstats hs/check-stats) stats files"
echo "ok"
