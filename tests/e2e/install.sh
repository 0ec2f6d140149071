#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.sh SOURCE_DIR BUILD_DIR - `cmake --install` and README's walk-through (issue
# #18). README's blocks marked `<!-- test:NAME -->` are extracted and run as written
# (with build/release read as BUILD_DIR): install into a temporary prefix, move the prefix,
# check that no installed file names the source or build tree, then run the main job and
# "Your own project" (CMake package, plugin flags through pkg-config, check and embed)
# from the moved prefix with both trees hidden. A seeded fault in the example project
# must be caught by its harnesses.
. "$(dirname "$0")/lib.sh"
. "$E2E/install_lib.sh"
src=${1:?SOURCE_DIR}
build=${2:?BUILD_DIR}

check "README's marked blocks are extracted"
awk -v dir="$T" '
  /^<!-- test:[a-z0-9-]+ -->$/ { name = $0; sub(/^<!-- test:/, "", name); sub(/ -->$/, "", name); next }
  name != "" && /^```/ { if (out != "") { close(out); out = ""; name = "" } else out = dir "/" name ".blk"; next }
  out != "" { print > out }' "$src/README.md"
for b in install main-job own-cmake-lines own-cmake own-flags own-driver; do
  [ -s "$T/$b.blk" ] || fail "README has no block marked test:$b"
done

check "README's install block, into a temporary prefix"
sed "s|build/release|$build|g" "$T/install.blk" >"$T/install.sh"
(cd "$src" && PREFIX=$T/p1 bash -eu "$T/install.sh") >"$T/install.log" 2>&1 ||
  { cat "$T/install.log" >&2; fail "the install block failed"; }
for f in bin/mrfuzz lib/mrfuzz/mrpass.so lib/mrfuzz/libmrrt.a lib/mrfuzz/libmreng.a \
         lib/mrfuzz/libmrdsl.a lib/mrfuzz/mutation-test-elements.js include/mrfuzz/mr_rt.h include/mrfuzz/oracle.h \
         lib/cmake/mrfuzz/mrfuzzConfig.cmake lib/cmake/mrfuzz/mrfuzzConfigVersion.cmake \
         lib/pkgconfig/mrfuzz.pc lib/pkgconfig/mrfuzz-oracle.pc share/doc/mrfuzz/README.md \
         share/doc/mrfuzz/docs/driver.md share/doc/mrfuzz/examples/own-project/CMakeLists.txt; do
  [ -e "$T/p1/$f" ] || fail "not installed: $f"
done

check "the prefix moves; no installed file names the source or build tree"
mv "$T/p1" "$T/prefix"
no_tree_paths "$T/prefix" "$src" "$build"

check "the CMake lines README quotes are those of examples/own-project"
while IFS= read -r line; do
  grep -qxF -- "$line" "$src/examples/own-project/CMakeLists.txt" ||
    fail "examples/own-project/CMakeLists.txt lacks: $line"
done <"$T/own-cmake-lines.blk"

# The main job alone; the walk-through's blocks in one shell, as a reader types them. Each failing command is logged.
for part in main-job own; do
  {
    echo "trap 'echo \"exit \$? from: \$BASH_COMMAND\" >>\"$T/$part.err\"' ERR"
    echo "export PREFIX=$T/prefix WORK=$T/work"
    if [ $part = main-job ]; then cat "$T/main-job.blk"; else cat "$T"/own-{cmake,flags,driver}.blk; fi
  } >"$T/$part.sh"
  : >"$T/$part.err"
  rc=0
  run_hidden "$T/$part.out" "$T/$part.sh" "$src" "$build" || rc=$?
  [ $rc = 0 ] || { cat "$T/$part.out" >&2; fail "$part: exit $rc"; }
done

check "main job: every command succeeded (discover reports no suspected fault in trig_sin)"
[ ! -s "$T/main-job.err" ] || { cat "$T/main-job.out" >&2; cat "$T/main-job.err" >&2; fail "main job"; }
n=$(grep -c '^relation ' "$T/work/trig_sin.mr") || fail "no relation in trig_sin.mr"
echo "  $n relations"
check "main job: check ran them under libFuzzer, none violated"
grep -qE 'mrfuzz: check: trig_sin: .* relations, [0-9]+ checks, 0 violated' "$T/main-job.out" ||
  { cat "$T/main-job.out" >&2; fail "no clean check summary"; }

check "own project: every command of the walk-through succeeded"
[ ! -s "$T/own.err" ] || { cat "$T/own.out" >&2; cat "$T/own.err" >&2; fail "own project"; }
check "own project: the instrumented program's trace holds its 5 calls of lerp"
grep -qF 'lerp(10, 20, 0.50) = 15' "$T/own.out" || fail "demo did not run"
grep -A1 '^lerp (' "$T/own.out" | grep -qF 'calls: 5' || { cat "$T/own.out" >&2; fail "trace summary"; }
"$T/prefix/bin/mrfuzz" trace --summary "$T/work/demo.trace" >"$T/flags.sum"
grep -A1 '^lerp (' "$T/flags.sum" | grep -qF 'calls: 5' || fail "pkg-config build: no trace of lerp"
check "own project: both harnesses ran their runs; the driver checked and embedded"
[ "$(grep -c 'Done 100000 runs' "$T/own.out")" = 2 ] || fail "a harness did not finish"
grep -qE 'mrfuzz: check: lerp: .* 2 relations, [0-9]+ checks, 0 violated' "$T/own.out" ||
  fail "no clean check of lerp"
grep -q 'lerp_mr_check' "$T/work/lerp_mr.h" || fail "embed wrote no lerp_mr_check"

check "own project with a seeded fault (-DLERP_BUG=ON): both harnesses report mirror violated"
P=$T/prefix/share/doc/mrfuzz/examples/own-project
cmake -S "$P" -B "$T/bug" -G Ninja -DCMAKE_C_COMPILER="$MR_CLANG" -DCMAKE_PREFIX_PATH="$T/prefix" \
  -DLERP_BUG=ON >"$T/bug.log" 2>&1 && cmake --build "$T/bug" >>"$T/bug.log" 2>&1 ||
  { cat "$T/bug.log" >&2; fail "the seeded build failed"; }
for h in fuzz_lerp fuzz_lerp_embed; do
  (cd "$T/work" && expect_exit 77 "$T/bug/$h" -runs=100000)
  grep -qF 'relation violated: mirror' "$T/work/err" || { cat "$T/work/err" >&2; fail "$h"; }
done

check "CTest (mrfuzz_add_tests): the replay test passed on the correct build, fails on the seeded one"
grep -qE 'lerp_lerp_mr_replay .*Passed' "$T/own.out" || { cat "$T/own.out" >&2; fail "no passed replay test"; }
(cd "$T/work" && expect_exit 8 ctest --test-dir "$T/bug" -L mrfuzz-replay --output-on-failure)
grep -qE 'lerp_lerp_mr_replay .*Failed' "$T/work/out" || { cat "$T/work/out" >&2; fail "the replay test did not fail"; }
grep -qE 'mirror .*violated [1-9]' "$T/work/out" || { cat "$T/work/out" >&2; fail "no violation of mirror reported"; }
check "CTest: the fuzz test (label mrfuzz-fuzz) finds the seeded fault"
(cd "$T/work" && expect_exit 8 ctest --test-dir "$T/bug" -L mrfuzz-fuzz --output-on-failure)
grep -qE 'lerp_lerp_mr_fuzz .*Failed' "$T/work/out" || { cat "$T/work/out" >&2; fail "the fuzz test did not fail"; }
echo "ok"
