#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_across.sh - relations across functions (issue #19, docs/discover.md "Relations
# across functions"): discover examples/trig's sine, cosine and tangent as one group; the
# classic identities come out as `calls` relations (sin^2 + cos^2 = 1, a shift of pi/2
# between sin and cos), the file is lint-clean and `mrfuzz check FILE` finds no violation
# on it; glibc's exp and expm1 as black boxes give expm1 = exp - 1, clean under check too;
# the chain log->exp gives exp(log(x)) = x, excused where log is NaN; a sine wrong on a narrow
# window is caught by relations across (suspects with reproducers that replay); --json and
# --sarif name the group, its relations and suspects (check_group_report.py); a group
# the wrapper cannot form is refused with exit 2. Smaller under the sanitizers.
. "$(dirname "$0")/lib.sh"
TRIG="$EXAMPLES/trig/trig.c"
# the work is counted, so the seed decides what is written (the libFuzzer stage in
# executions: about the 2 s it had when it was timed; for discover FILE, whose pair has
# tens of candidates, each execution running all of them, about the CPU time of its 1 s)
case "${1:-OFF}" in # the sanitizer build: a smaller search, a shorter check
  ON) SMALL=(--runs 4 --iters 20 --filter 50:20 --fuzz-runs 80000) FILE_FUZZ=20000 CHECK_RUNS=200000 ;;
  *) SMALL=(--runs 8 --iters 30 --fuzz-runs 400000) FILE_FUZZ=100000 CHECK_RUNS=1000000 ;;
esac
awk_rels() { awk '/^relation /{body = ""} {body = body $0 "\n"} /^}/{print body "@@"}' "$1" >rels.txt; }
has() { # has REGEX...: some relation matches every REGEX
  local IFS=@
  awk -v RS='@@' -v res="$*" 'BEGIN {n = split(res, a, "@")}
    { ok = 1; for (i = 1; i <= n; i++) ok = ok && $0 ~ a[i]; if (ok) found = 1 }
    END {exit !found}' rels.txt
}

check "discover trig_sin, trig_cos, trig_tan as one group (types I and II)"
expect_exit 0 "$MRFUZZ" discover "$TRIG:trig_sin,trig_cos,trig_tan" --types I,II --seed 1 "${SMALL[@]}" \
  -o api.mr
expect_out "across: trig_sin, trig_cos, trig_tan as one subject with 3 outputs"
expect_out "read one output only (one function of the group): left out"
grep -q "^across: wrote [1-9][0-9]* relations across trig_sin, trig_cos, trig_tan to api.mr" out || { cat out; fail "no relation across"; }
expect_exit 0 "$MRFUZZ" lint api.mr
grep -q "^subject trig_sin(double x) -> double y;" api.mr || { cat api.mr; fail "subject trig_sin"; }
grep -q "^subject trig_cos(double x) -> double z;" api.mr || { cat api.mr; fail "subject trig_cos"; }
grep -q "^subject trig_tan(double x) -> double w;" api.mr || { cat api.mr; fail "subject trig_tan"; }
if grep "^relation " api.mr | grep -v " calls trig_sin[ ,]"; then fail "a relation whose source is not trig_sin"; fi
awk_rels api.mr

check "pythagoras: sin^2 + cos^2 = 1 at one input"
has "calls trig_sin" "approx\\(1\\.0, y[0-9]\\^2 \\+ z[0-9]\\^2," || { cat api.mr; fail "no sin^2 + cos^2 = 1"; }
check "a shift of pi / 2 between sin and cos"
has "x2 = -?x1 [+-] pi / 2;" "approx\\(-?[yz][12], -?[yz][12]," "y[12]" "z[12]" || { cat api.mr; fail "no shift sin/cos"; }
if has "w[0-9]" "z[0-9] \\* w[0-9]"; then echo "note: tan = sin / cos found too"; fi

check "mrfuzz check trig.c on the file: no violation ($CHECK_RUNS libFuzzer executions)"
expect_exit 0 "$MRFUZZ" check "$TRIG" --mr api.mr --jobs 1 -- -runs=$CHECK_RUNS -seed=1
if grep -E "violated [1-9]" out; then fail "a violation on correct code"; fi

check "black boxes: glibc's exp and expm1 (math.h -l m): expm1 = exp - 1"
expect_exit 0 "$MRFUZZ" discover math.h:exp,expm1 -l m --types I --range x=-10:10 --seed 1 "${SMALL[@]}" \
  -o expm1.mr
expect_exit 0 "$MRFUZZ" lint expm1.mr
awk_rels expm1.mr
has "calls exp, " "approx\\(z[0-9] \\+ 1\\.0, (exp\\(1\\.0\\) \\* )?y[0-9]," || { cat expm1.mr; fail "no expm1 = exp - 1"; }
expect_exit 0 "$MRFUZZ" check math.h -l m --range x=-10:10 --mr expm1.mr --jobs 1 -- -runs=$CHECK_RUNS -seed=1
if grep -E "violated [1-9]" out; then fail "a violation on glibc"; fi

check "parameters whose names end in digits (v2 of execution 1 is v2_1): the rewrite stays unambiguous"
printf 'double dbl2(double v2) { return 2 * v2 + 1; }\ndouble half2(double v2) { return v2 / 2 - 1; }\n' >digits.c
# a chain writes G's input as F's result (v2_2 = y1): 'v22' before, exit 3
expect_exit 0 "$MRFUZZ" discover 'digits.c:dbl2->half2' --types I --seed 1 "${SMALL[@]}" -o digits.mr
expect_exit 0 "$MRFUZZ" lint digits.mr
grep -q "v2_[0-9] = y[0-9]" digits.mr || { cat digits.mr; fail "no v2_K = yJ in the chain's relations"; }
expect_exit 0 "$MRFUZZ" check digits.c --mr digits.mr --jobs 1 -- -runs=$CHECK_RUNS -seed=1
if grep -E "violated [1-9]" out; then fail "a violation on correct code"; fi

check "a chain: exp(log(x)) = x (math.h:log->exp), excused outside log's domain (where log's result is NaN)"
expect_exit 0 "$MRFUZZ" discover 'math.h:log->exp' -l m --types I --seed 1 "${SMALL[@]}" -o chain.mr \
  --json chain.json
expect_out "across: wrote"
expect_exit 0 "$MRFUZZ" lint chain.mr
check "--json of the chain: log->exp, its functions at their declarations, the relations with the calls of each execution"
"$PYTHON" "$E2E/check_group_report.py" --json chain.json --stdout out --group 'log->exp' --output chain.mr --exit 0 \
  --engine automr >/dev/null || fail "the chain's JSON"
awk_rels chain.mr
# exp at log's result (x2 = y1), compared with an input of log's (at x1 or a moved x3)
has "calls log, exp" "x2 = y1;" "isnan\\(" "approx\\(z2( \\+ [0-9.]+)?, ([0-9.]+ \\* )?x[13]( [+-] [0-9.]+)?," ||
  { cat chain.mr; fail "no exp(log(x)) = x"; }
expect_exit 0 "$MRFUZZ" check math.h -l m --mr chain.mr --jobs 1 -- -runs=$CHECK_RUNS -seed=1
if grep -E "violated [1-9]" out; then fail "a violation on glibc"; fi

check "discover FILE --across 1: every function alone, then the best pair (one family, shared mined constants)"
# --all: no short set (the pair's would run its relations on the 1616 mutants of trig.c)
expect_exit 0 "$MRFUZZ" discover "$TRIG" --across 1 --types I,II --runs 4 --iters 20 --fuzz-runs "$FILE_FUZZ" --seed 1 \
  --all -o trigdir --json trigdir.json
expect_out "across: 3 pairs of one signature, 3 related (one family, a shared name stem, shared mined constants); trying 1 (--across 1)"
expect_out "mrfuzz: discover --across: 1 pairs (trigdir/across/)"
grep -qE "^trig_sin, trig_cos +one family, [1-9][0-9]* constants +[1-9]" out || { cat out; fail "the pair's row"; }
expect_exit 0 "$MRFUZZ" lint trigdir/across/trig_sin_trig_cos.mr
"$PYTHON" - trigdir.json "$PWD" <<'PY' || fail "discover FILE --across: the pair in the JSON"
import json, sys
fns = json.load(open(sys.argv[1]))["functions"]
assert fns[-1]["function"] == "trig_sin,trig_cos" and "trig_sin" in [f["function"] for f in fns], fns
assert all(f["group"] is None for f in fns[:-1]), fns  # every function alone, then the pair
p = fns[-1]
assert [g["function"] for g in p["group"]] == ["trig_sin", "trig_cos"] and not p["chain"], p
assert p["output"] == sys.argv[2] + "/trigdir/across/trig_sin_trig_cos.mr" and p["relations"], p
assert all(len(set(r["calls"])) == 2 for r in p["relations"]), p["relations"]
PY
expect_exit 2 "$MRFUZZ" discover "$TRIG" --across x -o trigdir
expect_err "--across x: expected a number of pairs"

check "a seeded fault in one function of a pair (ab_sin wrong on 1/4000 of the domain): suspects, not relations"
expect_exit 1 "$MRFUZZ" discover "$E2E/inputs/across_bug.c:ab_sin,ab_cos" --types I --seed 1 "${SMALL[@]}" \
  -o bug.mr --json bug.json --sarif bug.sarif
cp out bug.out
grep -q "^across: [1-9][0-9]* suspected faults across the functions in bug.suspects.mr" out || { cat out; fail "no suspect across"; }
expect_exit 0 "$MRFUZZ" lint bug.suspects.mr
R=$(grep "^relation " bug.suspects.mr | head -1 | cut -d' ' -f2)
expect_exit 1 "$MRFUZZ" repro "$E2E/inputs/across_bug.c" --mr bug.suspects.mr --relation "$R" "bug.suspects/$R-1.min"
expect_err "violates relation $R"
if [ -e bug.mr ] && grep -q "^relation $R " bug.mr; then fail "suspect $R written as a relation"; fi
check "--json and --sarif of the group: the suspects across at their lines, replayed on across_bug.c; valid SARIF at ab_sin"
validate sarif bug.sarif
cmd=$("$PYTHON" "$E2E/check_group_report.py" --json bug.json --sarif bug.sarif --stdout bug.out --group ab_sin,ab_cos \
  --output bug.mr --exit 1 --engine automr) || fail "the group's JSON and SARIF"
[ -n "$cmd" ] || fail "no replay command in the JSON"
# shellcheck disable=SC2086  # the listed command, word-split as a shell would
expect_exit 1 "$MRFUZZ" ${cmd#mrfuzz }
expect_err "violates relation"

check "a group refused: one signature needed, each function once, at least two"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/numeric/numeric.c:num_abs,num_hypot" -o x.mr
expect_err "its signature differs from the first function's"
expect_exit 2 "$MRFUZZ" discover "$TRIG:trig_sin,trig_sin" -o x.mr
expect_err "trig_sin is named twice"
expect_exit 2 "$MRFUZZ" discover "$TRIG:trig_sin,trig_cos" --engine genmorph -o x.mr
expect_err "relations across functions are AutoMR's"
expect_exit 2 "$MRFUZZ" discover "$TRIG:trig_sin,trig_cos" --across 1 -o x.mr
expect_err "--across: for discover FILE (the pairs of its functions), not for one group FILE:F,G"
expect_exit 2 "$MRFUZZ" discover "$TRIG:trig_sin,trig_cos" --json no/such/dir/x.json --build-dir nb -o x.mr
[ ! -e nb ] || fail "--json refused after work began"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/numeric/numeric.c:num_hypot->num_hypot" -o x.mr
expect_err "a chain F->G needs functions of one parameter"
echo "PASS"
