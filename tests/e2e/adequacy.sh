#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# adequacy.sh - k-MR adequacy (docs/inputs.md) on the business-logic example
# examples/fees (baggage_fee): check --until-adequate with the random engine and with
# libFuzzer, `mrfuzz adequacy` replaying the corpus (the same fraction as the run tracked,
# per-requirement table, short-falls, branch criterion, more relations => more adequacy),
# and the HTML report rendered by headless Chromium showing the same numbers.
. "$(dirname "$0")/lib.sh"
FN=$EXAMPLES/fees/fees.c:baggage_fee
MR=$EXAMPLES/fees/baggage_fee.mr
DOM=(--range cabin=0:4 --range tier=0:4 --range bags=0:6 --range kg=0:60)
# Fewer inputs under the sanitizers (the harness runs ~10x slower there).
RUNS=200000
PLATEAU=3000
if nm "$(dirname "$MRFUZZ")/../lib/libmreng.a" 2>/dev/null | grep -q __asan_report; then
  RUNS=50000
  PLATEAU=1000
  echo "note: sanitizer build: -runs=$RUNS, --plateau $PLATEAU"
fi

check "--help of the new commands and options"
expect_exit 0 "$MRFUZZ" adequacy --help
expect_out "--criterion"
expect_out "--corpus"
expect_exit 0 "$MRFUZZ" report --help
expect_out "--html"
expect_exit 0 "$MRFUZZ" check --help
expect_out "--until-adequate"
expect_out "--plateau"

check "bad input: no corpus, bad values: a clear error, exit 2"
expect_exit 2 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR"
expect_err "no source inputs"
expect_exit 2 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" --corpus nope
expect_exit 2 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" --corpus . --criterion path
expect_err "expected statement or branch"
expect_exit 2 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" --k 0
expect_err "--k 0: expected a whole number >= 1"
expect_exit 2 "$MRFUZZ" check --build-dir h "$FN" --mr "$MR" --until-adequate x -- -runs=1
expect_err "--until-adequate x: expected a whole number >= 1"
expect_exit 2 "$MRFUZZ" check --build-dir h "$FN" --mr "$MR" --plateau 5 -- -runs=1
expect_err "go with --until-adequate K"

check "check --engine random --until-adequate 3: stops before -runs=$RUNS, adequacy in the summary"
expect_exit 0 "$MRFUZZ" check --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --engine random --until-adequate 3 \
  --plateau $PLATEAU -- -runs=$RUNS -seed=1
cp out check.out
expect_out "0 violated"
expect_out "adequacy C_MT^3(statement) = "
expect_out "adequacy over time"
execs=$(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' out)
[ "$execs" -lt "$RUNS" ] || fail "did not stop early: $execs executions"
run_frac=$(sed -n 's/.*adequacy C_MT^3(statement) = \([0-9]*\/[0-9]*\).*/\1/p' out)
echo "tracked: $run_frac after $execs inputs"
ls h/corpus | grep -q '^adeq-' || fail "no input that raised adequacy was saved"

check "adequacy replays the saved inputs: the same C_MT^3 as the run tracked"
expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --k 3
cp out adeq.out
expect_out "C_MT^3(statement) = $run_frac "
expect_out "short of k = 3:"
grep -qE '^  block [0-9]+: line [0-9]+ +[0-9]+ \([0-9]/3\)' out || fail "no per-requirement table"

check "the same report and data with --jobs 1 and --jobs 3 (the inputs split, the records taken in input order)"
[ "$(ls h/corpus | wc -l)" -gt 3 ] || fail "too few corpus files to split"
for j in 1 3; do
  expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --k 3 --criterion branch --jobs $j
  cp out adeq$j.out
  # the data without its clock: the seconds line, each point's first field
  sed -e '/^seconds /d' -e 's/^point [^ ]* /point /' h/adequacy.data > data$j
done
cmp -s adeq1.out adeq3.out || { diff adeq1.out adeq3.out; fail "the report differs between --jobs 1 and 3"; }
cmp -s data1 data3 || { diff data1 data3; fail "the data differs between --jobs 1 and 3"; }
grep -q '^point ' data1 || fail "no adequacy curve in the data"

check "short-falls: with k = 8 (> 7 relations) every requirement falls short"
expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --k 8
nreq=$(sed -n 's/.* over \([0-9]*\) requirements.*/\1/p' out)
expect_out "short of k = 8: $nreq of $nreq requirements"
expect_out "relations associated (< 8)"

check "a corpus that never reaches a branch lists it as unreached"
mkdir -p one
printf '\0\0\0\0\0\0\0' > one/zero   # every parameter at its lower bound: bags = 0
expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --corpus one
expect_out "unreached: no source input satisfies it"
expect_out "1 source inputs"

check "branch criterion (edges)"
expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --criterion branch
expect_out "C_MT^3(branch) = "
grep -qE '^  edge [0-9]+: line [0-9]+ -> line [0-9]+' out || fail "no edge requirements"

check "adequacy rises with the number of relations"
frac_of() { sed -n 's/.*C_MT^3(statement) = [0-9]*\/[0-9]* = \([0-9.]*\).*/\1/p' out; }
expect_exit 0 "$MRFUZZ" adequacy --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --relation heavier
one=$(frac_of)
all=$(sed -n 's/.*C_MT^3(statement) = [0-9]*\/[0-9]* = \([0-9.]*\).*/\1/p' adeq.out)
echo "1 relation: $one, 7 relations: $all"
"$PYTHON" -c "import sys; sys.exit(0 if float('$one') < float('$all') else 1)" || fail "no rise"

check "HTML report (--fdr): self-contained; Chromium renders the numbers adequacy and prioritize printed"
expect_exit 0 "$MRFUZZ" report --build-dir h "$FN" --mr "$MR" "${DOM[@]}" --html report.html --fdr
no_external_assets report.html
grep -q '<svg id="chart-time"' report.html || fail "no adequacy-over-time chart"
command -v chromium >/dev/null || fail "chromium missing: run scripts/setup"
# Chromium needs a writable HOME; no sandbox when run as root (CI containers).
HOME=$WORK timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom \
  "file://$WORK/report.html" > dom.html 2> chromium.err || { cat chromium.err >&2; fail "chromium failed"; }
grep -q "id=\"adequacy-frac\">$run_frac<" dom.html || fail "rendered page lacks $run_frac"
grep -q "id=\"nreqs\">$nreq<" dom.html || fail "rendered page lacks $nreq requirements"
grep -q 'data-rel="upgrade"' dom.html || fail "rendered page lacks the relation table"
grep -q 'class="full" id="L' dom.html || fail "rendered page lacks annotated source lines"
# --fdr: the fault detection rates of 'mrfuzz prioritize --apfd' (mutants) on the same corpus.
apfd=$(sed -n 's/^  prioritized *\([0-9.]*\) .*/\1/p' h/fdr.log)
[ -n "$apfd" ] || { cat h/fdr.log >&2; fail "prioritize --apfd gave no table"; }
grep -q '<svg id="chart-fdr"' dom.html || fail "rendered page lacks the fault detection chart"
grep -q "<td class=\"apfd\">$apfd</td>" dom.html || fail "rendered page lacks APFD $apfd"

check "libFuzzer: check --until-adequate 2 exits cleanly with the adequacy summary"
expect_exit 0 "$MRFUZZ" check --build-dir lf "$FN" --mr "$MR" "${DOM[@]}" --until-adequate 2 --plateau $PLATEAU \
  -- -runs=$RUNS -seed=1
expect_out "0 violated"
expect_out "adequacy C_MT^2(statement) = "
execs=$(sed -n 's/.*: \([0-9]*\) executions in.*/\1/p' out)
[ "$execs" -lt "$RUNS" ] || fail "libFuzzer did not stop early: $execs executions"
echo "ok"
