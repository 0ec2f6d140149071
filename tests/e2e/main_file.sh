#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# main_file.sh - functions of a file that defines main() (docs/driver.md "A file with its
# own main"): the harness has its own main, so the source's is renamed in its object and
# every function links; `discover FILE` gives each failure its reason in the table and
# in summary.tsv (here a record mrdsl cannot declare). It used to fail every function at
# link time, with an empty reason column.
. "$(dirname "$0")/lib.sh"
S=$E2E/inputs/with_main.c

check "run and check a function of a file with main()"
run_calls "$S:twice" 20
calls_match twice.jsonl 20 'o["return"] == 2 * i["x"]'
nm h_twice/obj/1-with_main.o | grep -qw "T mrfuzz_user_main" || fail "the source's main was not renamed"

check "discover FILE: the functions are discovered, main skipped, a failure has its reason"
expect_exit 2 "$MRFUZZ" discover "$S" -o rel --build-dir bd --seed 1 --runs 2 --iters 10 --fuzz-runs 1000
grep -E "^twice +automr +[0-9]+ .* ok" out >/dev/null || { cat out; fail "twice row"; }
grep -E "^add +automr +[0-9]+ .* ok" out >/dev/null || { cat out; fail "add row"; }
expect_out "skipped: main is the program's entry point"
grep -E "^deep5_sum .*failed \(exit 2\): discover: deep5_sum cannot be written in mrdsl" out >/dev/null ||
  { cat out; fail "deep5_sum's row lacks its reason"; }
"$PYTHON" - rel/summary.tsv <<'PY' || fail "summary.tsv: a row that is not ok has no reason"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
assert len(rows) == 4, rows
for r in rows:
  assert r["status"] == "ok" or r["reason"].strip(), r
PY
for f in twice add; do expect_exit 0 "$MRFUZZ" lint "rel/$f.mr"; done

check "check FILE --mr DIR: every function's relations in one harness beside the file's main"
expect_exit 0 "$MRFUZZ" check "$S" --build-dir multi --mr rel/twice.mr --mr rel/add.mr -- -runs=20000
expect_out "0 violated"
echo "ok"
