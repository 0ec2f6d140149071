/* SPDX-License-Identifier: MIT
 * fuzz_adeq.c - the driver's adequacy readers (driver/adeq_data.c) and the HTML report
 * (driver/report_html.c) on arbitrary bytes: no crash, hang or leak; the merged state is
 * consistent (C_MT^k's numerator never exceeds k * requirements, the curve never falls)
 * and nothing from the input reaches the page unescaped; the APFD-table reader returns
 * at most the rows asked for, each with an APFD in [0, 1].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
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
  drv_buf out = {0};
  drv_report_html(&out, &a, &a, rows, n, "t.c:f", "t.mr", "/dev/null");
  /* The page's own tags only: no script, no attribute handlers from the input. */
  if (!out.s || strstr(out.s, "<script") || has_handler(out.s) || strstr(out.s, "<img"))
    abort();
  drv_buf_fini(&out);
  drv_adeq_fini(&a);
  free(text);
  return 0;
}
