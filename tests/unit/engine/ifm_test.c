/* SPDX-License-Identifier: MIT
 * ifm_test.c - interface faults (base/ifmut.c) on subjects defined here: which faults a
 * signature gets (no neighbour that overruns an array through its length, one neighbour
 * per subject, a string's neighbour and half-domain when there is no numeric input), and
 * what each does to the outputs of a real call.
 */
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "base/eng.h"

/* size_t slen(const char *s) */
static void slen_call(const uint64_t *args, uint64_t *ret) {
  *ret = strlen((const char *)(uintptr_t)args[0]);
}
static const mr_subject_param slen_params[] = {{"s", "const char *", MR_KIND_CSTR, MR_PF_CONST, -1}};
static const mr_subject slen_subj = {"slen", "t.c", 1, slen_params, MR_KIND_U64, "size_t", slen_call};

/* void isort(int32_t *a, size_t n): ascending, in place */
static int cmp_i32(const void *x, const void *y) {
  int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
  return (a > b) - (a < b);
}
static void isort_call(const uint64_t *args, uint64_t *ret) {
  qsort((void *)(uintptr_t)args[0], (size_t)args[1], sizeof(int32_t), cmp_i32);
  *ret = 0;
}
static const mr_subject_param isort_params[] = {
    {"a", "int32_t *", MR_KIND_I32, MR_PF_ARRAY, 1},
    {"n", "size_t", MR_KIND_U64, 0, -1},
};
static const mr_subject isort_subj = {"isort", "t.c", 2, isort_params, MR_KIND_VOID, "void", isort_call};

/* uint64_t sum(uint64_t k, const uint8_t *b, uint32_t n): k + the bytes */
static void sum_call(const uint64_t *args, uint64_t *ret) {
  const uint8_t *b = (const uint8_t *)(uintptr_t)args[1];
  uint64_t v = args[0];
  for (uint32_t i = 0; i < (uint32_t)args[2]; i++) v += b[i];
  *ret = v;
}
static const mr_subject_param sum_params[] = {
    {"k", "uint64_t", MR_KIND_U64, 0, -1},
    {"b", "const uint8_t *", MR_KIND_U8, MR_PF_ARRAY | MR_PF_CONST, 2},
    {"n", "uint32_t", MR_KIND_U32, 0, -1},
};
static const mr_subject sum_subj = {"sum", "t.c", 3, sum_params, MR_KIND_U64, "uint64_t", sum_call};

/* The index of the first fault whose name contains what, or -1. */
static int find(const mr_subject *s, const char *what) {
  char name[256];
  for (int m = 0; m < eng_ifm_count(s); m++) {
    eng_ifm_name(s, m, name, sizeof name);
    if (strstr(name, what)) return m;
  }
  return -1;
}

static uint64_t call(const mr_subject *s, int m, const uint64_t *args) {
  mr_subject f;
  uint64_t ret = 0;
  CHECK(eng_ifm_subject(s, m, &f));
  f.call(args, &ret);
  return ret;
}

static void test_string(void) {
  /* off by one, negated, low bit, neighbour: everywhere and on even lengths */
  CHECK(eng_ifm_count(&slen_subj) == 8);
  int nb = find(&slen_subj, "neighbouring input (s without its first element)");
  int rel_half = find(&slen_subj, "return value off by a little (x (1 + 2^-20), or + 1), where len(s) is even");
  CHECK(nb >= 0 && rel_half >= 0);
  const char *odd = "abc", *even = "abcd";
  uint64_t a_odd[1] = {(uint64_t)(uintptr_t)odd}, a_even[1] = {(uint64_t)(uintptr_t)even};
  CHECK(call(&slen_subj, nb, a_odd) == 2);
  CHECK(call(&slen_subj, rel_half, a_odd) == 3 && call(&slen_subj, rel_half, a_even) == 5);
  const char *empty = "";
  uint64_t a_empty[1] = {(uint64_t)(uintptr_t)empty};
  CHECK(call(&slen_subj, nb, a_empty) == 0); /* no neighbour of the empty string */
  char kinds[512];
  eng_ifm_kinds(&slen_subj, kinds, sizeof kinds);
  CHECK(strstr(kinds, "2 output of a neighbouring input") && strstr(kinds, "(4 of them only, where len(s) is even)"));
}

static void test_array(void) {
  /* the output a: off by a little (first element), dropped, swapped; the neighbour (a
   * without its first element: n is a length, never moved) */
  CHECK(find(&isort_subj, "n moved") < 0);
  int drop = find(&isort_subj, "a first element dropped"), swap = find(&isort_subj, "a first two elements swapped");
  int nb = find(&isort_subj, "neighbouring input (a without its first element)");
  CHECK(drop >= 0 && swap >= 0 && nb >= 0);
  CHECK(eng_ifm_count(&isort_subj) == 8);
  int32_t a[4] = {4, 3, 2, 1};
  uint64_t args[2] = {(uint64_t)(uintptr_t)a, 4};
  call(&isort_subj, drop, args);
  CHECK(a[0] == 2 && a[1] == 3 && a[2] == 4 && a[3] == 4);
  int32_t b[3] = {3, 2, 1};
  args[0] = (uint64_t)(uintptr_t)b, args[1] = 3;
  call(&isort_subj, swap, args);
  CHECK(b[0] == 2 && b[1] == 1 && b[2] == 3);
  int32_t c[3] = {3, 2, 1};
  args[0] = (uint64_t)(uintptr_t)c;
  call(&isort_subj, nb, args);
  CHECK(c[0] == 3 && c[1] == 1 && c[2] == 2); /* the tail sorted, the head left */
}

static void test_numeric_pivot(void) {
  /* k is the pivot (n is b's length): the neighbour moves k, halves split on k even */
  CHECK(find(&sum_subj, "neighbouring input (k moved by one step)") >= 0);
  int half = find(&sum_subj, "return value negated, where k is even");
  CHECK(half >= 0);
  uint8_t b[2] = {1, 2};
  uint64_t args[3] = {4, (uint64_t)(uintptr_t)b, 2};
  CHECK(call(&sum_subj, find(&sum_subj, "neighbouring"), args) == 8);
  CHECK(call(&sum_subj, half, args) == (uint64_t)-7);
  args[0] = 5;
  CHECK(call(&sum_subj, half, args) == 8);
  /* one neighbour per subject, whatever the number of outputs */
  char kinds[512];
  eng_ifm_kinds(&sum_subj, kinds, sizeof kinds);
  CHECK(strstr(kinds, "2 output of a neighbouring input") != NULL);
}

int main(void) {
  test_string();
  test_array();
  test_numeric_pivot();
  return CHECK_DONE();
}
