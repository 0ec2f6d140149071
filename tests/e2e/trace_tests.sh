#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# trace_tests.sh - `mrfuzz trace-tests` (issue #30, docs/tests.md): examples/tested's own
# tests traced, under CTest (Ninja build: objects keep their time stamps, what links them
# is aged) and under make (a hand Makefile: objects get fresh time stamps); the build
# tree's objects are put back byte for byte after a passing run, a failing one, a failed
# --build, a stop (SIGINT), and by the next run after a run killed with SIGKILL. The pairs
# of calls the tests compare: results, out-parameters and record leaves (equal, opposite,
# reciprocal).
. "$(dirname "$0")/lib.sh"
T="$EXAMPLES/tested"
CC=${MR_CLANG:-clang-14}
# A sanitized mrfuzz (the asan configuration) has a sanitized runtime: the user's builds
# that link it must link the sanitizers too, as a project built with ASan does.
SANF=
[ "${1:-OFF}" = ON ] && SANF="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
FILES=("$T/src/units.c" "$T/src/seq.c" "$T/src/text.c")

# objs DIR: the checksum of every object of the library in DIR's build
objs() { find "$1" -name '*.o' | sort | xargs -r md5sum; [ -n "$(find "$1" -name '*.o')" ] || fail "no object in $1"; }

check "the example's own build and tests (CMake, Ninja)"
cmake -S "$T" -B b -G Ninja -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$SANF" -DCMAKE_EXE_LINKER_FLAGS="$SANF" \
  >/dev/null || fail "cmake"
cmake --build b >/dev/null || fail "build"
ctest --test-dir b >/dev/null || fail "the example's tests fail before any tracing"
objs b >before.md5

check "trace-tests under ctest: every function's calls, the tests' own inputs"
# --out r and --out mean each name one function's out-parameter: the others ignore them
expect_exit 0 "$MRFUZZ" trace-tests "${FILES[@]}" -p b --out r --out mean --build 'cmake --build b' -o t.mrtrace \
  -- ctest --test-dir b
expect_err "3 objects swapped into the build tree"
expect_err "the build's own objects are back"
expect_out "trace: $PWD/t.mrtrace"
"$MRFUZZ" trace t.mrtrace >t.jsonl || fail "the trace does not read"
for f in tu_c_to_f tu_f_to_c tu_f_to_k tu_exp_r tu_poly sq_sum sq_mean tx_vowels; do
  grep -q "\"fn\":\"$f\"" t.jsonl || fail "no call of $f traced"
done
grep -qF '"in":{"a":[0.5,-2,3.25,8],"n":4}' t.jsonl || fail "sum_reverse's array not traced"
grep -qF '"in":{"a":[8,3.25,-2,0.5],"n":4}' t.jsonl || fail "sum_reverse's reversed array not traced"
grep -qF '"in":{"s":"metamorphicrst"}' t.jsonl || fail "vowels_suffix's string not traced"
grep -qF '"in":{"x":-0.5},"out":{"return":0,"r.val":0.6065306597126334,' t.jsonl || fail "tu_exp_r's record not traced"
# celsius_round_trip's six calls and celsius_known's one, and tu_f_to_k's two from inside
[ "$(grep -c '"fn":"tu_f_to_c"' t.jsonl)" = 9 ] || fail "tu_f_to_c: not 9 calls"
[ ! -e t.mrtrace.partial ] || fail "the partial trace was left behind"

check "each call names its CTest test; tu_f_to_k's calls of tu_f_to_c come from the library"
grep -qF '"fn":"sq_sum","proc":' t.jsonl && grep -F '"fn":"sq_sum"' t.jsonl | grep -qF '"test":"sum_reverse"' ||
  fail "sq_sum's calls do not name sum_reverse"
[ "$(grep -F '"fn":"tu_f_to_c"' t.jsonl | grep -cF '"from":"library"')" = 2 ] ||
  fail "not 2 calls of tu_f_to_c from inside the library"
# and sq_mean's calls of sq_sum
! grep -F '"from":"library"' t.jsonl | grep -vF '"test":"kelvin"' | grep -qvF '"fn":"sq_sum","proc":' ||
  fail "a library call outside the kelvin test"
[ "$(grep -F '"fn":"sq_sum"' t.jsonl | grep -F '"from":"library"' | grep -cF '"test":"mean_reverse"')" = 2 ] ||
  fail "not 2 calls of sq_sum from inside the library (sq_mean)"
"$MRFUZZ" trace --summary t.mrtrace >sum.txt
grep -qF "from tests: 7  from the library: 2  tests: 3" sum.txt || { cat sum.txt; fail "the summary's origins of tu_f_to_c"; }

check "trace --domain: each parameter as the tests exercise it, and the options that make it the domain"
expect_exit 0 "$MRFUZZ" trace --domain t.mrtrace
expect_out "tu_c_to_f: 8 calls, from 2 tests"
expect_out "tu_f_to_c: 9 calls (2 from inside the library), from 3 tests"
grep -qE "^  c +f64  -273.15:451$" out || { cat out; fail "tu_c_to_f's c"; }
grep -qE "^  a +f64\[\]  elements -2:8  lengths 0:4$" out || { cat out; fail "sq_sum's a"; }
grep -qE "^  n +i32  0:4$" out || { cat out; fail "sq_sum's n"; }
grep -qE '^  s +cstr  lengths 0:14  bytes " AEIOUacdehilmnoprstwxyz"$' out || { cat out; fail "tx_vowels' s"; }
expect_out "as options: --range a=-2:8 --range n=0:4"

check "run, discover and check take the tests' domain (--domain-from); the .mr states it"
expect_exit 0 "$MRFUZZ" run "$T/src/units.c:tu_poly" -p b --build-dir h_poly --domain-from t.mrtrace -n 200 --seed 1 \
  --trace r.trace
"$MRFUZZ" trace --domain r.trace >rd.txt
grep -qE "^  x +f64  -[01]\.[0-9]+:[01]\.[0-9]+$" rd.txt || { cat rd.txt; fail "run drew x outside the tests' -2:2"; }
SMALL=(--seed 1 --runs 1 --iters 20 --inputs 100 --fuzz-falsify 0)
expect_exit 0 "$MRFUZZ" discover "$T/src/units.c:tu_c_to_f" -p b --build-dir h_c2f --domain-from t.mrtrace \
  -o c2f.mr "${SMALL[@]}"
grep -qxF "domain c = [-273.15, 451];" c2f.mr || { head c2f.mr; fail "c2f.mr does not state the tests' domain"; }
"$MRFUZZ" lint c2f.mr >/dev/null || fail "c2f.mr does not lint"
expect_exit 0 "$MRFUZZ" check "$T/src/units.c:tu_c_to_f" -p b --build-dir h_c2f --mr c2f.mr --domain-from t.mrtrace \
  -- -runs=20000 -seed=1
expect_out "0 violated"
expect_exit 2 "$MRFUZZ" check "$T/src/units.c:tu_c_to_f" -p b --build-dir h_c2f --mr c2f.mr --domain-from m_none.mrtrace
expect_err "m_none.mrtrace"

check "check and score start from the tests' calls (--domain-from): seeds that decode to the traced inputs"
cat >vow.mr <<'MR'
mrdsl 1;
subject tx_vowels(const char *s) -> int y;
relation suffix_rst {
  s2 = concat(s1, "rst");
  check y2 == y1;
}
MR
# violated by one traced call only (AEIOU, vowels_known's third), by none of -runs=0's inputs
cat >five.mr <<'MR'
mrdsl 1;
subject tx_vowels(const char *s) -> int y;
relation five_vowels_never {
  s2 = s1;
  check y1 != 5;
}
MR
# violated everywhere: its report shows the input a seed decodes to
cat >show.mr <<'MR'
mrdsl 1;
subject sq_sum(const double a[n], int n) -> double y;
relation show {
  a2 = a1;
  check y2 == y1 + 1;
}
MR
expect_exit 0 "$MRFUZZ" check "$T/src/text.c:tx_vowels" -p b --build-dir h_vow --mr vow.mr --domain-from t.mrtrace \
  --jobs 1 -- -runs=2000 -seed=1
grep -qE "^mrfuzz: seeded the corpus with [1-9][0-9]* of the tests' 9 calls of tx_vowels \(9 distinct inputs, in h_vow/seeds;" out ||
  { cat out; fail "check does not say it seeded the corpus with the tests' calls"; }
[ "$(ls h_vow/seeds | wc -l)" = 9 ] || fail "not the 9 distinct calls as seeds"
md5sum h_vow/seeds/* >seeds1.md5
expect_exit 0 "$MRFUZZ" check "$T/src/text.c:tx_vowels" -p b --build-dir h_vow --mr vow.mr --domain-from t.mrtrace \
  -- -runs=0
md5sum h_vow/seeds/* | cmp -s - seeds1.md5 || fail "the same trace gave other seeds"
expect_out "seeded the corpus with 0 of the tests' 9 calls" # the corpus holds them already
# the merge checks the seeds: a traced call that violates a relation is a finding
expect_exit 1 "$MRFUZZ" check "$T/src/text.c:tx_vowels" -p b --build-dir h_five --mr five.mr --domain-from t.mrtrace \
  -- -runs=0
expect_out "five_vowels_never            checked"
expect_out "reproducer: h_five/findings/crash-"
expect_exit 1 "$MRFUZZ" check "$T/src/seq.c:sq_sum" -p b --build-dir h_sum --mr show.mr --domain-from t.mrtrace \
  -- -runs=0
expect_out "seeded the corpus with "
[ -f h_sum/seeds/tests-00002 ] || fail "sq_sum's seeds were not written"
expect_exit 1 "$MRFUZZ" repro "$T/src/seq.c:sq_sum" -p b --build-dir h_sum --mr show.mr --domain-from t.mrtrace \
  h_sum/seeds/tests-00002
expect_err "on a = [8.0, 3.25, -2.0, 0.5]; n = 4;" # sum_reverse's first call
expect_exit 0 "$MRFUZZ" score "$T/src/text.c:tx_vowels" -p b --build-dir h_vow --mr five.mr --domain-from t.mrtrace \
  --domain-only
expect_out "mrfuzz: score: the first 9 source inputs are the tests' calls: 9 calls of tx_vowels in $PWD/t.mrtrace: 9 distinct inputs"
expect_out "five_vowels_never (five.mr:3): violated on input 2," # AEIOU, in the order of the calls

check "trace --pairs: the relations the tests encode, and the round trip between two functions"
expect_exit 0 "$MRFUZZ" trace --pairs t.mrtrace
expect_out "tu_poly: tests_neg_x_opposite, 4 pairs (test poly_odd)"
expect_out "  check approx(y2, -y1, abs=1e-9, rel=1e-9);"
expect_out "sq_sum: tests_reverse_a_same, 1 pairs (test sum_reverse)"
expect_out "  a2 = reverse(a1);"
expect_out "tx_vowels: tests_suffix_s_same, 3 pairs (test vowels_suffix)"
# an out record's leaf, reciprocal (e^-x = 1/e^x); its status code beside it is no candidate,
# nor its error estimate (tiny both times, not equal for that)
expect_out "tu_exp_r: tests_neg_x_r_val_reciprocal, 4 pairs (test exp_reciprocal)"
expect_out "  check approx(r1'.val * r2'.val, 1, abs=1e-9, rel=1e-9);"
[ "$(grep -c '^tu_exp_r: ' out)" = 1 ] || { cat out; fail "tu_exp_r: not one candidate"; }
# a scalar out-parameter
expect_out "sq_mean: tests_reverse_a_mean_same, 1 pairs (test mean_reverse)"
expect_out "  check approx(mean2', mean1', abs=1e-9, rel=1e-9);"
expect_out '  s2 = concat(s1, "rst");'
expect_out "tu_c_to_f->tu_f_to_c: a round trip, 6 pairs (test celsius_round_trip): mrfuzz discover 'FILE:tu_c_to_f->tu_f_to_c'"
! grep -q "tu_c_to_f: tests_" out || fail "a relation of tu_c_to_f from calls no test relates"

check "discover --from-tests: the tests' relations checked and kept (meta origin = \"tests\")"
expect_exit 0 "$MRFUZZ" discover "$T/src/seq.c:sq_sum" -p b --build-dir h_sum --from-tests t.mrtrace \
  --domain-from t.mrtrace -o sum.mr --seed 1 --generations 4 --population 50 --fuzz-falsify 0
expect_err "relations the tests encode for sq_sum: 1 candidates, 1 kept in sum.mr"
grep -qF 'relation tests_reverse_a_same {' sum.mr || fail "the reversal the test encodes is not in sum.mr"
grep -A4 'relation tests_reverse_a_same' sum.mr | grep -qF 'meta origin = "tests";' || fail "no origin"
grep -A4 'relation tests_reverse_a_same' sum.mr | grep -qF 'meta test = "sum_reverse";' || fail "no test"
"$MRFUZZ" lint sum.mr >/dev/null || fail "sum.mr does not lint"
expect_exit 0 "$MRFUZZ" discover "$T/src/text.c:tx_vowels" -p b --build-dir h_vow --from-tests t.mrtrace \
  -o vow.mr --seed 1 --generations 4 --population 50 --fuzz-falsify 0
# the suffix "rst" has no vowel: the test's relation holds for every string
grep -qF 'relation tests_suffix_s_same {' vow.mr || fail "the suffix relation is not in vow.mr"
# the reciprocal of an out record's leaf holds on the tests' domain: kept, naming r'.val
# (discovery's own one-call invariants on the whole input space may report a suspect of
# the status code, exit 1: not the tests' relation, which the note below counts)
"$MRFUZZ" discover "$T/src/units.c:tu_exp_r" -p b --out r --build-dir h_exp --from-tests t.mrtrace \
  --domain-from t.mrtrace -o exp.mr "${SMALL[@]}" >out 2>err || [ $? = 1 ] || { cat err; fail "discover tu_exp_r"; }
expect_err "relations the tests encode for tu_exp_r: 1 candidates, 1 kept in exp.mr"
grep -A6 'relation tests_neg_x_r_val_reciprocal {' exp.mr | grep -qF "check approx(r1'.val * r2'.val, 1," ||
  fail "the reciprocal the test encodes is not in exp.mr"
"$MRFUZZ" lint exp.mr >/dev/null || fail "exp.mr does not lint"
expect_exit 0 "$MRFUZZ" discover "$T/src/units.c:tu_c_to_f" -p b --build-dir h_c2f --from-tests t.mrtrace \
  -o c2f_t.mr "${SMALL[@]}"
expect_err "the tests make round trips tu_c_to_f->tu_f_to_c"

check "a pair that holds only where the test calls the function is dropped, and said"
mkdir -p sq
cat >sq/sq.c <<'C'
int sq_small(int x) { return x > -10 && x < 10 ? x * x : x; } /* even near 0 only */
C
cat >sq/test.c <<'C'
int sq_small(int x);
int main(void) { return sq_small(2) != sq_small(-2) || sq_small(3) != 9; }
C
cat >sq/Makefile <<MK
check: test
	./test
test: test.c sq.o
	$CC $SANF -o \$@ test.c sq.o
sq.o: sq.c
	$CC $SANF -c -o \$@ sq.c
MK
"$PYTHON" - "$PWD/sq" "$CC" "$SANF" <<'PY'
import json, sys
d, cc, san = sys.argv[1:]
json.dump([{"directory": d, "file": d + "/sq.c", "arguments": [cc] + san.split() + ["-c", "-o", "sq.o", "sq.c"]}],
          open(d + "/compile_commands.json", "w"))
PY
make -C sq check >/dev/null || fail "the sq fixture"
expect_exit 0 "$MRFUZZ" trace-tests sq/sq.c -p sq --build-dir sqw -o sq.mrtrace -- make -C sq check
expect_exit 0 "$MRFUZZ" trace --pairs sq.mrtrace
expect_out "sq_small: tests_neg_x_same, 1 pairs (test -)"
expect_exit 0 "$MRFUZZ" discover sq/sq.c:sq_small -p sq --build-dir h_sq --from-tests sq.mrtrace -o sq.mr "${SMALL[@]}"
expect_err "tests_neg_x_same (a test): broken on"
expect_err "it holds only where the test calls it; dropped"
! grep -q "tests_neg_x_same" sq.mr || fail "a relation the random inputs break was written"
# in the tests' own domain (-2..2 from --domain-from) it holds
expect_exit 0 "$MRFUZZ" discover sq/sq.c:sq_small -p sq --build-dir h_sq2 --from-tests sq.mrtrace \
  --domain-from sq.mrtrace -o sq2.mr "${SMALL[@]}"
grep -qF "relation tests_neg_x_same {" sq2.mr || fail "the tests' relation is not kept within their domain"
grep -qxF "domain x = [-2, 3];" sq2.mr || fail "sq2.mr does not state the tests' domain"

check "the build tree is as it was: the same objects, and the next build relinks them"
objs b >after.md5
cmp -s before.md5 after.md5 || { diff before.md5 after.md5; fail "objects differ after the run"; }
cmake --build b >/dev/null || fail "rebuild"
! nm b/test_tested | grep -q __mr_ || fail "the rebuilt test program still has mrfuzz's runtime"
ctest --test-dir b >/dev/null || fail "the example's tests fail after the run"

check "under make (fresh time stamps, libtool's habits aside): the test command builds"
mkdir -p m
cat >m/Makefile <<MK
CC = $CC
CFLAGS = -O1 -I$T/include $SANF
OBJ = units.o seq.o text.o
check: test_tested
	./test_tested
test_tested: $T/tests/test_tested.c libtested.a
	\$(CC) \$(CFLAGS) -o \$@ \$< libtested.a -lm
libtested.a: \$(OBJ)
	ar rcs \$@ \$^
%.o: $T/src/%.c
	\$(CC) \$(CFLAGS) -c -o \$@ \$<
MK
"$PYTHON" - "$T" "$PWD/m" "$CC" "$SANF" <<'PY'
import json, sys
t, d, cc, san = sys.argv[1:]
json.dump([{"directory": d, "file": "%s/src/%s.c" % (t, s),
            "arguments": [cc, "-O1", "-I%s/include" % t] + san.split() + ["-c", "-o", "%s.o" % s, "%s/src/%s.c" % (t, s)]}
           for s in ("units", "seq", "text")], open(d + "/compile_commands.json", "w"))
PY
make -C m check >/dev/null || fail "the hand Makefile"
objs m >m_before.md5
expect_exit 0 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --sources "$T/src" --build-dir mw \
  -o m.mrtrace -- make -C m check
"$MRFUZZ" trace m.mrtrace >m.jsonl || fail "the make trace does not read"
[ "$(grep '"fn":"sq_sum"' m.jsonl | grep -vc '"from":"library"')" = 4 ] ||
  fail "sq_sum: not its 4 calls from the tests (make check runs every test)"
[ "$(grep '"fn":"sq_sum"' m.jsonl | grep -c '"from":"library"')" = 2 ] || fail "sq_sum: not its 2 calls from sq_mean"
! grep -q '"fn":"tu_' m.jsonl || fail "a function not asked for was traced"
objs m >m_after.md5
cmp -s m_before.md5 m_after.md5 || fail "make: objects differ after the run"
make -C m check >/dev/null && ! nm m/test_tested | grep -q __mr_ || fail "make: not relinked without the runtime"

check "failing tests: exit 1, the trace kept, the objects back"
expect_exit 1 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --build-dir mw -o fail.mrtrace \
  -- sh -c 'make -C m check && exit 3'
expect_err "the tests failed"
[ -s fail.mrtrace ] || fail "no trace after failing tests"
objs m >m_after.md5
cmp -s m_before.md5 m_after.md5 || fail "objects differ after failing tests"

check "a failing --build: exit 2, the objects back"
expect_exit 2 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --build-dir mw --build false -- make -C m check
expect_err "--build 'false' failed"
objs m >m_after.md5
cmp -s m_before.md5 m_after.md5 || fail "objects differ after a failed --build"

check "stopped (SIGINT) while the tests run: the objects back, exit 130"
"$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --build-dir mw -o stop.mrtrace \
  -- sh -c 'make -C m check >/dev/null; touch started; sleep 60' >out 2>err &
pid=$!
for _ in $(seq 600); do [ -e started ] && break; sleep 0.1; done
[ -e started ] || fail "the test command did not start"
kill -INT $pid
rc=0
wait $pid || rc=$?
[ "$rc" = 130 ] || { cat err; fail "exit $rc after SIGINT, want 130"; }
objs m >m_after.md5
cmp -s m_before.md5 m_after.md5 || fail "objects differ after a stop"
rm -f started

check "killed (SIGKILL) while the tests run: the next run puts the objects back first"
"$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --build-dir mw -o kill.mrtrace \
  -- sh -c 'touch started; sleep 60' >out 2>err &
pid=$!
for _ in $(seq 600); do [ -e started ] && break; sleep 0.1; done
kill -KILL $pid
wait $pid || true
objs m >m_killed.md5
! cmp -s m_before.md5 m_killed.md5 || fail "the objects were not swapped while the tests ran"
[ -s mw/swapped.tsv ] || fail "no manifest of the swapped objects"
expect_exit 0 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --build-dir mw -o again.mrtrace -- make -C m check
expect_err "an earlier run was stopped before it put the build's objects back: 3 put back"
objs m >m_after.md5
cmp -s m_before.md5 m_after.md5 || fail "objects differ after the run that followed a kill"

check "discover FILE --domain-from: the functions the tests never call are skipped, and say so"
expect_exit 0 "$MRFUZZ" discover "$T/src/units.c" -p b --build-dir h_all --domain-from m.mrtrace -o none-mr \
  --seed 1 --runs 1 --iters 20 --inputs 100 --fuzz-falsify 0
expect_out "never called in --domain-from's trace"
[ -z "$(ls none-mr/*.mr 2>/dev/null)" ] || fail "a .mr for a function the trace never calls"
expect_exit 2 "$MRFUZZ" discover "$T/src/units.c:tu_c_to_f" -p b --domain-from m.mrtrace -o x.mr
expect_err "no call of tu_c_to_f in it"

check "bad command lines: exit 2"
expect_exit 2 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m
expect_err "missing the test command after '--'"
expect_exit 2 "$MRFUZZ" trace-tests -p m -- make -C m check
expect_err "missing FILE"
expect_exit 2 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p nowhere -- make -C m check
expect_err "-p nowhere: no compile_commands.json there"
expect_exit 2 "$MRFUZZ" trace-tests "$T/src/seq.c:sq_sum" -p m --sources /usr/include -- make -C m check
expect_err "has no compile of a source in /usr/include"
echo "PASS"
