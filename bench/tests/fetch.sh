#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/tests/fetch.sh - fetches and builds the two Debian libraries of the "Starting from
# the tests" benchmark (issue #30; docs/tests.md "On a real library", docs/benchmarks.md):
# GSL (numerical: its special functions and `make check`) and utf8proc (Unicode code points
# and UTF-8 bytes: its offline tests). Their sources come from Debian 12's archive
# (`apt-get source`), never from this repository; each is built with clang-14 and a
# compilation database (bear), as a user would before `mrfuzz trace-tests`.
#
# usage: bench/tests/fetch.sh [-d DIR] [-j JOBS] [gsl|utf8proc ...]
#   DIR   where the sources go and are built (default /tmp/mrfuzz-debian); DIR/LIB is a
#         link to the extracted source tree, which run.sh uses
#   JOBS  make's parallel jobs (default 1)
#   no library named: both
# Idempotent: a step whose result is there is skipped (DIR/LIB/.mrfuzz-built marks a
# finished build; remove it to build again). Adds a deb-src entry for Debian's archive
# (/etc/apt/sources.list.d/mrfuzz-src.sources) when apt knows no source of a library, then
# runs apt-get update: needs root or sudo. Each step's output is in DIR/LIB-STEP.log.
# Exit codes: 0 built, 2 bad usage, 3 a step failed (its log named).
set -eu

usage() { sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; }
DIR=/tmp/mrfuzz-debian
JOBS=1
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    -d) [ $# -ge 2 ] || { echo "fetch.sh: -d wants a directory" >&2; exit 2; }; DIR=$2; shift 2 ;;
    -j) case ${2:-} in '' | *[!0-9]*) echo "fetch.sh: -j wants a number" >&2; exit 2 ;; esac
        JOBS=$2; shift 2 ;;
    -*) echo "fetch.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
LIBS=${*:-gsl utf8proc}
for lib in $LIBS; do
  case $lib in gsl | utf8proc) ;; *) echo "fetch.sh: unknown library '$lib': gsl or utf8proc" >&2; exit 2 ;; esac
done
for tool in clang-14 bear apt-get dpkg-source make; do
  command -v "$tool" >/dev/null || { echo "fetch.sh: $tool not found (scripts/setup installs it)" >&2; exit 3; }
done
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

# step LIB NAME CMD...: runs CMD in the current directory, its output in DIR/LIB-NAME.log;
# a failure ends the script with the log's tail.
step() {
  local lib=$1 name=$2 log="$DIR/$1-$2.log"
  shift 2
  echo "fetch.sh: $lib: $name" >&2
  if ! "$@" >"$log" 2>&1; then
    tail -n 15 "$log" >&2
    echo "fetch.sh: $lib: $name failed (the whole output: $log)" >&2
    exit 3
  fi
}

# Debian's source of PKG must be known to apt: a deb-src entry for the archive the
# machine's deb entries use (bookworm), added once.
ensure_src() {
  apt-cache showsrc "$1" 2>/dev/null | grep -q '^Package:' && return 0
  local f=/etc/apt/sources.list.d/mrfuzz-src.sources
  if [ ! -e "$f" ]; then
    echo "fetch.sh: adding a deb-src entry ($f)" >&2
    printf '%s\n' "# Added by mrfuzz's bench/tests/fetch.sh: Debian's source packages (apt-get source)" \
      "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm bookworm-updates" \
      "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" | $SUDO tee "$f" >/dev/null
  fi
  step "$1" apt-update $SUDO apt-get update
  apt-cache showsrc "$1" 2>/dev/null | grep -q '^Package:' ||
    { echo "fetch.sh: apt knows no source package $1 even with $f" >&2; exit 3; }
}

# The source tree of PKG under DIR, extracted once; DIR/LIB links to it.
fetch() {
  local pkg=$1 lib=$2 tree
  tree=$(find "$DIR" -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -n 1)
  if [ -z "$tree" ]; then
    ensure_src "$pkg"
    (cd "$DIR" && step "$lib" source apt-get source "$pkg")
    tree=$(find "$DIR" -maxdepth 1 -type d -name "$pkg-[0-9]*" | sort | tail -n 1)
    [ -n "$tree" ] || { echo "fetch.sh: apt-get source $pkg extracted no $pkg-VERSION directory" >&2; exit 3; }
  fi
  ln -sfn "$(basename "$tree")" "$DIR/$lib"
}

# GSL: autotools, static only (the tests link the objects mrfuzz swaps), every compile
# under bear. The documentation's build fails on Debian's dfsg tarball (the manual's
# sources are removed), so make keeps going (-k) and the libraries are checked instead.
build_gsl() {
  cd "$DIR/gsl"
  [ -e config.status ] || step gsl configure env CC=clang-14 CFLAGS="-O2 -g" ./configure --disable-shared
  if ! [ -s compile_commands.json ] || ! [ -e .libs/libgsl.a ] || ! [ -e cblas/.libs/libgslcblas.a ]; then
    # bear records the compiles make runs: none when the objects are up to date
    [ -s compile_commands.json ] || [ ! -e .libs/libgsl.a ] || step gsl clean make clean
    step gsl make sh -c "bear -- make -k -j$JOBS || true"
  fi
  for a in .libs/libgsl.a cblas/.libs/libgslcblas.a specfunc/.libs/libgslspecfunc.a; do
    [ -e "$a" ] || { echo "fetch.sh: gsl: $a was not built (see $DIR/gsl-make.log)" >&2; exit 3; }
  done
  [ -s compile_commands.json ] || { echo "fetch.sh: gsl: bear wrote no compile_commands.json" >&2; exit 3; }
  # the test program of specfunc, built once so that `make -C specfunc check` only relinks
  step gsl test-build make -C specfunc -j"$JOBS" test
}

# utf8proc: its Makefile (the CMake build downloads Unicode's data files when testing is
# on); the tests that need those files (normtest, graphemetest, iscase) are left out.
UTF8PROC_TESTS="case custom iterate misc printproperty valid charwidth"
build_utf8proc() {
  cd "$DIR/utf8proc"
  local progs=
  for t in $UTF8PROC_TESTS; do progs="$progs test/$t"; done
  # the library alone under bear: a test program's compile-and-link line would enter the
  # database as a compile of its source, under the library's directory
  [ -s compile_commands.json ] && [ -e libutf8proc.a ] ||
    step utf8proc make bear -- make -B -j"$JOBS" CC=clang-14 CFLAGS="-O2 -g" libutf8proc.a
  [ -e libutf8proc.a ] || { echo "fetch.sh: utf8proc: libutf8proc.a was not built" >&2; exit 3; }
  step utf8proc test-build make -j"$JOBS" CC=clang-14 CFLAGS="-O2 -g" $progs
}

# Each library's tests run once here, untraced: a test that fails before mrfuzz touches
# anything would be blamed on mrfuzz later.
check_gsl() { cd "$DIR/gsl" && step gsl check make -C specfunc check; }
check_utf8proc() {
  cd "$DIR/utf8proc"
  step utf8proc check sh -c "for t in $UTF8PROC_TESTS; do ./test/\$t || exit 1; done"
}

for lib in $LIBS; do
  fetch "$lib" "$lib"
  if [ ! -e "$DIR/$lib/.mrfuzz-built" ]; then
    (build_"$lib")
    (check_"$lib")
    touch "$DIR/$lib/.mrfuzz-built"
  fi
  echo "fetch.sh: $lib: ready in $(readlink -f "$DIR/$lib")"
done
