#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_seed.sh - the seed alone decides what discovery writes (issue #26): the same
# command and --seed give byte-identical .mr files, summaries (less their seconds) and
# suspects with --jobs 2 on an idle machine, with --jobs 1, and with --jobs 2 under a CPU
# hog. Work is counted (search runs, generations, libFuzzer executions), wall time only
# caps it, and a run no cap cut says nothing of caps. Subjects: tests/e2e/inputs/multi.c
# (AutoMR twice, GenMorph once, with libFuzzer falsification) and disc_rare.c (a rare
# fault: a suspected fault with its reproducers).
. "$(dirname "$0")/lib.sh"
LIB=$E2E/inputs/multi.c
RARE="$E2E/inputs/disc_rare.c:disc_rare"
# both engines' work options at once: discover FILE gives each function its engine's
W=(--seed 1 --types I,II --runs 6 --iters 30 --generations 6 --population 80 --inputs 150 --templates 3
  --validate 5000 --fuzz-runs 100000)
R=(--types I --seed 3 --range a=-2000000000:2000000000 --fuzz-runs 200000)
if [ "${1:-OFF}" = ON ]; then # the sanitizers' harnesses are ~4x slower: the same phases, less work
  W=(--seed 1 --types I --runs 4 --iters 20 --generations 3 --population 40 --inputs 60 --templates 2
    --validate 2000 --fuzz-runs 20000)
  R=(--types I --seed 3 --range a=-2000000000:2000000000 --fuzz-runs 50000)
fi

# run NAME JOBS: discover FILE into NAME/, and the rare subject into NAME-rare.mr
run() {
  expect_exit 0 "$MRFUZZ" discover "$LIB" -o "$1" --build-dir bd "${W[@]}" --jobs "$2" --json "$1.json"
  cat out err >"$1.log"
  expect_exit 1 "$MRFUZZ" discover "$RARE" "${R[@]}" --jobs "$2" -o "$1-rare.mr" --build-dir bd/rare
  cat out err >>"$1.log"
  if grep -q "the time cap cut" "$1.log" bd/*/discover.log; then
    fail "$1: a cap cut the work (the test's work options are too large for this machine?)"
  fi
}

# same A B: every output of run A equals run B's
same() {
  for f in "$1"/*.mr; do
    cmp "$f" "$2/${f##*/}" || { diff "$f" "$2/${f##*/}" | head -20; fail "$2: ${f##*/} differs from $1's"; }
  done
  # the summary less its seconds column, the JSON less what measures the effort, not the
  # result: seconds, and the target's calls (each worker draws its sample of a type once)
  cmp <(cut -f1-4,6- "$1/summary.tsv") <(cut -f1-4,6- "$2/summary.tsv") || fail "$2: summary.tsv differs"
  strip='import json,sys
def s(o):
    if isinstance(o, dict): return {k: s(v) for k, v in o.items() if k not in ("seconds", "calls")}
    if isinstance(o, list): return [s(v) for v in o]
    return o
print(json.dumps(s(json.load(open(sys.argv[1]))), sort_keys=True).replace(sys.argv[2], "RUN"))'
  cmp <("$PYTHON" -c "$strip" "$1.json" "$PWD/$1") <("$PYTHON" -c "$strip" "$2.json" "$PWD/$2") || fail "$2: the JSON differs"
  cmp "$1-rare.mr" "$2-rare.mr" || fail "$2: the rare subject's relations differ"
  cmp <(sed "s/$1-rare/RUN/g" "$1-rare.suspects.mr") <(sed "s/$2-rare/RUN/g" "$2-rare.suspects.mr") ||
    fail "$2: the suspects differ"
  for f in "$1-rare.suspects"/*; do
    cmp "$f" "$2-rare.suspects/${f##*/}" || fail "$2: reproducer ${f##*/} differs"
  done
}

check "--jobs 2 on an idle machine: relations of every function, a suspected fault with reproducers"
run a 2
for f in ml_affine ml_max ml_sum; do
  [ "$(grep -c '^relation ' "a/$f.mr")" -ge 1 ] || fail "a/$f.mr: no relation"
done
grep -q "falsification with libFuzzer" bd/ml_sum/discover.log || fail "GenMorph ran no libFuzzer stage"
[ -n "$(ls a-rare.suspects)" ] || fail "no reproducer of the rare fault"

check "--jobs 1: the same files"
run b 1
same a b

check "--jobs 2 under a CPU hog (4 busy processes on this machine's cores): the same files"
hogs=()
for _ in 1 2 3 4; do
  timeout 600 sh -c 'while :; do :; done' &
  hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null || true' EXIT
run c 2
kill "${hogs[@]}" 2>/dev/null || true
same a c

check "a cap that cuts says so, in the output and in the JSON"
expect_exit 0 "$MRFUZZ" discover "$LIB:ml_sum" --build-dir bd/ml_sum --seed 1 --generations 3 --population 40 \
  --inputs 60 --templates 2 --validate 2000 --fuzz-runs 100000000 --fuzz-falsify 1 -o cut.mr --json cut.json
expect_err "the time cap cut libFuzzer falsification"
expect_out "cut by a time cap: libFuzzer falsification"
"$PYTHON" -c 'import json,sys; f = json.load(open("cut.json"))["functions"][0]; assert "libFuzzer" in f["cut"], f' ||
  fail "the JSON does not say what was cut"
"$PYTHON" -c 'import json,sys; assert all(f["cut"] is None for f in json.load(open("a.json"))["functions"])' ||
  fail "a run no cap cut has a cut in its JSON"
echo "discover_seed: ok"
