/* SPDX-License-Identifier: MIT
 * test_tested.c - the tested example's own tests, as a maintainer writes them: known
 * values, and a few checks that call a function twice and compare (a round trip, an odd
 * function, a reversed array, a suffix without vowels, e^-x as the reciprocal of e^x, the
 * mean of a reversed array). `test_tested NAME` runs one test;
 * CTest registers each (CMakeLists.txt). Exit 0 when it passes.
 */
#include <stdio.h>
#include <string.h>

#include "tested.h"

static int failures;

static void near(const char *what, double got, double want, double tol) {
  double d = got - want;
  if (!(d <= tol && d >= -tol)) {
    printf("FAIL %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

static void celsius_known(void) {
  near("c_to_f(100)", tu_c_to_f(100), 212, 1e-12);
  near("c_to_f(-40)", tu_c_to_f(-40), -40, 1e-12);
  near("f_to_c(32)", tu_f_to_c(32), 0, 1e-12);
}

static void celsius_round_trip(void) {
  static const double c[] = {-273.15, -17.5, 0, 21.25, 37, 451};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    near("f_to_c(c_to_f(c))", tu_f_to_c(tu_c_to_f(c[i])), c[i], 1e-9);
}

static void kelvin(void) {
  near("f_to_k(32)", tu_f_to_k(32), 273.15, 1e-9);
  near("f_to_k(212)", tu_f_to_k(212), 373.15, 1e-9);
}

static void poly_known(void) {
  near("poly(0)", tu_poly(0), 0, 0);
  near("poly(0.5)", tu_poly(0.5), 0.479427083333333, 1e-12);
}

static void poly_odd(void) {
  static const double x[] = {0.1, 0.75, 1.5, 2};
  for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
    near("poly(-x) = -poly(x)", tu_poly(-x[i]), -tu_poly(x[i]), 0);
}

static void exp_reciprocal(void) {
  static const double x[] = {0.5, 1, 2.5, 10};
  for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
    struct tu_result a, b;
    int sa = tu_exp_r(x[i], &a), sb = tu_exp_r(-x[i], &b);
    near("exp(x) * exp(-x)", a.val * b.val, 1, 1e-12);
    near("statuses", sa + sb, 0, 0);
  }
}

static void sum_known(void) {
  const double a[] = {1, 2, 3};
  near("sum(1,2,3)", sq_sum(a, 3), 6, 0);
  near("sum of none", sq_sum(a, 0), 0, 0);
}

static void sum_reverse(void) {
  double a[] = {0.5, -2, 3.25, 8}, r[4];
  for (int i = 0; i < 4; i++)
    r[i] = a[3 - i];
  near("sum(reverse(a)) = sum(a)", sq_sum(r, 4), sq_sum(a, 4), 1e-12);
}

static void mean_reverse(void) {
  double a[] = {4, -1.5, 2.25}, r[3], m = 0, mr = 0;
  for (int i = 0; i < 3; i++)
    r[i] = a[2 - i];
  near("mean statuses", sq_mean(a, 3, &m) + sq_mean(r, 3, &mr), 0, 0);
  near("mean(reverse(a)) = mean(a)", mr, m, 1e-12);
}

static void vowels_known(void) {
  if (tx_vowels("hello world") != 3 || tx_vowels("") != 0 || tx_vowels("AEIOU") != 5) {
    printf("FAIL vowels_known\n");
    failures++;
  }
}

static void vowels_suffix(void) {
  static const char *const s[] = {"metamorphic", "relation", "xyz"};
  char buf[64];
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    snprintf(buf, sizeof buf, "%s%s", s[i], "rst");
    if (tx_vowels(buf) != tx_vowels(s[i])) {
      printf("FAIL vowels_suffix: %s\n", s[i]);
      failures++;
    }
  }
}

static const struct {
  const char *name;
  void (*run)(void);
} tests[] = {
    {"celsius_known", celsius_known}, {"celsius_round_trip", celsius_round_trip},
    {"kelvin", kelvin},               {"poly_known", poly_known},
    {"poly_odd", poly_odd},           {"exp_reciprocal", exp_reciprocal},
    {"sum_known", sum_known},         {"sum_reverse", sum_reverse},
    {"mean_reverse", mean_reverse},   {"vowels_known", vowels_known},
    {"vowels_suffix", vowels_suffix},
};

int main(int argc, char **argv) {
  size_t n = sizeof tests / sizeof tests[0], ran = 0;
  for (size_t i = 0; i < n; i++)
    if (argc < 2 || !strcmp(argv[1], tests[i].name)) {
      tests[i].run();
      ran++;
    }
  if (!ran) {
    printf("no test named %s\n", argv[1]);
    return 2;
  }
  return failures != 0;
}
