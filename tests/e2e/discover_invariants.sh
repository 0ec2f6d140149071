#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_invariants.sh - one-call invariants learned on the whole input space (issue
# #27; docs/discover.md, "Invariants"), on the held-out inputs/inv_subjects.c built with
# and without -DFAULT:
#   - round_long's fault lives above 2^52, far outside any box: from the faulty code alone
#     discovery reports `abs(y1 - x1) <= 0.5` as a suspected fault whose reproducer
#     violates it on the faulty code and replays clean on the fixed code, with a plain
#     `mrfuzz repro` (the suspects file states its domain: `domain x = whole;`); on the
#     fixed code the same invariant is written as a relation, and nothing is suspected;
#   - pos_diff's fault lives at the infinities: `where x1 <= y1; check ret1 == 0` is the
#     suspect, found the same way;
#   - arc_cosh's fixed version gets its NaN domain (`where x1 < 1.0; check isnan(y1)`)
#     and NaN propagation, and no suspect; its faulty version gives acosh(|x|) on every
#     x <= -2, half the negative numbers: that is the function's behaviour, not a rare
#     misbehaviour, and no suspect is claimed (a false suspect would be worse);
#   - check finds nothing on the fixed code with the written invariants, whose guards
#     read inputs only, and check of the faulty code with the fixed code's invariants
#     (their own `domain x = whole;`) finds the faults; `--invariants 0` writes none;
#   - strings (GenMorph, inputs/str_subjects.c): parent_dir's fault (a last component with
#     trailing slashes gives "") makes `len(y1) > 0` a suspect; on the fixed code it is
#     written;
#   - string results (GenMorph reads a returned string): find_char's fault (an escaped c
#     found at its backslash) makes `y1[0] == c1` (modulo 256) a suspect; correct,
#     find_char and skip_blanks get `ends_with(s1, y1)` (a pointer into s) and no suspect;
#   - has_prefix (a matcher with a flag) gets no comparator's law `where s1 == t1; check
#     y1 == 0;` and no suspect;
#   - path_depth(const char *name, int namelen): a counted string, never read past its end;
#   - fits_width (a counted string and two integers): `where col1 > width1; check y1 == 0;`
#     is written (an implication, as Daikon's), none that only unstructured strings keep,
#     and check of its faulty version (an empty line always fits) breaks it;
#   - is_keyword: 0 on every random string; a law that says so is no evidence (libFuzzer
#     finds a keyword) and neither a relation nor a suspect; once the corpus holds a
#     keyword, validation near it gives the evidence and a law is written;
#   - upper_copy: the invariants spell a parameter named s1 and a written buffer as mrdsl
#     reads them (s1_1, out1'), and check runs them.
. "$(dirname "$0")/lib.sh"
S="$E2E/inputs/inv_subjects.c"
FAST=(--seed 1 --types I --runs 2 --fuzz-falsify 0)

# disc FN VARIANT CODE: discover FN (VARIANT bug: -DFAULT) into FN.VARIANT.mr; exit CODE.
disc() {
  local fl=()
  [ "$2" = bug ] && fl=(-DFAULT)
  expect_exit "$3" "$MRFUZZ" discover "$S:$1" "${fl[@]}" "${FAST[@]}" -o "$1.$2.mr" --build-dir "b_$1.$2"
}

# found FN RELATION-TEXT: the suspect with that check text has a reproducer that violates
# it on the faulty code and replays clean on the fixed code (FN in $S, or in $SRC when set).
found() {
  local S=${SRC:-$S}
  grep -qF -- "$2" "$1.bug.suspects.mr" || { cat "$1.bug.suspects.mr"; fail "$1: no suspect '$2'"; }
  local n=0
  for r in "$1".bug.suspects/*.min; do
    [ -f "$r" ] || continue
    local code=0
    "$MRFUZZ" repro "$S:$1" -DFAULT --mr "$1.bug.suspects.mr" --build-dir "r_$1.bug" "$r" >/dev/null 2>&1 || code=$?
    [ "$code" = 1 ] || continue
    "$MRFUZZ" repro "$S:$1" --mr "$1.bug.suspects.mr" --build-dir "r_$1.fix" "$r" >rep.out 2>&1 ||
      { cat rep.out; fail "$1: $r violates the suspect on the fixed code too"; }
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || fail "$1: no reproducer violates the suspect on the faulty code"
  echo "$1: $n reproducers violate on the faulty code and replay clean on the fixed code"
}

check "round_long, faulty above 2^52: the invariant |y - x| <= 1/2 is a suspected fault"
disc round_long bug 1
expect_out "one-call invariants:"
grep -qF "domain x = whole;" round_long.bug.suspects.mr || fail "the suspects file states no domain"
found round_long "check abs(y1 - x1) <= 0.5;"

check "round_long, fixed: the invariant is written, nothing suspected"
disc round_long fix 0
grep -qF "check abs(y1 - x1) <= 0.5;" round_long.fix.mr || { cat round_long.fix.mr; fail "no invariant"; }
grep -qF 'origin = "discover/invariant"' round_long.fix.mr || fail "the invariant does not say where it comes from"
[ ! -e round_long.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "pos_diff, faulty at the infinities: x <= y gives 0 is a suspected fault"
disc pos_diff bug 1
found pos_diff "check ret1 == 0;"

check "pos_diff, fixed: written, nothing suspected"
disc pos_diff fix 0
grep -qF "where x1 <= y1;" pos_diff.fix.mr || { cat pos_diff.fix.mr; fail "no invariant x <= y"; }
[ ! -e pos_diff.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "arc_cosh, fixed: NaN below 1 and NaN in, NaN out; no suspect"
disc arc_cosh fix 0
grep -qF "where x1 < 1.0;" arc_cosh.fix.mr || { cat arc_cosh.fix.mr; fail "no NaN domain"; }
grep -qF "where isnan(x1);" arc_cosh.fix.mr || fail "no NaN propagation"
[ ! -e arc_cosh.fix.suspects.mr ] || fail "a suspect on the fixed code"

check "arc_cosh, faulty on half the negative numbers: no NaN domain, no suspect claimed"
disc arc_cosh bug 0
! grep -qF "where x1 < 1.0;" arc_cosh.bug.mr || fail "the NaN domain is written where the code breaks it"

check "check: the fixed code keeps its invariants (bounded runs)"
for f in round_long pos_diff arc_cosh; do
  expect_exit 0 "$MRFUZZ" check "$S:$f" --mr "$f.fix.mr" --build-dir "b_$f.fix" --jobs 1 -- -runs=20000
done

check "regression: check of the faulty code with the fixed code's relations finds the fault"
# the invariants say `domain x = whole;`: check draws their inputs from the whole space
grep -qF "domain x = whole;" round_long.fix.mr || fail "the invariant states no domain of its own"
for f in round_long pos_diff; do
  expect_exit 1 "$MRFUZZ" check "$S:$f" -DFAULT --mr "$f.fix.mr" --build-dir "b_$f.bug" --jobs 1 -- -runs=200000
  r=$(grep -o 'reproducer: [^ ]*' out | head -n 1 | cut -d' ' -f2)
  [ -f "$r" ] || { cat out; fail "$f: no reproducer"; }
  expect_exit 0 "$MRFUZZ" repro "$S:$f" --mr "$f.fix.mr" --build-dir "b_$f.fix" "$r"
done

check "parent_dir (strings, GenMorph), faulty on a last component with trailing slashes: len(y1) > 0 is a suspect"
P="$E2E/inputs/str_subjects.c:parent_dir"
SFAST=(--seed 1 --generations 2 --templates 2 --inputs 200 --validate 1000 --fuzz-falsify 0)
SRC="$E2E/inputs/str_subjects.c"
expect_exit 1 "$MRFUZZ" discover "$P" -DFAULT "${SFAST[@]}" -o parent_dir.bug.mr --build-dir b_pd.bug
expect_out "one-call invariants:"
found parent_dir "check len(y1) > 0;"

check "parent_dir, fixed: len(y1) > 0 is written, nothing suspected"
expect_exit 0 "$MRFUZZ" discover "$P" "${SFAST[@]}" -o pd.fix.mr --build-dir b_pd.fix
grep -qF "check len(y1) > 0;" pd.fix.mr || { cat pd.fix.mr; fail "no invariant len(y1) > 0"; }
[ ! -e pd.fix.suspects.mr ] || { cat pd.fix.suspects.mr; fail "a suspect on the fixed code"; }

check "upper_copy: invariants on a parameter named s1 and a written buffer (s1_1, out1'), checked"
U="$E2E/inputs/str_subjects.c:upper_copy"
expect_exit 0 "$MRFUZZ" discover "$U" "${SFAST[@]}" -o uc.mr --build-dir b_uc
expect_out "one-call invariants:"
grep -qF "check y1 <= len(out1');" uc.mr || { cat uc.mr; fail "no invariant y1 <= len(out1')"; }
grep -qF "check y1 <= len(s1_1);" uc.mr || { cat uc.mr; fail "no invariant y1 <= len(s1_1)"; }
for k in 1 2 3; do # the invariants alone (the relations between calls of a small budget are not the point)
  grep -q "^relation inv_$k " uc.mr || continue
  expect_exit 0 "$MRFUZZ" check "$U" --mr uc.mr --relation "inv_$k" --build-dir b_uc --jobs 1 -- -runs=20000
done

check "find_char, faulty (an escaped c found at its backslash): the pointer result's law is a suspect"
F="$E2E/inputs/str_subjects.c:find_char"
expect_exit 1 "$MRFUZZ" discover "$F" -DFAULT "${SFAST[@]}" -o find_char.bug.mr --build-dir b_fc.bug
found find_char "check len(y1) > 0 implies (y1[0] - c1) % 256 == 0;"

check "find_char and skip_blanks, correct: a pointer into s is a suffix of s; nothing suspected; check runs them"
expect_exit 0 "$MRFUZZ" discover "$F" "${SFAST[@]}" -o fc.fix.mr --build-dir b_fc.fix
grep -qF "check len(y1) > 0 implies (y1[0] - c1) % 256 == 0;" fc.fix.mr || { cat fc.fix.mr; fail "no invariant y1[0] == c1"; }
grep -qF "check ends_with(s1, y1);" fc.fix.mr || { cat fc.fix.mr; fail "no invariant ends_with(s1, y1)"; }
B="$E2E/inputs/str_subjects.c:skip_blanks"
expect_exit 0 "$MRFUZZ" discover "$B" "${SFAST[@]}" -o sb.mr --build-dir b_sb
grep -qF "check ends_with(s1, y1);" sb.mr || { cat sb.mr; fail "no invariant ends_with(s1, y1) for skip_blanks"; }
[ ! -e sb.suspects.mr ] || { cat sb.suspects.mr; fail "a suspect on skip_blanks (a suffix is a prefix only without blanks)"; }
for k in 1 2 3; do # the invariants alone
  grep -q "^relation inv_$k " fc.fix.mr || continue
  expect_exit 0 "$MRFUZZ" check "$F" --mr fc.fix.mr --relation "inv_$k" --build-dir b_fc.fix --jobs 1 -- -runs=20000
done
expect_exit 0 "$MRFUZZ" check "$B" --mr sb.mr --relation inv_1 --build-dir b_sb --jobs 1 -- -runs=20000

check "has_prefix (two strings and a flag; equal strings give 1): no comparator's law, no suspect"
H="$E2E/inputs/str_subjects.c:has_prefix"
expect_exit 0 "$MRFUZZ" discover "$H" "${SFAST[@]}" -o hp.mr --build-dir b_hp
! grep -qF "where pattern1 == text1;" hp.mr || { cat hp.mr; fail "a comparator's law on a matcher"; }
[ ! -e hp.suspects.mr ] || { cat hp.suspects.mr; fail "a suspect on has_prefix"; }

check "path_depth (a counted string): name is an array of namelen bytes; sanitized check reads none past it"
D="$E2E/inputs/str_subjects.c:path_depth"
expect_exit 0 "$MRFUZZ" discover "$D" "${SFAST[@]}" -o pdep.mr --build-dir b_pdep
grep -qF "const char name[namelen]" pdep.mr || { cat pdep.mr; fail "name is not counted by namelen"; }
grep -q "^relation " pdep.mr || fail "no relation for path_depth"
expect_exit 0 "$MRFUZZ" check "$D" --mr pdep.mr --sanitize --build-dir b_pdep_san --jobs 1 -- -runs=20000

check "fits_width (a counted string, two integer inputs): an order between them fixes the result"
W="$E2E/inputs/str_subjects.c:fits_width"
expect_exit 0 "$MRFUZZ" discover "$W" "${SFAST[@]}" -o fw.mr --build-dir b_fw
awk '/^relation inv_/,/^}/' fw.mr >fw.inv
grep -qF "where col1 > width1;" fw.inv && grep -qF "check y1 == 0;" fw.inv || { cat fw.mr; fail "no implication"; }
# fewer slashes than the gap would make these hold on unstructured strings: not written
! grep -qE "where col1 (<|==) width1;" fw.inv || { cat fw.inv; fail "an implication the near pairs break"; }
[ ! -e fw.suspects.mr ] || { cat fw.suspects.mr; fail "a suspect on fits_width"; }
expect_exit 0 "$MRFUZZ" check "$W" --mr fw.mr --build-dir b_fw --jobs 1 -- -runs=20000
check "fits_width, faulty (an empty line fits from any column): the fixed code's implication finds it"
expect_exit 1 "$MRFUZZ" check "$W" -DFAULT --mr fw.mr --build-dir b_fw.bug --jobs 1 -- -runs=200000
grep -q "^==== mrfuzz: relation violated: inv_" err || { cat out err; fail "no invariant violated"; }
r=$(grep -o 'reproducer: [^ ]*' out | head -n 1 | cut -d' ' -f2)
expect_exit 0 "$MRFUZZ" repro "$W" --mr fw.mr --build-dir b_fw "$r"

check "is_keyword (0 on every random string; libFuzzer finds a keyword): no law about a constant, no suspect"
K="$E2E/inputs/str_subjects.c:is_keyword"
expect_exit 0 "$MRFUZZ" discover "$K" --seed 1 --generations 2 --templates 3 --inputs 200 --validate 12000 \
  -o kw.mr --build-dir b_kw
expect_out "outputs never varied on the fresh inputs"
[ ! -e kw.suspects.mr ] || { cat kw.suspects.mr; fail "a suspect on is_keyword"; }

check "is_keyword with a corpus that holds keywords: validation near them gives evidence, a law is written"
# check grows b_kw/corpus (libFuzzer finds a keyword through strcmp); discovery draws one
# fresh input in eight near a corpus input, where the output varies
expect_exit 0 "$MRFUZZ" check "$K" --mr kw.mr --build-dir b_kw --jobs 1 -- -runs=200000
expect_exit 0 "$MRFUZZ" discover "$K" --seed 1 --generations 2 --templates 3 --inputs 200 --validate 12000 \
  -o kw2.mr --build-dir b_kw
grep -q 'origin = "discover/genmorph"' kw2.mr || { cat kw2.mr; fail "no relation between calls with the corpus"; }
[ ! -e kw2.suspects.mr ] || { cat kw2.suspects.mr; fail "a suspect on is_keyword"; }

check "--invariants 0: none"
expect_exit 0 "$MRFUZZ" discover "$S:round_long" "${FAST[@]}" --invariants 0 -o none.mr --build-dir b_none
! grep -q "discover/invariant" none.mr || fail "--invariants 0 wrote an invariant"
echo "ok"
