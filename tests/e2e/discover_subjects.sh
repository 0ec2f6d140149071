#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_subjects.sh - discovery on subjects beyond the sine (docs/discover.md
# "Subjects"; the full list with figures is bench/discover/subjects.sh): examples/numeric's
# num_abs (one input) and num_hypot (two inputs), type I, with assertions on what must be
# found: |-x| = |x| and a homogeneity (|c x| = |c| |x|, c = 2, 1/2, ...); a reflection
# (hypot(x, -y) = hypot(x, y), in x, or in both), the symmetry hypot(y, x) = hypot(x, y)
# (a permutation: systematic transposition seeds) and hypot(c x, c y) = |c| hypot(x, y).
# Everything reported holds on fresh inputs. Smaller under the sanitizers.
. "$(dirname "$0")/lib.sh"
NUM="$EXAMPLES/numeric/numeric.c"
# the libFuzzer stage counted in executions (about the 2 s it had when it was timed)
SMALL=(--runs 8 --iters 30 --fuzz-runs 400000)
VERIFY_N=100000
if [ "${1:-OFF}" = ON ]; then
  SMALL=(--runs 4 --iters 20 --filter 50:20 --fuzz-runs 80000)
  VERIFY_N=20000
  echo "note: sanitizer build: ${SMALL[*]}, verify on $VERIFY_N inputs"
fi
awk_rels() { awk '/^relation /{body = ""} {body = body $0 "\n"} /^}/{print body "@@"}' "$1" >rels.txt; }
has() { # has CHECK-REGEX INPUT-REGEX...: some relation matching that check and all inputs
  local c=$1
  shift
  awk -v RS='@@' -v c="$c" -v ins="$*" 'BEGIN {n = split(ins, a, "|")}
    { ok = $0 ~ c; for (i = 1; i <= n; i++) ok = ok && $0 ~ a[i]; if (ok) found = 1 }
    END {exit !found}' rels.txt
}
# a homogeneity: input scaled by a constant, output by a constant (2, 0.5, 3, ...)
SCALED="approx\\((2 \\* )?RET1, ([0-9.]+ \\* )?RET2,"

check "num_abs, type I: even and homogeneous (|c x| = |c| |x| for some c: 2, 1/2, 3, ...)"
expect_exit 0 "$MRFUZZ" discover "$NUM:num_abs" --types I --seed 1 "${SMALL[@]}" -o abs.mr
expect_exit 0 "$MRFUZZ" lint abs.mr
awk_rels abs.mr
has "approx\\(y1, y2," "x2 = -x1;" || { cat abs.mr; fail "no |-x| = |x|"; }
has "${SCALED//RET/y}" "x2 = -?[0-9.]+ \\* x1;" || { cat abs.mr; fail "no |c x| = |c| |x|"; }
expect_exit 0 .mrfuzz/num_abs/harness verify --mr abs.mr -n "$VERIFY_N"
grep -q " 0 failed" out || { cat out; fail "verify abs"; }

check "num_hypot (two inputs), type I: reflection, symmetry and homogeneity"
expect_exit 0 "$MRFUZZ" discover "$NUM:num_hypot" --types I --seed 1 "${SMALL[@]}" -o hypot.mr
expect_exit 0 "$MRFUZZ" lint hypot.mr
awk_rels hypot.mr
has "approx\\(ret1, ret2," "y2 = -y1;" || has "approx\\(ret1, ret2," "x2 = -x1;" ||
  { cat hypot.mr; fail "no reflection: hypot(x, -y) = hypot(x, y), in x, or in both"; }
has "approx\\(ret1, ret2," "x2 = -?y1;|y2 = -?x1;" ||
  { cat hypot.mr; fail "no symmetry: hypot(y, x) = hypot(x, y)"; }
has "${SCALED//RET/ret}" "x2 = -?[0-9.]+ \\* x1;|y2 = -?[0-9.]+ \\* y1;" ||
  { cat hypot.mr; fail "no hypot(c x, c y) = |c| hypot(x, y)"; }
expect_exit 0 .mrfuzz/num_hypot/harness verify --mr hypot.mr -n "$VERIFY_N"
grep -q " 0 failed" out || { cat out; fail "verify hypot"; }
echo "ok"
