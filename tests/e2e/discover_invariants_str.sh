#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# discover_invariants_str.sh - one-call invariants of GenMorph's subjects, strings and
# counted strings (issue #27; docs/discover.md, "Invariants", strings), on the held-out
# inputs/str_subjects.c built with and without -DFAULT (the numeric ones:
# discover_invariants.sh):
#   - parent_dir's fault (a last component with
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

echo "ok"
