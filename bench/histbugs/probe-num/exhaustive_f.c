/* Exhaustive float probe: BUG vs FIX over all 2^32 bit patterns (STEP 1); prints the first
   differences and the count.  Which side is right is checked separately (README.numeric.md).  */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
float BUG (float); float FIX (float);
static int same (float a, float b) { uint32_t x, y; memcpy (&x, &a, 4); memcpy (&y, &b, 4); return x == y || (isnan (a) && isnan (b)); }
int main (void) {
  uint64_t n = 0, nd = 0;
  for (uint64_t i = 0; i < (1ull << 32); i += STEP) {
    uint32_t u = (uint32_t) i; float x; memcpy (&x, &u, 4);
    float a = BUG (x), b = FIX (x); n++;
    if (!same (a, b)) { nd++; if (nd <= 8) printf ("x=%a (0x%08x): bug=%a fix=%a\n", x, u, a, b); }
  }
  printf ("differ on %llu of %llu bit patterns (%.3g%%)\n", (unsigned long long) nd, (unsigned long long) n, 100.0 * nd / n);
}
