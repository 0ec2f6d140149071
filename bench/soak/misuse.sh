#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# misuse.sh - kill-and-misuse soak of the surfaces of issue #28 (docs/benchmarks.md,
# "Reliability of the new surfaces"): ROUNDS times, one scenario at random.
#   misuse: a set-up hook that exits, hangs or crashes (in mrfuzz_setup or in
#     mrfuzz_before_call), a misspelled hook, a truncated compilation database, -p
#     without the file's entry, an empty or missing replay corpus, --json on a directory,
#     -o in a missing directory, a broken MRFUZZ_CLANG, discover -o -, check FILE --mr
#     DIR/ with an empty relation file: each must end within its bound with its exit code
#     and its message, write nothing it should not, and never say "an mrfuzz bug";
#   kills: discover FILE -o DIR/, check --replay --json, check --json (SIGTERM: the
#     summary, "stopped", exit 143) and discover -o - are killed (SIGKILL or SIGTERM) at a
#     random moment; no process may be left within 5 s, and every relation file and JSON
#     report left is whole.
# Prints one line per round and the totals; exit 1 when any round failed. Run by hand
# (minutes), not in CI.
# usage: bench/soak/misuse.sh [--rounds N] [--seed S] [--build DIR]
set -u
ROUNDS=30
HELP=2,18p
NAME=misuse
# shellcheck source=bench/soak/lib.sh
. "$(dirname "$0")/lib.sh"
GCD="$EX/intmath/intmath.c:gcd"
GMR=$EX/intmath/gcd.mr

# The inputs of the misuse cases.
printf '#include <stdlib.h>\nvoid mrfuzz_setup(void) { exit(0); }\n' >exits.c
printf '#include <unistd.h>\nvoid mrfuzz_setup(void) { for (;;) pause(); }\n' >hangs.c
printf 'void mrfuzz_setup(void) { *(volatile int *)0 = 1; }\n' >crashes.c
printf 'static int n;\nvoid mrfuzz_before_call(void) { if (++n > 1) *(volatile int *)0 = 1; }\n' >before.c
printf 'void mrfuzz_set_up(void) {}\n' >typo.c
printf '#ifndef NEEDED\n#error needs NEEDED\n#endif\ndouble f(double x) { return x; }\n' >needs.c
mkdir -p trunc other corp empty rels adir
printf '[{"directory": "%s", "file": "needs.c", "arguments": ["cc", "-DNEEDED", "-c", "nee' "$W" >trunc/compile_commands.json
printf '[{"directory": "%s", "file": "o.c", "arguments": ["cc", "-DNEEDED", "-c", "o.c"]}]\n' "$W" >other/compile_commands.json
printf '\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00' >corp/a
cp "$GMR" rels/gcd.mr
printf 'mrdsl 1;\nsubject ipow(int64_t b, uint32_t e) -> int64_t y;\n' >rels/ipow.mr


# misuse NAME: "BOUND|CODES|MESSAGE|COMMAND" of a misuse case (COMMAND word-split).
misuse() {
  case $1 in
  exits) echo "120|2|did not return: it called exit(0)|check --build-dir B/e $GCD --mr $GMR --setup exits.c -- -max_total_time=5" ;;
  hangs) echo "120|2|did not return within 2 s|run --build-dir B/h $GCD -n 5 --setup hangs.c --setup-timeout 2" ;;
  crashes) echo "300|2|did not return: it crashed|discover --build-dir B/c $GCD --setup crashes.c -o never.mr" ;;
  before) echo "120|2|mrfuzz_before_call (before.c) did not return|check --build-dir B/b $GCD --mr $GMR --setup before.c --replay --corpus corp" ;;
  typo) echo "120|2|is not a set-up hook|run --build-dir B/t $GCD -n 5 --setup typo.c" ;;
  trunc) echo "60|2|(truncated?)|run --build-dir B/n needs.c:f -n 3 -p trunc" ;;
  noentry) echo "60|2|has no entry for it|run --build-dir B/n needs.c:f -n 3 -p other" ;;
  emptycorp) echo "60|2|no corpus to replay|check --build-dir B/r $GCD --mr $GMR --replay --corpus empty" ;;
  jsondir) echo "60|2|is a directory|check --build-dir B/j $GCD --mr $GMR --json adir -- -runs=10" ;;
  outdir) echo "60|2|-o|discover --build-dir B/o $GCD -o nodir/x.mr" ;;
  clang) echo "120|3|the toolchain is broken|run --build-dir B/k $GCD -n 3" ;;
  stdout) echo "600|0||discover --build-dir B/s $GCD --seed 1 -o -" ;;
  emptymr) echo "300|0|holds no relation|check $EX/intmath/intmath.c --mr rels/ --build-dir B/m -- -max_total_time=3" ;;
  esac
}
cases=(exits hangs crashes before typo trunc noentry emptycorp jsondir outdir clang stdout emptymr)

# kill_cmd NAME: the command line of a killed run.
kill_cmd() {
  case $1 in
  file) echo "discover $EX/intmath/intmath.c --build-dir B/f -o fdir --budget 60" ;;
  replay) echo "check --build-dir B/gcd $GCD --mr $GMR --replay --corpus corp --json replay.json" ;;
  check) echo "check --build-dir B/gcd $GCD --mr $GMR --json check.json -- -max_total_time=60" ;;
  stdout) echo "discover --build-dir B/s $GCD --seed 1 -o -" ;;
  esac
}
kills=(file replay check stdout)

# Every relation file and JSON report left in W is whole.
whole() {
  local f why=
  for f in fdir/*.mr never.mr; do
    [ -e "$f" ] && ! "$M" lint "$f" >/dev/null 2>&1 && why="$why half-written $f"
  done
  for f in replay.json check.json; do
    [ -e "$f" ] && ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$f" 2>/dev/null && why="$why broken $f"
  done
  echo "$why"
}

failed=0
for r in $(seq "$ROUNDS"); do
  why=
  if [ $((RANDOM % 2)) = 0 ]; then
    name=${cases[RANDOM % ${#cases[@]}]}
    IFS='|' read -r bound codes msg line <<<"$(misuse "$name")"
    rm -f never.mr
    env=()
    [ "$name" = clang ] && env=(MRFUZZ_CLANG=/bin/false)
    rc=0
    t0=$(date +%s)
    # shellcheck disable=SC2086
    env "${env[@]}" timeout "$bound" "$M" $line >"r$r.out" 2>"r$r.err" || rc=$?
    what="misuse $name: exit $rc in $(($(date +%s) - t0)) s"
    [ "$rc" = 124 ] && why="$why over its bound of $bound s"
    case " $codes " in *" $rc "*) ;; *) why="$why exit $rc, want $codes" ;; esac
    [ -n "$msg" ] && ! grep -qF -- "$msg" "r$r.err" && why="$why no message '$msg'"
    grep -q "an mrfuzz bug" "r$r.err" && why="$why 'an mrfuzz bug'"
    [ "$name" = crashes ] && [ -e never.mr ] && why="$why never.mr written"
    if [ "$name" = stdout ] && [ "$rc" = 0 ]; then
      cp "r$r.out" stdout.mr
      "$M" lint stdout.mr >/dev/null 2>&1 || why="$why stdout is not a relation file"
    fi
  else
    name=${kills[RANDOM % ${#kills[@]}]}
    sig=$([ $((RANDOM % 2)) = 0 ] && echo KILL || echo TERM)
    at=$(awk -v x=$RANDOM 'BEGIN { printf "%.1f", 0.2 + 9.8 * x / 32767 }')
    # shellcheck disable=SC2046
    "$M" $(kill_cmd "$name") >"r$r.out" 2>"r$r.err" &
    pid=$!
    sleep "$at"
    kill -"$sig" $pid 2>/dev/null
    rc=0
    wait $pid 2>/dev/null || rc=$?
    what="kill $name with SIG$sig at $at s: exit $rc"
    for _ in $(seq 50); do [ -z "$(live)" ] && break; sleep 0.1; done
    [ -n "$(live)" ] && why="$why orphans: $(live | tr '\n' ' ')"
    grep -q "an mrfuzz bug" "r$r.err" && why="$why 'an mrfuzz bug'"
    if [ "$name" = check ] && [ "$sig" = TERM ] && [ -e check.json ] && grep -q "executions" "r$r.out"; then
      python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["stopped"] == "SIGTERM" or j["exit_code"] == 1' \
        check.json 2>/dev/null || why="$why check.json does not say it was stopped"
    fi
    rm -f check.json
  fi
  why="$why$(whole)"
  if [ -n "$why" ]; then
    failed=$((failed + 1))
    echo "round $r: $what: FAIL:$why"
  else
    echo "round $r: $what: ok"
  fi
done
echo "misuse soak: $ROUNDS rounds, $failed failed (seed $SEED; files in $W)"
[ "$failed" = 0 ]
