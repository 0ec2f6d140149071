/* SPDX-License-Identifier: MIT
 * fees.c - the checked-baggage fee calculator (fees.h). Bags beyond the free allowance
 * pay by their rank (1st, 2nd, 3rd and further), the heaviest bag pays a weight
 * surcharge by band; the allowance depends on cabin, tier, route and fare. One function,
 * as fee rules usually are, so that every rule is a statement mrpass counts (helpers
 * would not be instrumented). Integer cents throughout: the relations in baggage_fee.mr
 * hold exactly.
 */
#include "fees.h"

int64_t baggage_fee(int cabin, int tier, bool intl, bool student, bool online, int bags, int kg) {
  if (bags <= 0)
    return 0;

  /* Free bags: by cabin, plus the frequent-flyer bonus. */
  int nfree;
  int allow_kg = 23;
  switch (cabin) {
  case FEE_FIRST:
    nfree = 3;
    allow_kg = 32;
    break;
  case FEE_BUSINESS:
    nfree = 2;
    allow_kg = 32;
    break;
  case FEE_PREMIUM:
    nfree = intl ? 2 : 1;
    break;
  default: /* economy, and unknown codes sold as economy */
    nfree = intl ? 1 : 0;
    if (student && intl)
      nfree++; /* student fares: one more bag abroad */
    break;
  }
  if (tier >= 3)
    nfree += 2;
  else if (tier == 2)
    nfree += 1;

  /* Bags beyond the allowance, priced by rank. */
  int64_t fee = 0;
  for (int rank = nfree + 1; rank <= bags; rank++) {
    if (rank == 1)
      fee += intl ? 6000 : 3000;
    else if (rank == 2)
      fee += intl ? 7500 : 4000;
    else
      fee += intl ? 20000 : 15000;
  }
  if (online)
    fee -= fee / 10; /* prepaid online: 10% off the bag fees */

  /* The heaviest bag: over the allowance (platinum free, silver and gold half), over
   * 32 kg, and per kilogram over 45 kg. */
  if (kg > allow_kg) {
    int64_t band = intl ? 10000 : 7500;
    if (tier >= 3)
      band = 0;
    else if (tier >= 1)
      band /= 2;
    fee += band;
  }
  if (kg > 32)
    fee += 5000;
  if (kg > 45)
    fee += (int64_t)(kg - 45) * 300;
  return fee;
}
