# SPDX-License-Identifier: MIT
"""calls_match.py JSONL N EXPR... - every call of a `mrfuzz trace` rendering (JSON Lines)
satisfies every EXPR, a Python expression over the call's inputs `i` and outputs `o`
(dicts by leaf name) with near(a, b) (relative 1e-6, absolute near 0); and there are N
calls. Used where a test must see that each value reached the function as the trace
shows it (records: tests/e2e/records_*.sh). Exit 1 naming the first call that breaks one.
"""
import sys

import tracecheck


def near(a, b):
    return a == b or abs(a - b) <= 1e-6 * max(1.0, abs(b))


def main():
    path, want, exprs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    calls = tracecheck.calls(path)
    if len(calls) != want:
        sys.exit(f"FAIL: {path}: {len(calls)} calls, want {want}")
    for c in calls:
        for e in exprs:
            if not eval(e, {"near": near}, {"i": c["in"], "o": c["out"]}):
                sys.exit(f"FAIL: {path}: {e} is false for {c}")
    print(f"ok: {path}: {len(calls)} calls")


main()
