#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names_messages.sh - issue #28: a malformed list of functions (FILE:F->, F->G->F, F,,G,
# ...) is refused before any build, saying what is wrong with it (exit 2), and a
# parameter `const struct opaque *` is named with its '*'.
. "$(dirname "$0")/lib.sh"
cat >u.c <<'EOF2'
double f(double x) { return x; }
double g(double x) { return -x; }
EOF2
bad() { # LIST TEXT: discover u.c:LIST exits 2 with TEXT, builds nothing
  check "discover u.c:$1 is refused: $2"
  expect_exit 2 "$MRFUZZ" discover "u.c:$1" --runs 2
  expect_err "mrfuzz: error: discover u.c:$1: $2"
  ! grep -q "functions given" err || fail "u.c:$1: the count of the functions is not the problem"
  [ ! -e .mrfuzz ] || fail "u.c:$1: something was built"
}
bad 'f->' "no function after '->' (a chain is F->G)"
bad '->g' "no function before '->' (a chain is F->G)"
bad 'f->g->f' "a chain is two functions, F->G (G called on F's result), not 3"
bad 'f,,g' "function 2 of the group is empty (two ',' in a row)"
bad ',f,g' "function 1 of the group is empty (',' first)"
bad 'f,g,' "function 3 of the group is empty (',' last)"
bad 'f,g->f' "',' (a group F,G) and '->' (a chain F->G) cannot be mixed"
bad 'f,2g' "'2g' is not a function name"
cat >op.c <<'EOF2'
struct opaque;
double use(const struct opaque *o, double x) { (void)o; return x; }
EOF2
check "a pointer to an incomplete struct is named with its '*'"
expect_exit 2 "$MRFUZZ" build op.c:use
expect_err "parameter 'o' of 'use' has type 'const struct opaque *' which mrfuzz cannot generate: 'const struct opaque': the struct is incomplete here"
expect_exit 2 "$MRFUZZ" discover op.c --runs 2
expect_err "use: op.c:2:33: parameter 'o' of 'use' has type 'const struct opaque *' which"
echo ok
