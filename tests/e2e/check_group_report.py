# SPDX-License-Identifier: MIT
# check_group_report.py - the --json (and --sarif) of `mrfuzz discover FILE:F,G` or
# FILE:F->G (docs/discover.md, "The JSON summary and SARIF") against what the run wrote:
# the group's functions at their definitions, OUT.mr's relations at their lines and with
# the functions their executions call, the suspects at their lines in OUT.suspects.mr with
# reproducers that exist and the replay commands stdout printed, SARIF results at the first
# function's definition with the other functions a suspect calls as related locations.
# Prints the first replay command (empty when none), for the caller to run.
import argparse
import json
import os
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--json", required=True)
ap.add_argument("--sarif")
ap.add_argument("--stdout", required=True, help="the run's stdout")
ap.add_argument("--group", required=True, help="F,G or F->G, as given")
ap.add_argument("--output", required=True, help="OUT.mr, relative to the working directory")
ap.add_argument("--exit", type=int, required=True)
ap.add_argument("--engine", required=True)
a = ap.parse_args()

j = json.load(open(a.json))
assert j["format"] == "mrfuzz-discover-summary" and j["version"] == 1, j
assert len(j["functions"]) == 1, j["functions"]
f = j["functions"][0]
chain = "->" in a.group
names = a.group.split("->" if chain else ",")
assert f["function"] == a.group and f["chain"] == chain, (f["function"], f["chain"])
assert [g["function"] for g in f["group"]] == names, f["group"]
for g in f["group"]:  # each at its definition (or declaration)
    assert os.path.isabs(g["file"]) and g["function"] in open(g["file"]).read().splitlines()[g["line"] - 1], g
assert f["file"] == f["group"][0]["file"], f
assert f["engine"] == a.engine and f["status"] == "run" and f["exit_code"] == a.exit, f
assert isinstance(f["seed"], int) and f["seconds"] > 0, f
assert f["output"] == os.path.join(os.getcwd(), a.output), f["output"]

mr = open(f["output"]).read().splitlines()
lines = [i + 1 for i, l in enumerate(mr) if l.startswith("relation ")]
assert [r["line"] for r in f["relations"]] == lines, (f["relations"], lines)
for r in f["relations"]:
    head = mr[r["line"] - 1]
    assert head.startswith("relation %s calls %s" % (r["name"], ", ".join(r["calls"]))), (head, r)
    assert r["calls"][0] == names[0] and set(r["calls"]) <= set(names), r
    assert (names[1] in r["calls"]) if chain else len(set(r["calls"])) >= 2, r

out = open(a.stdout).read()
sus = f["suspects"]
if sus:
    text = open(f["suspects_file"]).read().splitlines()
    base = os.path.basename(f["suspects_file"])
    for x in sus:
        assert text[x["line"] - 1].startswith("relation %s calls %s" % (x["name"], ", ".join(x["calls"]))), x
        assert x["calls"][0] == names[0] and set(x["calls"]) <= set(names), x
        assert x["checked"] >= 10000 and x["broken"] <= x["checked"], x
        for r in x["reproducers"]:
            assert os.path.isfile(r["file"]), r
            assert r["replay"].startswith("mrfuzz repro ") and r["replay"].endswith(" " + r["file"]), r
            assert " --mr %s --relation %s " % (base, x["name"]) in r["replay"], r
    # the replay commands stdout printed for the user's suspects file are those listed
    printed = set(re.findall(r"\(replay: (mrfuzz repro .* --mr %s .*)\)$" % re.escape(base), out, re.M))
    listed = {r["replay"] for x in sus for r in x["reproducers"]}
    assert printed and printed <= listed, (printed, listed)
else:
    assert f["suspects_file"] is None, f

if a.sarif:
    run = json.load(open(a.sarif))["runs"][0]
    assert len(run["results"]) == len(sus), run["results"]
    defs = {g["function"]: g for g in f["group"]}
    for x, res in zip(sus, run["results"]):
        assert res["ruleId"] == a.group + "/" + x["name"] and res["level"] == "warning", res
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "file://" + f["file"], loc
        assert loc["region"]["startLine"] == f["group"][0]["line"], loc
        rel = [r["physicalLocation"] for r in res["relatedLocations"]]
        assert rel[0]["region"]["startLine"] == x["line"], rel  # the suspect in OUT.suspects.mr
        others = [n for n in names[1:] if n in x["calls"] and n != names[0]]
        assert [r["region"]["startLine"] for r in rel[1:]] == [defs[n]["line"] for n in others], (rel, others)

print(next((r["replay"] for x in sus for r in x["reproducers"]), ""))
