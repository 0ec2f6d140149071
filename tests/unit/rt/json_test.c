/* SPDX-License-Identifier: MIT
 * json_test.c - the JSON and SARIF writers every report shares (rt/core/json.c,
 * sarif.c; include/mrfuzz/mr_json.h): escaping (quotes, control bytes, valid UTF-8 kept,
 * invalid bytes as \u00XX), commas and nesting, non-finite numbers as null; a SARIF log's
 * paths under the source root relative to %SRCROOT%, others as percent-encoded file: URIs,
 * optional parts left out. The schema itself is checked in tests/e2e/sarif.sh.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <math.h>

#include "check.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mrfuzz/mr_json.h"

/* What put wrote into a fresh memory stream. Caller frees. */
static char *written(void (*put)(FILE *)) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  put(f);
  fclose(f);
  return s;
}

static void put_escapes(FILE *f) {
  const char s[] = "a\"b\\c\n\x01\xc3\xa9\xff\xe2\x82";
  mr_json_escape(f, s, sizeof s - 1);
}

static void test_escape(void) {
  char *s = written(put_escapes);
  CHECK(!strcmp(s, "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\\u00ff\\u00e2\\u0082\""));
  free(s);
}

static void put_doc(FILE *f) {
  mr_json j;
  mr_json_init(&j, f);
  mr_json_obj(&j, NULL);
  mr_json_str(&j, "s", "x");
  mr_json_str(&j, "none", NULL);
  mr_json_arr(&j, "a");
  mr_json_u64(&j, NULL, 18446744073709551615ull);
  mr_json_i64(&j, NULL, -3);
  mr_json_num(&j, NULL, 0.1);
  mr_json_num(&j, NULL, NAN);
  mr_json_num(&j, NULL, -INFINITY);
  mr_json_bool(&j, NULL, true);
  mr_json_end(&j);
  mr_json_arr(&j, "empty");
  mr_json_end(&j);
  mr_json_obj(&j, "o");
  mr_json_null(&j, "n");
  mr_json_key(&j, "raw");
  fputs("[1]", f);
  mr_json_end(&j);
  mr_json_end(&j);
}

static void test_document(void) {
  char *s = written(put_doc);
  CHECK(!strcmp(s, "{\n"
                   "  \"s\": \"x\",\n"
                   "  \"none\": null,\n"
                   "  \"a\": [\n"
                   "    18446744073709551615,\n"
                   "    -3,\n"
                   "    0.1,\n"
                   "    null,\n"
                   "    null,\n"
                   "    true\n"
                   "  ],\n"
                   "  \"empty\": [],\n"
                   "  \"o\": {\n"
                   "    \"n\": null,\n"
                   "    \"raw\": [1]\n"
                   "  }\n"
                   "}\n"));
  free(s);
}

static void put_sarif(FILE *f) {
  mr_sarif_rule rules[] = {{"f/sym", "sym", "relation sym", {"/src/f.mr", 7, 0, NULL}},
                           {"target-failure", "target-failure", "it crashed", {NULL, 0, 0, NULL}}};
  mr_sarif_loc rel = {"/src/f.mr", 7, 0, "relation sym"};
  mr_sarif_result res[] = {
      {0, "error", "violated", {"/src/lib/a b.c", 12, 3, NULL}, &rel, 1, "f", "crash-1", "mrfuzz repro"},
      {1, "error", "crashed", {"/elsewhere/x.c", 0, 0, NULL}, NULL, 0, NULL, NULL, NULL}};
  mr_sarif_write(f, "9.9", "/src", rules, 2, res, 2);
}

static void test_sarif(void) {
  char *s = written(put_sarif);
  CHECK(strstr(s, "\"version\": \"2.1.0\""));
  CHECK(strstr(s, "\"name\": \"mrfuzz\",\n          \"version\": \"9.9\""));
  CHECK(strstr(s, "\"%SRCROOT%\": {\n          \"uri\": \"file:///src/\""));
  /* under the root: relative, percent-encoded; elsewhere: an absolute file: URI */
  CHECK(strstr(s, "\"uri\": \"lib/a%20b.c\",\n                  \"uriBaseId\": \"%SRCROOT%\""));
  CHECK(strstr(s, "\"uri\": \"file:///elsewhere/x.c\"\n"));
  CHECK(strstr(s, "\"startLine\": 12,\n                  \"startColumn\": 3"));
  CHECK(strstr(s, "\"ruleId\": \"target-failure\",\n          \"ruleIndex\": 1"));
  CHECK(strstr(s, "\"mrFile\": \"/src/f.mr\",\n                \"mrLine\": 7"));
  /* the second result: no region (line 0), no related locations, no properties */
  const char *second = strstr(s, "\"ruleId\": \"target-failure\"");
  CHECK(second && !strstr(second, "\"region\"") && !strstr(second, "relatedLocations") &&
        !strstr(second, "\"properties\""));
  CHECK(strstr(s, "\"reproducer\": \"crash-1\""));
  free(s);
}

int main(void) {
  test_escape();
  test_document();
  test_sarif();
  return CHECK_DONE();
}
