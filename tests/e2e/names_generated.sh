#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names_generated.sh - issue #28: relation and subject names spelled like the identifiers
# of the C that mrdsl generates (PREFIX_init, PREFIX_relations, PREFIX_init_fn, check's
# glue PREFIX_open, another relation's PREFIX_a_guard, ...) lint, check compiled and
# interpreted, and embed into a header that compiles and passes on the functions.
. "$(dirname "$0")/lib.sh"
cat >tw.c <<'EOF'
double tw(double x) { return 3 * x; }
double init(double v) { return 3 * v; }
double callee(double u) { return 3 * u; }
EOF
# one subject: every name of the generated API and of check's glue, and relations whose
# names are another's plus a suffix
{
  printf 'mrdsl 1;\nsubject tw(double x) -> double y;\n'
  for r in init fini set_range relations init_fn check_args bind report subjects check \
    NRELATIONS NSUBJECTS params subject_params subject_np subject_rk typed_call typed_fn fn \
    WITH_TYPES rel_row names open run execs close native_bind bind_callee \
    a a_guard a_check a_eval a_build_2 a_xs a_given; do
    printf 'relation %s { x2 = -x1; check y2 == -y1; }\n' "$r"
  done
} >one.mr
# several subjects: subjects named init and callee (PREFIX_init_fn, PREFIX_bind_callee)
cat >cross.mr <<'EOF'
mrdsl 1;
subject tw(double x) -> double y;
subject init(double v) -> double w;
subject callee(double u) -> double z;
relation init calls tw, init { v2 = x1; check w2 == y1; }
relation callee calls tw, callee { u2 = -x1; check z2 == -y1; }
relation bind calls tw, init, callee { v2 = x1; u3 = 2 * x1; check z3 == 2 * w2; }
relation init_fn calls tw { x2 = 2 * x1; check y2 == 2 * y1; }
EOF
for f in one cross; do
  check "$f: lint"
  expect_exit 0 "$MRFUZZ" lint $f.mr
  check "$f: check with compiled relations, interpreted (--interpret, MRFUZZ_CHECK_INTERP=1)"
  expect_exit 0 "$MRFUZZ" check --build-dir h_$f tw.c:tw --mr $f.mr -- -runs=20000
  expect_out "violated 0"
  expect_exit 0 "$MRFUZZ" check --build-dir h_$f tw.c:tw --mr $f.mr --interpret -- -runs=20000
  expect_exit 0 env MRFUZZ_CHECK_INTERP=1 "$MRFUZZ" check --build-dir h_$f tw.c:tw --mr $f.mr -- -runs=20000
  check "$f: embed"
  expect_exit 0 "$MRFUZZ" embed $f.mr -o $f.h --prefix $f
done
n=$(grep -c '^relation ' one.mr)
cat >use.c <<'EOF'
double tw(double), init(double), callee(double);
#include "one.h"
#include "cross.h"
int main(void) {
  static one m1;
  static cross m2;
  one_init_fn(&m1, tw);
  cross_init_fn(&m2, tw);
  cross_bind_init(&m2, init);
  cross_bind_callee(&m2, callee);
  for (int i = 0; i < 100; i++) {
    one_check_args(&m1, i * 0.75 - 30);
    cross_check_args(&m2, i * 0.75 - 30);
  }
  printf("%llu %llu\n", (unsigned long long)m1.checked, (unsigned long long)m2.checked);
  one_fini(&m1);
  cross_fini(&m2);
  return 0;
}
EOF
cc_run use.c tw.c
[ "$(cat out)" = "$((100 * n)) 400" ] || fail "checked $(cat out), want $((100 * n)) 400"
echo ok
