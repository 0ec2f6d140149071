/* FN_bug vs FN_fix: (a) every STEP-th float bit pattern, (b) N uniform random floats in [LO,HI].
   Counts inputs where the two differ, and where the faulty one is off by > 10 ulp from a double reference
   (only where the reference is finite and within float's normal range). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
float BUG (float); float FIX (float);
static int same (float a, float b) { uint32_t x, y; memcpy (&x, &a, 4); memcpy (&y, &b, 4); return x == y || (isnan (a) && isnan (b)); }
static double ulperr (float got, double ref) { int e; frexp (ref, &e); return fabs ((double) got - ref) / ldexp (1.0, e - 24); }
static uint64_t s = 88172645463325252ull; static uint64_t rnd (void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
static uint64_t n, nd, nb, nf;
static void one (float x) { float a = BUG (x), b = FIX (x); double r = REF ((double) x); n++;
  if (!same (a, b)) nd++;
  if (isfinite (r) && fabs (r) >= 0x1p-126 && fabs (r) <= 0x1.fffffep127) { if (ulperr (a, r) > 10) nb++; if (ulperr (b, r) > 10) nf++; } }
int main (void) {
  for (uint64_t i = 0; i < (1ull << 32); i += STEP) { uint32_t u = i; float x; memcpy (&x, &u, 4); one (x); }
  printf ("bit patterns (every %d-th, %llu): differ %llu (%.3g%%); bug >10ulp %llu (%.3g%%), fix >10ulp %llu\n", STEP, (unsigned long long) n, (unsigned long long) nd, 100.0 * nd / n, (unsigned long long) nb, 100.0 * nb / n, (unsigned long long) nf);
  n = nd = nb = nf = 0;
  for (long i = 0; i < 1000000; i++) one ((float) (LO + (HI - LO) * ((rnd () >> 11) * 0x1p-53)));
  printf ("uniform [%g,%g] (10^6): differ %llu (%.3g%%); bug >10ulp %llu (%.3g%%), fix >10ulp %llu\n", (double) LO, (double) HI, (unsigned long long) nd, 100.0 * nd / n, (unsigned long long) nb, 100.0 * nb / n, (unsigned long long) nf);
}
