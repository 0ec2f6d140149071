#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# crash.sh - a target that crashes is reported (exit code 1: a property is violated),
# the driver survives, and the trace up to the crash can still be read.
. "$(dirname "$0")/lib.sh"

check "run: crashy crashes for x > 500 -> exit 1 with a message"
expect_exit 1 "$MRFUZZ" run --build-dir h "$E2E/inputs/crash.c:crashy" -n 1000 --seed 1 --trace t.trace
grep -qE "the target crashed: SIGSEGV \(signal 11\)|the target failed while running crashy" err ||
  { cat err >&2; fail "no crash message"; }

check "the trace before the crash is readable (exit 0, the cut reported)"
expect_exit 0 "$MRFUZZ" trace t.trace
"$PYTHON" - <<'PY'
import json
calls = [json.loads(l) for l in open("out") if l.strip()]
whole = [c for c in calls if not c.get("incomplete")]
assert calls and all(c["fn"] == "crashy" for c in calls), calls[:3]
assert all(c["in"]["x"] <= 500 and c["out"]["return"] == 2 * c["in"]["x"] for c in whole)
assert calls[-1].get("incomplete") and calls[-1]["in"]["x"] > 500, calls[-1]
print(f"{len(whole)} whole calls before the crash, then the crashing call (x = {calls[-1]['in']['x']})")
PY
echo "ok"

check "run: hangs loops forever for x > 500 -> killed at --timeout, exit 1, driver survives"
expect_exit 1 "$MRFUZZ" run --build-dir hh "$E2E/inputs/crash.c:hangs" -n 1000 --seed 1 --timeout 2 --trace h.trace
grep -q "the target timed out: hangs did not finish within 2 s" err ||
  { cat err >&2; fail "no timeout message"; }
expect_exit 2 "$MRFUZZ" run --build-dir hh "$E2E/inputs/crash.c:hangs" -n 1 --timeout soon
echo "ok"
