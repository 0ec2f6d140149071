#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_shards.sh - discover FILE split into shards (docs/discover.md, "Shards"): --shard
# I/N, or Bazel's and GoogleTest's TEST_TOTAL_SHARDS / TEST_SHARD_INDEX (touching
# TEST_SHARD_STATUS_FILE), runs every N-th callable function; discover --merge joins the
# shards' directories into what one run writes: the same .mr files byte for byte, the same
# summary but for the times. Bad shard arguments and incomplete merges are refused (exit 2).
# Check corpora of several runs merge through the target's libFuzzer (-merge=1).
. "$(dirname "$0")/lib.sh"
S=$E2E/inputs/shards.c
O=(--seed 1 --runs 2 --iters 10 --fuzz-runs 1000 --types I)

check "one run, then shard 0/2 (--shard) and 1/2 (the test runner's environment), merged"
expect_exit 0 "$MRFUZZ" discover "$S" -o one "${O[@]}" --build-dir b1
expect_exit 0 "$MRFUZZ" discover "$S" -o s0 --shard 0/2 "${O[@]}" --build-dir b2
expect_out "other shard"
expect_exit 0 env TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=1 TEST_SHARD_STATUS_FILE="$PWD/status" \
  "$MRFUZZ" discover "$S" -o s1 "${O[@]}" --build-dir b3
[ -e status ] || fail "TEST_SHARD_STATUS_FILE was not touched"
[ "$(grep -c 'other shard' s0/summary.tsv)" = 1 ] && [ "$(grep -c 'other shard' s1/summary.tsv)" = 2 ] ||
  { cat s0/summary.tsv s1/summary.tsv; fail "shards: two functions in shard 0, one in shard 1"; }
expect_exit 0 "$MRFUZZ" discover --merge s0 s1 -o merged
for f in one/*.mr; do
  cmp "$f" "merged/${f#one/}" || fail "${f#one/} differs from the one run's"
done
[ "$(ls merged/*.mr | wc -l)" = "$(ls one/*.mr | wc -l)" ] || fail "not every .mr merged"
cut -f1-4,6- one/summary.tsv >a.tsv
cut -f1-4,6- merged/summary.tsv >b.tsv
diff a.tsv b.tsv || fail "the merged summary differs from the one run's (times aside)"
echo "ok"

check "refused: a shard out of range, a malformed one, --across with shards, incomplete or doubled merges"
expect_exit 2 "$MRFUZZ" discover "$S" -o x --shard 2/2
expect_err "--shard 2/2: expected I/N"
expect_exit 2 "$MRFUZZ" discover "$S" -o x --shard one
expect_exit 2 env TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=5 "$MRFUZZ" discover "$S" -o x
expect_err "TEST_SHARD_INDEX=5"
expect_exit 2 "$MRFUZZ" discover "$S" -o x --shard 0/2 --across 1
expect_err "run --across unsharded"
expect_exit 2 "$MRFUZZ" discover --merge s0 -o x
expect_err "no shard given ran"
expect_exit 2 "$MRFUZZ" discover --merge s0 s0 s1 -o x
expect_err "the same shard given twice"
expect_exit 2 "$MRFUZZ" discover --merge s0 s1
expect_err "-o OUTDIR"
echo "ok"

check "corpora of several check runs (a CI matrix) merge with the target's own libFuzzer (-merge=1)"
printf 'mrdsl 1;\nsubject sh_twice(double x) -> double y;\nrelation lin { x2 = 2 * x1; check approx(y2 - 1, 2 * (y1 - 1), abs=1e-9); }\n' >tw.mr
for s in 1 2; do
  expect_exit 0 "$MRFUZZ" check "$S:sh_twice" --mr tw.mr --range x=-100:100 --build-dir ck --corpus "c$s" --jobs 1 -- -runs=5000 -seed=$s
done
mkdir -p cm
expect_exit 0 ck/fuzz/harness -merge=1 cm c1 c2
n=$(ls cm | wc -l)
[ "$n" -ge 1 ] && [ "$n" -ge "$(ls c1 | wc -l)" ] || fail "the merged corpus has $n inputs"
expect_exit 0 "$MRFUZZ" check "$S:sh_twice" --mr tw.mr --range x=-100:100 --build-dir ck --corpus cm --replay
expect_out "$n inputs of cm replayed"
echo "ok"
