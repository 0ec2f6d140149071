#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - soak test of what survives a kill (docs/checking.md, "What survives a kill";
# issue #14): ROUNDS times, one of check (libFuzzer -fork=2), check --engine random,
# discover, discover --engine genmorph, score, run --trace and compose is started on an
# example and killed with SIGKILL at a random moment (0.2 s to 12 s, during the build or
# the run). After each kill it verifies that
#   - no process of the run is left (harness, libFuzzer workers, clang): within 5 s;
#   - no half-written file: a relation file the run writes (-o) is absent or passes
#     `mrfuzz lint`; every check statistics file is whole; no temp file of an atomic
#     write is left beside a result;
#   - a rerun of the same command on the same directories picks up cleanly: a bounded
#     rerun exits as an uninterrupted run does (0, or 1 for score's/compose's findings).
# Prints one line per round and the totals; exit 1 when any round failed. Run by hand
# (minutes), not in CI.
# usage: bench/soak/run.sh [--rounds N] [--seed S] [--build DIR]
set -u
ROUNDS=20
HELP=2,17p
NAME=soak
# shellcheck source=bench/soak/lib.sh
. "$(dirname "$0")/lib.sh"


# cmd KIND BUDGET: the command line of a run of KIND bounded by BUDGET seconds.
cmd() {
  local b=$2
  case $1 in
  check) echo "check --build-dir B/gcd $EX/intmath/intmath.c:gcd --mr $EX/intmath/gcd.mr -- -max_total_time=$b -fork=2" ;;
  random) echo "check --build-dir B/sin $EX/trig/trig.c:trig_sin --mr $EX/trig/trig_sin.mr --engine random -- -max_total_time=$b" ;;
  discover) echo "discover $EX/trig/trig.c:trig_cos --build-dir B/cos -o cos.mr --budget $b" ;;
  genmorph) echo "discover $EX/arrays/arrays.c:arr_min --engine genmorph --build-dir B/min -o min.mr --budget $b" ;;
  score) echo "score --build-dir B/gcd $EX/intmath/intmath.c:gcd --mr $EX/intmath/gcd.mr -n 200" ;;
  run) echo "run --build-dir B/sin $EX/trig/trig.c:trig_sin -n 3000000 --trace sin.trace" ;;
  compose) echo "compose $EX/intmath/intmath.c:gcd --mr $EX/intmath/gcd.mr -o gcd_comp.mr --budget $b" ;;
  esac
}

kinds=(check random discover genmorph score run compose)
failed=0
for r in $(seq "$ROUNDS"); do
  kind=${kinds[RANDOM % ${#kinds[@]}]}
  at=$(awk -v x=$RANDOM 'BEGIN { printf "%.1f", 0.2 + 11.8 * x / 32767 }')
  # shellcheck disable=SC2046
  "$M" $(cmd "$kind" 30) >"r$r.out" 2>&1 &
  pid=$!
  sleep "$at"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  why=
  for _ in $(seq 50); do [ -z "$(live)" ] && break; sleep 0.1; done
  [ -n "$(live)" ] && why="orphans: $(live | tr '\n' ' ')"
  for f in cos.mr min.mr gcd_comp.mr; do
    [ -e "$f" ] && ! "$M" lint "$f" >/dev/null 2>&1 && why="$why half-written $f"
  done
  for s in B/*/check-stats/stats-*; do
    [ -e "$s" ] || continue
    case $s in *.tmp) continue ;; esac
    head -1 "$s" | grep -q "^mrfuzz-check-stats 1$" || why="$why broken $s"
  done
  left=$(find . -name '*.mr.*' -o -name '.*.tmp.*' 2>/dev/null | head -3 | tr '\n' ' ')
  [ -n "$left" ] && why="$why temp files: $left"
  # The rerun: bounded, on the same directories.
  rc=0
  # shellcheck disable=SC2046
  timeout 600 "$M" $(cmd "$kind" 5) >"r$r.rerun" 2>&1 || rc=$?
  case $kind:$rc in
  check:0 | random:0 | discover:0 | genmorph:0 | run:0 | score:0 | score:1 | compose:0 | compose:1) ;;
  *) why="$why rerun exit $rc (r$r.rerun)" ;;
  esac
  if [ -n "$why" ]; then
    failed=$((failed + 1))
    echo "round $r: $kind killed at $at s: FAIL:$why"
  else
    echo "round $r: $kind killed at $at s: ok (rerun exit $rc)"
  fi
done
echo "soak: $ROUNDS rounds, $failed failed (seed $SEED; files in $W)"
[ "$failed" = 0 ]
