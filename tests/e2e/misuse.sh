#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# misuse.sh - what users get wrong (issue #14): fmt -i through a symlink keeps the link
# and the mode; discover/compose refuse an unwritable -o before building or searching and
# save the relations elsewhere when the write fails late; embed --prefix must be a usable
# C identifier; repro/minimize/lint/check refuse a directory by name; lint and fmt stop
# reading at the relation-file limit; the command list of --help is readable; a score
# with no mutant to count says so; every output file (-o, --json, --kill-matrix, --trace,
# --html, discover's suspects) is checked before any build (#18); -o is the output file and
# --build-dir the build directory in every command (#18).
. "$(dirname "$0")/lib.sh"
trig=$EXAMPLES/trig/trig.c
sin_mr=$EXAMPLES/trig/trig_sin.mr
CC=${MR_CLANG:-clang-14}

# ------------------------------------------------------------------ fmt -i (#14.8)
check "fmt -i on a symlink: the link stays a link, its target is formatted, mode 0600 kept"
mkdir -p rel links
cp "$sin_mr" rel/real.mr
printf '\n\n' >>rel/real.mr # not canonical: trailing blank lines
chmod 600 rel/real.mr
ln -s ../rel/real.mr links/link.mr
expect_exit 1 "$MRFUZZ" fmt --check rel/real.mr
expect_exit 0 "$MRFUZZ" fmt -i links/link.mr
[ -L links/link.mr ] || fail "links/link.mr is no longer a symlink"
[ "$(readlink links/link.mr)" = ../rel/real.mr ] || fail "the link points elsewhere"
expect_exit 0 "$MRFUZZ" fmt --check rel/real.mr
[ "$(stat -c %a rel/real.mr)" = 600 ] || fail "mode $(stat -c %a rel/real.mr), want 600"
[ "$(ls -A links)" = link.mr ] || fail "links/ holds more than the link: $(ls -A links)"
[ "$(ls -A rel)" = real.mr ] || fail "rel/ holds more than the file: $(ls -A rel)"
check "fmt -i on a regular file keeps its mode too (0640)"
cp "$sin_mr" plain.mr
printf '\n' >>plain.mr
chmod 640 plain.mr
expect_exit 0 "$MRFUZZ" fmt -i plain.mr
expect_exit 0 "$MRFUZZ" fmt --check plain.mr
[ "$(stat -c %a plain.mr)" = 640 ] || fail "mode $(stat -c %a plain.mr), want 640"
check "embed -o a dangling symlink: the header is created at its target, the link kept"
mkdir -p gen
ln -s ../gen/sin.h links/sin.h
expect_exit 0 "$MRFUZZ" embed "$sin_mr" -o links/sin.h
[ -L links/sin.h ] || fail "links/sin.h is no longer a symlink"
grep -q "trig_sin_mr_init" gen/sin.h || fail "gen/sin.h was not written through the link"

# ---------------------------------------------------------- discover / compose -o (#14.9)
check "discover -o into a missing directory: exit 2 before building, nothing left behind"
expect_exit 2 "$MRFUZZ" discover "$trig:trig_sin" -o nodir/sin.mr --build-dir bd1 --fuzz-falsify 0 --all
expect_err "mrfuzz: error:"
expect_err "nodir/sin.mr"
[ ! -e bd1 ] || fail "discover built before refusing the output"
[ ! -e nodir ] || fail "nodir was created"
check "discover -o under a regular file: exit 2 before building"
: >afile
expect_exit 2 "$MRFUZZ" discover "$trig:trig_sin" -o afile/sin.mr --build-dir bd1 --fuzz-falsify 0 --all
expect_err "afile/sin.mr"
[ ! -e bd1 ] || fail "discover built before refusing the output"
[ "$(stat -c %s afile)" = 0 ] || fail "afile was written"
check "discover -o naming a directory: exit 2 before building"
mkdir -p outdir
expect_exit 2 "$MRFUZZ" discover "$trig:trig_sin" -o outdir --build-dir bd1 --fuzz-falsify 0 --all
expect_err "outdir"
[ ! -e bd1 ] || fail "discover built before refusing the output"
[ -z "$(ls -A outdir)" ] || fail "outdir is not empty: $(ls -A outdir)"
if [ "$(id -u)" != 0 ]; then # root writes anywhere: a read-only mode proves nothing then
  check "discover -o into a read-only directory: exit 2 before building"
  mkdir -p ro && chmod 555 ro
  expect_exit 2 "$MRFUZZ" discover "$trig:trig_sin" -o ro/sin.mr --build-dir bd1 --fuzz-falsify 0 --all
  expect_err "ro/sin.mr"
  [ ! -e bd1 ] || fail "discover built before refusing the output"
  chmod 755 ro
fi
check "discover --engine genmorph -o into a missing directory: exit 2 before building"
expect_exit 2 "$MRFUZZ" discover "$EXAMPLES/intmath/intmath.c:gcd" --engine genmorph -o nodir/gcd.mr \
  --build-dir bd1 --fuzz-falsify 0
expect_err "nodir/gcd.mr"
[ ! -e bd1 ] || fail "genmorph built before refusing the output"
check "compose -o into a missing directory: exit 2 before building"
expect_exit 2 "$MRFUZZ" compose "$trig:trig_sin" --mr "$sin_mr" -o nodir/comp.mr --build-dir bd1
expect_err "nodir/comp.mr"
[ ! -e bd1 ] || fail "compose built before refusing the output"

# ------------------------------------------- every output file checked first (#18)
# expect_refused OPTION PATH CMD...: exit 2, the option and the path named, nothing built.
expect_refused() {
  local opt=$1 path=$2
  shift 2
  expect_exit 2 "$@"
  expect_err "error: $opt $path:"
  [ ! -e bd1 ] || fail "built before refusing $opt $path: $*"
}
mkdir -p outdir
check "compose -o naming a directory: exit 2 before building (the GA's results not lost)"
expect_refused -o outdir "$MRFUZZ" compose "$trig:trig_sin" --mr "$sin_mr" -o outdir --build-dir bd1
expect_err "is a directory"
check "discover -o where OUT.suspects.mr is a directory, or OUT.suspects a file: exit 2"
mkdir -p sus1.suspects.mr && : >sus2.suspects
expect_refused -o sus1.mr "$MRFUZZ" discover "$trig:trig_sin" -o sus1.mr --build-dir bd1 --fuzz-falsify 0
expect_err "sus1.suspects.mr, where suspected faults go, is a directory"
expect_refused -o sus2.mr "$MRFUZZ" discover "$trig:trig_sin" -o sus2.mr --build-dir bd1 --fuzz-falsify 0
expect_err "sus2.suspects, where the suspects' reproducers go, is not a directory"
check "score --json naming a directory, --kill-matrix into a missing directory: exit 2 before building"
expect_refused --json outdir "$MRFUZZ" score "$trig:trig_sin" --mr "$sin_mr" --build-dir bd1 --json outdir
expect_refused --kill-matrix nodir/k.txt "$MRFUZZ" score "$trig:trig_sin" --mr "$sin_mr" --build-dir bd1 \
  --kill-matrix nodir/k.txt
expect_err "cannot write in nodir"
check "run --trace naming a directory: exit 2 before building"
expect_refused --trace outdir "$MRFUZZ" run "$trig:trig_sin" --build-dir bd1 -n 5 --trace outdir
check "adequacy --html naming a directory, report --html into a missing directory: exit 2 before building"
expect_refused --html outdir "$MRFUZZ" adequacy "$trig:trig_sin" --mr "$sin_mr" --build-dir bd1 --html outdir
expect_refused --html nodir/r.html "$MRFUZZ" report "$trig:trig_sin" --mr "$sin_mr" --build-dir bd1 \
  --html nodir/r.html
check "run --trace /dev/null: a device is written in place, not refused"
expect_exit 0 "$MRFUZZ" run "$trig:trig_sin" --build-dir bd5 -n 5 --trace /dev/null
check "embed -o naming a directory or under a regular file: exit 2, no header"
expect_refused -o outdir "$MRFUZZ" embed "$sin_mr" -o outdir
expect_refused -o afile/sin.h "$MRFUZZ" embed "$sin_mr" -o afile/sin.h
[ -z "$(ls -A outdir)" ] || fail "outdir is not empty: $(ls -A outdir)"

check "discover: the -o directory vanishes during the search: the relations are saved under"
check "  \$TMPDIR in a file named after the function, a warning says where, exit 3"
mkdir -p late tmp
got=0
TMPDIR=$PWD/tmp "$MRFUZZ" discover "$trig:trig_sin" -o late/sin.mr --build-dir bd2 --fuzz-falsify 0 \
  --all --types I,II --runs 8 --iters 20 -j 1 --seed 3 >out 2>err &
pid=$!
for _ in $(seq 6000); do # the search has begun once discovery describes the subject
  grep -q "mrfuzz: discover: trig_sin:" err && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
rm -rf late
wait $pid || got=$?
[ "$got" = 3 ] || { cat err >&2; fail "exit code $got, want 3"; }
expect_err "mrfuzz: warning:"
saved=$(sed -n 's/.*relations were saved to \(.*\) instead.*/\1/p' err | head -1)
[ -n "$saved" ] || { cat err >&2; fail "no fallback path in the warning"; }
case "$saved" in "$PWD/tmp/"*/trig_sin.mr) ;; *) fail "fallback $saved: not \$TMPDIR/.../trig_sin.mr" ;; esac
[ -s "$saved" ] || fail "$saved is missing or empty"
expect_exit 0 "$MRFUZZ" lint "$saved"
grep -q "^relation " "$saved" || fail "no relation in $saved"

# ------------------------------------------------------------- embed --prefix (#14.10)
for pw in ':is empty' 'int:is a C keyword' '_Bool:is a C keyword' 'while:is a C keyword' \
  'bool:is a C keyword' '_private:is reserved' '__x:is reserved' '9lives:is not a C identifier' \
  'a-b:is not a C identifier' 'mrx_ctx:is reserved'; do
  p=${pw%%:*} why=${pw#*:}
  check "embed --prefix '$p': exit 2, the prefix named ($why), no header"
  rm -f p.h
  expect_exit 2 "$MRFUZZ" embed "$sin_mr" --prefix "$p" -o p.h
  expect_err "--prefix '$p' $why"
  [ ! -e p.h ] || fail "p.h written for --prefix '$p'"
done
check "embed --prefix my_sin: exit 0, the header compiles"
expect_exit 0 "$MRFUZZ" embed "$sin_mr" --prefix my_sin -o p.h
printf '#include "p.h"\nint main(void) { static my_sin m; my_sin_init(&m, 0); my_sin_fini(&m); return 0; }\n' >p.c
$CC -std=c11 -Wall -Wextra -Werror -I. p.c -o p -lm || fail "the header of --prefix my_sin does not compile"

# ------------------------------------------------------- repro / minimize (#14.11)
mkdir -p crashes
for c in repro minimize; do
  check "$c with a directory as CRASHFILE: exit 2 naming it, nothing built"
  expect_exit 2 "$MRFUZZ" $c "$trig:trig_sin" --build-dir bd3 --mr "$sin_mr" crashes
  expect_err "crashes: is a directory"
  [ ! -e bd3 ] || fail "$c built before refusing the input"
  check "$c with a missing CRASHFILE: exit 2 naming it"
  expect_exit 2 "$MRFUZZ" $c "$trig:trig_sin" --build-dir bd3 --mr "$sin_mr" no-such-crash
  expect_err "no-such-crash: No such file or directory"
done

# ------------------------------------------- one meaning per option (#18): -o, --build-dir
check "build -o DIR: the deprecated spelling of --build-dir, with a warning"
expect_exit 0 "$MRFUZZ" build -o bd_old "$trig:trig_sin"
expect_err "-o is the output file; the build directory is --build-dir"
[ -x bd_old/harness ] || fail "build -o bd_old did not build in bd_old"
check "check -o naming a regular file: exit 2, check writes no output file, nothing built"
: >not_a_dir
expect_exit 2 "$MRFUZZ" check "$trig:trig_sin" -o not_a_dir --mr "$sin_mr" -- -runs=1
expect_err "writes no output file"
check "score -o with --build-dir: exit 2, the two are not the same option"
expect_exit 2 "$MRFUZZ" score "$trig:trig_sin" -o bd4 --build-dir bd4 --mr "$sin_mr"
expect_err "the build directory is --build-dir"
[ ! -e bd4 ] || fail "score built before refusing -o"
check "minimize -o naming a directory: exit 2, -o is the shrunk reproducer"
mkdir -p min_dir
: >some_crash
expect_exit 2 "$MRFUZZ" minimize "$trig:trig_sin" -o min_dir --mr "$sin_mr" some_crash
expect_err "minimize's -o is the shrunk reproducer"
check "--help of check names --build-dir, not -o DIR"
expect_exit 0 "$MRFUZZ" check --help
expect_out "--build-dir DIR"

# ------------------------------------------------------------------ minor items (#14)
check "mrfuzz --help: every line of the command list starts with a command's name"
expect_exit 0 "$MRFUZZ" --help
sed -n '/^commands:/,/^$/p' out | sed -n 's/^  \([^ ]*\) .*/\1/p' >names
[ "$(wc -l <names)" -ge 10 ] || fail "too few commands listed: $(cat names)"
while read -r name; do
  "$MRFUZZ" "$name" --help >/dev/null 2>&1 || fail "'$name' in the command list is not a command"
done <names

for c in lint fmt; do
  check "$c on a directory: exit 2, says it is a directory"
  expect_exit 2 "$MRFUZZ" $c crashes
  expect_err "crashes: is a directory"
  check "$c on an endless input (/dev/zero): exit 2 at the size limit, not a read until memory runs out"
  expect_exit 2 timeout 60 "$MRFUZZ" $c /dev/zero
  expect_err "/dev/zero: larger than 64 MiB"
done
check "lint on a 65 MiB file: refused by size, exit 2"
head -c 65M /dev/zero >big.mr
expect_exit 2 "$MRFUZZ" lint big.mr
expect_err "big.mr: larger than 64 MiB"
check "lint on 65 MiB piped through stdin: refused by size, exit 2"
got=0
head -c 65M /dev/zero | "$MRFUZZ" lint /dev/stdin >out 2>err || got=$?
[ "$got" = 2 ] || { cat err >&2; fail "exit code $got, want 2"; }
expect_err "larger than 64 MiB"
rm -f big.mr
check "check --mr naming a directory without .mr files: exit 2, says it is a directory"
expect_exit 2 "$MRFUZZ" check "$trig:trig_sin" --build-dir bd3 --mr crashes -- -runs=1
expect_err "crashes: is a directory"

check "score with every mutant an equivalent suspect: 'no mutants', not 0/0 = 0.0%"
printf 'mrdsl 1;\nsubject blind(int32_t x) -> void;\nrelation r { x2 = x1; check true; }\n' >blind.mr
expect_exit 0 "$MRFUZZ" score "$E2E/inputs/allequiv.c:blind" --build-dir bd4 --mr blind.mr -n 5
expect_out "equivalent?"
expect_out "mutation score: no mutants to score"
if grep -qF "0/0" out; then cat out >&2; fail "a 0/0 ratio printed"; fi
if grep -q "^r .*%" out; then cat out >&2; fail "relation r got a percentage of nothing"; fi
echo "ok"
