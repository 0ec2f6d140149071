#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - composite relations on the trig sine, reported as Table 7 of seeds/003 (Xiang
# et al. 2019): the mutation score of a basic relation set, then with the kept 2-layer
# and 2..3-layer composites added, the number of composites, their average score, and
# the mutants only composites kill. The basic set is the sine's periodic/odd relations
# of examples/trig/trig_sin.mr (periodic, odd, half_turn: the paper's mr6, mr1, mr4);
# the full file already kills every killable mutant. One `mrfuzz compose` per seed (100
# source inputs each, as `mrfuzz score`); the averages over the seeds are the figures.
# Run by hand (never by CTest):  bench/compose/run.sh [MRFUZZ] [SEEDS] [BUDGET]
# Environment: BASIC (relation names of trig_sin.mr, default "periodic odd half_turn"),
# LAYERS (default 2..3; with one number the +2 column is that layer count alone).
set -eu
MRFUZZ=${1:-build/release/bin/mrfuzz}
SEEDS=${2:-20}
BUDGET=${3:-30}
BASIC=${BASIC:-periodic odd half_turn}
LAYERS=${LAYERS:-2..3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The basic subset, taken from the example file as written.
awk -v want=" $BASIC " '/^mrdsl|^subject/ {print}
  /^relation [a-z_]+ \{/ && index(want, " " $2 " ") {p=1} p {print} p && /^\}/ {p=0; print ""}' \
  "$ROOT/examples/trig/trig_sin.mr" >"$WORK/basic.mr"
echo "bench_compose: trig_sin, basic set: $(grep -c '^relation' "$WORK/basic.mr") relations" \
  "($(sed -n 's/^relation \([a-z_]*\).*/\1/p' "$WORK/basic.mr" | paste -sd,)), layers $LAYERS," \
  "seeds 1..$SEEDS, GA budget ${BUDGET}s per seed"
printf '%-5s %7s %7s %7s %4s %4s %7s %7s %7s %5s %7s\n' seed basic '+2' '+2..3' n2 n3 \
  avg_b avg_2 avg_3 only time_s
for seed in $(seq 1 "$SEEDS"); do
  t0=$(date +%s.%N)
  "$MRFUZZ" compose "$ROOT/examples/trig/trig.c:trig_sin" --build-dir "$WORK/sin" \
    --mr "$WORK/basic.mr" -o "$WORK/out-$seed.mr" --layers "$LAYERS" --seed "$seed" \
    --budget "$BUDGET" -q >"$WORK/out" 2>"$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v seed="$seed" -v secs="$(echo "$t1 - $t0" | bc)" '
    /^basic /          { b = $4; ab = $6 }
    /^\+[0-9]-layer /   { s2 = $4; n2 = $2; a2 = $6 }
    /^\+2\.\.3-layer / { s3 = $4; n3 = $2; a3 = $6 }
    /^mutants killed only by composites:/ { o = $6 }
    END { if (s3 == "") { s3 = "-"; n3 = "-"; a3 = "-" }
          printf "%-5s %7s %7s %7s %4s %4s %7s %7s %7s %5s %7.1f\n", seed, b, s2, s3, n2, n3,
          ab, a2, a3, o, secs }' "$WORK/out"
done | tee "$WORK/table"
awk '{ for (i = 2; i <= 10; i++) { v = $i; sub(/%/, "", v); s[i] += v }
       if ($5 > 0) k2++; if ($6 > 0) k3++; t += $11; n++ }
     END { printf "%-5s %6.1f%% %6.1f%% %6.1f%% %4.1f %4.1f %6.1f%% %6.1f%% %6.1f%% %5.2f %7.1f\n",
           "avg", s[2]/n, s[3]/n, s[4]/n, s[5]/n, s[6]/n, s[7]/n, k2 ? s[8]/k2 : 0,
           k3 ? s[9]/k3 : 0, s[10]/n, t/n }' "$WORK/table"
echo "columns: score of the basic set, with the kept 2-layer composites, with the kept 2- and"
echo "3-layer composites; kept composites of 2 and 3 layers; average score of one basic"
echo "relation, of one kept 2-layer and one kept 3-layer composite (the paper's Tables 1 and 7;"
echo "composites averaged over the seeds that kept one); mutants killed only by composites."
