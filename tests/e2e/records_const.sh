#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# records_const.sh - records with const-qualified fields (docs/driver.md "Records"):
# inputs/rec_const.c, a const scalar, a const nested record, a const array and a typedef'd
# const field. The harness used to assign them and did not compile; now they are inputs
# like any field: run (the trace holds what the thunk set), discover, check, in-out, a
# black box through the header, and --out refused (a const field is never an output).
. "$(dirname "$0")/lib.sh"
in=$E2E/inputs
SMALL=(--seed 1 --runs 4 --iters 20 --filter 50:20 --fuzz-runs 20000)

check "run: every call's results follow from the leaves the trace shows (the const ones too)"
for f in c_val cn_sum cn_scale; do
  run_calls "$in/rec_const.c:$f" 50
done
calls_match c_val.jsonl 50 'near(o["return"], i["p.x"] * i["p.n"] + i["p.y"])'
calls_match cn_sum.jsonl 50 'near(o["return"], i["c.lo.x"] + i["c.lo.y"] + i["c.t[0]"] - i["c.t[1]"] + i["c.w"] + i["c.v"])'
# in-out: the const fields come back unchanged, only v moves
calls_match cn_scale.jsonl 50 'o["c.t[0]"] == i["c.t[0]"] and o["c.w"] == i["c.w"]' \
  'near(o["c.v"], i["k"] * (i["c.v"] + i["c.t[0]"]))'

check "discover (AutoMR) on c_val: relations over the const fields that lint and hold"
discover_holds "$in/rec_const.c:c_val" h_c_val val.mr "${SMALL[@]}"

check "check: a hand-written .mr over the const fields, random engine and libFuzzer"
check_holds "$in/rec_const.c:cn_sum" "$in/rec_const.mr" h_cn_sum

check "black box: the header's own type (const fields), built and checked"
"$MR_CLANG" -O1 -c "$in/rec_const.c" -o rec_const.o
ar rcs librc.a rec_const.o
check_holds "$in/rec_const.h:cn_sum" "$in/rec_const.mr" bsum -I "$in" -L "$WORK" -l rc

check "--out on a record with const fields: refused before building (exit 2), the field named"
expect_exit 2 "$MRFUZZ" build --build-dir hout --out c "$in/rec_const.c:cn_scale"
expect_err "--out c: field 'c.lo.x' is const"
[ ! -e hout/harness.c ] || fail "a harness was generated"
echo "ok"
