#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prioritize.sh - source inputs and their paths (docs/inputs.md) on inputs/prio_paths.c,
# whose two independent decisions make four paths out of edges two inputs cover: `check`
# keeps an input per path (the path signal), `mrfuzz corpus` lists them decoded with
# their path hashes, `mrfuzz prioritize` orders them by Algorithm 1 deterministically,
# --apfd prints the table on the mutants, and `check --order prioritized` checks the
# corpus in that order first (a relation the corpus violates stops it with exit 1).
. "$(dirname "$0")/lib.sh"
SRC="$E2E/inputs/prio_paths.c"
MR="$E2E/inputs/prio_two.mr"
T="$SRC:prio_two"
R=(--range a=-1000:1000 --range b=-1000:1000)
RUNS=3000
if nm "$MRFUZZ" 2>/dev/null | grep -q __asan_init; then RUNS=1000; fi

check "--help of corpus and prioritize"
expect_exit 0 "$MRFUZZ" corpus --help
expect_out "usage: mrfuzz corpus [options] FILE:FUNCTION"
expect_out "--corpus DIR"
expect_exit 0 "$MRFUZZ" prioritize --help
expect_out "new paths come first"
expect_out "--apfd"
echo "ok"

check "no corpus yet: exit 2 with the reason; --apfd without --mr: exit 2"
expect_exit 2 "$MRFUZZ" corpus --build-dir h "$T"
expect_err "no corpus here"
mkdir -p h/corpus
expect_exit 2 "$MRFUZZ" prioritize --build-dir h "$T" --apfd
expect_err "--apfd needs --mr"
echo "ok"

check "check (libFuzzer, bounded) keeps an input for each of the four paths"
expect_exit 0 "$MRFUZZ" check --build-dir h "$T" --mr "$MR" "${R[@]}" -- -runs=$RUNS -seed=1
NFILES=$(ls h/corpus | wc -l)
[ "$NFILES" -ge 4 ] || fail "corpus has $NFILES inputs"
expect_exit 0 "$MRFUZZ" corpus --build-dir h "$T" "${R[@]}"
expect_out "mrfuzz: corpus: prio_two: $NFILES inputs, 4 distinct paths"
expect_out "statements"
ROWS=$(grep -cE '^ +[0-9]+  [0-9a-f]+ +[0-9]+ +[0-9]+  [0-9a-f]{16}  a = -?[0-9]+; b = -?[0-9]+;$' out || true)
[ "$ROWS" = "$NFILES" ] || { cat out >&2; fail "$ROWS listed rows for $NFILES files"; }
echo "$NFILES inputs, 4 paths"
echo "ok"

check "prioritize: every input once, the first has the largest statement set, deterministic"
expect_exit 0 "$MRFUZZ" prioritize --build-dir h "$T" "${R[@]}"
cp out o1
awk '$1 ~ /^[0-9]+$/ {print $2}' o1 | sort >ranked
ls h/corpus | cut -c1-16 | sort >files
cmp -s ranked files || fail "the order is not a permutation of the corpus"
MAXST=$(awk '$1 ~ /^[0-9]+$/ {print $4}' o1 | sort -n | tail -1)
read -r R1ST R1D < <(awk '$1 == "1" {print $4, $6}' o1)
[ "$R1ST" = "$MAXST" ] && [ "$R1D" = "$R1ST" ] || fail "rank 1: stmts $R1ST dist $R1D, max $MAXST"
R2D=$(awk '$1 == "2" {print $6}' o1)
[ "$R2D" -gt 0 ] || fail "rank 2 adds no statement"
expect_exit 0 "$MRFUZZ" prioritize --build-dir h "$T" "${R[@]}"
cmp -s out o1 || fail "two runs ordered differently"
echo "ok"

check "--apfd: APFD and detection rates on the mutants, three rows, values in range"
expect_exit 0 "$MRFUZZ" prioritize --build-dir h "$T" "${R[@]}" --mr "$MR" --apfd --jobs 2 --seed 7
expect_out "mrfuzz: apfd: prio_two: $NFILES source inputs"
for row in "prioritized" "random order (30)" "random set"; do
  line=$(grep -F "  $row " out) || { cat out >&2; fail "no row $row"; }
  $PYTHON - "$line" <<'EOF' || fail "bad row: $line"
import re, sys
nums = [float(x) for x in re.findall(r"\d+\.\d+", sys.argv[1])]
apfd, rates = nums[0], nums[1:]
assert len(rates) == 10 and 0 <= apfd <= 1, nums
assert all(0 <= r <= 100 for r in rates) and rates == sorted(rates), rates
EOF
done
NF=$(sed -n 's/.* source inputs, \([0-9]*\) faults.*/\1/p' out)
[ "${NF:-0}" -gt 0 ] || fail "no fault detected"
PRI100=$(grep -F "  prioritized " out | awk '{print $NF}')
[ "$PRI100" != "0.0" ] || fail "the whole corpus detects nothing"
echo "$NF faults"
cp out apfd2
check "--apfd with --jobs 1: the same table (the mutants' verdicts are their own); the order never depends on --jobs"
expect_exit 0 "$MRFUZZ" prioritize -o h "$T" "${R[@]}" --mr "$MR" --apfd --jobs 1 --seed 7
cmp -s out apfd2 || { diff apfd2 out; fail "--apfd differs between --jobs 1 and 2"; }
expect_exit 0 "$MRFUZZ" prioritize -o h "$T" "${R[@]}" --jobs 1
cmp -s out o1 || fail "the order with --jobs 1 differs"
expect_exit 0 "$MRFUZZ" prioritize -o h "$T" "${R[@]}" --jobs 2
cmp -s out o1 || fail "the order with --jobs 2 differs"
echo "ok"

check "check --order prioritized: the corpus in that order first, then fuzzing"
expect_exit 0 "$MRFUZZ" check --build-dir h "$T" --mr "$MR" "${R[@]}" --order prioritized --engine random -- -runs=200 -seed=1
expect_out "checked $NFILES of $NFILES inputs in prioritized order, 0 violating"
expect_out "mrfuzz: check: prio_two:"
expect_exit 2 "$MRFUZZ" check --build-dir h "$T" --mr "$MR" --order sideways --engine random -- -runs=1
expect_err "--order sideways"
echo "ok"

check "a relation the corpus violates stops --order prioritized with exit 1, naming the input"
sed 's/check r2 == r1 + 1;/check r2 == r1 + 2;/' "$MR" >wrong.mr
expect_exit 1 "$MRFUZZ" check --build-dir h "$T" --mr wrong.mr "${R[@]}" --order prioritized --engine random -- -runs=10
expect_err "violates relation grows"
expect_err "relation violated: grows"
echo "ok"
