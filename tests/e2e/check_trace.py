#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_trace.py - checks one example's trace against Python oracles (stdlib only).

  check_trace.py --function F --calls N --jsonl T.jsonl --summary T.summary
                 [--range P=LO:HI ...] [--len LO:HI] [--const-any V1,V2,...] [--black-box]

Checks: N calls of F at depth 1; every input within its domain (the --range given to
mrfuzz run, else the documented default); every output right; the summary's call count,
mined constants (--const-any: at least one of the values is in F's table) and coverage
(0 < hit <= total), or no coverage at all for a black box.
"""
import argparse
import math
import sys

import tracecheck

# Parameters of the example functions: name -> kind.
#   f64/i64/u32/u64/i8: scalars;  arr:N  array of f64 with length N;  buf:N  char buffer
#   with length N;  cstr  string;  len  an array's length parameter.
SIGS = {
    "trig_sin": {"x": "f64"}, "trig_cos": {"x": "f64"}, "trig_tan": {"x": "f64"},
    "sin": {"x": "f64"}, "cos": {"x": "f64"}, "gsl_sf_bessel_J0": {"x": "f64"},
    "gcd": {"a": "i64", "b": "i64"}, "ipow": {"base": "i64", "exp": "u32"},
    "is_prime": {"n": "u64"}, "next_prime": {"n": "u64"},
    "arr_sort": {"a": "arr:n", "n": "len"}, "arr_min": {"a": "arr:n", "n": "len"},
    "arr_mean": {"a": "arr:n", "n": "len"},
    "str_repeat": {"out": "buf:cap", "cap": "len", "s": "cstr", "n": "u32"},
    "str_pad_left": {"out": "buf:cap", "cap": "len", "s": "cstr", "width": "u64", "fill": "i8"},
}

DEFAULTS = {"f64": (-100.0, 100.0), "i64": (-1000, 1000), "u32": (0, 1000), "u64": (0, 1000),
            "i8": (-128, 127), "arr": (-100.0, 100.0), "buf": (-128, 127), "cstr": (0, 16),
            "len": (0, 16)}


def close(got, want, tol=1e-12):
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want):
        return got == want
    return abs(got - want) <= tol * max(1.0, abs(want))


def is_prime(n):
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    i = 3
    while i * i <= n:
        if n % i == 0:
            return False
        i += 2
    return True


def bessel_j0(x):
    """Power series of J0; fine in double for |x| <= 12 at the tolerance used."""
    term, total, k = 1.0, 1.0, 0
    q = -(x * x) / 4.0
    while abs(term) > 1e-18 * max(1.0, abs(total)) or k < 3:
        k += 1
        term *= q / (k * k)
        total += term
    return total


def chars(s):
    return [b - 256 if b > 127 else b for b in s.encode()]


def expect_buffer(c, want_bytes, cap):
    """A snprintf-style output buffer: want_bytes cut to cap-1, then NUL."""
    if cap == 0:
        return
    out = c["out"]["out"]
    body = want_bytes[:cap - 1]
    assert out[:len(body)] == body and out[len(body)] == 0, (c, body)


def check_output(fn, c):
    i, o = c["in"], c["out"]
    r = o.get("return")
    if fn in ("trig_sin", "sin"):
        assert close(tracecheck.as_float(r), math.sin(i["x"])), c
    elif fn in ("trig_cos", "cos"):
        assert close(tracecheck.as_float(r), math.cos(i["x"])), c
    elif fn == "trig_tan":
        assert close(tracecheck.as_float(r), math.tan(i["x"])), c
    elif fn == "gsl_sf_bessel_J0":
        assert abs(r - bessel_j0(i["x"])) <= 1e-9, c
    elif fn == "gcd":
        assert r == math.gcd(i["a"], i["b"]), c
        assert r == 0 or (i["a"] % r == 0 and i["b"] % r == 0), c
    elif fn == "ipow":
        w = pow(i["base"], i["exp"], 2**64)
        assert r == (w - 2**64 if w >= 2**63 else w), c
    elif fn == "is_prime":
        assert bool(r) == is_prime(i["n"]), c
    elif fn == "next_prime":
        p = i["n"] + 1
        while not is_prime(p):
            p += 1
        assert r == p, c
    elif fn == "arr_sort":
        assert o["a"] == sorted(i["a"]), c
    elif fn == "arr_min":
        assert tracecheck.as_float(r) == (min(i["a"]) if i["a"] else math.inf), c
    elif fn == "arr_mean":
        want = math.fsum(i["a"]) / len(i["a"]) if i["a"] else math.nan
        assert close(tracecheck.as_float(r), want), c
    elif fn == "str_repeat":
        assert r == len(i["s"]) * i["n"], c
        expect_buffer(c, chars(i["s"] * min(i["n"], i["cap"] + 1)), i["cap"])
    elif fn == "str_pad_left":
        s, w, f = i["s"], i["width"], i["fill"]
        assert r == max(len(s), w), c
        expect_buffer(c, [f] * min(max(0, w - len(s)), i["cap"]) + chars(s), i["cap"])
    else:
        raise SystemExit(f"no oracle for {fn}")


def domains(fn, ranges, length):
    """{param: (kind, lo, hi)} from the defaults and the --range/--len arguments."""
    out = {}
    for p, kind in SIGS[fn].items():
        base = kind.split(":")[0]
        lo, hi = DEFAULTS[base]
        if base == "len":
            lo, hi = length
        out[p] = [kind, lo, hi]
    for r in ranges:
        p, v = r.split("=", 1)
        lo, hi = v.split(":")
        conv = float if out[p][0] in ("f64", "arr") or out[p][0].startswith("arr") else int
        out[p][1:] = [conv(lo), conv(hi)]
    return out


def check_inputs(c, dom):
    for p, (kind, lo, hi) in dom.items():
        v = c["in"][p]
        if kind == "cstr":
            assert lo <= len(v) <= hi and all(32 <= ord(ch) <= 126 for ch in v), (p, v)
        elif kind.startswith("arr:") or kind.startswith("buf:"):
            assert len(v) == c["in"][kind.split(":")[1]], (p, c)
            assert all(lo <= x <= hi for x in v), (p, v, lo, hi)
        else:
            assert lo <= v <= hi, (p, v, lo, hi)


def check_summary(args, s):
    sec = s.get(args.function)
    assert sec is not None, f"no summary section for {args.function}: {s}"
    assert sec.get("calls") == args.calls, sec
    if args.black_box:
        assert not sec["constants"], f"a black box has no mined constants: {sec}"
        assert sec.get("blocks", (0, 0))[1] == 0, f"a black box has no coverage: {sec}"
        print(f"summary: {args.calls} calls, no constants, no coverage (black box)")
        return
    b, e = sec.get("blocks"), sec.get("edges")
    assert b and 0 < b[0] <= b[1], f"blocks hit {b}"
    assert e and 0 < e[0] <= e[1], f"edges hit {e}"
    if args.const_any:
        want = [float(v) for v in args.const_any.split(",")]
        have = []
        for t in sec["constants"]:
            try:
                have.append(float(t.rstrip(",")))
            except ValueError:
                pass
        assert any(any(close(h, w, 1e-15) for h in have) for w in want), \
            f"none of {want} among the mined constants {sec['constants']}"
    print(f"summary: {args.calls} calls, {len(sec['constants'])} constants, "
          f"blocks {b[0]}/{b[1]}, edges {e[0]}/{e[1]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--function", required=True)
    ap.add_argument("--calls", type=int, required=True)
    ap.add_argument("--jsonl", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--range", action="append", default=[])
    ap.add_argument("--len", default="0:16")
    ap.add_argument("--const-any")
    ap.add_argument("--black-box", action="store_true")
    args = ap.parse_args()
    length = tuple(int(x) for x in args.len.split(":"))
    dom = domains(args.function, args.range, length)
    cs = tracecheck.calls(args.jsonl)
    assert len(cs) == args.calls, f"{len(cs)} calls in the trace, want {args.calls}"
    for c in cs:
        assert c["fn"] == args.function and c["depth"] == 1, c
        check_inputs(c, dom)
        check_output(args.function, c)
    print(f"jsonl: {len(cs)} calls of {args.function}, inputs in their domains, outputs right")
    check_summary(args, tracecheck.summary(args.summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
