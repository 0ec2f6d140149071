#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_outparam.sh - discovery with outputs beyond the return value (docs/discover.md
# "Outputs"): examples/numeric's num_sinhcosh(double x, double *s, double *c) returns
# nothing and writes sinh and cosh through out-parameters. Both are outputs of every
# execution (s1', c1' in the .mr): parity (type I) and relations across the two outputs
# (type II: cosh^2 - sinh^2 = 1, sinh 2x = 2 sinh x cosh x). Then AutoMR's refusals
# (--engine automr): arrays, and a function without any numeric output (exit 2).
. "$(dirname "$0")/lib.sh"
SC="$EXAMPLES/numeric/numeric.c:num_sinhcosh"
# the libFuzzer stage counted in executions (about the 2 s it had when it was timed)
SMALL=(--runs 6 --iters 20 --filter 50:20 --fuzz-runs 400000)
VERIFY_N=100000
if [ "${1:-OFF}" = ON ]; then
  SMALL=(--runs 6 --iters 20 --filter 50:20 --fuzz-runs 80000)
  VERIFY_N=20000
  echo "note: sanitizer build: verify on $VERIFY_N inputs"
fi

check "discover on num_sinhcosh (two out-parameters, no return value), types I and II"
expect_exit 0 "$MRFUZZ" discover "$SC" --types I,II --range x=-5:5 --seed 1 "${SMALL[@]}" -o sc.mr
cat out
expect_exit 0 "$MRFUZZ" lint sc.mr
grep -qF "subject num_sinhcosh(double x, double *s, double *c) -> void;" sc.mr || { head -5 sc.mr; fail "subject line"; }

check "parity of both outputs: s(-x) = -s(x), c(-x) = c(x)"
awk '/^relation /{body = ""} {body = body $0 "\n"} /^}/{print body "@@"}' sc.mr >rels.txt
has() { # has INPUT-LINE CHECK-REGEX: some relation with that input map and check
  awk -v RS='@@' -v a="$1" -v c="$2" 'index($0, a) && $0 ~ c {found = 1} END {exit !found}' rels.txt
}
has "x2 = -x1;" "approx\\(s1' \\+ s2', 0\\.0|approx\\(s1', -s2'" || { cat sc.mr; fail "no s1' + s2' = 0"; }
has "x2 = -x1;" "approx\\(c1', c2'" || { cat sc.mr; fail "no c1' = c2'"; }

check "relations across the two outputs (type II), e.g. cosh^2 - sinh^2 = 1, sinh 2x = 2 sinh cosh"
grep -E "check .*s[12]'.*c[12]'|check .*c[12]'.*s[12]'" sc.mr >cross.txt || { cat sc.mr; fail "no relation over both outputs"; }
wc -l <cross.txt
has "x2 = 2 * x1;" "s2'.*2 \\* s1' \\* c1'|2 \\* s1' \\* c1'.*s2'" || { cat sc.mr; fail "no sinh 2x = 2 sinh x cosh x"; }

check "every relation holds on $VERIFY_N fresh inputs, and under libFuzzer (mrfuzz check)"
expect_exit 0 .mrfuzz/num_sinhcosh/harness verify --mr sc.mr -n "$VERIFY_N" --range x=-5:5
grep -q " 0 failed" out || { cat out; fail "verify"; }
expect_exit 0 "$MRFUZZ" check "$SC" --mr sc.mr --range x=-5:5 -- -runs=5000 -seed=1
grep -qE "checks, 0 violated" out || { cat out err; fail "check found violations"; }

check "refused by AutoMR (--engine automr): array parameters, and a function with no numeric output (exit 2)"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/arrays/arrays.c:arr_mean" --engine automr --fuzz-falsify 0
expect_err "not a numeric scalar"
printf 'void no_out(double x);\nvoid no_out(double x) { (void)x; }\n' >noout.c
expect_exit 2 "$MRFUZZ" discover noout.c:no_out --engine automr --fuzz-falsify 0
expect_err "no numeric output"
check "no output for either engine: the signature picks AutoMR, which says what is missing (exit 2)"
expect_exit 2 "$MRFUZZ" discover noout.c:no_out --fuzz-falsify 0
expect_out "engine: automr (chosen from the signature: no output either engine reads)"
expect_err "no numeric output"
echo "ok"
