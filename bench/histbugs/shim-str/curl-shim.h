/* Not upstream: stand-in for curl's internal headers (curl_setup.h,
   curlx/inet_pton.h, curlx/dynbuf.h, ...) for the curl subjects of
   bench/histbugs.  It gives the configuration of a Linux build with IPv6
   and a minimal dynbuf with the semantics urlapi.c relies on (a buffer that
   grows, is always NUL-terminated and can be cut back).  curl's own dynbuf
   also enforces a size limit, which dedotdotify() never reaches (it starts
   with room for the whole input and never writes more than the input).  */
#ifndef HB_SHIM_CURL_H
#define HB_SHIM_CURL_H
#define _GNU_SOURCE 1 /* memrchr */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define TRUE true
#define FALSE false
#define UNITTEST            /* curl_setup.h: external linkage in unit-test builds */
#define USE_IPV6 1
#define HAVE_INET_PTON 1
#define curlx_inet_pton(x, y, z) inet_pton(x, y, z) /* curlx/inet_pton.h with HAVE_INET_PTON */
#define curlx_strdup strdup
#define DEBUGASSERT(x) do { } while(0)

typedef enum { CURLE_OK = 0, CURLE_OUT_OF_MEMORY = 27 } CURLcode;

struct dynbuf {
  char *bufr;
  size_t leng;
  size_t allc;
};

static inline void curlx_dyn_init(struct dynbuf *s, size_t toobig)
{
  (void)toobig;
  s->bufr = NULL;
  s->leng = 0;
  s->allc = 0;
}

static inline void curlx_dyn_free(struct dynbuf *s)
{
  free(s->bufr);
  s->bufr = NULL;
  s->leng = s->allc = 0;
}

static inline CURLcode curlx_dyn_addn(struct dynbuf *s, const void *mem,
                                      size_t len)
{
  if(s->leng + len + 1 > s->allc) {
    size_t a = s->allc ? s->allc : 32;
    char *p;
    while(a < s->leng + len + 1)
      a *= 2;
    p = realloc(s->bufr, a);
    if(!p) {
      curlx_dyn_free(s);
      return CURLE_OUT_OF_MEMORY;
    }
    s->bufr = p;
    s->allc = a;
  }
  memcpy(s->bufr + s->leng, mem, len);
  s->leng += len;
  s->bufr[s->leng] = 0;
  return CURLE_OK;
}

static inline size_t curlx_dyn_len(const struct dynbuf *s) { return s->leng; }
static inline char *curlx_dyn_ptr(const struct dynbuf *s) { return s->bufr; }

static inline CURLcode curlx_dyn_setlen(struct dynbuf *s, size_t set)
{
  if(set > s->leng)
    return CURLE_OUT_OF_MEMORY;
  s->leng = set;
  s->bufr[s->leng] = 0;
  return CURLE_OK;
}
#endif
