/* SPDX-License-Identifier: MIT
 * rec_mixed.c - records mixing integer and floating-point fields
 * (tests/e2e/records_mixed.sh): discovery must give each field follow-ups of its own kind. */
struct mix {
  int n;
  double w;
};
struct mix3 {
  double a;
  long n;
  float b;
};

double mix_sum(struct mix m) { return m.n + m.w; }
double mix_prod(struct mix m) { return m.n * m.w; }
double mix3_scale(const struct mix3 *m) { return (m->a + m->b) * (double)m->n; }
