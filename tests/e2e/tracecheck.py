# SPDX-License-Identifier: MIT
"""tracecheck.py - reading `mrfuzz trace` output in the end-to-end tests (stdlib only).

JSON Lines: one object per call, {"fn", "thread", "depth", "in": {name: value},
"out": {"return": value, name: value}} (docs/trace-format.md). Summary: one section per
function, "NAME (FILE)" then indented "calls: N", "constants: ...", "blocks: a/b  edges: c/d".
"""
import json
import re


def calls(path):
    """The calls of a JSON Lines trace rendering, in order."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def summary(path):
    """{function: {"calls": int, "constants": [str], "blocks": (a, b), "edges": (c, d)}}."""
    out, cur = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"^(\S+) \((.*)\)\s*$", line)
            if m:
                cur = out.setdefault(m.group(1), {"constants": [], "file": m.group(2)})
                continue
            if cur is None:
                continue
            s = line.strip()
            if s.startswith("calls:"):
                cur["calls"] = int(s.split()[1])
            elif s.startswith("constants:"):
                cur["constants"] = [t for t in s.split()[1:] if t != "none"]
            m = re.search(r"blocks: (\d+)/(\d+)", s)
            if m:
                cur["blocks"] = (int(m.group(1)), int(m.group(2)))
            m = re.search(r"edges: (\d+)/(\d+)", s)
            if m:
                cur["edges"] = (int(m.group(1)), int(m.group(2)))
    return out


def as_float(v):
    """A JSON value as a float: numbers, and strings such as "nan", "inf", "-inf"."""
    if isinstance(v, str):
        return float(v)
    return float(v)
