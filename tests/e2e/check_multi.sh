#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_multi.sh - several functions in one libFuzzer target (issue #15, docs/checking.md
# "Several functions", "OSS-Fuzz and ClusterFuzzLite"): `mrfuzz check FILE --mr DIR/`
# checks every subject (per-function statistics), a seeded fault in one function is
# caught and its reproducer replays and minimizes on the multi-subject harness, and the
# fuzz target runs on its own (HARNESS.mrcheck beside it, no mrfuzz, no environment).
. "$(dirname "$0")/lib.sh"
LIB=$E2E/inputs/multi.c
MR=$E2E/inputs/multi_mr
executions() { # FUNCTION: the executions of its summary line in ./out
  sed -n "s/^mrfuzz: check: $1: \([0-9]*\) executions.*/\1/p" out
}
check "a directory of relation files: one target, every function checked, no violation"
expect_exit 0 "$MRFUZZ" check "$LIB" --mr "$MR/" --build-dir ok -- -runs="$(runs 600000)" -seed=1
for f in ml_affine ml_max ml_sum; do
  n=$(executions $f)
  [ -n "$n" ] && [ "$n" -gt 0 ] || { cat out; fail "$f: no executions"; }
done
grep -q "^  swap  *checked [1-9]" out || fail "ml_max's swap was never checked"
grep -q "^  permutation  *checked [1-9]" out || fail "ml_sum's permutation was never checked"
check "a relation file that holds no relation: its function is left out, the others checked"
mkdir -p partial
cp "$MR/ml_max.mr" "$MR/ml_sum.mr" partial/
sed -n '/^subject /p' "$MR/ml_affine.mr" | sed '1s/^/mrdsl 1;\n/' >partial/ml_affine.mr
expect_exit 0 "$MRFUZZ" check "$LIB" --mr partial/ --build-dir partial_h -- -runs="$(runs 300000)" -seed=1
expect_err "partial/ml_affine.mr holds no relation: ml_affine is left out"
[ "$(executions ml_max)" -gt 0 ] && [ "$(executions ml_sum)" -gt 0 ] || { cat out err; fail "the others were not checked"; }
check "--mr repeated, random engine, same subjects"
expect_exit 0 "$MRFUZZ" check "$LIB" --mr "$MR/ml_sum.mr" --mr "$MR/ml_max.mr" --build-dir rnd --engine random -- -runs=3000
[ "$(executions ml_sum)" -gt 0 ] && [ "$(executions ml_max)" -gt 0 ] || { cat out; fail "random engine: a subject was not checked"; }
check "a seeded fault in ml_max is caught; its reproducer names the function"
expect_exit 1 "$MRFUZZ" check "$LIB" -D ML_BUG --mr "$MR/" --build-dir bug -- -max_total_time=20
grep -q "relation violated: .* (ml_max, " err || { cat err >&2; fail "no ml_max violation report"; }
rep=$(sed -n 's/^  reproducer: \([^ ]*\) (ml_max, relation \(swap\|bound\); replay: .*/\1/p' out | head -1)
[ -n "$rep" ] && [ -f "$rep" ] || { cat out; fail "no ml_max reproducer"; }
[ "$(executions ml_max)" -gt 0 ] || fail "ml_max: no executions in the summary"
check "the reproducer replays on the multi-subject harness, minimizes, and passes once fixed"
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$LIB" -D ML_BUG --mr "$MR/" "$rep"
expect_err "violates relation"
expect_err "of ml_max"
expect_exit 0 "$MRFUZZ" minimize --build-dir bug "$LIB" -D ML_BUG --mr "$MR/" "$rep" -- -runs=300
[ -f "$rep.min" ] || fail "no minimized reproducer"
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$LIB" -D ML_BUG --mr "$MR/" "$rep.min"
expect_exit 0 "$MRFUZZ" repro --build-dir ok "$LIB" --mr "$MR/" "$rep"
expect_err "no relation violated"
check "the fuzz target on its own: relations and options beside it, no mrfuzz"
[ -f ok/fuzz/harness.mrcheck ] && [ -f ok/fuzz/relations/ml_max.mr ] || fail "no standalone files in ok/fuzz"
for v in ok bug; do
  mkdir -p "out_$v/relations" "corpus_$v"
  cp "$v/fuzz/harness" "out_$v/ml_fuzzer"
  cp "$v/fuzz/harness.mrcheck" "out_$v/ml_fuzzer.mrcheck"
  cp "$v"/fuzz/relations/*.mr "out_$v/relations/"
done
(cd / && env -u MRFUZZ_CHECK "$WORK/out_ok/ml_fuzzer" -runs=20000 "$WORK/corpus_ok") >sa_ok 2>&1 ||
  { tail -20 sa_ok; fail "the standalone target failed on the correct library"; }
got=0
(cd / && env -u MRFUZZ_CHECK "$WORK/out_bug/ml_fuzzer" -max_total_time=20 -artifact_prefix="$WORK/sa-" "$WORK/corpus_bug") >sa_bug 2>&1 || got=$?
[ "$got" != 0 ] || { tail -20 sa_bug; fail "the standalone target missed the seeded fault"; }
grep -q "relation violated: .* (ml_max, " sa_bug || { tail -20 sa_bug; fail "standalone: no ml_max report"; }
ls "$WORK"/sa-crash-* >/dev/null 2>&1 || fail "standalone: no reproducer written"
expect_exit 1 "$MRFUZZ" repro --build-dir bug "$LIB" -D ML_BUG --mr "$MR/" "$(ls "$WORK"/sa-crash-* | head -1)"
check "usage errors: one function and several files, two files about one function"
expect_exit 2 "$MRFUZZ" check "$LIB:ml_max" --mr "$MR/" -- -runs=1
expect_err "give FILE without :FUNCTION"
mkdir dup && cp "$MR/ml_max.mr" dup/a.mr && cp "$MR/ml_max.mr" dup/b.mr
expect_exit 2 "$MRFUZZ" check "$LIB" --mr dup/ -- -runs=1
expect_err "are both about ml_max"
expect_exit 2 "$MRFUZZ" check "$LIB" --mr "$MR/" --relation swap -- -runs=1
expect_err "--relation needs one function"
echo ok
