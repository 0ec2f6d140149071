/* dynconst.c - subjects with a dynamic constant (tests/e2e/consts.sh): a rate computed
 * from literals by a helper's loop, 1.05^3, is the same on every call but is no literal
 * of the body; everything else depends on the inputs. */
static double base_rate(void) {
  double r = 1.0;
  for (int i = 0; i < 3; i++)
    r *= 1.05;
  return r;
}

double apply_rate(double amount, int years) {
  double rate = base_rate();
  if (years > 10)
    years = 10;
  double total = amount;
  for (int i = 0; i < years; i++)
    total *= rate;
  return total;
}

/* The same, crashing for large inputs: collection survives it. */
double crashy_rate(int x) {
  double rate = base_rate();
  if (x > 900)
    *(volatile int *)0 = x;
  return rate * x;
}
