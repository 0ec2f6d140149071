/* SPDX-License-Identifier: MIT
 * fees.h - an airline's checked-baggage fee calculator: a business-logic subject with
 * many paths (cabin, frequent-flyer tier, route, student and prepayment rules, bag count
 * and weight surcharges), in the style of the BAGGAGE subject of the MT adequacy studies.
 */
#ifndef MR_EXAMPLE_FEES_H
#define MR_EXAMPLE_FEES_H

#include <stdbool.h>
#include <stdint.h>

/* Cabin codes; any other code is sold as economy. */
enum { FEE_ECONOMY = 0, FEE_PREMIUM = 1, FEE_BUSINESS = 2, FEE_FIRST = 3 };

/* Fee in cents for checking `bags` bags whose heaviest weighs `kg` kilograms, for one
 * passenger on one segment. tier: frequent-flyer tier, 0 none (or below), 1 silver,
 * 2 gold, 3 platinum (or above). intl: international segment. student: a student fare
 * (one more free bag in economy on international segments). online: prepaid online
 * (10% off the bag fees, not the weight surcharges). No bags (bags <= 0): no fee. */
int64_t baggage_fee(int cabin, int tier, bool intl, bool student, bool online, int bags, int kg);

#endif
