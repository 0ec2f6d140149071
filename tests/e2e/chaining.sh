#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chaining.sh - GenMorph discovers the chaining relation of a running checksum (issue #19;
# docs/discover.md, "GenMorph engine", "Chaining"): examples/checksum's ck_adler(seed, buf,
# len) fed its own result back as the seed of a second chunk equals one call over the
# concatenation, f(f(s, a), b) == f(s, a ++ b). Discovered (three executions, `s2 = y1`),
# lint-clean, clean under `mrfuzz check` on the unmodified example; on the build seeded with
# CK_BUG_SEED (the seed's high half unpacked one bit short: every call a correct checksum of
# another seed) the chaining relation is violated, while the relations between calls from
# one seed (the discovered others, the example's low_half_order) see nothing. Without a
# --range the seed's default domain (0..1000) holds no checksum: discovery gives the range of
# the outputs it saw.
# $1 = ON in the sanitizer preset: fewer inputs and runs.
. "$E2E/lib.sh"
SRC="$EXAMPLES/checksum/checksum.c:ck_adler"
RANGE=(--range seed=0:4294967295)
# A fixed number of generations and of libFuzzer executions (release: the default 4*10^6,
# about the 24 s the stage had when it was timed), no wall-time cap: the same relations
# whatever the load.
small=(--generations 8 --population 100 --inputs 300 --validate 20000)
runs=200000
[ "${1:-OFF}" != ON ] || { small+=(--inputs 200 --validate 5000 --fuzz-runs 400000); runs=20000; }

check "discover: GenMorph (an array), a chaining input relation among the templates"
expect_exit 0 "$MRFUZZ" discover "$SRC" "${RANGE[@]}" --seed 3 --jobs 2 -q "${small[@]}" -o ck.mr --build-dir bd
expect_out "engine: genmorph (chosen from the signature: array parameter buf)"
grep -qE '^chain_seed_buf +[0-9]+ ' out || { cat out; fail "no chaining input relation in the table"; }
if grep -q '^chaining: ' out; then fail "a --range hint although the seed's range was given"; fi

check "the chaining relation is in the file: seed2 = y1, seed3 = seed1, buf3 the concatenation, y2 == y3"
expect_exit 0 "$MRFUZZ" lint ck.mr
"$PYTHON" - ck.mr <<'PY' || { cat ck.mr; fail "no chaining relation discovered"; }
import re, sys
text = open(sys.argv[1]).read()
for body in re.findall(r'relation chain_\w+ \{(.*?)\n\}', text, re.S):
    if ('meta type = "chain"' in body and 'seed2 = y1;' in body and 'seed3 = seed1;' in body
            and re.search(r'buf3 = concat\(buf1, ', body) and re.search(r'check (y3 == y2|y2 == y3);', body)):
        sys.exit(0)
sys.exit(1)
PY

check "check: the discovered relations hold on the unmodified example ($runs libFuzzer runs)"
expect_exit 0 "$MRFUZZ" check "$SRC" "${RANGE[@]}" --mr ck.mr --build-dir bd -- -runs=$runs -seed=1
grep -qE "checks, 0 violated" out || { cat out err; fail "violations on the unmodified example"; }
expect_exit 0 "$MRFUZZ" check "$SRC" "${RANGE[@]}" --mr "$EXAMPLES/checksum/ck_adler.mr" --build-dir bd \
  -- -runs=$runs -seed=1
grep -qE "checks, 0 violated" out || { cat out err; fail "the example's relations violated"; }

check "CK_BUG_SEED: a chaining relation is violated"
expect_exit 1 "$MRFUZZ" check "$SRC" -D CK_BUG_SEED "${RANGE[@]}" --mr ck.mr --build-dir bug -- -runs=$runs -seed=1
grep -qE "relation violated: chain_seed_buf" out err || { cat out err; fail "the seeded fault was not caught"; }

check "CK_BUG_SEED: the relations between calls from one seed miss it"
awk 'BEGIN { keep = 1 } /^relation / { keep = $2 !~ /^chain_/ } keep' ck.mr > single.mr
sed -n '/^relation low_half_order/,/^}/p' "$EXAMPLES/checksum/ck_adler.mr" >> single.mr
"$MRFUZZ" fmt single.mr > /dev/null || { cat single.mr; fail "single.mr"; }
expect_exit 0 "$MRFUZZ" check "$SRC" -D CK_BUG_SEED "${RANGE[@]}" --mr single.mr --build-dir bug -- -runs=$runs -seed=1
grep -qE "checks, 0 violated" out || { cat out err; fail "a single-seed relation saw the fault"; }

check "without --range: the hint names the range that lets check apply the chaining"
expect_exit 0 "$MRFUZZ" discover "$SRC" --seed 3 --jobs 2 -q --generations 2 --population 50 \
  --inputs 100 --templates 2 --validate 2000 --fuzz-falsify 0 -o hint.mr --build-dir bd
grep -qE '^chaining: chain_seed_buf_[0-9]+ feeds y back as seed, .* discover and check with --range seed=0:[0-9]{8,10} \(the outputs seen\)$' out ||
  { cat out; fail "no --range hint"; }
echo "ok"
