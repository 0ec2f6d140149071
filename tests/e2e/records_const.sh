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
  expect_exit 0 "$MRFUZZ" run --build-dir "h_$f" -n 50 "$in/rec_const.c:$f"
  expect_exit 0 "$MRFUZZ" trace "h_$f/run.trace"
  cp out "$f.jsonl"
done
"$PYTHON" - <<'PY' || fail "a const field did not reach the function as the trace shows it"
import json
# per function: (got, want) pairs from a call's inputs i and outputs o
want = {
  "c_val": lambda i, o: [(o["return"], i["p.x"] * i["p.n"] + i["p.y"])],
  "cn_sum": lambda i, o: [(o["return"], i["c.lo.x"] + i["c.lo.y"] + i["c.t[0]"] - i["c.t[1]"] +
                           i["c.w"] + i["c.v"])],
  # in-out: the const fields come back unchanged, only v moves
  "cn_scale": lambda i, o: [(o["c.t[0]"], i["c.t[0]"]), (o["c.w"], i["c.w"]),
                            (o["c.v"], i["k"] * (i["c.v"] + i["c.t[0]"]))],
}
for fn, pairs in want.items():
  calls = [json.loads(line) for line in open(fn + ".jsonl")]
  assert len(calls) == 50, (fn, len(calls))
  for c in calls:
    for got, w in pairs(c["in"], c["out"]):
      assert got == w or abs(got - w) <= 1e-6 * max(1.0, abs(w)), (fn, c)
print("ok: 150 calls")
PY

check "discover (AutoMR) on c_val: relations over the const fields that lint"
expect_exit 0 "$MRFUZZ" discover --build-dir hval -o val.mr "${SMALL[@]}" "$in/rec_const.c:c_val"
grep -q '^relation' val.mr || fail "discover kept no relation"
expect_exit 0 "$MRFUZZ" lint val.mr

check "check: a hand-written .mr over the const fields, random engine and libFuzzer"
expect_exit 0 "$MRFUZZ" check --build-dir hsum --engine random --mr "$in/rec_const.mr" "$in/rec_const.c:cn_sum" -- -runs=2000
expect_out "0 violated"
expect_exit 0 "$MRFUZZ" check --build-dir hsum --mr "$in/rec_const.mr" "$in/rec_const.c:cn_sum" -- -runs=20000
expect_out "0 violated"

check "black box: the header's own type (const fields) built and run"
"$MR_CLANG" -O1 -c "$in/rec_const.c" -o rec_const.o
ar rcs librc.a rec_const.o
expect_exit 0 "$MRFUZZ" run --build-dir bsum -I "$in" -L "$WORK" -l rc -n 20 "$in/rec_const.h:cn_sum"
expect_exit 0 "$MRFUZZ" check --build-dir bsum -I "$in" -L "$WORK" -l rc --engine random \
  --mr "$in/rec_const.mr" "$in/rec_const.h:cn_sum" -- -runs=2000
expect_out "0 violated"

check "--out on a record with const fields: refused before building (exit 2), the field named"
expect_exit 2 "$MRFUZZ" build --build-dir hout --out c "$in/rec_const.c:cn_scale"
expect_err "--out c: field 'c.lo.x' is const"
[ ! -e hout/harness.c ] || fail "a harness was generated"
echo "ok"
