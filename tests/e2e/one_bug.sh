#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# one_bug.sh - every violated relation is one bug to crash triage (docs/checking.md, "One
# bug per relation"): ClusterFuzz files a crash by the top three frames of its stack left
# after it drops abort, libc, LLVMFuzzerTestOneInput, main and libFuzzer's own. A check
# target ends each relation's violation in a function of that relation's own, named after
# the function and the relation (it aborted from one place for every relation: one bug);
# so does the code `mrfuzz embed` writes. Two relations violated give different top
# frames, one relation violated on two inputs the same, compiled or interpreted.
. "$(dirname "$0")/lib.sh"
cat >tw.c <<'C'
double twice(double x);
double twice(double x) { return x > 100 ? 2 * x + 1 : 2 * x; }
C
printf 'mrdsl 1;\nsubject twice(double x) -> double y;\n' >head.mr
{ cat head.mr; echo 'relation odd { x2 = -x1; check y2 == -y1; }'; } >odd.mr
{ cat head.mr; echo 'relation shift { x2 = x1 + 1; check y2 == y1 + 2; }'; } >shift.mr
{ cat head.mr; tail -1 odd.mr; tail -1 shift.mr; } >both.mr

# frames LOG: the top three frames of the stack in LOG after ClusterFuzz's ignore list
frames() {
  sed -n 's/^ *#[0-9][0-9]* 0x[0-9a-f]* in \([^ ]*\).*/\1/p' "$1" |
    grep -vE '^(abort|raise|__pthread_kill.*|__GI_.*|__sanitizer_.*|__asan.*|__ubsan.*|fuzzer::.*|LLVMFuzzerTestOneInput|main|__libc_start.*|_start|.*assert.*)$' |
    head -3 | tr '\n' ' '
}

check "one input violating each relation, two violating odd (check with each relation alone)"
expect_exit 1 "$MRFUZZ" check tw.c:twice --mr odd.mr --range x=-200:200 --build-dir b_odd --jobs 1 -- -runs=200000 -seed=1
cp b_odd/findings/crash-* odd1
expect_exit 1 "$MRFUZZ" check tw.c:twice --mr odd.mr --range x=-200:200 --build-dir b_odd2 --jobs 1 -- -runs=200000 -seed=2
cp b_odd2/findings/crash-* odd2
cmp -s odd1 odd2 && fail "the two seeds found the same input"
expect_exit 1 "$MRFUZZ" check tw.c:twice --mr shift.mr --range x=-200:200 --build-dir b_shift --jobs 1 -- -runs=200000 -seed=1
cp b_shift/findings/crash-* shift1
echo "ok"

check "the target of both relations: top frames per relation (compiled, then interpreted)"
mkdir -p empty # the target built and its options (PROGRAM.mrcheck) written, nothing fuzzed
expect_exit 0 "$MRFUZZ" check tw.c:twice --mr both.mr --range x=-200:200 --build-dir b --jobs 1 -- -runs=0 empty
for mode in compiled interpreted; do
  env=()
  [ $mode = interpreted ] && env=(MRFUZZ_CHECK_INTERP=1)
  for i in odd1 odd2 shift1; do
    env "${env[@]}" b/fuzz/harness "$i" >"$i.$mode.log" 2>&1 && fail "$i: the target did not crash"
    grep -q "relation violated: ${i%[12]} (twice," "$i.$mode.log" || { cat "$i.$mode.log"; fail "$i: no report"; }
  done
  a=$(frames odd1.$mode.log) b=$(frames odd2.$mode.log) c=$(frames shift1.$mode.log)
  echo "  $mode: odd [$a], shift [$c]"
  [ "$(echo "$a" | wc -w)" = 3 ] || { cat odd1.$mode.log; fail "$mode: no symbolized stack"; }
  [ "$a" = "$b" ] || fail "$mode: odd on two inputs gave [$a] and [$b]"
  [ "$a" != "$c" ] || fail "$mode: odd and shift gave the same frames [$a]"
  [ "${a%% *}" = mrfuzz_violated_5twice_3odd ] || fail "$mode: odd's top frame is ${a%% *}"
  [ "${c%% *}" = mrfuzz_violated_5twice_5shift ] || fail "$mode: shift's top frame is ${c%% *}"
done
echo "ok"

check "embed: a harness of one's own over the generated code, the same three properties"
expect_exit 0 "$MRFUZZ" embed both.mr -o tw_mr.h
cat >fz.c <<'C'
#include <stdint.h>
#include <string.h>
#include "tw_mr.h"
double twice(double x);
static void thunk(const uint64_t *a, uint64_t *r) {
  double x, y;
  memcpy(&x, &a[0], sizeof x);
  y = twice(x);
  memcpy(r, &y, sizeof y);
}
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  static twice_mr m;
  static int ready;
  double x;
  uint64_t s[1];
  if (!ready) twice_mr_init(&m, thunk), ready = 1;
  if (n != sizeof x) return 0;
  memcpy(&x, d, sizeof x);
  memcpy(s, &x, sizeof x);
  twice_mr_check(&m, s);
  return 0;
}
C
"${MR_CLANG:-clang-14}" -g -O1 -fsanitize=fuzzer fz.c tw.c -lm -o fz || fail "the embed harness did not build"
python3 -c 'import struct,sys; [open(n, "wb").write(struct.pack("<d", v)) for n, v in (("e_odd1", 150.0), ("e_odd2", 170.5), ("e_shift1", 99.5))]'
for i in e_odd1 e_odd2 e_shift1; do
  ./fz "$i" >"$i.log" 2>&1 && fail "$i: the embed harness did not crash"
done
a=$(frames e_odd1.log) b=$(frames e_odd2.log) c=$(frames e_shift1.log)
echo "  embed: odd [$a], shift [$c]"
[ "$a" = "$b" ] && [ "$a" != "$c" ] || fail "embed: odd [$a] [$b], shift [$c]"
[ "${a%% *}" = twice_mr_3odd_violated ] && [ "${c%% *}" = twice_mr_5shift_violated ] || fail "embed's frames"
echo "ok"
