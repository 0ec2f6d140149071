# SPDX-License-Identifier: MIT
# lib.sh - helpers of the end-to-end tests (sourced). Environment from CTest:
#   MRFUZZ (the driver), EXAMPLES (examples/), WORK (a scratch directory per test),
#   E2E (this folder), PYTHON, MR_CLANG, MR_PLUGIN, MR_RTLIB (libmrrt.a).
# Every test prints "check: ..." before each assertion, so a failure log reads as a story.
set -eu
: "${MRFUZZ:?}" "${EXAMPLES:?}" "${WORK:?}" "${E2E:?}" "${PYTHON:=python3}"
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"

check() { echo "check: $*"; }

# runs N: a libFuzzer run's executions, -runs=N: N in release, N/5 under the sanitizers
# (whose harnesses are about five times slower), so a check is counted, not timed, and
# costs about the same in both configurations.
runs() { if sanitized; then echo $(($1 / 5)); else echo "$1"; fi; }
# sanitized: true in the sanitizer configuration (asan preset)
sanitized() { [ "${MR_SANITIZE:-0}" = 1 ]; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# expect_exit CODE CMD...: run CMD with stdout in ./out and stderr in ./err; the exit
# code must be CODE (stderr is shown when it is not).
expect_exit() {
  local want=$1
  shift
  local got=0 t0=$EPOCHREALTIME
  "$@" >out 2>err || got=$?
  # where a test's time goes, for whoever makes the suite faster (issue #31)
  # (and, for check, the executions that time bought)
  echo >&2 "time: $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s: ${1##*/} ${*:2:2}" \
    "$(sed -n 's/^mrfuzz: check: .*: \([0-9]*\) executions.*/\1/p' out 2>/dev/null | awk '{ n += $1 } END { if (n) print "(" n " executions)" }')"
  # discovery's work is counted and decided by the seed, unless a wall-time cap cut it
  # (a test's options should leave its caps far away): said, so a failure after it reads
  # as a slow machine's
  if grep -q "the time cap cut" out err; then
    echo "note: a time cap cut this run; its result depends on the machine's speed:"
    grep -h "the time cap cut" out err
  fi
  if [ "$got" != "$want" ]; then
    echo "--- stdout" >&2; cat out >&2
    echo "--- stderr" >&2; cat err >&2
    fail "exit code $got, want $want: $*"
  fi
}

# expect_err TEXT: the last command's stderr contains TEXT (fixed string).
expect_err() {
  grep -qF -- "$1" err || { cat err >&2; fail "stderr lacks: $1"; }
}

# expect_out TEXT: the last command's stdout contains TEXT (fixed string).
expect_out() {
  grep -qF -- "$1" out || { cat out >&2; fail "stdout lacks: $1"; }
}

# blocks_hit: "B E" (blocks and edges reached) from the last `mrfuzz run` line in ./out.
blocks_hit() {
  sed -n 's/.*blocks \([0-9]*\)\/[0-9]*, edges \([0-9]*\)\/[0-9]*.*/\1 \2/p' out | tail -1
}

# validate KIND FILE...: the files are valid against the published schema of KIND (sarif:
# SARIF 2.1.0; mte: Mutation Testing Elements), by tests/schema/validate.js. A missing
# validator is a failure: scripts/setup installs it.
validate() {
  [ -n "${NODE:-}" ] && [ "${NODE%NOTFOUND}" = "$NODE" ] && [ -x "$NODE" ] ||
    fail "node is missing: run scripts/setup (it installs Node.js and the schema validators)"
  [ -d "${SCHEMA:?}/node_modules/ajv" ] ||
    fail "the schema validators are missing in $SCHEMA/node_modules: run scripts/setup"
  "$NODE" "$SCHEMA/validate.js" "$@" || fail "not valid $1: ${*:2}"
}

# no_external_assets PAGE: PAGE loads nothing from elsewhere (no src, stylesheet link or CSS
# url() off the page; hyperlinks a user may follow are no assets).
no_external_assets() {
  ! grep -qiE '(src=["'\'']?|<link[^>]*href=["'\'']?|url\(["'\'']?|@import ["'\'']?)(https?:)?//' "$1" ||
    fail "$1 loads external assets"
}

# found FN RELATION-TEXT (discover_invariants*.sh): the suspect with that check text has a
# reproducer that violates it on the faulty code and replays clean on the fixed code (FN in
# $S, or in $SRC when set).
found() {
  local S=${SRC:-$S}
  grep -qF -- "$2" "$1.bug.suspects.mr" || { cat "$1.bug.suspects.mr"; fail "$1: no suspect '$2'"; }
  local n=0
  for r in "$1".bug.suspects/*.min; do
    [ -f "$r" ] || continue
    local code=0
    "$MRFUZZ" repro "$S:$1" -DFAULT --mr "$1.bug.suspects.mr" --build-dir "r_$1.bug" "$r" >/dev/null 2>&1 || code=$?
    [ "$code" = 1 ] || continue
    "$MRFUZZ" repro "$S:$1" --mr "$1.bug.suspects.mr" --build-dir "r_$1.fix" "$r" >rep.out 2>&1 ||
      { cat rep.out; fail "$1: $r violates the suspect on the fixed code too"; }
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || fail "$1: no reproducer violates the suspect on the faulty code"
  echo "$1: $n reproducers violate on the faulty code and replay clean on the fixed code"
}

# cc_run FILE.c...: with clang (MR_CLANG) and with gcc when installed, compile the files
# (C11, -Wall -Wextra -Werror, libm) and run the program; it must exit 0 (stdout in ./out).
cc_run() {
  local cc
  for cc in "${MR_CLANG:-clang-14}" gcc; do
    command -v "$cc" >/dev/null || continue
    check "compiled by $cc (-Wall -Wextra -Werror), the program runs clean"
    expect_exit 0 "$cc" -std=c11 -Wall -Wextra -Werror "$@" -o cc_run.out -lm
    expect_exit 0 ./cc_run.out
  done
}

# run_calls FILE:FN N [run options]: `mrfuzz run` N calls in build directory h_FN, the
# trace rendered as FN.jsonl (for calls_match.py).
run_calls() {
  local target=$1 n=$2 fn=${1##*:}
  shift 2
  expect_exit 0 "$MRFUZZ" run --build-dir "h_$fn" -n "$n" "$@" "$target"
  expect_exit 0 "$MRFUZZ" trace "h_$fn/run.trace"
  cp out "$fn.jsonl"
}

# calls_match FN.jsonl N EXPR...: every call satisfies every EXPR (calls_match.py).
calls_match() {
  "$PYTHON" "$E2E/calls_match.py" "$@" || fail "a call's values are not what the trace says reached it"
}

# check_holds FILE:FN MR DIR [build options]: MR's relations hold on FN under the random
# engine (2000 inputs) and under libFuzzer (20000 runs).
check_holds() {
  local target=$1 mr=$2 dir=$3
  shift 3
  expect_exit 0 "$MRFUZZ" check --build-dir "$dir" "$@" --engine random --mr "$mr" "$target" -- -runs=2000
  expect_out "0 violated"
  expect_exit 0 "$MRFUZZ" check --build-dir "$dir" "$@" --mr "$mr" "$target" -- -runs=20000
  expect_out "0 violated"
}

# discover_holds FILE:FN DIR OUT [discover options]: discovery writes relations to OUT that
# lint and hold under libFuzzer (20000 runs); what discovery printed is left in OUT.log.
discover_holds() {
  local target=$1 dir=$2 out=$3
  shift 3
  expect_exit 0 "$MRFUZZ" discover --build-dir "$dir" -o "$out" "$@" "$target"
  cat out err >"$out.log"
  grep -q '^relation' "$out" || fail "discover kept no relation"
  expect_exit 0 "$MRFUZZ" lint "$out"
  expect_exit 0 "$MRFUZZ" check --build-dir "$dir" --mr "$out" "$target" -- -runs=20000
  expect_out "0 violated"
}

# other_clang: a clang-N whose LLVM is not $MR_CLANG's (scripts/setup installs LLVM 14 and 19,
# so one is another), its path on stdout; fails the test when there is none.
other_clang() {
  local mine c
  mine=$("$MR_CLANG" -dumpversion | cut -d. -f1)
  for c in /usr/bin/clang-[0-9]*; do
    if [[ "$c" =~ /clang-[0-9]+$ ]] && [[ $("$c" -dumpversion | cut -d. -f1) != "$mine" ]]; then
      echo "$c"
      return
    fi
  done
  fail "no clang of another LLVM than $mine installed (scripts/setup installs 14 and 19)"
}
