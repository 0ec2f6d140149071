/* SPDX-License-Identifier: MIT
 * rec_const.h - records with const-qualified fields (tests/e2e/records_const.sh): a
 * const scalar, a const nested record, a const array, and a typedef'd const. */
#ifndef REC_CONST_H
#define REC_CONST_H
typedef const double cdouble;
struct cpt {
  const double x;
  double y;
  const int n;
};
struct cnest {
  const struct cv {
    double x, y;
  } lo;
  const int t[2];
  cdouble w;
  double v;
};
double c_val(struct cpt p);
double cn_sum(const struct cnest *c);
void cn_scale(struct cnest *c, double k);
#endif
