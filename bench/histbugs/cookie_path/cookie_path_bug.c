/* bench/histbugs (not upstream): faulty version of sanitize_cookie_path(),
   from lib/cookie.c of curl 8.14.1 in the Debian source package curl
   8.14.1-2+deb13u5 (trixie).
   This is the upstream release tarball (curl_8.14.1.orig.tar.gz) before
   Debian's patches.  The fault: the path "/" (also quoted, "\"/\"") lost its
   only slash as if it were a trailing one and became "".
   Kept verbatim: cookie.c's license header, sanitize_cookie_path() with its
   comment, and Curl_memdup0() from lib/strdup.c of the same source.  The
   rest is left out; curl's headers are replaced by curl-shim.h.  Function
   under test: the wrapper sanitize_cookie_path_buf() at the end.
   License: curl (MIT-style). */

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

/* ---- lib/strdup.c ---- */
/***************************************************************************
 * Curl_memdup0(source, length)
 *
 * Copies the 'source' string to a newly allocated buffer (that is returned).
 * Copies 'length' bytes then adds a null-terminator.
 *
 * Returns the new pointer or NULL on failure.
 *
 ***************************************************************************/
void *Curl_memdup0(const char *src, size_t length)
{
  char *buf = malloc(length + 1);
  if(!buf)
    return NULL;
  if(length) {
    DEBUGASSERT(src); /* must never be NULL */
    memcpy(buf, src, length);
  }
  buf[length] = 0;
  return buf;
}

/* ---- lib/cookie.c ---- */
/*
 * cookie path sanitize
 */
static char *sanitize_cookie_path(const char *cookie_path)
{
  size_t len = strlen(cookie_path);

  /* some sites send path attribute within '"'. */
  if(cookie_path[0] == '\"') {
    cookie_path++;
    len--;
  }
  if(len && (cookie_path[len - 1] == '\"'))
    len--;

  /* RFC6265 5.2.4 The Path Attribute */
  if(cookie_path[0] != '/')
    /* Let cookie-path be the default-path. */
    return strdup("/");

  /* remove trailing slash */
  /* convert /hoge/ to /hoge */
  if(len && cookie_path[len - 1] == '/')
    len--;

  return Curl_memdup0(cookie_path, len);
}

/* Not upstream: wrapper with a signature mrfuzz can call.  Writes the path
   sanitize_cookie_path() makes of the Path attribute value COOKIE_PATH to
   OUT (capacity CAP, truncated if needed).  Returns 0, or 1 if the function
   failed to allocate (OUT is then "").  */
int sanitize_cookie_path_buf(const char *cookie_path, char *out, size_t cap)
{
  char *s = sanitize_cookie_path(cookie_path);

  if(cap) {
    size_t n = s ? strlen(s) : 0;
    if(n >= cap)
      n = cap - 1;
    if(n)
      memcpy(out, s, n);
    out[n] = 0;
  }
  free(s);
  return s ? 0 : 1;
}
