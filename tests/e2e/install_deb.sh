#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install_deb.sh SOURCE_DIR BUILD_DIR - `cpack -G DEB` (issue #18): the package's control
# fields (Depends names every run-time need, each a package this system has installed)
# and contents (the install layout under /usr), then the package extracted into a scratch
# root (dpkg -x) whose files name neither tree, and discover + check run from it with
# both trees hidden. Skipped (77) without dpkg-deb.
. "$(dirname "$0")/lib.sh"
. "$E2E/install_lib.sh"
src=${1:?SOURCE_DIR}
build=${2:?BUILD_DIR}
command -v dpkg-deb >/dev/null || { echo "dpkg-deb is missing: skipped"; exit 77; }

check "cpack -G DEB writes the package (outside the build tree)"
expect_exit 0 cpack -G DEB -B "$T/pkg" --config "$build/CPackConfig.cmake"
deb=$(ls "$T"/pkg/mrfuzz_*_*.deb) || fail "no .deb in $T/pkg"
echo "  $(basename "$deb"), $(stat -c %s "$deb") bytes"

v=$("$MR_CLANG" -dumpversion | cut -d. -f1) # the LLVM mrfuzz is built for
rt=libclang-rt-$v-dev
[ "$v" = 15 ] && rt="" # clang-15's libFuzzer is in libclang-common-15-dev, which clang-15 depends on
check "Depends: clang-$v, llvm-$v, libclang, libFuzzer, Z3, LAPACKE, LAPACK, BLAS"
depends=$(dpkg-deb -f "$deb" Depends)
echo "  Depends: $depends"
for p in clang-$v llvm-$v libclang1-$v $rt libz3-dev liblapacke-dev liblapack-dev libblas-dev; do
  grep -qE "(^|, )$p(\$|,| )" <<<"$depends" || fail "Depends lacks $p"
done
if command -v dpkg-query >/dev/null; then
  check "every dependency is a package installed on this system"
  for p in ${depends//,/ }; do
    dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      fail "dependency $p is not installed here"
  done
fi

check "contents: the install layout under /usr"
dpkg-deb -c "$deb" | awk '{print $NF}' >"$T/contents"
for f in ./usr/bin/mrfuzz ./usr/lib/mrfuzz/mrpass.so ./usr/lib/mrfuzz/libmrrt.a \
         ./usr/lib/mrfuzz/libmreng.a ./usr/lib/mrfuzz/libmrdsl.a ./usr/include/mrfuzz/mr_rt.h \
         ./usr/lib/cmake/mrfuzz/mrfuzzConfig.cmake ./usr/lib/pkgconfig/mrfuzz.pc \
         ./usr/share/doc/mrfuzz/README.md ./usr/share/doc/mrfuzz/examples/trig/trig.c; do
  grep -qxF "$f" "$T/contents" || fail "the package lacks $f"
done

check "dpkg -x into a scratch root; no file names the source or build tree"
dpkg -x "$deb" "$T/root"
no_tree_paths "$T/root" "$src" "$build"

check "discover + check from the scratch root"
cat >"$T/run.sh" <<EOS
set -e
M=$T/root/usr/bin/mrfuzz; E=$T/root/usr/share/doc/mrfuzz/examples
rc=0; "\$M" discover "\$E/intmath/intmath.c:gcd" --seed 1 -o gcd.mr || rc=\$?
[ \$rc = 0 ] || [ \$rc = 1 ] # 1: suspected faults reported beside the relations
"\$M" check "\$E/intmath/intmath.c:gcd" --mr gcd.mr -- -runs=20000
EOS
rc=0
run_hidden "$T/run.out" "$T/run.sh" "$src" "$build" || rc=$?
[ $rc = 0 ] || { cat "$T/run.out" >&2; fail "discover + check: exit $rc"; }
n=$(grep -c '^relation ' "$T/work/gcd.mr") || fail "no relation in gcd.mr"
echo "  $n relations of gcd"
grep -qE 'mrfuzz: check: gcd: .* relations, [0-9]+ checks, 0 violated' "$T/run.out" ||
  { cat "$T/run.out" >&2; fail "no clean check summary"; }
echo "ok"
