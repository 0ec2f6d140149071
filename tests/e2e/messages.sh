#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# messages.sh - messages that say what happened (issue #28): a replay never announces more
# processes than it has inputs, and an empty dictionary says why instead of "0 entries
# (special values and N mined constants)"; discovery whose every call gave one answer (a
# date function whose sampled dates were all invalid) says so and asks for --range; -p
# whose database has no entry for the file does not say to give -p.
. "$E2E/lib.sh"
GCD="$EXAMPLES/intmath/intmath.c:gcd"
MR="$EXAMPLES/intmath/gcd.mr"

check "--replay --jobs 1000 on a corpus of 2 inputs: 2 processes"
mkdir -p two
printf '\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00' >two/a
printf '\x06\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00' >two/b
expect_exit 0 "$MRFUZZ" check --build-dir h "$GCD" --mr "$MR" --replay --corpus two --jobs 1000
expect_err "replaying in 2 processes"
expect_out "2 inputs of two replayed"

check "a dictionary with no entries says why"
printf 'int is_x(unsigned char c) { return c == 120; }\n' >isx.c
printf 'mrdsl 1;\nsubject is_x(uint8_t c) -> int32_t y;\nrelation same { c2 = c1; check y2 == y1; }\n' >isx.mr
expect_exit 0 "$MRFUZZ" check --build-dir hx isx.c:is_x --mr isx.mr --jobs 1 -- -runs=100
expect_err "dict: no entries: the special values and 1 mined constants encode to one byte or repeat"
check "discovery on a domain with no valid call: exit 2 and the hint to --range; with it, relations"
cat >days.c <<'C'
/* days since 1900-01-01 of a date of years 1900-2100 (30-day months), -1 when invalid */
int days(int y, int m, int d) {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 30) return -1;
  return (y - 1900) * 360 + (m - 1) * 30 + (d - 1);
}
C
expect_exit 2 "$MRFUZZ" discover --build-dir hd days.c:days --seed 1 -o days.mr
expect_err "days returned -1 on every one of the"
expect_err "give the inputs where it works with --range"
[ ! -e days.mr ] || fail "a relation file was written"
# a small search: the assertion is that the domain lets discovery write a relation at all
expect_exit 0 "$MRFUZZ" discover --build-dir hd days.c:days --seed 1 -o days.mr --range y=1900:2100 \
  --range m=1:12 --range d=1:30 --runs 4 --iters 20 --fuzz-runs 20000
grep -q "^relation" days.mr || fail "no relation with the valid domain"
check "-p DIR without an entry for FILE: the hint says so, not 'give -p'"
printf '#ifndef NEEDED\n#error needs NEEDED\n#endif\ndouble f(double x) { return x; }\n' >needs.c
mkdir -p db
printf '[{"directory": "%s", "file": "other.c", "arguments": ["cc", "-DNEEDED", "-c", "other.c"]}]\n' "$PWD" \
  >db/compile_commands.json
expect_exit 2 "$MRFUZZ" run --build-dir hp needs.c:f -n 3 -p db
expect_err "db/compile_commands.json has no entry for it; give the build directory of its own library with -p"
! grep -q "give the library's build directory with -p" err || fail "-p was given, and the hint asks for it"
echo "ok"
