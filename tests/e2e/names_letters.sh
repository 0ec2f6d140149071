#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names_letters.sh - issue #28: function names with '$' or non-ASCII letters (valid for
# clang: f$x, é) are targets like any other: FILE:FUNCTION accepts them, `discover FILE`
# discovers them (not "failed"), and their relations lint, check (compiled and
# interpreted), score and embed; no build directory holds a '$' (libFuzzer's -fork hands
# its paths to a shell).
. "$(dirname "$0")/lib.sh"
cat >u.c <<'EOF'
double f$x(double a) { return a * 2; }
double é(double a) { return a * 4; }
double ok(double a) { return a - 1; }
EOF
opts=(--runs 4 --iters 20 --seed 1 --types I --fuzz-falsify 0)
check "discover FILE: f\$x and é are discovered, not failed"
expect_exit 0 "$MRFUZZ" discover u.c -o all "${opts[@]}"
cp out table
for f in 'f$x' 'é' ok; do
  grep -q "^$(printf '%s' "$f" | sed 's/\$/\\$/') .* ok$" table || { cat table; fail "$f is not discovered (ok) in the table"; }
  expect_exit 0 "$MRFUZZ" lint "all/$f.mr"
done
check "the table's columns line up (é is one column)"
[ "$(grep '^é ' table | sed 's/automr.*//' | wc -m)" = "$(grep '^ok ' table | sed 's/automr.*//' | wc -m)" ] ||
  { cat table; fail "the row of é is not aligned"; }
for f in 'f$x' 'é'; do
  check "$f: discover FILE:$f, lint, check compiled and interpreted, score, embed"
  expect_exit 0 "$MRFUZZ" discover "u.c:$f" -o "$f.mr" "${opts[@]}"
  expect_exit 0 "$MRFUZZ" lint "$f.mr"
  grep -q "^subject $f(double a) -> double y;" "$f.mr" || fail "$f: no subject line of its name"
  expect_exit 0 "$MRFUZZ" check "u.c:$f" --mr "$f.mr" -- -runs=20000
  expect_out "violated 0"
  expect_exit 0 "$MRFUZZ" check "u.c:$f" --mr "$f.mr" --interpret -- -runs=20000
  expect_exit 0 "$MRFUZZ" score "u.c:$f" --mr "$f.mr"
  expect_out "mutation score:"
  expect_exit 0 "$MRFUZZ" embed "$f.mr" -o "$f.h"
done
check "relations across f\$x and é (the wrapper's name holds both)"
expect_exit 0 "$MRFUZZ" discover 'u.c:f$x,é' -o across.mr "${opts[@]}"
expect_exit 0 "$MRFUZZ" check 'u.c:f$x' --mr across.mr -- -runs=20000
check "no build directory holds a '\$'"
! find .mrfuzz -type d -name '*$*' | grep -q . || { find .mrfuzz -type d -name '*$*'; fail "a directory with a '\$'"; }
cat >use.c <<'EOF'
double f$x(double), é(double);
#include "f$x.h"
#include "é.h"
int main(void) {
  static f$x_mr m1;
  static é_mr m2;
  f$x_mr_init_fn(&m1, f$x);
  é_mr_init_fn(&m2, é);
  for (int i = 0; i < 100; i++) {
    f$x_mr_check_args(&m1, i * 0.5 - 20);
    é_mr_check_args(&m2, i * 0.5 - 20);
  }
  return 0;
}
EOF
cc_run use.c u.c
echo ok
