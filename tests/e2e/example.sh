#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example.sh FILE FUNCTION OPT N [--range P=LO:HI ...] - one example function end to end
# (E2E_CONST_ANY=v1,v2: at least one of these constants must be mined from its body):
# build with the plugin at -O<OPT>, run N calls with a trace, then check with
# check_trace.py the number of calls, the inputs' domains, the outputs against a Python
# oracle, the mined constants and the coverage in the summary.
. "$(dirname "$0")/lib.sh"
file=$1 fn=$2 opt=$3 n=$4
shift 4

check "$fn builds at -O$opt with mrpass"
expect_exit 0 "$MRFUZZ" build -O "$opt" --build-dir h "$EXAMPLES/$file:$fn"
expect_err "instrumented with mrpass, -O$opt"
check "the harness sees $fn as instrumented"
expect_exit 0 h/harness info
expect_out "instrumented with mrpass"

check "$fn runs $n calls with seed 7 (no rebuild: the harness is up to date)"
expect_exit 0 "$MRFUZZ" run -O "$opt" --build-dir h "$EXAMPLES/$file:$fn" -n "$n" --seed 7 --trace t.trace "$@"
[ ! -s err ] || { cat err >&2; fail "unexpected messages on stderr"; }
expect_out "$n calls of $fn"

check "mrfuzz trace prints the calls and the summary"
expect_exit 0 "$MRFUZZ" trace t.trace
cp out t.jsonl
expect_exit 0 "$MRFUZZ" trace --summary t.trace
cp out t.summary

check "trace contents (calls, domains, outputs, constants, coverage)"
"$PYTHON" "$E2E/check_trace.py" --function "$fn" --calls "$n" --jsonl t.jsonl \
  --summary t.summary ${E2E_CONST_ANY:+--const-any "$E2E_CONST_ANY"} "$@"
