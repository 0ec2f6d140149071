#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# report.sh - `mrfuzz report` as the page a user opens after a run (docs/driver.md): on a
# copy of examples/geometry (geo_dot in vec.c over kernel.c's geo_dot2, mutants in both
# files) score runs, then a fault is seeded into vec.c and check finds it; the report,
# rendered by headless Chromium, shows each relation's text with what check did and the
# mutants it kills (the numbers of check's and score's JSON), the finding with a replay
# command that does replay it, both sources with coverage and the surviving mutants
# marked, and the Mutation Testing Elements view rendered from the inlined bundle; a
# screenshot is written. Without the bundle the page says why and keeps its own sections.
. "$(dirname "$0")/lib.sh"
CC=${MR_CLANG:-clang-14}
command -v chromium >/dev/null || fail "chromium missing: run scripts/setup"
cp -r "$EXAMPLES/geometry" g
cmake -S g -B geo -G Ninja -DCMAKE_C_COMPILER="$CC" >/dev/null || fail "cmake"
T=(g/src/vec.c:geo_dot g/src/kernel.c -p geo --mr g/geo_dot.mr)

# render PAGE DOM [PNG]: the DOM after the page's scripts ran (and a screenshot).
render() {
  # Chromium needs a writable HOME; no sandbox when run as root (CI containers).
  local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=15000)
  HOME=$WORK timeout 120 chromium "${flags[@]}" --dump-dom "file://$WORK/$1" >"$2" 2>chromium.err ||
    { cat chromium.err >&2; fail "chromium failed on $1"; }
  [ -z "${3:-}" ] || HOME=$WORK timeout 120 chromium "${flags[@]}" --window-size=1280,3000 \
    --screenshot="$WORK/$3" "file://$WORK/$1" 2>chromium.err || { cat chromium.err >&2; fail "no screenshot"; }
}

check "score: mutants in vec.c and kernel.c; the MTE JSON and the coverage stay in the build directory"
expect_exit 0 "$MRFUZZ" score --build-dir h "${T[@]}" --mutant-timeout 1
[ -s h/mutants/score-mte.json ] && [ -s h/mutants/score-coverage.json ] || fail "score left no data"

check "report after score alone: no corpus, so no adequacy; the relations with their kills, no check yet"
expect_exit 0 "$MRFUZZ" report --build-dir h "${T[@]}" --html early.html
expect_err "the report has no adequacy"
grep -q 'id="adequacy-none"' early.html || fail "the missing adequacy is not said"
render early.html early.dom
grep -q 'id="check-none"' early.dom && grep -q "run 'mrfuzz check' with this build directory" early.dom ||
  fail "the missing check is not said"
grep -q 'id="mte-status" data-state="rendered"' early.dom || fail "no MTE view after score alone"
grep -qE 'data-rel="rotate_both"><td><pre class="rel-text">' early.dom || fail "no relation rows after score alone"

check "a seeded fault in vec.c: check finds it; the replay command it prints replays it"
sed -i 's/return geo_dot2(a.x, b.x, a.y, b.y); }/return geo_dot2(a.x, b.x, a.y, b.y) + (a.x > 1 \&\& b.x < 0); }/' \
  g/src/vec.c
grep -q '(a.x > 1 && b.x < 0)' g/src/vec.c || fail "the fault was not seeded"
expect_exit 1 "$MRFUZZ" check --build-dir h "${T[@]}" -- -max_total_time=60 -seed=1
[ -s h/check-summary.json ] || fail "check left no summary"
replay=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["findings"][0]["replay"])' h/check-summary.json)
echo "replay: $replay"
case $replay in "mrfuzz repro --build-dir h g/src/vec.c:geo_dot g/src/kernel.c --build-path geo "*) ;;
  *) fail "the replay command lacks the build: $replay" ;; esac
eval "expect_exit 1 \"\$MRFUZZ\" ${replay#mrfuzz }"
expect_err "violates relation symmetric"

check "report: one self-contained page, every inlined script closed where the page closes it"
expect_exit 0 "$MRFUZZ" report --build-dir h "${T[@]}" --html report.html
no_external_assets report.html
[ "$(grep -oi '</script' report.html | wc -l)" = 6 ] ||
  fail "not 6 scripts ended (data, check, score, coverage, bundle, report.js); is the bundle missing? (scripts/setup: npm ci in driver/report)"
grep -q '<mutation-test-report-app' report.html || fail "no Mutation Testing Elements element"

check "Chromium renders it: relations, finding, sources of both files, the MTE view; a screenshot"
render report.html dom.html shot.png
"$PYTHON" - dom.html h/check-summary.json h/mutants/score-mte.json g/geo_dot.mr h/mutants/score-coverage.json <<'PY' ||
  fail "the rendered page"
import html.parser, json, re, sys
dom, summary, mte, mr, cov = sys.argv[1:]
summary, mte, cov = json.load(open(summary)), json.load(open(mte)), json.load(open(cov))
page = open(dom).read()

class Tree(html.parser.HTMLParser):
    """Elements with their attributes and text, nested."""
    def __init__(self):
        super().__init__()
        self.root = {"tag": "", "attrs": {}, "kids": [], "text": ""}
        self.stack = [self.root]
    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "kids": [], "text": ""}
        self.stack[-1]["kids"].append(e)
        if tag not in ("br", "meta", "input", "img", "link"):
            self.stack.append(e)
    def handle_endtag(self, tag):
        while len(self.stack) > 1 and self.stack.pop()["tag"] != tag:
            pass
    def handle_data(self, data):
        for e in self.stack:
            e["text"] += data

t = Tree()
t.feed(page)
def find(e, pred):
    out = [e] if pred(e) else []
    for k in e["kids"]:
        out += find(k, pred)
    return out
def cls(e, c):
    return c in e["attrs"].get("class", "").split()

# Relations: each with its text as the file says it, check's counts, the mutants it kills.
fn = summary["functions"][0]
names = re.findall(r"^relation (\w+)", open(mr).read(), re.M)
assert names == ["symmetric", "scale2", "rotate_both"], names
mutants = [m for f in mte["files"].values() for m in f["mutants"]]
for r in fn["relations"]:
    rows = find(t.root, lambda e: e["tag"] == "tr" and e["attrs"].get("data-rel") == r["name"] and cls(e, "rel"))
    assert len(rows) == 1, r["name"]
    row = rows[0]
    cell = lambda c: find(row, lambda e: e is not row and cls(e, c))[0]["text"].strip()
    assert "relation %s {" % r["name"] in cell("rel-text"), cell("rel-text")
    for k in ("checked", "skipped", "violated"):
        assert cell(k) == str(r[k]), (r["name"], k, cell(k), r[k])
    kills = [m["id"] for m in mutants if r["name"] in m["killedBy"]]
    assert cell("nkilled") == str(len(kills)), (r["name"], cell("nkilled"), len(kills))
    links = [a["text"] for a in find(row, lambda e: e["tag"] == "a")]
    assert links == ["#" + i for i in kills], (r["name"], links, kills)
    print("relation %s: checked %s, violated %s, kills %d" % (r["name"], r["checked"], r["violated"], len(kills)))
assert "a.b == b.a" in page, "the relation's comment is not shown"
assert [r["violated"] for r in fn["relations"] if r["name"] == "symmetric"][0] >= 1

# The finding and its replay command.
f = summary["findings"][0]
codes = find(t.root, lambda e: cls(e, "replay"))
assert [c["text"] for c in codes] == [f["replay"]], codes

# Every file of the build: coverage per line, the surviving mutants marked where they are.
for path, res in mte["files"].items():
    box = find(t.root, lambda e: cls(e, "file") and e["attrs"].get("data-file", "").endswith(path.rsplit("/", 1)[-1]))
    assert len(box) == 1, path
    surv = [m for m in res["mutants"] if m["status"] == "Survived"]
    marks = find(box[0], lambda e: cls(e, "mutant") and cls(e, "survived"))
    assert sorted(m["attrs"]["data-id"] for m in marks) == sorted(m["id"] for m in surv), path
    for m in surv:  # on its own line
        line = find(box[0], lambda e: e["tag"] == "tr" and e["attrs"].get("data-line") == str(m["location"]["start"]["line"]))
        assert line and cls(line[0], "has-survivor"), (path, m["id"])
    # Coverage: a mutant's line was reached by at least the relations that reached the
    # mutant (coveredBy), and the page shows the line's count.
    lines = {}
    for f in cov["functions"]:
        if f["file"] == path:
            for l, n in f["lines"]:
                lines[l] = max(lines.get(l, 0), n)
    for m in res["mutants"]:
        l = m["location"]["start"]["line"]
        if l in lines:
            assert lines[l] >= len(m["coveredBy"]), (path, m["id"], lines[l], m["coveredBy"])
        else:
            assert not m["coveredBy"] or l == 1, (path, m["id"], "reached, on a line without coverage")
    for l, n in lines.items():
        row = find(box[0], lambda e: e["tag"] == "tr" and e["attrs"].get("data-line") == str(l))[0]
        assert find(row, lambda e: cls(e, "cov"))[0]["text"] == str(n), (path, l, n)
    covered = find(box[0], lambda e: e["tag"] == "tr" and cls(e, "covered"))
    assert covered, "no covered line in " + path
    print("%s: %d mutants, %d survived, %d lines covered" % (path.rsplit("/", 1)[-1], len(res["mutants"]), len(surv), len(covered)))
assert any(p.endswith("/kernel.c") and any(m["status"] == "Survived" for m in r["mutants"]) for p, r in mte["files"].items())
vec = find(t.root, lambda e: cls(e, "file") and e["attrs"]["data-file"].endswith("/vec.c"))[0]
assert "changed since the last score" in vec["text"], "vec.c changed after score: no note"

# The Mutation Testing Elements view: its shadow DOM showed both files (report.js checks).
st = find(t.root, lambda e: e["attrs"].get("id") == "mte-status")[0]
assert st["attrs"].get("data-state") == "rendered" and st["attrs"].get("data-files") == "2", st
assert not find(t.root, lambda e: cls(e, "error")), "a section failed"
PY
"$PYTHON" -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(0 if d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 10000 else 1)' \
  shot.png || fail "the screenshot is no PNG"
echo "screenshot: $(wc -c <shot.png) bytes"

check "without the bundle, and a damaged coverage file: the other parts stand, and the page says why"
head -c 100 h/mutants/score-coverage.json >cov && cp cov h/mutants/score-coverage.json
MRFUZZ_MTE_BUNDLE=$WORK/nope.js expect_exit 0 "$MRFUZZ" report --build-dir h "${T[@]}" --html bare.html
[ "$(grep -oi '</script' bare.html | wc -l)" = 5 ] || fail "not 5 scripts ended (data, check, score, coverage, report.js)"
render bare.html bare.dom
grep -q 'id="coverage-none"[^>]*>No per-line coverage: [^<]*score-coverage.json is not valid JSON' bare.dom ||
  fail "the damaged coverage file is not said"
grep -q 'class="mutant survived"' bare.dom || fail "the mutants are gone with the coverage"
grep -q 'id="mte-status" data-state="unavailable"' bare.dom || fail "no unavailable state"
grep -q "nope.js: No such file or directory" bare.dom || fail "the reason is not said"
grep -q 'data-rel="scale2"' bare.dom || fail "the relations are missing without the bundle"

check "without a score run: the parts that need it say what to run, the others stay"
rm h/mutants/score-mte.json h/mutants/score-coverage.json
expect_exit 0 "$MRFUZZ" report --build-dir h "${T[@]}" --html noscore.html
render noscore.html noscore.dom
grep -q 'id="score-none"' noscore.dom && grep -q "run 'mrfuzz score' with this build directory" noscore.dom ||
  fail "the missing score is not said"
grep -q 'id="mte-status" data-state="unavailable"' noscore.dom || fail "an MTE view without a score"
grep -q '<code class="replay">mrfuzz repro ' noscore.dom || fail "the findings are missing without a score"
grep -q 'class="file" data-file="[^"]*/kernel.c"' noscore.dom || fail "the build's other source is missing"
echo "ok"
