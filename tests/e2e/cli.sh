#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli.sh - the command line contract: --help on every subcommand (exit 0), the command
# list in the user's order with a typical session and no paper citations (issue #18),
# usage errors (exit 2, "mrfuzz: error:" on stderr), a missing tool (exit 3).
. "$(dirname "$0")/lib.sh"
trig=$EXAMPLES/trig/trig.c

for cmd in build run trace trace-tests; do
  check "mrfuzz $cmd --help: exit 0, usage on stdout"
  expect_exit 0 "$MRFUZZ" $cmd --help
  expect_out "usage: mrfuzz $cmd"
  expect_out "exit codes:"
done
check "mrfuzz --help / -h: exit 0"
expect_exit 0 "$MRFUZZ" --help
expect_out "commands:"
expect_exit 0 "$MRFUZZ" -h
check "mrfuzz --help: the user's flow first (discover, check, score), build/run/trace last"
sed -n '/^commands:/,/^$/p' out | sed -n 's/^  \([^ ]*\) .*/\1/p' >names
[ "$(head -3 names | tr '\n' ' ')" = "discover check score " ] ||
  fail "the first commands are $(head -3 names | tr '\n' ' ')"
[ "$(tail -3 names | tr '\n' ' ')" = "build run trace " ] ||
  fail "the last commands are $(tail -3 names | tr '\n' ' ')"
check "mrfuzz --help ends with a typical session: discover, check, repro, score"
sed -n '/^A typical session/,$p' out >session
for c in discover check repro score; do
  grep -q "^  mrfuzz $c " session || { cat out >&2; fail "the session lacks 'mrfuzz $c'"; }
done
check "no command's --help cites the papers (Algorithm N, Table N, eq. N, formula N, et al.)"
while read -r name; do
  "$MRFUZZ" "$name" --help >help.txt 2>&1 || true
  if grep -nE "Algorithm [0-9]|Table [0-9IVX]+|eq\. [0-9]|formula [0-9]|et al\.|seed paper|as the paper" help.txt; then
    fail "'mrfuzz $name --help' cites a paper (above)"
  fi
done <names
check "mrfuzz --version: exit 0"
expect_exit 0 "$MRFUZZ" --version
expect_out "mrfuzz "
for cmd in fmt lint implies entails; do
  if grep -q "^  $cmd " <("$MRFUZZ" --help); then
    check "mrfuzz $cmd --help: exit 0"
    expect_exit 0 "$MRFUZZ" $cmd --help
  fi
done

check "no command: exit 2"
expect_exit 2 "$MRFUZZ"
check "unknown command: exit 2"
expect_exit 2 "$MRFUZZ" frobnicate
expect_err "mrfuzz: error: unknown command 'frobnicate'"
check "unknown option: exit 2"
expect_exit 2 "$MRFUZZ" build --frob "$trig:trig_sin"
expect_err "mrfuzz: error: unknown option '--frob'"
for c in score repro minimize; do
  check "unknown option of $c: the message points to '$c --help'"
  expect_exit 2 "$MRFUZZ" $c --frob "$trig:trig_sin"
  expect_err "see 'mrfuzz $c --help'"
done
check "an option without its value: exit 2"
expect_exit 2 "$MRFUZZ" run "$trig:trig_sin" -n
expect_err "missing value"
check "a value given to a flag: exit 2"
expect_exit 2 "$MRFUZZ" build --force=yes "$trig:trig_sin"
check "build without FILE:FUNCTION: exit 2"
expect_exit 2 "$MRFUZZ" build
expect_err "missing FILE:FUNCTION"
check "FILE without :FUNCTION: exit 2"
expect_exit 2 "$MRFUZZ" build "$trig"
expect_err "expected FILE:FUNCTION"
check "a missing file: exit 2"
expect_exit 2 "$MRFUZZ" build nowhere.c:f
expect_err "nowhere.c: No such file or directory"
check "a function the file does not have: exit 2"
expect_exit 2 "$MRFUZZ" build --build-dir h "$trig:no_such_fn"
expect_err "no function named 'no_such_fn'"
check "a header not on the include path: exit 2"
expect_exit 2 "$MRFUZZ" build --build-dir h no/such/header.h:f
check "a bad optimisation level: exit 2"
expect_exit 2 "$MRFUZZ" build -O 9 --build-dir h "$trig:trig_sin"
expect_err "-O 9"
check "run: a non-numeric -n: exit 2"
expect_exit 2 "$MRFUZZ" run --build-dir h "$trig:trig_sin" -n many
expect_err "-n many"
check "run: --range of an unknown parameter: exit 2, lists the parameters"
expect_exit 2 "$MRFUZZ" run --build-dir h "$trig:trig_sin" -n 1 --range y=0:1
expect_err "'y' is not a parameter of trig_sin (parameters: x)"
check "run: an empty or reversed range: exit 2"
expect_exit 2 "$MRFUZZ" run --build-dir h "$trig:trig_sin" -n 1 --range x=2:1
expect_exit 2 "$MRFUZZ" run --build-dir h "$trig:trig_sin" -n 1 --range x=1
check "run: a range outside the type: exit 2"
expect_exit 2 "$MRFUZZ" run --build-dir h "$EXAMPLES/intmath/intmath.c:ipow" -n 1 --range exp=-1:3
check "run: a trace in a missing directory: exit 2 before the run, naming --trace"
expect_exit 2 "$MRFUZZ" run --build-dir h "$trig:trig_sin" -n 1 --trace /nonexistent/dir/t.trace
expect_err "error: --trace /nonexistent/dir/t.trace: cannot write in /nonexistent/dir"
check "trace: no file / two files / a missing file: exit 2"
expect_exit 2 "$MRFUZZ" trace
expect_exit 2 "$MRFUZZ" trace a b
expect_exit 2 "$MRFUZZ" trace does-not-exist.trace
check "the harness itself: --help exit 0, unknown command exit 2"
expect_exit 0 h/harness --help
expect_exit 0 h/harness run --help
expect_exit 2 h/harness frob
expect_exit 2 h/harness
check "a missing plugin is an internal error: exit 3"
MRFUZZ_PLUGIN=/nonexistent/mrpass.so expect_exit 3 "$MRFUZZ" build -f --build-dir h "$trig:trig_sin"
expect_err "cannot find the mrpass plugin"
echo "ok"
