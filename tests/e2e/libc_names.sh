#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libc_names.sh - a library that defines a name libFuzzer's interceptors define too (its
# own strcmp; docs/driver.md "A library that defines the C library's names"): the
# libFuzzer variant links (it failed with "multiple definition of `strcmp'", and check
# exited 2; discover went on without libFuzzer falsification), and the function under
# test and the library's own calls reach the library's definition, not the C library's:
# its strcmp returns -1, 0 or 1, glibc's the bytes' difference, and relations that say so
# are checked clean.
. "$(dirname "$0")/lib.sh"
S=$E2E/inputs/own_libc.c
cat >sign.mr <<'MR'
mrdsl 1;
subject strcmp(const char *a, const char *b) -> int32_t y;
relation sign { check y1 >= -1 && y1 <= 1; }
MR
cat >order3.mr <<'MR'
mrdsl 1;
subject order3(const char *a, const char *b) -> int32_t y;
relation sign3 { check y1 >= -3 && y1 <= 3; }
MR

for f in strcmp order3; do
  m=sign.mr
  [ $f = order3 ] && m=order3.mr
  check "check $f: the libFuzzer variant links, and calls reach the library's own strcmp"
  expect_exit 0 "$MRFUZZ" check "$S:$f" --mr "$m" --build-dir "ck_$f" -- -runs=30000 -seed=1
  expect_out "0 violated"
  expect_err "the library defines strcmp, as libFuzzer's interceptors do"
  grep -q "did not build" err && fail "a variant did not build"
  grep -qE "checked [1-9][0-9]{3,}" out || { cat out; fail "$f: too few checks"; }
  echo "ok"
done

check "the objects define mrfuzz_lib_strcmp, and no strcmp of their own"
nm ck_strcmp/fuzz/obj/1-own_libc.o | grep -qw "T mrfuzz_lib_strcmp" || fail "not renamed"
nm ck_strcmp/fuzz/obj/1-own_libc.o | grep -qw "T strcmp" && fail "strcmp still defined"
echo "ok"

check "discover strcmp: its libFuzzer variant builds (falsification runs), no suspect"
# a small search: what is asserted is the variant's build and a clean run, not the relations
expect_exit 0 "$MRFUZZ" discover "$S:strcmp" --seed 1 -q -o own.mr --build-dir bd --generations 4 \
  --population 50 --inputs 100 --templates 3 --validate 2000 --fuzz-runs 20000
grep -q "did not build" err && { cat err; fail "a variant did not build"; }
expect_out "falsification with libFuzzer"
expect_exit 0 "$MRFUZZ" lint own.mr
echo "ok"
