#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# emit_test.sh - findings become regression tests (issue #16): `mrfuzz repro CRASHFILE
# --emit-test OUT.c` on a reproducer of a faulty subject writes a standalone C test that
# compiles with a plain `cc OUT.c SOURCES -lm` (gcc and clang, no mrfuzz header or
# library), exits 1 with the report against the faulty source and 0 against the fixed
# one: an array subject, a string with an out-buffer, a multi-subject check (FILE
# --mr DIR/) and a relation across functions (the test binds the other functions). Also: --emit-test is repro's only, and an unwritable OUT.c is refused
# before anything is built.
. "$(dirname "$0")/lib.sh"
I=$E2E/inputs
CCS="${MR_CLANG:-clang-14} gcc cc"

# emitted NAME SRC BUGDEF: NAME.c against SRC with -DBUGDEF (violated: exit 1, the
# report) and without it (fixed: exit 0), by every compiler found.
emitted() {
  local name=$1 src=$2 bug=$3
  [ -s "$name.c" ] || fail "$name.c was not written"
  if grep -q 'include *[<"]mrfuzz' "$name.c"; then fail "$name.c includes an mrfuzz header"; fi
  for cc in $CCS; do
    command -v "$cc" >/dev/null || continue
    check "$name.c ($cc): builds with 'cc $name.c SOURCE -lm'; faulty source: exit 1; fixed: exit 0"
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$name.c" "$src" -D"$bug" -lm -o "$name.bug" ||
      fail "$name.c does not compile with $cc against the faulty source"
    "$cc" -std=c99 -pedantic -Wall -Wextra -Werror "$name.c" "$src" -lm -o "$name.fixed" ||
      fail "$name.c does not compile with $cc against the fixed source"
    expect_exit 1 "./$name.bug"
    expect_out "==== mrfuzz: relation violated: "
    expect_exit 0 "./$name.fixed"
    expect_out "holds on the recorded inputs"
  done
}

# reproducer DIR: the one reproducer check saved in DIR
reproducer() {
  local r
  r=$(ls "$1"/crash-* 2>/dev/null | head -1)
  [ -n "$r" ] || fail "check saved no reproducer in $1"
  echo "$r"
}

check "an array subject: check finds the fault, repro --emit-test writes the test"
mkdir -p art_mean
expect_exit 1 "$MRFUZZ" check --build-dir hm "$I/chk_bug.c:chk_mean" --mr "$I/chk_mean.mr" \
  --engine random -- -runs=200000 -seed=7 -artifact_prefix=art_mean/
rep=$(reproducer art_mean)
expect_exit 1 "$MRFUZZ" repro --build-dir hm "$I/chk_bug.c:chk_mean" --mr "$I/chk_mean.mr" "$rep" \
  --emit-test mean_test.c
expect_err "regression test written to mean_test.c"
grep -q "^static const union { unsigned char b\[[0-9]*\];.*} mrt_1_0 = " mean_test.c || fail "the array is not recorded as bytes"
# chk_bug.c is faulty unless CHK_FIXED: the "bug" build is the default one here
for cc in $CCS; do
  command -v "$cc" >/dev/null || continue
  check "mean_test.c ($cc): faulty chk_mean: exit 1; -DCHK_FIXED=1: exit 0"
  "$cc" -std=c99 -pedantic -Wall -Wextra -Werror mean_test.c "$I/chk_bug.c" -lm -o mean.bug || fail "$cc: faulty"
  "$cc" -std=c99 -pedantic -Wall -Wextra -Werror mean_test.c "$I/chk_bug.c" -DCHK_FIXED=1 -lm -o mean.fixed ||
    fail "$cc: fixed"
  expect_exit 1 ./mean.bug
  expect_out "==== mrfuzz: relation violated: "
  expect_exit 0 ./mean.fixed
done

check "a string and an out-buffer: et_upper with ET_BUG"
mkdir -p art_str
expect_exit 1 "$MRFUZZ" check --build-dir hs "$I/emit_str.c:et_upper" -D ET_BUG --mr "$I/emit_str.mr" \
  --engine random -- -runs=200000 -seed=3 -artifact_prefix=art_str/
rep=$(reproducer art_str)
expect_exit 1 "$MRFUZZ" repro --build-dir hs "$I/emit_str.c:et_upper" -D ET_BUG --mr "$I/emit_str.mr" \
  "$rep" --emit-test str_test.c
grep -q '^static const char mrt_1_2\[\] = "' str_test.c || fail "the string is not recorded as a literal"
emitted str_test "$I/emit_str.c" ET_BUG

check "several subjects (check FILE --mr DIR/): the violated function's test"
mkdir -p art_multi
expect_exit 1 "$MRFUZZ" check "$I/multi.c" -D ML_BUG --mr "$I/multi_mr/" --build-dir hmu --engine random \
  -- -runs=100000 -seed=5 -artifact_prefix=art_multi/
rep=$(reproducer art_multi)
expect_exit 1 "$MRFUZZ" repro --build-dir hmu "$I/multi.c" -D ML_BUG --mr "$I/multi_mr/" "$rep" \
  --emit-test multi_test.c
expect_err "of ml_max"
grep -q "ml_max_mr_init_fn(&m, ml_max)" multi_test.c || fail "multi_test.c does not test ml_max"
emitted multi_test "$I/multi.c" ML_BUG

check "relations across functions: a fault of trig_cos found by trig_sin's file, its test binds trig_cos"
cp "$EXAMPLES/trig/trig.h" .
sed 's/^double trig_cos(double x) {/static double trig_cos_ok(double x) {/' "$EXAMPLES/trig/trig.c" >trig_bug.c
printf '#ifdef COS_BUG\n#define COS_SCALE(x) ((x) > 2 && (x) < 2.1 ? 1 + 1e-6 : 1)\n#else\n#define COS_SCALE(x) 1\n#endif\n%s\n' \
  'double trig_cos(double x) { return trig_cos_ok(x) * COS_SCALE(x); }' >>trig_bug.c
mkdir -p art_api
expect_exit 1 "$MRFUZZ" check --build-dir ha trig_bug.c:trig_sin -D COS_BUG --mr "$I/trig_api.mr" --jobs 1 \
  -- -runs=200000 -seed=1 -artifact_prefix=art_api/
rep=$(reproducer art_api)
expect_exit 1 "$MRFUZZ" repro --build-dir ha trig_bug.c:trig_sin -D COS_BUG --mr "$I/trig_api.mr" "$rep" \
  --emit-test api_test.c
grep -q "trig_sin_mr_bind_trig_cos(&m, trig_cos);" api_test.c || fail "api_test.c does not bind trig_cos"
emitted api_test trig_bug.c COS_BUG
expect_exit 1 ./api_test.bug
expect_out "execution 2 (follow-up, trig_cos): x2 = "

check "the recorded scalars are exact bit patterns"
grep -Eq '^  in1\[0\] = 0x[0-9a-f]{16}u; /\* a = ' multi_test.c || fail "no bit pattern for a"

check "a reproducer that violates nothing (the fixed build) writes no test, exit 0"
expect_exit 0 "$MRFUZZ" repro --build-dir hmf "$I/multi.c" --mr "$I/multi_mr/" "$rep" --emit-test none.c
[ ! -e none.c ] || fail "none.c written without a violation"

check "--emit-test belongs to repro; an unwritable OUT.c is refused before building"
expect_exit 2 "$MRFUZZ" check --build-dir hx "$I/emit_str.c:et_upper" --mr "$I/emit_str.mr" --emit-test x.c \
  -- -runs=1
expect_err "--emit-test belongs to 'mrfuzz repro'"
expect_exit 2 "$MRFUZZ" minimize --build-dir hx "$I/emit_str.c:et_upper" --mr "$I/emit_str.mr" \
  --emit-test x.c "$rep"
expect_err "--emit-test belongs to 'mrfuzz repro'"
mkdir -p adir
expect_exit 2 "$MRFUZZ" repro --build-dir hx "$I/emit_str.c:et_upper" --mr "$I/emit_str.mr" "$rep" \
  --emit-test adir
expect_err "is a directory"
[ ! -e hx ] || fail "built before refusing --emit-test"
echo "ok"
