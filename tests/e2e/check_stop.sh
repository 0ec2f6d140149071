#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_stop.sh - a check stopped by a signal says so (issue #28): stopped while fuzzing,
# it prints the summary of what ran and exits 128 + the signal, its JSON naming the
# signal; stopped before fuzzing (here: a set-up that hangs), it exits at once without
# calibrating, fuzzing or summarizing.
. "$E2E/lib.sh"
GCD="$EXAMPLES/intmath/intmath.c:gcd"
MR="$EXAMPLES/intmath/gcd.mr"

# run CMD in the background, send SIG once a file matches GLOB (the run got that far), wait
stop_when() {
  local sig=$1 glob=$2
  shift 2
  "$@" >out 2>err &
  local pid=$! i=0
  while ! compgen -G "$glob" >/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
  kill -"$sig" $pid
  got=0
  wait $pid || got=$?
}

check "SIGINT while fuzzing: the summary of what ran, exit 130, the JSON says stopped"
# the statistics, rewritten every second while fuzzing: a summary can be printed
stop_when INT "h/check-stats/stats-*" "$MRFUZZ" check --build-dir h "$GCD" --mr "$MR" --jobs 1 --json c.json -- -max_total_time=120
[ "$got" = 130 ] || { cat err >&2; fail "exit $got, want 130"; }
grep -q "check was stopped by SIGINT" err || fail "no note of the stop"
grep -q "1 relation" out || grep -q "symmetric" out || { cat out >&2; fail "no summary"; }
"$PYTHON" -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["stopped"] == "SIGINT" and j["exit_code"] == 130, j' c.json ||
  fail "the JSON does not say it was stopped"

check "SIGTERM while the set-up hangs: exit 143 at once, nothing calibrated or fuzzed"
printf '#include <stdio.h>\n#include <unistd.h>\nvoid mrfuzz_setup(void) { fclose(fopen("started", "w")); for (;;) pause(); }\n' >hangs.c
"$MRFUZZ" check --build-dir h2 "$GCD" --mr "$MR" --setup hangs.c --setup-timeout 1 -- -runs=1 >/dev/null 2>&1 || true
rm -f started
t0=$(date +%s)
stop_when TERM started "$MRFUZZ" check --build-dir h2 "$GCD" --mr "$MR" --setup hangs.c \
  --setup-timeout 100 -- -max_total_time=60
[ "$got" = 143 ] || { cat err >&2; fail "exit $got, want 143"; }
[ $(( $(date +%s) - t0 )) -lt 30 ] || fail "it went on after the stop"
grep -q "stopped by SIGTERM while validating the relations: nothing was checked" err || { cat err >&2; fail "no message"; }
! grep -q "calibrat\|mutation\|relation.*checked" out || { cat out >&2; fail "it went on after the stop"; }
echo "ok"
