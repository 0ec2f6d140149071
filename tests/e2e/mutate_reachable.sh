#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mutate_reachable.sh - mutants beyond the target's body (docs/mutation.md, --mutate):
# poly_eval (inputs/reach/poly.c) is a thin wrapper over a static helper in its file, a
# static inline helper of poly.h and a kernel in kernel.c. The default (reachable) lists
# mutants in all four (the header's under poly.h), --mutate target only poly_eval's,
# --mutate sources adds poly_unused (reached by nothing); score kills mutants of the
# kernel in the other file and reports per function and per file, and the Mutation
# Testing Elements JSON has one entry per source file.
. "$E2E/lib.sh"
IN="$E2E/inputs/reach"
T="$IN/poly.c:poly_eval"

# fns LISTING: the functions in the [FUNC] column of a `mrfuzz mutants` listing, sorted.
fns() { sed -n 's/.*  \[\([a-z_]*\)\]$/\1/p' "$1" | sort -u | tr '\n' ' '; }

check "the default lists the mutants of every function poly_eval reaches, in both files"
expect_exit 0 "$MRFUZZ" mutants "$T" "$IN/kernel.c" --build-dir pe
cp out reach
[ "$(fns reach)" = "clamp_arg poly_eval poly_is_nan poly_kernel " ] || fail "functions: $(fns reach)"
grep -qE 'poly.h:[0-9]+:[0-9]+: .*\[poly_is_nan\]$' reach || fail "the header's mutants are not under poly.h"
grep -qE '^ +[0-9]+  AOR  .*kernel.c:[0-9]+:[0-9]+: .*\[poly_kernel\]$' reach || fail "no AOR mutant in kernel.c"
grep -qE '^ +1  [A-Z]{3}  .*poly.c:.*\[poly_eval\]$' reach || fail "mutant 1 is not the target's"
n=$(grep -cE '^ +[0-9]+  [A-Z]{3}  ' reach)
expect_out "mrfuzz: mutants: $n in poly_eval and 3 more functions: poly_eval "
check "ids are 1..$n"
[ "$(awk '/^ +[0-9]+  /{print $1}' reach | tr '\n' ' ')" = "$(seq -s ' ' 1 "$n") " ] || fail "ids not dense"

check "--mutate target: only poly_eval's own body"
expect_exit 0 "$MRFUZZ" mutants "$T" "$IN/kernel.c" --build-dir pe --mutate target
[ "$(fns out)" = "poly_eval " ] || fail "functions: $(fns out)"
nt=$(grep -cE '^ +[0-9]+  [A-Z]{3}  ' out)
expect_out "mrfuzz: mutants: $nt in poly_eval"
[ "$nt" -lt "$n" ] || fail "target only: $nt mutants, reachable: $n"
check "the target's mutants are the same under both scopes"
[ "$(head -"$nt" reach)" = "$(head -"$nt" out)" ] || fail "the target's ids or mutants changed"

check "--mutate sources adds poly_unused, which nothing calls"
expect_exit 0 "$MRFUZZ" mutants "$T" "$IN/kernel.c" --build-dir pe --mutate sources
[ "$(fns out)" = "clamp_arg poly_eval poly_is_nan poly_kernel poly_unused " ] || fail "functions: $(fns out)"

check "--json - names each mutant's function and file"
expect_exit 0 "$MRFUZZ" mutants "$T" "$IN/kernel.c" --build-dir pe --json -
"$PYTHON" - out <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {(r["function"], r["file"].rsplit("/", 1)[-1]) for r in rows}
assert by == {("poly_eval", "poly.c"), ("clamp_arg", "poly.c"), ("poly_is_nan", "poly.h"),
              ("poly_kernel", "kernel.c")}, by
PY

check "a bad scope is refused"
expect_exit 2 "$MRFUZZ" mutants "$T" "$IN/kernel.c" --build-dir pe --mutate everything
expect_err "--mutate everything: expected target, reachable or sources"

check "score kills mutants of the kernel in kernel.c, per function and per file"
expect_exit 0 "$MRFUZZ" score "$T" "$IN/kernel.c" --build-dir pe --mr "$IN/poly_eval.mr" -n 100 \
  --json report.json --mutant-timeout 1
cat out
grep -qE '^ +[0-9]+  AOR  kernel.c:[0-9]+:[0-9]+ +killed ' out || fail "no AOR mutant of kernel.c killed"
grep -qE '^poly_kernel +kernel.c +[0-9]+ +[1-9][0-9]* ' out || fail "no per-function row with kills for poly_kernel"
grep -qE '^clamp_arg +poly.c ' out || fail "no per-function row for clamp_arg"
grep -qE '^\(file\) +kernel.c +[0-9]+ +[1-9]' out || fail "no per-file row for kernel.c"
grep -qE '^\(file\) +poly.c ' out || fail "no per-file row for poly.c"
grep -qE '^poly_is_nan +poly.h ' out || fail "no per-function row for poly_is_nan in poly.h"
grep -qE "^\(total\) +$n " out || fail "the total row does not count $n mutants"
expect_out "mutation score: "

check "the JSON report has one entry per source file, with its mutants"
"$PYTHON" - report.json "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
files = {p.rsplit("/", 1)[-1]: f for p, f in r["files"].items()}
assert sorted(files) == ["kernel.c", "poly.c", "poly.h"], sorted(files)
assert "poly_is_nan" in files["poly.h"]["source"]
assert "poly_kernel" in files["kernel.c"]["source"] and "clamp_arg" in files["poly.c"]["source"]
ids = [m["id"] for f in files.values() for m in f["mutants"]]
assert len(ids) == len(set(ids)) == int(sys.argv[2]), (len(ids), sys.argv[2])
k = files["kernel.c"]["mutants"]
assert any(m["status"] == "Killed" and m["mutatorName"] == "AOR" for m in k), k
assert all(m["location"]["start"]["line"] >= 7 for m in k)
print("report: %s" % {n: len(f["mutants"]) for n, f in files.items()})
PY
