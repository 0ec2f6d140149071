#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# genmorph.sh - `mrfuzz discover --engine genmorph` (docs/discover.md, "GenMorph engine")
# on gcd (integers) and arr_min (an array): the summary table, an atomic, lint-clean .mr
# with GenMorph's meta, the libFuzzer falsification stage run, zero false positives on fresh inputs decoded like libFuzzer's
# (the generator only half of discovery's validation used), at least one mutant killed as
# measured by `mrfuzz score`, `-o -`, and usage errors.
# $1 = ON in the sanitizer preset: a smaller search (the harness is ~10x slower there).
. "$E2E/lib.sh"
# A fixed number of generations and of libFuzzer executions (release: the default 4*10^6,
# about the 24 s the stage had when it was timed), no wall-time cap: the same relations on
# every run, whatever the machine's load.
if [ "${1:-OFF}" = ON ]; then
  small=(--generations 8 --population 100 --inputs 200 --templates 3 --validate 5000 --fuzz-runs 400000)
  runs=5000
else
  small=(--generations 8 --population 100 --inputs 300 --templates 3 --validate 40000)
  runs=40000
fi

# discover SUBJECT FILE.mr: GenMorph with a fixed seed, two workers
discover() {
  expect_exit 0 "$MRFUZZ" discover "$EXAMPLES/$1" --engine genmorph --seed 3 --jobs 2 -q \
    "${small[@]}" -o "$2" --build-dir "bd_${2%.mr}"
}

for subj in "intmath/intmath.c:gcd gcd.mr" "arrays/arrays.c:arr_min min.mr"; do
  set -- $subj
  fn=${1##*:}
  check "$fn: GenMorph discovers relations and prints its table"
  discover "$1" "$2"
  expect_out "genmorph: $fn (seed 3,"
  expect_out "input relation"
  expect_out "falsification with libFuzzer: "
  [ -x "bd_${2%.mr}/falsify/harness" ] || fail "$fn: the falsification variant was not built"
  n=$(sed -n 's/^relations: \([0-9]*\)$/\1/p' out)
  [ "${n:-0}" -ge 1 ] || fail "$fn: no relation discovered"
  check "$fn: the file is valid mrdsl with GenMorph's meta, written atomically"
  [ -f "$2" ] && ! ls "$2".* >/dev/null 2>&1 || fail "$2 missing or a temporary file left"
  expect_exit 0 "$MRFUZZ" lint "$2"
  grep -q 'meta origin = "discover/genmorph";' "$2" || fail "$2: no origin meta"
  grep -q 'meta mutants_killed = ' "$2" || fail "$2: no mutants_killed meta"
  check "$fn: zero false positives on $runs fresh inputs (libFuzzer-style decoding)"
  expect_exit 0 "bd_${2%.mr}/mutants/harness" check --mr "$2" -runs=$runs -seed=11
  check "$fn: the relations kill at least one mutant (mrfuzz score)"
  expect_exit 0 "$MRFUZZ" score "$EXAMPLES/$1" --build-dir "bd_${2%.mr}" --mr "$2" -n 100 --seed 5 --jobs 2
  k=$(sed -n 's/^mutation score: \([0-9]*\)\/.*/\1/p' out)
  grep -q "(0 invalid)" out || fail "$fn: a relation is invalid on the original"
  [ "${k:-0}" -ge 1 ] || fail "$fn: no mutant killed"
done

check "arr_min: a relation readable at a glance (a simple form tried before the GP), none that says two reals differ"
grep -qE "check (y1 <= y2|y1 >= y2|y2 == y1|approx\(y2, y1,)" min.mr || { cat min.mr; fail "no simple relation"; }
if grep -E "check !approx" min.mr; then fail "a relation true only because two reals rarely coincide"; fi

check "the falsification variant breaks a false relation of an array subject (--generic), not a true one"
subj=$(grep '^subject' min.mr)
printf 'mrdsl 1;\n%s\nrelation c0 { a2 = a1; check y1 != y2; }\nrelation c1 { a2 = reverse(a1); check y1 == y2; }\n' \
  "$subj" >fz.mr
rm -f broken
MRFUZZ_FALSIFY=$'--mr\nfz.mr\n--out\nbroken\n--len\n0:8\n--generic' \
  expect_exit 0 bd_min/falsify/harness -max_total_time=5 -seed=1
grep -qx c0 broken || fail "the false relation c0 was not broken"
! grep -qx c1 broken || fail "the true relation c1 was broken"

check "-o - prints the relations"
expect_exit 0 "$MRFUZZ" discover "$EXAMPLES/intmath/intmath.c:gcd" --engine genmorph --seed 3 \
  --jobs 2 -q --generations 2 --population 20 --inputs 50 --templates 1 --validate 200 --fuzz-runs 200000 -o - \
  --build-dir bd_gcd
expect_out "subject gcd(int64_t a, int64_t b) -> int64_t y;"
cp out stdout.mr # the relations alone, with -q too: > f.mr gives a file lint accepts
"$MRFUZZ" lint stdout.mr >/dev/null 2>&1 || { cat out >&2; fail "stdout is not a relation file"; }

check "usage errors: an unknown engine, a bad value, the help"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/intmath/intmath.c:gcd" --engine nope --build-dir bd_gcd
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/intmath/intmath.c:gcd" --engine genmorph --population 1 --build-dir bd_gcd
expect_err "--population 1: expected a whole number from 8"
expect_exit 0 bd_gcd/mutants/harness genmorph --help
expect_out "GenMorph"
echo "genmorph: ok"
