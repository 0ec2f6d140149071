#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# geometry.sh - examples/geometry as a user's own library: several files, a struct API, its
# own build (CMake) and compilation database. Without -p the header is not found (a clear
# hint); with it: every function checked in one libFuzzer target, the relations over
# record fields hold, mutants in a callee of another file are killed and scored per file,
# and `discover FILE` writes one relation file per function of rect.c.
. "$(dirname "$0")/lib.sh"
G="$EXAMPLES/geometry"
CC=${MR_CLANG:-clang-14}

check "the library's own build writes its compilation database"
cmake -S "$G" -B geo -G Ninja -DCMAKE_C_COMPILER="$CC" >/dev/null || fail "cmake"
[ -s geo/compile_commands.json ] || fail "no compile_commands.json"

check "without its flags the build fails with a hint to -p (exit 2)"
expect_exit 2 "$MRFUZZ" build --build-dir h_noflags "$G/src/vec.c:geo_dot" "$G/src/kernel.c"
expect_err "'geometry.h' file not found"
expect_err "give the library's build directory with -p"

check "check FILE --mr DIR/: every function of the API in one libFuzzer target, 0 violated"
expect_exit 0 "$MRFUZZ" check --build-dir h_all "$G/include/geometry.h" "$G"/src/*.c -p geo --mr "$G/" \
  -- -runs="$(runs 800000)" -seed=1
for fn in geo_dot geo_cross geo_rot90 geo_rect_area geo_rect_intersect geo_tri_area; do
  grep -E "^mrfuzz: check: $fn: [1-9][0-9]* executions" out >/dev/null ||
    { cat out; fail "$fn was not checked"; }
done
expect_out "0 violated"

check "score geo_dot: mutants in kernel.c (another file) are killed; one MTE entry per file"
expect_exit 0 "$MRFUZZ" score --build-dir h_dot "$G/src/vec.c:geo_dot" "$G/src/kernel.c" -p geo \
  --mr "$G/geo_dot.mr" --json dot.json
k=$(awk '$1 == "(file)" && $2 == "kernel.c" {print $4}' out)
[ -n "$k" ] && [ "$k" -gt 0 ] || { cat out; fail "no mutant of kernel.c killed"; }
"$PYTHON" - dot.json <<'PY' || fail "the MTE JSON lacks a file entry"
import json, sys
files = json.load(open(sys.argv[1]))["files"]
names = sorted(f.rsplit("/", 1)[-1] for f in files)
assert names == ["kernel.c", "vec.c"], names
assert all(files[f]["mutants"] for f in files)
PY

check "discover FILE: one relation file per function rect.c exports, the static helpers skipped"
# seeded, so that CI repeats one discovery (an unseeded run once reported a false suspect in
# geo_rect_contains, a follow-up's rounding landing a point on an edge: now ill-conditioned)
# counted work, no wall-time cap: the seed alone decides; a small search (what is asserted is
# a relation file per function, each holding under check). $1 = ON in the sanitizer
# preset, where this work took 1400 s: a smaller search and stage
SIZE=(--runs 4 --iters 20 --fuzz-runs 100000)
[ "${1:-OFF}" != ON ] || SIZE=(--runs 2 --iters 20 --filter 50:20 --fuzz-runs 40000)
expect_exit 0 "$MRFUZZ" discover "$G/src/rect.c" "$G/src/kernel.c" -p geo "${SIZE[@]}" --seed 1 \
  -o rect-mr --build-dir h_disc
for fn in geo_rect_area geo_rect_contains geo_rect_center geo_rect_intersect; do
  [ "$(grep -c '^relation' "rect-mr/$fn.mr")" -gt 0 ] || fail "$fn: no relation"
  expect_exit 0 "$MRFUZZ" lint "rect-mr/$fn.mr"
done
awk -F'\t' '$1 == "normalized" && $6 == "skipped" && $7 ~ /is static/' rect-mr/summary.tsv | grep -q . ||
  { cat rect-mr/summary.tsv; fail "the static helper is not listed as skipped"; }

check "the discovered relations hold under libFuzzer, all four in one target"
expect_exit 0 "$MRFUZZ" check --build-dir h_rect "$G/include/geometry.h" "$G"/src/*.c -p geo --mr rect-mr/ \
  -- -runs="$(runs 150000)" -seed=2
expect_out "0 violated"
echo "ok"
