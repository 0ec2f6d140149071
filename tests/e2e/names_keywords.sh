#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names_keywords.sh - issue #28: parameters and record fields named like mrdsl's keywords
# (all eleven), like its type words (bool), like stdbool's macros (true, false) or like
# what the generated C calls (memset) go through discover, lint, check (compiled and
# interpreted), score and embed (the header compiled and run on the function).
. "$(dirname "$0")/lib.sh"
cat >kw.c <<'EOF'
double kw(double where, double check, double relation, double true, double bool, double memset) {
  return 3 * where - check + relation * 0.5 + true - bool + memset;
}
struct kwr { double false; double implies; int meta; double conditioned; };
double kr(struct kwr follow, double subject, double mrdsl) {
  return follow.false + 2 * follow.implies - follow.meta + follow.conditioned + subject - mrdsl;
}
EOF
for f in kw kr; do
  check "$f: relations are discovered and the file lints (names spelled like keywords)"
  expect_exit 0 "$MRFUZZ" discover kw.c:$f -o $f.mr --runs 4 --iters 20 --seed 1 --types I --fuzz-falsify 0
  grep -c '^relation ' $f.mr >/dev/null || { cat err >&2; fail "$f: no relation kept"; }
  expect_exit 0 "$MRFUZZ" lint $f.mr
  check "$f: fmt keeps the file as it is (the names print back as they read)"
  expect_exit 0 "$MRFUZZ" fmt --check $f.mr
  check "$f: check, compiled and interpreted, passes"
  expect_exit 0 "$MRFUZZ" check --build-dir h_$f kw.c:$f --mr $f.mr -- -runs=20000
  expect_exit 0 "$MRFUZZ" check --build-dir h_$f kw.c:$f --mr $f.mr --interpret -- -runs=20000
  expect_exit 0 env MRFUZZ_CHECK_INTERP=1 "$MRFUZZ" check --build-dir h_$f kw.c:$f --mr $f.mr -- -runs=20000
  check "$f: score runs the relations on the mutants"
  expect_exit 0 "$MRFUZZ" score --build-dir h_$f kw.c:$f --mr $f.mr
  expect_out "mutation score:"
  check "$f: embed writes a header that compiles and passes on the function"
  expect_exit 0 "$MRFUZZ" embed $f.mr -o ${f}_mr.h
done
grep -q "subject kw(double where, double check, double relation, double true, double bool, double memset)" kw.mr ||
  fail "kw: the subject line does not keep the parameters' names"
grep -q "struct follow_t { double false; double implies; int32_t meta; double conditioned; }" kr.mr ||
  fail "kr: the record's fields are not kept"
grep -q "subject kr(struct follow_t follow, double subject, double mrdsl)" kr.mr ||
  fail "kr: the subject line does not keep the parameters' names"
cat >use.c <<'EOF'
struct follow_t { double false; double implies; int meta; double conditioned; };
double kw(double, double, double, double, double, double);
double kr(struct follow_t follow, double subject, double mrdsl);
#include "kw_mr.h"
#define kr_mr_WITH_TYPES 1
#include "kr_mr.h"
int main(void) {
  static kw_mr a;
  static kr_mr b;
  kw_mr_init_fn(&a, kw);
  kr_mr_init_fn(&b, kr);
  for (int i = 0; i < 200; i++) {
    double v = i * 0.37 - 30;
    struct follow_t r = {v, -v / 3, i - 100, v * v};
    kw_mr_check_args(&a, v, 1 - v, v / 7, 2 * v, -v, 3.5);
    kr_mr_check_args(&b, r, v + 1, 0.25 * v);
  }
  kw_mr_fini(&a);
  kr_mr_fini(&b);
  return 0;
}
EOF
cc_run -O1 use.c kw.c
echo ok
