#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# target.sh [SANITIZED] - `check --target OUT/NAME` builds the fuzz target by OSS-Fuzz's
# build contract (issue #29): $CC $CFLAGS, $CXX $CXXFLAGS, $LIB_FUZZING_ENGINE, $OUT. The
# target is self-contained (no Z3, no LAPACKE; it writes nothing outside the paths it is
# given), finds a seeded fault and is quiet on the fixed code with OSS-Fuzz's libFuzzer+ASan
# flags and with AFL++ (afl-fuzz, bounded), and a CC of another LLVM is refused.
. "$E2E/lib.sh"
sanitized=${1:-OFF}
cat >odd.c <<'C'
double odd(double x) {
#ifdef ODD_BUG
  if (x > 100.0) return x * x * x + 1.0; /* the seeded fault */
#endif
  return x * x * x;
}
C
cat >odd.mr <<'MR'
mrdsl 1;

subject odd(double x) -> double y;

relation neg {
  x2 = -x1;
  check y2 == -y1;
}
MR
mkdir -p seeds
printf '\x00\x00\x00\x00\x00\x00\xf0\x3f' >seeds/one

check "without a builder's variables: mrfuzz's clang and libFuzzer; every file beside the target"
expect_exit 0 "$MRFUZZ" check odd.c:odd --mr odd.mr --range x=-1000:1000 --corpus seeds --target tgt/odd_mr
for f in odd_mr odd_mr.options odd_mr.dict odd_mr.mrcheck odd_mr.relations/odd.mr odd_mr_seed_corpus.zip; do
  [ -s "tgt/$f" ] || fail "tgt/$f is missing or empty"
done
grep -qx 'dict = odd_mr.dict' tgt/odd_mr.options || fail "the options do not name the dictionary: $(cat tgt/odd_mr.options)"
grep -qx 'odd_mr.relations/odd.mr' tgt/odd_mr.mrcheck && grep -qx -- '--range' tgt/odd_mr.mrcheck ||
  fail "the target's options lack its relations or the range: $(cat tgt/odd_mr.mrcheck)"
unzip -l tgt/odd_mr_seed_corpus.zip | grep -q ' one$' || fail "the seed corpus lacks seeds/one"

check "--target builds only: a fuzzing option with it is refused"
expect_exit 2 "$MRFUZZ" check odd.c:odd --mr odd.mr --target tgt2/odd_mr --jobs 2
expect_err "--target builds the fuzz target, it does not fuzz"

check "self-contained: no shared library but glibc's and the C++ runtime (no Z3, no LAPACKE)"
ldd tgt/odd_mr | tee ldd.txt
grep -vE '^\s*(linux-vdso|/lib64/ld-linux|lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt|resolv)\.so)' ldd.txt | grep -q . &&
  fail "the target needs more than libc, libm and the C++ runtime"

check "run alone, from elsewhere, empty environment: it writes only where it is told (strace)"
mkdir -p elsewhere/corp
cp -r tgt copied
lsan="" # LeakSanitizer does not run under ptrace: off in the sanitized build's strace
[ "$sanitized" = ON ] && lsan=ASAN_OPTIONS=detect_leaks=0
(cd elsewhere && env -i $lsan strace -f -qq -o ../strace.log -e trace=openat,open,creat,mkdir,rename,renameat,unlink,unlinkat \
  ../copied/odd_mr -runs=3000 -artifact_prefix=/tmp/ corp >../alone.log 2>&1) || { cat alone.log; fail "the fixed code's target failed alone"; }
grep -E 'O_WRONLY|O_RDWR|O_CREAT|mkdir|rename|unlink' strace.log | grep -vE '"(/tmp/|corp/|/dev/)' |
  grep -v 'ENOENT' | tee writes.txt
[ -s writes.txt ] && fail "the target wrote outside /tmp and its corpus"

check "OSS-Fuzz's libFuzzer + ASan flags: the seeded fault is found and reported, the fixed code is quiet"
oss_flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CC="$MR_CLANG" CFLAGS="$oss_flags" CXXFLAGS="$oss_flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer
expect_exit 0 "$MRFUZZ" check odd.c:odd --mr odd.mr -D ODD_BUG --range x=-1000:1000 --target bug/odd_mr
nm bug/odd_mr | grep -q __asan_init || fail "the builder's -fsanitize=address did not reach the target"
# libFuzzer's -error_exitcode (77) for the relation's abort, as for any crash
(cd elsewhere && expect_exit 77 env -i ../bug/odd_mr -runs=200000 -seed=1 -artifact_prefix="$WORK/bug-")
ls "$WORK"/bug-crash-* >/dev/null 2>&1 || fail "libFuzzer saved no reproducer"
grep -q 'relation violated: neg (odd, ' elsewhere/err || { tail -20 elsewhere/err; fail "no report of neg"; }
expect_exit 0 "$MRFUZZ" check odd.c:odd --mr odd.mr --range x=-1000:1000 --target fixed/odd_mr
(cd elsewhere && expect_exit 0 env -i ../fixed/odd_mr -runs=50000 -seed=1)

check "a CC of another LLVM than the plugin's is refused, naming both"
mine=$("$MR_CLANG" -dumpversion | cut -d. -f1)
other=$(other_clang)
CC=$other expect_exit 2 "$MRFUZZ" check odd.c:odd --mr odd.mr --target mixed/odd_mr
expect_err "CC=$other is clang $("$other" -dumpversion | cut -d. -f1), the plugin at"
[ ! -e mixed/odd_mr ] || fail "a target was built with the mismatched CC"
unset CC CFLAGS CXXFLAGS LIB_FUZZING_ENGINE

check "fuzz-project: refused without --mrfuzz-git, and with a relation file that does not load (nothing written)"
mkdir -p repo && cp odd.c odd.mr repo/ && cd repo
expect_exit 2 "$MRFUZZ" fuzz-project odd.c:odd --mr odd.mr
expect_err "missing --mrfuzz-git URL"
printf 'mrdsl 1;\nsubject odd(double x) -> double y;\nrelation r { x2 = -x1; check y3 == y1; }\n' >bad.mr
expect_exit 2 "$MRFUZZ" fuzz-project --mrfuzz-git https://example.org/mrfuzz.git odd.c:odd --mr bad.mr
[ ! -e .clusterfuzzlite ] && [ ! -e .github ] || fail "files were written for a target that does not build"

check "fuzz-project: build.sh, Dockerfile, project.yaml and a workflow with SARIF upload; the YAML parses"
expect_exit 0 "$MRFUZZ" fuzz-project --mrfuzz-git https://example.org/mrfuzz.git odd.c:odd --mr odd.mr --range x=-1000:1000
for f in .clusterfuzzlite/build.sh .clusterfuzzlite/Dockerfile .clusterfuzzlite/project.yaml .github/workflows/cflite_pr.yml; do
  [ -s "$f" ] || fail "$f is missing"
done
[ -x .clusterfuzzlite/build.sh ] || fail "build.sh is not executable"
grep -q '^FROM gcr.io/oss-fuzz-base/base-builder' .clusterfuzzlite/Dockerfile || fail "the Dockerfile's base is not OSS-Fuzz's builder"
grep -q "git clone --depth 1 'https://example.org/mrfuzz.git'" .clusterfuzzlite/Dockerfile || fail "the Dockerfile does not clone mrfuzz from the URL"
validate yaml .clusterfuzzlite/project.yaml .github/workflows/cflite_pr.yml >yaml.json
"$PYTHON" - yaml.json <<'PY' || fail "the project or the workflow lacks what ClusterFuzzLite needs"
import json, sys
proj, wf = [json.loads(l) for l in open(sys.argv[1])]
assert proj["language"] == "c" and "address" in proj["sanitizers"], proj
steps = wf["jobs"]["PR"]["steps"]
uses = [s.get("uses", "") for s in steps]
assert any(u.startswith("google/clusterfuzzlite/actions/build_fuzzers@") for u in uses), uses
run = [s for s in steps if s.get("uses", "").startswith("google/clusterfuzzlite/actions/run_fuzzers@")][0]
assert run["with"]["output-sarif"] is True, run
up = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")][0]
assert up["with"]["sarif_file"] == "cifuzz-sarif/results.sarif", up
assert wf["permissions"]["security-events"] == "write", wf["permissions"]
PY

check "fuzz-project's build.sh under OSS-Fuzz's environment (SRC, OUT, CFLAGS, LIB_FUZZING_ENGINE): the target runs"
mkdir -p "$WORK/ossout"
(env PATH="$(dirname "$MRFUZZ"):$PATH" SRC="$WORK" OUT="$WORK/ossout" CFLAGS="$oss_flags" CXXFLAGS="$oss_flags"   LIB_FUZZING_ENGINE=-fsanitize=fuzzer bash .clusterfuzzlite/build.sh >../build_sh.log 2>&1) ||
  { tail -20 ../build_sh.log; fail "build.sh failed"; }
cd ..
for f in odd_mr odd_mr.options odd_mr.mrcheck odd_mr.relations/odd.mr; do
  [ -s "ossout/$f" ] || fail "build.sh left no ossout/$f"
done
nm ossout/odd_mr | grep -q __asan_init || fail "the builder's CFLAGS did not reach the target"
(cd elsewhere && expect_exit 0 env -i ../ossout/odd_mr -runs=20000 -seed=2)

# AFL++ (Debian's afl++, scripts/setup) wraps the clang of its own LLVM; its fuzzer runs
# an unsanitized target.
afl_v=$(afl-clang-fast -dumpversion 2>/dev/null | cut -d. -f1 || true)
if [ "$afl_v" = "$mine" ] && [ "$sanitized" != ON ]; then
  check "AFL++: afl-clang-fast and libAFLDriver.a; afl-fuzz (15 s) finds the fault, mrfuzz repro replays it"
  CC=afl-clang-fast CXX=afl-clang-fast++ CFLAGS="-O1 -g" CXXFLAGS="-O1 -g" LIB_FUZZING_ENGINE=/usr/lib/afl/libAFLDriver.a \
    expect_exit 0 "$MRFUZZ" check odd.c:odd --mr odd.mr -D ODD_BUG --range x=-1000:1000 --target afl/odd_mr
  (cd afl && env -u ASAN_OPTIONS -u UBSAN_OPTIONS AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
    timeout 120 afl-fuzz -V 15 -i ../seeds -o ../aflout -- ./odd_mr >../afl.log 2>&1) || { tail -20 afl.log; fail "afl-fuzz failed"; }
  crash=$(ls aflout/default/crashes/id:* 2>/dev/null | head -1)
  [ -n "$crash" ] || { tail -20 afl.log; fail "afl-fuzz found no crash in 15 s"; }
  expect_exit 1 "$MRFUZZ" repro odd.c:odd --mr odd.mr -D ODD_BUG --range x=-1000:1000 "$crash"
  expect_err "violates relation neg"
  expect_exit 0 "$MRFUZZ" repro odd.c:odd --mr odd.mr --range x=-1000:1000 "$crash"
else
  check "AFL++ skipped: afl-clang-fast is clang ${afl_v:-missing}, the plugin is LLVM $mine (or a sanitized build)"
fi
echo "ok"
