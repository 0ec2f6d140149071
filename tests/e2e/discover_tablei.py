#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# discover_tablei.py - does a discovered relation file contain relations equivalent to
# AutoMR Table I's equality relations of sine? Usage:
#   discover_tablei.py FILE.mr a,c,g,o,p
# A discovered relation D is equivalent to a reference R when
#   1. its input relation is the same map: with the same number of executions, for random
#      base inputs x1 the follow-up inputs agree (up to the order of the follow-ups), and
#   2. its output relation is the same polynomial up to a non-zero factor: P - N of
#      D's `check approx(P, N, ...)` divided by R's residual is one constant at random
#      points y (polynomial identity testing; the y are NOT outputs of the function, so
#      this compares the relations themselves, not their truth on sine).
# Each reference lists the forms that are the same identity of sine written from another
# base point (f(x)^2 + f(pi/2 - x)^2 = 1 and f(x)^2 + f(x + pi/2)^2 = 1): the brief accepts
# "the same input transformation up to the printed form". Truth on the function itself is
# checked separately by `harness verify` (zero false positives). Python stdlib only.
import itertools
import math
import random
import re
import sys

PI = math.pi
# name -> list of (follow-up maps x1 -> x_j for j = 2..h, residual over y[1..h])
REFS = {
    "a": [((lambda x: x + 2 * PI,), lambda y: y[1] - y[2]),
          ((lambda x: x - 2 * PI,), lambda y: y[1] - y[2])],
    "c": [((lambda x: x + PI,), lambda y: y[1] + y[2]),
          ((lambda x: x - PI,), lambda y: y[1] + y[2])],
    "g": [((lambda x: PI / 2 - x,), lambda y: y[1] ** 2 + y[2] ** 2 - 1),
          ((lambda x: x + PI / 2,), lambda y: y[1] ** 2 + y[2] ** 2 - 1),
          ((lambda x: x - PI / 2,), lambda y: y[1] ** 2 + y[2] ** 2 - 1)],
    "o": [((lambda x: 2 * x, lambda x: PI / 2 - x), lambda y: y[2] - 2 * y[1] * y[3]),
          ((lambda x: 2 * x, lambda x: x + PI / 2), lambda y: y[2] - 2 * y[1] * y[3]),
          ((lambda x: 2 * x, lambda x: x - PI / 2), lambda y: y[2] + 2 * y[1] * y[3])],
    "p": [((lambda x: 3 * x,), lambda y: y[2] - 3 * y[1] + 4 * y[1] ** 3)],
}
# inequalities in their tight, informative form: the accepted (follow-up map, "<=" or
# ">=", bound) forms. f(x) + f(x+c) <= b is the same relation as f(x) + f(x-c) <= b (from
# the base x - c); with f odd (checked: the file must state f(-x) = -f(x)) also as
# f(x) + f(x-c) >= -b, so the discovered set may hold any one of them.
INEQ = {
    "i": [((lambda x: x + 2,), "<=", 2 * math.cos(1.0)),
          ((lambda x: x - 2,), "<=", 2 * math.cos(1.0))],
    "m": [((lambda x: x - 3,), ">=", -2 * math.cos(1.5)),
          ((lambda x: x + 3,), ">=", -2 * math.cos(1.5))],
}
ODD_FORMS = {
    "i": [((lambda x: x + 2,), ">=", -2 * math.cos(1.0)),
          ((lambda x: x - 2,), ">=", -2 * math.cos(1.0))],
    "m": [((lambda x: x - 3,), "<=", 2 * math.cos(1.5)),
          ((lambda x: x + 3,), "<=", 2 * math.cos(1.5))],
}
ODD = ((lambda x: -x,), lambda y: y[1] + y[2])
NAMES = {"i": "f(x) + f(x+2) <= 2cos(1)", "m": "f(x) + f(x-3) >= -2cos(1.5)","a": "f(x) - f(x+2pi) = 0", "c": "f(x) + f(x+pi) = 0",
         "g": "f(x)^2 + f(pi/2-x)^2 - 1 = 0", "o": "f(2x) - 2 f(x) f(pi/2-x) = 0",
         "p": "f(3x) - 3 f(x) + 4 f(x)^3 = 0"}


def pyexpr(e):
    e = e.replace("^", "**")
    return compile(e, "<mr>", "eval")


def split_args(s):
    """Top-level comma split of approx's argument list."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def parse_ineq(path):
    """(name, maps, lhs code, op, bound) of `check LHS <= NUMBER;` relations."""
    out = []
    for m in re.finditer(r"relation\s+(\w+)\s*\{(.*?)\n\}", open(path).read(), re.S):
        maps = {int(a.group(1)): pyexpr(a.group(2))
                for a in re.finditer(r"^\s*x(\d+)\s*=\s*(.*?);", m.group(2), re.M)}
        c = re.search(r"check\s+(.*?)\s*(<=|>=)\s*([-+0-9.eE]+);", m.group(2))
        if c and maps:  # relations between calls; a one-call invariant has no follow-up
            out.append((m.group(1), maps, pyexpr(c.group(1)), c.group(2), float(c.group(3))))
    return out


def ineq_equivalent(rel, ref, rng):
    """Same input map, the same left side y1 + y2, the same direction, and a bound within
    1e-6 of the tight one (the informative form, not a loose one)."""
    _, maps, lhs, op, bound = rel
    fmaps, rop, rbound = ref
    if sorted(maps) != [2] or op != rop or abs(bound - rbound) > 1e-6:
        return False
    for _ in range(8):
        x = rng.uniform(-10, 10)
        if abs(follow(maps, x)[2] - fmaps[0](x)) > 1e-9 * max(1.0, abs(x)):
            return False
        y1, y2 = rng.uniform(-1, 1), rng.uniform(-1, 1)
        if abs(eval(lhs, env(y={1: y1, 2: y2})) - (y1 + y2)) > 1e-12:
            return False
    return True


def parse(path):
    text = open(path).read()
    rels = []
    for m in re.finditer(r"relation\s+(\w+)\s*\{(.*?)\n\}", text, re.S):
        name, body = m.group(1), m.group(2)
        maps = {}
        for a in re.finditer(r"^\s*x(\d+)\s*=\s*(.*?);", body, re.M):
            maps[int(a.group(1))] = pyexpr(a.group(2))
        c = re.search(r"check\s+approx\((.*)\);", body)
        if not c:
            continue  # inequalities are not compared here
        args = split_args(c.group(1))
        if len(args) < 2:
            continue
        rels.append((name, maps, pyexpr(args[0]), pyexpr(args[1])))
    return rels


def env(x1=None, maps=None, y=None):
    g = {"pi": PI, "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "abs": abs}
    if x1 is not None:
        g["x1"] = x1
    if y is not None:
        for i, v in y.items():
            g["y%d" % i] = v
    return g


def follow(maps, x1):
    g = env(x1=x1)
    out = {}
    for j in sorted(maps):
        out[j] = eval(maps[j], g)
        g["x%d" % j] = out[j]
    return out


def equivalent(rel, ref, rng):
    _, maps, P, N = rel
    fmaps, resid = ref
    h = len(fmaps) + 1
    if sorted(maps) != list(range(2, h + 1)):
        return False
    # 1. which permutation of the follow-ups makes the input maps agree
    xs = [rng.uniform(-10, 10) for _ in range(8)]
    for perm in itertools.permutations(range(2, h + 1)):
        ok = True
        for x in xs:
            got = follow(maps, x)
            for k, j in enumerate(perm):  # reference follow-up k+2 is discovered x_j
                want = fmaps[k](x)
                if abs(got[j] - want) > 1e-9 * max(1.0, abs(want)):
                    ok = False
        if not ok:
            continue
        # 2. residuals proportional at random points
        ratios = []
        for _ in range(12):
            y = {1: rng.uniform(-1.5, 1.5)}
            for j in range(2, h + 1):
                y[j] = rng.uniform(-1.5, 1.5)
            ry = {1: y[1]}
            for k, j in enumerate(perm):
                ry[k + 2] = y[j]
            r = resid(ry)
            g = env(y=y)
            d = eval(P, g) - eval(N, g)
            if abs(r) < 1e-3:
                continue
            ratios.append(d / r)
        if len(ratios) >= 6 and abs(ratios[0]) > 1e-12 and all(
                abs(q - ratios[0]) <= 1e-6 * abs(ratios[0]) for q in ratios):
            return True
    return False


def main():
    path, want = sys.argv[1], sys.argv[2].split(",")
    rels = parse(path)
    rng = random.Random(4)
    print("%d equality relations in %s" % (len(rels), path))
    missing = []
    ineqs = parse_ineq(path)
    for w in want:
        if w in INEQ:
            forms = INEQ[w]
            if any(equivalent(r, ODD, rng) for r in rels):
                forms = forms + ODD_FORMS[w]
            hit = next((r[0] for r in ineqs for f in forms if ineq_equivalent(r, f, rng)), None)
        else:
            hit = next((r[0] for r in rels for ref in REFS[w] if equivalent(r, ref, rng)), None)
        print("Table I (%s) %-32s %s" % (w, NAMES[w], ("= " + hit) if hit else "MISSING"))
        if not hit:
            missing.append(w)
    if missing:
        print("FAIL: no equivalent of Table I " + ",".join(missing), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
