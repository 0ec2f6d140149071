#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_misbehave.sh - discovery on targets that crash or hang on part of their inputs
# (issue #14): the failing region is found around the input that failed, reported with
# that input (a reproducer) and how it failed, excluded, and discovery goes on on the
# rest; every relation is guarded (`where`) against the region, so `check` over a domain
# that contains it skips it instead of meeting the crash or the hang; a crash or a hang is
# a finding (exit 1). A target that fails on every input is a failure with its input, not
# "0 relations". GenMorph (--engine genmorph) does the same on the same subjects. The
# subjects are written here: 2x + 1 with an abort above 50, with an endless loop above
# 900, and with a null dereference everywhere; x + 2y with an abort where x > 50, y < 0.
# $1 = ON in the sanitizer preset: a wild read ends in the sanitizer's report and exit
# code 1 instead of SIGSEGV, and the searches are smaller (the harness is ~10x slower).
. "$(dirname "$0")/lib.sh"
# the work is counted, so the seed decides what is written (the libFuzzer stage in
# executions: about the CPU time of the 2 s it had when it was timed, under the
# sanitizers of the 1 s)
SMALL=(--runs 8 --iters 30 --fuzz-runs 200000)
SEGV=SIGSEGV
GVAL=40000
GFUZZ=200000
if [ "${1:-OFF}" = ON ]; then
  SMALL=(--runs 4 --iters 20 --filter 50:20 --fuzz-runs 40000)
  SEGV="exit code 1"
  GVAL=5000
  GFUZZ=80000
fi

cat >crash50.c <<'C'
#include <stdlib.h>
double crash50(double x);
double crash50(double x) {
  if (x > 50) abort();
  return 2 * x + 1;
}
C
cat >hang900.c <<'C'
double hang900(double x);
double hang900(double x) {
  if (x > 900)
    for (volatile unsigned i = 0;; i++) {
    }
  return 2 * x + 1;
}
C
cat >quad.c <<'C'
#include <stdlib.h>
double quad(double x, double y);
double quad(double x, double y) {
  if (x > 50 && y < 0) abort();
  return x + 2 * y;
}
C
cat >allcrash.c <<'C'
double allcrash(double x);
double allcrash(double x) {
  volatile double *p = 0;
  return *p + x;
}
C

# region KIND MIN MAX: the last run reported a KIND (crash|hang) at an input above MAX,
# and a region `x > B` with MIN <= B <= MAX
region() {
  local line b at
  line=$(grep -E "^  $1 at x=" out | head -1)
  [ -n "$line" ] || { cat out; fail "no $1 reported"; }
  echo "$line"
  at=$(sed -n 's/^  [a-z]* at x=\([^ ]*\) .*/\1/p' <<<"$line")
  b=$(sed -n 's/.*excluded: x > \([^ ;,]*\).*/\1/p' <<<"$line")
  [ -n "$b" ] || fail "no region 'x > B' in: $line"
  awk -v a="$at" -v b="$b" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a > hi && b >= lo && b <= hi) }' ||
    fail "$1 at x=$at, region x > $b: want the input above $3 and $2 <= B <= $3"
}

# guarded FILE: at least one relation, and every one has a `where` guard
guarded() {
  local n g
  n=$(grep -c '^relation ' "$1" || true)
  g=$(grep -c '^  where ' "$1" || true)
  [ "${n:-0}" -ge 1 ] || { cat out; fail "$1: no relation"; }
  [ "$n" = "$g" ] || { cat "$1"; fail "$1: $n relations, $g guarded"; }
  echo "$1: $n relations, all guarded"
}

# checked_clean: every relation of the last `check` was checked and skipped somewhere, none
# violated
checked_clean() {
  awk '/^  [A-Za-z_0-9]+ +checked / { n++; gsub(",", ""); if ($3 == 0 || $5 == 0 || $7 != 0) bad = 1 }
       END { exit !(n > 0 && !bad) }' out || { cat out; fail "a relation unchecked, never skipped, or violated"; }
}

for dom in default explicit; do
  R=()
  [ "$dom" = explicit ] && R=(--range x=-100:100)
  check "crash50, $dom domain: exit 1, the crash (SIGABRT) and its region x > ~50 reported, relations found"
  expect_exit 1 "$MRFUZZ" discover crash50.c:crash50 --types I,VI --seed 2 "${SMALL[@]}" "${R[@]}" \
    -o "c50_$dom.mr" --build-dir bd_c50
  cat out
  grep -q "0 of 0" out err && fail "reported as no finite result"
  expect_out "excluded inputs:"
  expect_out "SIGABRT"
  region crash 49 50
  expect_exit 0 "$MRFUZZ" lint "c50_$dom.mr"
  guarded "c50_$dom.mr"
  echo "ok"
done

check "crash50: equalities checked over the whole domain [-100, 100]: the guard skips the region, no crash"
expect_exit 1 "$MRFUZZ" discover crash50.c:crash50 --types I --seed 3 "${SMALL[@]}" -o c50_eq.mr --build-dir bd_c50
guarded c50_eq.mr
expect_exit 0 "$MRFUZZ" check crash50.c:crash50 --mr c50_eq.mr --engine random --build-dir ck_c50 -- -runs=20000 -seed=1
checked_clean
echo "ok"

check "crash50, inequalities (VIII): the libFuzzer stage runs all its executions; the guards hold under conditioned's ulp moves"
expect_exit 1 "$MRFUZZ" discover crash50.c:crash50 --types VIII --seed 2 "${SMALL[@]}" -o c50_ineq.mr --build-dir bd_c50
guarded c50_ineq.mr
grep -q "x2 > " c50_ineq.mr || { cat c50_ineq.mr; fail "no inequality relation"; }
grep -q "target failed under the fuzzer" err && { cat err; fail "the fuzzer met the crash through a guarded relation"; }
echo "ok"

check "quad, two inputs failing in a quadrant: the region x > 50 and y < 0 (round bounds), checked clean"
expect_exit 1 "$MRFUZZ" discover quad.c:quad --types I --seed 2 "${SMALL[@]}" -o quad.mr --build-dir bd_quad
grep -qE "^  crash at x=[0-9.]+ y=-[0-9.]+ by SIGABRT \(signal 6\); excluded: x > 50\.0 and y < 0\.0$" out ||
  { cat out; fail "the quadrant is not reported as x > 50.0 and y < 0.0"; }
guarded quad.mr
expect_exit 0 "$MRFUZZ" check quad.c:quad --mr quad.mr --engine random --build-dir ck_quad -- -runs=20000 -seed=1
checked_clean
echo "ok"

check "hang900, default domain: the hang is met outside [-100, 100] (validation's wide inputs), reported, excluded"
expect_exit 1 "$MRFUZZ" discover hang900.c:hang900 --types I,VI --seed 2 "${SMALL[@]}" -o h900.mr --build-dir bd_h900
cat out
expect_out "excluded inputs:"
region hang 880 900
guarded h900.mr
echo "ok"

check "hang900 on x in [0, 2000] (half of it hangs): excluded, relations on the rest, checked clean over [0, 2000]"
expect_exit 1 "$MRFUZZ" discover hang900.c:hang900 --types I --seed 2 "${SMALL[@]}" --range x=0:2000 -o h900r.mr \
  --build-dir bd_h900
cat out
region hang 880 900
guarded h900r.mr
expect_exit 0 "$MRFUZZ" check hang900.c:hang900 --mr h900r.mr --range x=0:2000 --engine random --build-dir ck_h900 \
  -- -runs=20000 -seed=1
checked_clean
echo "ok"

check "allcrash fails on every input: exit 1, how ($SEGV) and on which input, not '0 relations'"
expect_exit 1 "$MRFUZZ" discover allcrash.c:allcrash --types I --seed 2 "${SMALL[@]}" -o all.mr --build-dir bd_all
cat out err
expect_err "failed on every input"
expect_err "): $SEGV"
grep -qE "at x=-?[0-9]" err || fail "no failing input named"
grep -q "0 of 0" out err && fail "reported as no finite result"
echo "ok"

# GenMorph on the same subjects: a fixed number of generations, no wall-time cap
G=(--engine genmorph --seed 3 --jobs 2 -q --generations 8 --population 100 --inputs 300
  --templates 3 --validate "$GVAL" --fuzz-runs "$GFUZZ")
for subj in "crash50 crash 49 50" "hang900 hang 880 900"; do
  set -- $subj
  check "GenMorph on $1: exit 1, the $2 and its region reported, relations found on the rest, all guarded"
  expect_exit 1 "$MRFUZZ" discover "$1.c:$1" "${G[@]}" -o "g_$1.mr" --build-dir "bd_g$1"
  cat out
  expect_out "the target crashed or hung"
  region "$2" "$3" "$4"
  n=$(sed -n 's/^relations: \([0-9]*\)$/\1/p' out)
  [ "${n:-0}" -ge 1 ] || fail "$1: no relation"
  expect_exit 0 "$MRFUZZ" lint "g_$1.mr"
  guarded "g_$1.mr"
  grep -q "^  where !(x1 >= $4\.0) && !(x2 >= $4\.0);" "g_$1.mr" || { cat "g_$1.mr"; fail "not guarded x1, x2 < $4"; }
  echo "ok"
done
