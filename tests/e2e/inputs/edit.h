/* SPDX-License-Identifier: MIT */
#define BUMP 1
int bump(int x);
