/* bench/histbugs (not upstream): fixed version of curl's IPv6 CIDR match,
   cidr6_match() in lib/proxy.c of curl 8.21.0 (Debian source package curl 8.21.0-2).
   Contains the fix, curl commit 1a3a5cb72038 ("noproxy: fix the IPV6 network
   mask pattern match", curl 8.17.0); the file was later renamed.
   Kept verbatim: the file's license header and cidr6_match() (with its
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

UNITTEST bool cidr6_match(const char *ipv6, const char *network,
                          unsigned int bits);
UNITTEST bool cidr6_match(const char *ipv6, const char *network,
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
  if(curlx_inet_pton(AF_INET6, ipv6, address) != 1)
    return FALSE;
  if(curlx_inet_pton(AF_INET6, network, check) != 1)
    return FALSE;
  if(bytes && memcmp(address, check, bytes))
    return FALSE;
  if(rest && ((address[bytes] ^ check[bytes]) & (0xff << (8 - rest))))
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
  return cidr6_match(ipv6, network, bits) ? 1 : 0;
}
