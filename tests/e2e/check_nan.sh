#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_nan.sh - a follow-up input that is NaN lies outside every domain (ranges are
# intervals of numbers), so it is skipped like an infinite one, never run: `x2 = x1 * nan;
# check y2 == y2;` would otherwise fail on a correct target (NaN != NaN). Checked with
# libFuzzer and with --engine random; a relation beside it is still checked; `score` takes
# the relation as valid (the original does not violate it).
. "$(dirname "$0")/lib.sh"

cat >lin.c <<'C'
double nan_lin(double x);
double nan_lin(double x) { return 3 * x - 1; }
C
cat >nan.mr <<'MR'
mrdsl 1;
subject nan_lin(double x) -> double y;
relation times_nan {
  x2 = x1 * nan;
  check y2 == y2;
}
relation times_inf {
  x2 = x1 * inf;
  check y2 == y2;
}
relation shift {
  x2 = x1 + 1;
  check approx(y2, y1 + 3, abs=1e-9);
}
MR

# counts REL: "checked skipped violated" of REL in the last summary (./out)
counts() { awk -v r="$1" '$1 == r { print $3, $5, $7 }' out | tr -d ','; }

for engine in random libfuzzer; do
  check "$engine: NaN and infinite follow-ups are skipped (exit 0), the other relation is checked"
  args=()
  [ "$engine" = random ] && args=(--engine random)
  expect_exit 0 "$MRFUZZ" check lin.c:nan_lin --mr nan.mr "${args[@]}" --build-dir "h_$engine" -- -runs=2000 -seed=3
  cat out
  read -r c s v <<<"$(counts times_nan)"
  [ "${c:-x}" = 0 ] && [ "${v:-x}" = 0 ] && [ "${s:-0}" -gt 0 ] || fail "times_nan: checked $c skipped $s violated $v"
  read -r c s v <<<"$(counts times_inf)"
  [ "${c:-x}" = 0 ] && [ "${v:-x}" = 0 ] && [ "${s:-0}" -gt 0 ] || fail "times_inf: checked $c skipped $s violated $v"
  read -r c s v <<<"$(counts shift)"
  [ "${c:-0}" -gt 0 ] && [ "${v:-x}" = 0 ] || fail "shift: checked $c skipped $s violated $v"
  echo "ok"
done

check "score: the NaN-following relation is valid (its groups skipped), not 'invalid' on the original"
expect_exit 0 "$MRFUZZ" score lin.c:nan_lin --mr nan.mr --build-dir h_score
cat out
grep -E "^times_nan +" out | grep -qv invalid || fail "times_nan reported invalid by score"
grep -qE "^shift +[0-9]+ " out || fail "no score row for shift"
echo "ok"
