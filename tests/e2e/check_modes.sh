#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_modes.sh - compiled relations (docs/checking.md, "Compiled relations"): `mrfuzz
# check` runs its relations as C compiled into the libFuzzer harness, and the same run
# with the interpreter (MRFUZZ_CHECK_INTERP=1) on the same inputs (a compiled run's corpus
# and reproducers) gives the same summary (inputs, calls, per-relation counts, coverage)
# and the same reports: scalars, conditioned relations (ill-conditioned skips),
# arrays with a seeded fault, strings, records (in-out and out cells), several subjects
# in one target, and relations across functions (a seeded fault in a callee). The start-up line says which relations run which way, and why not.
. "$(dirname "$0")/lib.sh"
BUG=$E2E/inputs/chk_bug.c
# In a sanitized build (the asan preset) harnesses interpret: mg.c's buffer poisoning.
COMPILED="relations compiled"
LIB=$(cd "$(dirname "$MRFUZZ")/../lib" && pwd)
if nm "$LIB/libmreng.a" 2>/dev/null | grep -q __asan_report; then
  COMPILED="relations interpreted (a sanitized harness interprets"
fi

# both NAME EXIT ARGS...: `mrfuzz check --jobs 1 ARGS` fuzzes with the compiled relations
# into n_NAME; then the inputs it kept (its corpus and reproducers) run once more in each
# mode, compiled and interpreted (MRFUZZ_CHECK_INTERP=1), with libFuzzer's -runs=0: the same
# inputs, so the summaries and reports must be identical. (Two fuzzing runs are not compared:
# libFuzzer's stack-depth feature depends on the frames the target is called from, so the
# two modes may steer the fuzzer apart without any verdict differing.) Under ASan libFuzzer
# runs a seed input a second time when it made more mallocs than frees (its leak check), and
# counts it; both modes interpret there, with the same allocations, so the re-runs are the
# same (mg.c's buffers growing: str_repeat, chk_mean). The replays run without libFuzzer's
# RSS thread (-rss_limit_mb=0): libFuzzer counts every thread's mallocs, and that thread's
# start-up under ASan (pthread_getattr_np) allocates in whichever input is running when the
# scheduler starts it, which made one seed's mallocs outnumber its frees on a loaded machine
# and added a re-run to one mode only (CI: 9 executions against 8). On a difference, each
# run's account of its inputs (libFuzzer's log) is shown.
runs_of() {
  for m in c i; do
    echo "--- $m: libFuzzer's inputs, runs, re-runs and failures" >&2
    grep -E 'files found|seed corpus|INITED|Done [0-9]+ runs|leak|Slowest unit|deadly|timeout|ERROR' \
      "${m}_$1.err" >&2
  done
}
both() {
  local name=$1 want=$2 fuzz=() dash=0
  shift 2
  for a in "$@"; do
    [ "$a" = -- ] && dash=1
    [ $dash = 0 ] && fuzz+=("$a")
  done
  check "$name: compiled and interpreted runs agree on the same inputs (exit $want)"
  expect_exit "$want" "$MRFUZZ" check --build-dir "n_$name" --jobs 1 "$@"
  grep -qF "$COMPILED" err || { cat err >&2; fail "$name: not '$COMPILED'"; }
  rm -rf "in_$name" && mkdir "in_$name"
  cp "n_$name"/corpus/* "in_$name"/ 2>/dev/null || true
  cp "n_$name"/findings/* "in_$name"/ 2>/dev/null || true
  [ -n "$(ls "in_$name")" ] || fail "$name: no input kept"
  for m in c i; do
    rm -rf "rc_${m}_$name" && mkdir "rc_${m}_$name"
    if [ $m = c ]; then
      expect_exit "$want" "$MRFUZZ" check --build-dir "n_$name" --jobs 1 --corpus "rc_${m}_$name" \
        "${fuzz[@]}" -- -runs=0 -shuffle=0 -seed=1 -rss_limit_mb=0 "in_$name"
    else
      MRFUZZ_CHECK_INTERP=1 expect_exit "$want" "$MRFUZZ" check --build-dir "n_$name" --jobs 1 \
        --corpus "rc_${m}_$name" "${fuzz[@]}" -- -runs=0 -shuffle=0 -seed=1 -rss_limit_mb=0 "in_$name"
      expect_err "relations interpreted (MRFUZZ_CHECK_INTERP is set)"
    fi
    sed "s/rc_${m}_$name/C/g; s/in [0-9.e+-]* s ([0-9]*\/s)/in T/" out >"${m}_$name.out"
    sed -n '/^==== mrfuzz: relation violated/,/^residual/p' err >"${m}_$name.rep"
    cp err "${m}_$name.err"
  done
  diff "c_$name.out" "i_$name.out" || { runs_of "$name"; fail "$name: the summaries differ"; }
  diff "c_$name.rep" "i_$name.rep" || { runs_of "$name"; fail "$name: the reports differ"; }
  echo "$(grep -c . "c_$name.out") summary lines, $(grep -c '^residual' "c_$name.rep") reports on $(ls "in_$name" | wc -l) inputs: identical"
}

both trig_sin 0 "$EXAMPLES/trig/trig.c:trig_sin" --mr "$EXAMPLES/trig/trig_sin.mr" -- -runs=20000 -seed=3
grep -q "checks, 0 violated" c_trig_sin.out || fail "trig_sin: violations"
both tan_cond 1 "$EXAMPLES/trig/trig.c:trig_tan" --mr "$E2E/inputs/tan_cond.mr" -- -runs=20000 -seed=2
sed '/^\/\/ false:/,$d' "$E2E/inputs/tan_cond.mr" >tan_true.mr # the true ones: skips near poles
both tan_true 0 "$EXAMPLES/trig/trig.c:trig_tan" --mr tan_true.mr -- -runs=20000 -seed=2
grep -q "ill-conditioned" c_tan_true.out || fail "tan_true: no ill-conditioned skip"
both chk_mean 1 "$BUG:chk_mean" --mr "$E2E/inputs/chk_mean.mr" -- -runs=500000 -seed=1
ls n_chk_mean/findings/crash-* >/dev/null 2>&1 || fail "chk_mean: no reproducer"
[ -s c_chk_mean.rep ] || fail "chk_mean: no report"
both str_repeat 0 "$EXAMPLES/strings/strings.c:str_repeat" --mr "$EXAMPLES/strings/str_repeat.mr" \
  --range cap=0:64 --range n=0:8 -- -runs=10000 -seed=4
both rect_area 0 "$E2E/inputs/vec.c:rect_area" --mr "$E2E/inputs/rect_area.mr" -- -runs=10000 -seed=5
# a black box (its features are values and residuals) with in-out and out records
"$MR_CLANG" -O1 -c "$E2E/inputs/vec.c" -o vec.o
ar rcs libvec.a vec.o
sed 's/subject vec_add(/subject vec_add_bad(/' "$E2E/inputs/vec_add.mr" >bad_add.mr
both vec_add_bad 1 -I "$E2E/inputs" -L "$WORK" -l vec -l m --mr bad_add.mr "$E2E/inputs/vec.h:vec_add_bad" \
  -- -runs=20000 -seed=6
both multi 1 "$E2E/inputs/multi.c" -D ML_BUG --mr "$E2E/inputs/multi_mr/" -- -runs=200000 -seed=1
# relations across functions (#19): trig_sin's file calls trig_cos and trig_tan, compiled too;
# then a fault in trig_cos only (scaled by 1 + 1e-6 on (2, 2.1)), which pythagoras reports
both trig_api 0 "$EXAMPLES/trig/trig.c:trig_sin" --mr "$E2E/inputs/trig_api.mr" -- -runs=20000 -seed=3
grep -q "checks, 0 violated" c_trig_api.out || fail "trig_api: violations"
sed 's/^double trig_cos(double x) {/static double trig_cos_ok(double x) {/' "$EXAMPLES/trig/trig.c" >trig_bug.c
printf 'double trig_cos(double x) {\n  double c = trig_cos_ok(x);\n  return x > 2 && x < 2.1 ? c * (1 + 1e-6) : c;\n}\n' >>trig_bug.c
both trig_api_bug 1 -I "$EXAMPLES/trig" trig_bug.c:trig_sin --mr "$E2E/inputs/trig_api.mr" -- -runs=200000 -seed=1
grep -qF "execution 2 (follow-up, trig_cos): x2 = 2." c_trig_api_bug.rep || fail "trig_api_bug: no report of the fault"

check "the reproducer replays with the same report as the run printed"
rep=$(sed -n 's/.*reproducer: \(n_chk_mean\/findings\/crash-[0-9a-f]*\) .*/\1/p' c_chk_mean.out 2>/dev/null | head -1)
rep=${rep:-n_chk_mean/findings/$(ls n_chk_mean/findings | head -1)}
expect_exit 1 "$MRFUZZ" repro --build-dir n_chk_mean "$BUG:chk_mean" --mr "$E2E/inputs/chk_mean.mr" "$rep"
sed -n '/^==== mrfuzz: relation violated/,/^residual/p' err >replayed.rep
diff replayed.rep c_chk_mean.rep || fail "repro's report differs from the compiled run's"
echo "ok"

check "--interpret forces the interpreter; a changed relation file is interpreted"
expect_exit 0 "$MRFUZZ" check --build-dir n_trig_sin --jobs 1 "$EXAMPLES/trig/trig.c:trig_sin" \
  --mr "$EXAMPLES/trig/trig_sin.mr" --interpret -- -runs=100
expect_err "trig_sin: 11 relations interpreted (--interpret)"
cp "$EXAMPLES/trig/trig_sin.mr" edited.mr
echo "// edited after the build" >>edited.mr
if [ "$COMPILED" = "relations compiled" ]; then
  MRFUZZ_CHECK="--mr
$PWD/edited.mr" MRFUZZ_VALIDATE=1 expect_exit 0 n_trig_sin/fuzz/harness
  expect_err "relations interpreted (the relation file changed since the harness was built)"
fi
check "an edited relation file rebuilds the harness with its relations compiled"
expect_exit 0 "$MRFUZZ" check --build-dir n_trig_sin --jobs 1 "$EXAMPLES/trig/trig.c:trig_sin" --mr edited.mr -- -runs=100
expect_err "trig_sin: 11 $COMPILED"
grep -q "edited.mr" n_trig_sin/fuzz/native.c || fail "native.c is not the edited file's"
echo "ok"
