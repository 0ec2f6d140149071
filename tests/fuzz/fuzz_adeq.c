/* SPDX-License-Identifier: MIT
 * fuzz_adeq.c - the driver's adequacy readers (driver/report/adeq_data.c) and the HTML report
 * (driver/report/report_html.c) on arbitrary bytes: no crash, hang or leak; the merged state is
 * consistent (C_MT^k's numerator never exceeds k * requirements, the curve never falls)
 * and nothing from the input reaches the page unescaped: no tag or handler before the
 * page's scripts, and its bytes inlined in a script (as JS, as JSON, as the relation file
 * the page's data quotes) never end that script early; the APFD-table reader returns at
 * most the rows asked for, each with an APFD in [0, 1].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An attribute handler (" onX=") inside a tag, outside quoted attribute values? Text
 * between tags may say anything: '<' is escaped there, so it cannot open a tag. */
static int has_handler(const char *s) {
  int in_tag = 0;
  char quote = 0;
  for (const char *p = s; *p; p++) {
    if (quote) {
      quote = *p == quote ? 0 : quote;
    } else if (!in_tag) {
      in_tag = *p == '<';
    } else if (*p == '>') {
      in_tag = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if ((*p == ' ' || *p == '\t' || *p == '\n' || *p == '/') && (p[1] | 32) == 'o' &&
               (p[2] | 32) == 'n') {
      const char *q = p + 3;
      while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
        q++;
      if (q > p + 3 && *q == '=')
        return 1;
    }
  }
  return 0;
}

/* How many times needle occurs in s, in any case. */
static size_t count_ci(const char *s, const char *needle) {
  size_t n = 0, len = strlen(needle);
  for (; *s; s++)
    n += !strncasecmp(s, needle, len);
  return n;
}

/* text inlined as a script: ended by its own end tag only ("<script" inside is inert
 * without "<!--" before it: the HTML tokenizer's script data states). */
static void check_inline(const char *text, bool json) {
  drv_buf out = {0};
  drv_html_script(&out, "", text, json);
  if (count_ci(out.s, "</script") != 1 ||
      strcasecmp(out.s + out.len - 10, "</script>\n") || strstr(out.s, "<!--"))
    abort();
  if (json && strchr(out.s + 8, '<') != out.s + out.len - 10)
    abort();
  drv_buf_fini(&out);
}

static char mr[64]; /* the input as the relation file the page quotes */
static void remove_mr(void) { unlink(mr); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!mr[0]) { /* no bundle inlined: the page's own two scripts */
    snprintf(mr, sizeof mr, "/tmp/fuzz_adeq-%ld.mr", (long)getpid());
    setenv("MRFUZZ_MTE_BUNDLE", "/nonexistent/mte.js", 1);
    atexit(remove_mr);
  }
  char *text = malloc(size + 19);
  if (!text)
    return 0;
  /* As is, and behind the header so that the fuzzer reaches the line parsers. */
  memcpy(text, data, size);
  text[size] = '\0';
  drv_adeq a = {0};
  drv_adeq_parse(&a, text);
  memcpy(text, "mrfuzz-adequacy 1\n", 18);
  memcpy(text + 18, data, size);
  text[size + 18] = '\0';
  if (!drv_adeq_parse(&a, text))
    abort();
  if (a.sum > a.den)
    abort();
  for (size_t i = 1; i < a.npts; i++)
    if (a.pts[i].sum < a.pts[i - 1].sum || a.pts[i].secs < a.pts[i - 1].secs)
      abort();
  drv_fdr rows[4];
  size_t n = drv_fdr_parse(text, rows, 4);
  if (n > 4)
    abort();
  for (size_t i = 0; i < n; i++)
    if (!(rows[i].apfd >= 0 && rows[i].apfd <= 1))
      abort();
  check_inline(text + 18, false);
  check_inline(text + 18, true);
  FILE *f = fopen(mr, "wb");
  if (f) {
    fwrite(data, 1, size, f);
    fclose(f);
  }
  drv_buf out = {0};
  drv_report_in in = {&a, &a, rows, n, "t.c:f", "f", mr, "/dev/null", NULL, "/nonexistent"};
  drv_report_html(&out, &in);
  /* The page's own tags only: before its scripts (the data, report.js) no script, image or
   * attribute handler from the input, and each script ends where the page ends it. */
  char *scripts = out.s ? strstr(out.s, "<script") : NULL;
  if (!scripts || count_ci(out.s, "<script") != 2 || count_ci(out.s, "</script") != 2)
    abort();
  *scripts = '\0';
  if (has_handler(out.s) || strstr(out.s, "<img"))
    abort();
  drv_buf_fini(&out);
  drv_adeq_fini(&a);
  free(text);
  return 0;
}
