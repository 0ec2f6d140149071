#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# records_layout.sh - records laid out otherwise than naturally (docs/driver.md
# "Records"), inputs/rec_layout.c: packed, aligned(16), #pragma pack(2), an over-aligned
# field and typedef, packed and aligned at once, and a record holding two of them. The
# harness's own definitions used to fail their static assertions (exit 2, with a hint to
# -p); now they carry the attributes that give libclang's layout, and every value reaches
# the function as the trace shows it: run, in-out, discover and check.
. "$(dirname "$0")/lib.sh"
in=$E2E/inputs
SMALL=(--seed 1 --runs 4 --iters 20 --filter 50:20 --fuzz-runs 20000)

check "run: every result follows from the leaves the trace shows"
for f in al_sum pk_sum pk_ptr pp_sum fa_set pa_sum outer_sum; do
  run_calls "$in/rec_layout.c:$f" 30
done
calls_match al_sum.jsonl 30 'near(o["return"], i["a.x"] + 2 * i["a.y"])'
calls_match pk_sum.jsonl 30 'near(o["return"], i["a.c"] + i["a.x"] * i["a.n"])'
calls_match pk_ptr.jsonl 30 'near(o["return"], i["a.c"] - i["a.x"] * i["a.n"])'
calls_match pp_sum.jsonl 30 'near(o["return"], i["a.c"] + i["a.x"] + 3 * i["a.s"] - i["a.n"])'
calls_match fa_set.jsonl 30 'near(o["a.y"], i["a.x"] + i["a.c"] + i["a.k"])' 'o["a.k"] == i["a.k"]'
calls_match pa_sum.jsonl 30 'near(o["return"], i["a.c"] - i["a.x"])'
calls_match outer_sum.jsonl 30 'near(o["return"], i["o.c"] + i["o.in.x"] * i["o.in.c"] + i["o.v.y"])'
grep -qF "} __attribute__((packed));" h_pk_sum/harness.c || fail "harness.c's struct pk is not packed"

check "discover on the packed record: relations that lint and hold under check"
discover_holds "$in/rec_layout.c:pk_sum" h_pk_sum pk.mr --types I,II "${SMALL[@]}"

check "check a hand-written .mr on the packed record (random engine and libFuzzer)"
check_holds "$in/rec_layout.c:pk_sum" "$in/rec_layout.mr" h_pk_sum
echo "ok"
