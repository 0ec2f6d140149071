/* bench/histbugs (not upstream): faulty version of curl's IPv6 CIDR match,
   Curl_cidr6_match() in lib/noproxy.c of curl 8.14.1 (Debian source package curl 8.14.1-2+deb13u5).
   The fault: for a prefix length that is not a multiple of 8 the test of the
   last, partial byte is inverted, so an address inside the network is
   rejected when the full bytes match, and one outside it accepted.
   Kept verbatim: the file's license header and Curl_cidr6_match() (with its
   declaration where it has one).  The rest of the file is left out; curl's
   headers are replaced by curl-shim.h.  Function under test: the wrapper
   cidr6_match_w() at the end (the function's name differs between the two
   versions).  License: curl (MIT-style). */

/***************************************************************************
 *                                  _   _ ____  _
 *  Project                     ___| | | |  _ \| |
 *                             / __| | | | |_) | |
 *                            | (__| |_| |  _ <| |___
 *                             \___|\___/|_| \_\_____|
 *
 * Copyright (C) Daniel Stenberg, <daniel@haxx.se>, et al.
 *
 * This software is licensed as described in the file COPYING, which
 * you should have received as part of this distribution. The terms
 * are also available at https://curl.se/docs/copyright.html.
 *
 * You may opt to use, copy, modify, merge, publish, distribute and/or sell
 * copies of the Software, and permit persons to whom the Software is
 * furnished to do so, under the terms of the COPYING file.
 *
 * This software is distributed on an "AS IS" basis, WITHOUT WARRANTY OF ANY
 * KIND, either express or implied.
 *
 * SPDX-License-Identifier: curl
 *
 ***************************************************************************/
#include "curl-shim.h" /* not upstream: replaces "curl_setup.h" and the other headers */

UNITTEST bool Curl_cidr6_match(const char *ipv6,
                               const char *network,
                               unsigned int bits)
{
#ifdef USE_IPV6
  unsigned int bytes;
  unsigned int rest;
  unsigned char address[16];
  unsigned char check[16];

  if(!bits)
    bits = 128;

  bytes = bits / 8;
  rest = bits & 0x07;
  if((bytes > 16) || ((bytes == 16) && rest))
    return FALSE;
  if(1 != curlx_inet_pton(AF_INET6, ipv6, address))
    return FALSE;
  if(1 != curlx_inet_pton(AF_INET6, network, check))
    return FALSE;
  if(bytes && memcmp(address, check, bytes))
    return FALSE;
  if(rest && !((address[bytes] ^ check[bytes]) & (0xff << (8 - rest))))
    return FALSE;

  return TRUE;
#else
  (void)ipv6;
  (void)network;
  (void)bits;
  return FALSE;
#endif
}

/* Not upstream: wrapper with one name for both versions.  Returns 1 when the
   IPv6 address IPV6 lies in the network NETWORK/BITS (BITS 0 meaning 128, as
   in curl), else 0.  */
int cidr6_match_w(const char *ipv6, const char *network, unsigned int bits)
{
  return Curl_cidr6_match(ipv6, network, bits) ? 1 : 0;
}
