#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# score_tests.sh - `mrfuzz score ... -- TEST-COMMAND` (issue #30, docs/tests.md): the
# example library's own CTest tests scored on the same mutants as a relation of
# sq_sum, three scores side by side; a mutant only the relation kills (the four-lane path
# for arrays of 8 and more, which no test reaches) and one only a test kills (the sum's
# starting 0, which a permutation cannot see), in the table, the MTE JSON, SARIF and the
# HTML report; the build tree's objects put back; the same kills from the test program run
# as one command, two mutants at a time; bad test commands refused.
. "$(dirname "$0")/lib.sh"
T="$EXAMPLES/tested"
CC=${MR_CLANG:-clang-14}
SANF=
[ "${1:-OFF}" = ON ] && SANF="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
objs() { find "$1" -name '*.o' | sort | xargs -r md5sum; }

check "the example's own build and tests"
cmake -S "$T" -B b -G Ninja -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$SANF" -DCMAKE_EXE_LINKER_FLAGS="$SANF" \
  >/dev/null || fail "cmake"
cmake --build b >/dev/null || fail "build"
objs b >before.md5

check "score with the tests: three scores over the same mutants"
S=("$T/src/seq.c:sq_sum" --mr "$T/sq_sum.mr" -p b --build-dir h)
expect_exit 0 "$MRFUZZ" score "${S[@]}" --build 'cmake --build b' --json s.json --sarif s.sarif \
  -- ctest --test-dir b
expect_err "rebuilding the library's objects with the mutants of sq_sum"
expect_err "the build's own objects are back"
expect_out "the tests (ctest --test-dir b) and the relations, on the same"
# score NAME: "K N" of the line "  NAME  K/N = ...%"
score() { sed -n "s|^  $1 *\([0-9]*\)/\([0-9]*\) = .*|\1 \2|p" out; }
read -r t n < <(score tests)
read -r r n2 < <(score relations)
read -r u n3 < <(score both)
echo "tests $t, relations $r, both $u, of $n"
[ "$n" -gt 0 ] && [ "$n" = "$n2" ] && [ "$n" = "$n3" ] || fail "the three scores are not over the same mutants"
[ "$u" -ge "$t" ] && [ "$u" -ge "$r" ] && [ "$u" -le $((t + r)) ] || fail "both is not the union"
onlyr=$(sed -n 's/^killed only by the relations (\([0-9]*\)).*/\1/p' out)
onlyt=$(sed -n 's/^killed only by the tests (\([0-9]*\)).*/\1/p' out)
[ "$onlyr" = $((u - t)) ] && [ "$onlyt" = $((u - r)) ] || fail "the lists do not add up ($onlyr, $onlyt)"

check "a mutant only the relation kills: the four-lane sum, which no test reaches"
sed -n '/^killed only by the relations/,/^$/p' out >onlyr.txt
grep -qE "seq\.c:2[0-9]:[0-9]+ .*\[sq_sum\]" onlyr.txt || { cat onlyr.txt; fail "no lane mutant killed only by the relation"; }
grep -qE "^ +[0-9]+ +.* seq\.c:2[0-9]:[0-9]+ .* unreached +" out || fail "the lane mutants are not unreached by the tests"

check "a mutant only a test kills: the sum's starting 0 (sum_known fails)"
sed -n '/^killed only by the tests/,/^$/p' out >onlyt.txt
grep -qF "seq.c:16:10  replace the constant 0 with 1  [sq_sum]  (failed: sum_known)" onlyt.txt ||
  { cat onlyt.txt; fail "the starting 0 is not killed by sum_known alone"; }

check "the build tree's objects are back, and the tests pass after the next build"
objs b >after.md5
cmp -s before.md5 after.md5 || fail "the build's objects changed"
cmake --build b >/dev/null && ctest --test-dir b >/dev/null || fail "the example's tests fail after scoring"

check "the MTE JSON and SARIF say the same, and are valid against their schemas"
"$PYTHON" - "$onlyr" "$onlyt" <<'PY' || fail "the JSON or SARIF disagree with the table"
import json, sys
onlyr, onlyt = int(sys.argv[1]), int(sys.argv[2])
d = json.load(open("s.json"))
ms = [m for f in d["files"].values() for m in f["mutants"]]
side = lambda s: sum(1 for m in ms if m.get("statusReason", "").startswith(s))
assert side("killed only by the relations") == onlyr, side("killed only by the relations")
assert side("killed only by the tests") == onlyt
tests = d["testFiles"]["ctest --test-dir b"]["tests"]
assert {"id": "test:sum_known", "name": "sum_known"} in tests, tests
m = next(m for m in ms if m["statusReason"].startswith("killed only by the tests"))
assert m["status"] == "Killed" and all(k.startswith("test:") for k in m["killedBy"]), m
s = json.load(open("s.sarif"))["runs"][0]
assert sum(1 for x in s["results"] if x["ruleId"] == "killed-only-by-relations") == onlyr
PY
validate mte s.json
validate sarif s.sarif

check "the HTML report shows the three scores and both lists"
expect_exit 0 "$MRFUZZ" report "${S[@]}" --html r.html
HOME=$WORK timeout 120 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=15000 \
  --dump-dom "file://$WORK/r.html" >r.dom 2>chromium.err || { cat chromium.err >&2; fail "chromium"; }
grep -qE "<tr data-side=\"both\"><td>both</td><td class=\"nkilled\">$u</td>" r.dom || fail "no 'both' row of $u"
grep -qE "<h3>Killed only by the relations \($onlyr\)</h3>" r.dom || fail "no list of the relation's kills"
grep -qE "<h3>Killed only by the tests \($onlyt\)</h3>" r.dom || fail "no list of the tests' kills"

check "the test program as one command, two mutants at a time: the same kills"
expect_exit 0 "$MRFUZZ" score "${S[@]}" --build 'cmake --build b' --test-jobs 2 -- b/test_tested
read -r t1 n1 < <(score tests)
[ "$t1" = "$t" ] && [ "$n1" = "$n" ] || fail "one command killed $t1/$n1, ctest $t/$n"
objs b >after2.md5
cmp -s before.md5 after2.md5 || fail "the build's objects changed"

check "bad test commands: none given, none passing"
expect_exit 2 "$MRFUZZ" score "${S[@]}" --
expect_err "missing the test command after '--'"
expect_exit 2 "$MRFUZZ" score "${S[@]}" -- false
expect_err "no test passes on the original program"
expect_exit 2 "$MRFUZZ" score "${S[@]}" --test-jobs 0 -- b/test_tested
expect_err "--test-jobs 0"
printf '# mrfuzz tests 1\n99999\tkilled\n' >bad.verdicts
expect_exit 2 h/mutants/harness score --mr "$T/sq_sum.mr" --tests bad.verdicts
expect_err "bad.verdicts:2: expected ID TAB VERDICT [TAB TEST] for a mutant of this build"
printf 'killed\n' >bad2.verdicts
expect_exit 2 h/mutants/harness score --mr "$T/sq_sum.mr" --tests bad2.verdicts
expect_err "bad2.verdicts:1: not a verdict file"
objs b >after3.md5
cmp -s before.md5 after3.md5 || fail "the build's objects changed after a refused run"
echo "PASS"
