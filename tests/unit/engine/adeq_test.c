/* SPDX-License-Identifier: MIT
 * adeq_test.c - the k-MR adequacy measure (rt/engine/base/adeq.c) on the worked example of the
 * adequacy paper (seed 004, Example 1): Table I (statements each source input covers) and
 * Table II (the metamorphic groups) as data; Table III (|S_RO(t)|) and Table IV (the
 * inputs satisfying each statement, K per statement) and C_MT^3 are computed and compared.
 *
 * The paper's Table IV prints K7 = max({1,2})/3 = 1/3, which Eq. (4) makes 2/3 (t4, with
 * two relations, covers s7 in both Table I and Table IV); its total 11/24 is the sum with
 * that 1/3. Definition 5 on Tables I-III gives 12/24 = 1/2; 11/24 is what the measure
 * gives when s7 is satisfied by t2 alone, which the last case checks.
 */
#include <string.h>

#include "../check.h"
#include "base/eng.h"

enum { NT = 4, NS = 8, NMR = 6 };

/* Table I: t1=(36,sine) s1 s2 s5; t2=(74,sine) s1 s4 s7; t3=(100,cosine) s2 s3 s5;
 * t4=(24,cosine) s3 s5 s6 s7. */
static const uint8_t table1[NT][NS] = {
    {1, 1, 0, 0, 1, 0, 0, 0},
    {1, 0, 0, 1, 0, 0, 1, 0},
    {0, 1, 1, 0, 1, 0, 0, 0},
    {0, 0, 1, 0, 1, 1, 1, 0},
};

/* Table II: MG id -> (source input, MR), 1-based as in the paper. */
static const int table2[][2] = {{1, 1}, {2, 2}, {3, 3}, {3, 4}, {4, 4}, {4, 5}};

/* Table IV's "source inputs that cover the statement" (bit t-1 for t_t). */
static const unsigned table4_sat[NS] = {0x3, 0x5, 0xc, 0x2, 0xd, 0x8, 0xa, 0x0};

int main(void) {
  /* Coop from the MGs (Definition 1), then S_RO (Definition 3): Table III. */
  uint8_t coop[NT][NMR] = {{0}};
  for (size_t g = 0; g < sizeof table2 / sizeof table2[0]; g++)
    coop[table2[g][0] - 1][table2[g][1] - 1] = 1;
  uint32_t sro[NT] = {0};
  for (int t = 0; t < NT; t++)
    for (int m = 0; m < NMR; m++)
      sro[t] += coop[t][m];
  CHECK(sro[0] == 1 && sro[1] == 1 && sro[2] == 2 && sro[3] == 2); /* Table III */
  CHECK(coop[2][2] && coop[2][3] && coop[3][3] && coop[3][4] && !coop[0][5]);

  /* Table IV: the sat sets, read off the coverage matrix. */
  for (int s = 0; s < NS; s++) {
    unsigned sat = 0;
    for (int t = 0; t < NT; t++)
      sat |= (unsigned)table1[t][s] << t;
    CHECK(sat == table4_sat[s]);
  }

  /* Definition 5 with k = 3. */
  int32_t best[NS];
  uint64_t num = 0, den = 0;
  double c = eng_adeq_measure(NT, NS, &table1[0][0], sro, 3, best, &num, &den);
  const int32_t want[NS] = {1, 2, 2, 1, 2, 2, 2, -1}; /* max |S_RO| per statement; s8 none */
  CHECK(memcmp(best, want, sizeof want) == 0);
  CHECK(den == 24);
  CHECK(num == 12); /* 1+2+2+1+2+2+2+0: K1..K8 of Table IV with K7 = 2/3 */
  CHECK(c == 0.5);

  /* k = 1 and k = 2: epsilon caps every input at k relations (Eq. 5). */
  eng_adeq_measure(NT, NS, &table1[0][0], sro, 1, best, &num, &den);
  CHECK(num == 7 && den == 8);
  eng_adeq_measure(NT, NS, &table1[0][0], sro, 2, best, &num, &den);
  CHECK(num == 12 && den == 16);

  /* The paper's 11/24: K7 = 1/3, i.e. s7 satisfied only by t2 (one relation). */
  uint8_t cov[NT][NS];
  memcpy(cov, table1, sizeof cov);
  cov[3][6] = 0;
  c = eng_adeq_measure(NT, NS, &cov[0][0], sro, 3, best, &num, &den);
  CHECK(num == 11 && den == 24);
  CHECK(best[6] == 1);

  /* Incremental use (check --until-adequate): adding inputs one by one gives the same
   * state, and only inputs that raise some requirement report progress. */
  int32_t inc[NS];
  eng_adeq_init(inc, NS);
  CHECK(eng_adeq_sum(inc, NS, 3) == 0);
  bool grew[NT];
  for (int t = 0; t < NT; t++)
    grew[t] = eng_adeq_add(inc, NS, table1[t], sro[t]);
  CHECK(grew[0] && grew[1] && grew[2] && grew[3]);
  CHECK(!eng_adeq_add(inc, NS, table1[0], sro[0])); /* t1 again: nothing new */
  CHECK(eng_adeq_sum(inc, NS, 3) == 12);
  /* A source input associated with 3 relations covering s1..s7 saturates them; s8 stays 0. */
  const uint8_t all7[NS] = {1, 1, 1, 1, 1, 1, 1, 0};
  CHECK(eng_adeq_add(inc, NS, all7, 3));
  CHECK(eng_adeq_sum(inc, NS, 3) == 21);
  /* An empty requirement set is trivially adequate. */
  CHECK(eng_adeq_measure(0, 0, NULL, NULL, 3, NULL, &num, &den) == 1.0 && den == 0);
  return CHECK_DONE();
}
