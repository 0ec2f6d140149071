#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_names.sh - issue #15: parameter names that could run into an execution's
# index (unnamed parameters, names ending in a digit or in _N) give relations that parse,
# lint and check clean, white box and black box.
. "$(dirname "$0")/lib.sh"
cat >names.c <<'EOF'
double lin2(double x0, double x1) { return 3 * x0 - x1; }
double under(double a_1, double a) { return a_1 * a; }
double unnamed(double);
double unnamed(double v) { return v * v + 1; }
EOF
printf 'double proto(double, double);\n' >proto.h
printf 'double proto(double p, double q) { return p - q; }\n' >proto.c
disc() { # NAME TARGET [more]: discover, then lint and check what it kept
  local name=$1
  shift
  check "$name: relations are discovered, parse, and check clean"
  expect_exit 0 "$MRFUZZ" discover "$@" -o "$name.mr" --runs 4 --iters 20 --seed 1 --types I,II --fuzz-falsify 0
  n=$(grep -c '^relation ' "$name.mr" || true)
  [ "$n" -ge 1 ] || { cat err >&2; fail "$name: no relation kept"; }
  expect_exit 0 "$MRFUZZ" lint "$name.mr"
}
disc lin2 names.c:lin2
grep -q "x0_2 = \|x1_2 = " lin2.mr || fail "lin2: no follow-up of x0 or x1 spelled NAME_2"
expect_exit 0 "$MRFUZZ" check --build-dir h_lin2 names.c:lin2 --mr lin2.mr -- -runs=20000
disc under names.c:under
expect_exit 0 "$MRFUZZ" check --build-dir h_under names.c:under --mr under.mr -- -runs=20000
disc unnamed names.c:unnamed
disc proto proto.h:proto proto.c
grep -q "subject proto(double arg0, double arg1)" proto.mr || fail "unnamed parameters are not arg0, arg1"
expect_exit 0 "$MRFUZZ" check --build-dir h_proto proto.h:proto proto.c --mr proto.mr -- -runs=20000
check "math.h:erf (declared without a parameter name) under libFuzzer"
expect_exit 0 "$MRFUZZ" discover math.h:erf -l m -o erf.mr --runs 4 --iters 20 --seed 1 --types I,II --fuzz-falsify 0
grep -q "arg0_2 = " erf.mr || fail "erf: no relation on arg0"
expect_exit 0 "$MRFUZZ" check --build-dir h_erf math.h:erf -l m --mr erf.mr -- -runs="$(runs 300000)" -seed=1
echo ok
