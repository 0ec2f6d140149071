/* SPDX-License-Identifier: MIT
 * edit.c - copied and edited by tests/e2e/rebuild.sh: a source edit must rebuild. */
#include "edit.h"

int bump(int x) { return x + BUMP; }
