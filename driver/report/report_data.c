/* SPDX-License-Identifier: MIT
 * report_data.c - what `mrfuzz report` gathers beyond adequacy, as the JSON object its
 * page's script renders (driver/report/report.js): each relation's text from the .mr
 * file, the sources of the build; what the runs left in the build directory, each file
 * inlined as it is in a script element of its own (check's summary JSON, score's Mutation
 * Testing Elements JSON and per-line coverage) or the reason it is missing; and the
 * Mutation Testing Elements bundle, found through one configured path. Every text is
 * inlined as a script element escaped here (drv_html_script), report_html.c's too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/report.h"
#include "drv_config.h"

/* A line that begins a relation: "relation NAME" at the start of the line. */
static bool starts_relation(const char *line) {
  return !strncmp(line, "relation", 8) && (line[8] == ' ' || line[8] == '\t');
}

static const char *next_line(const char *p) {
  const char *e = strchr(p, '\n');
  return e ? e + 1 : p + strlen(p);
}

/* One relation of the file's text: from the comment lines right above its first line to
 * the line before the next relation's (or the end), trailing blank lines dropped. */
static void put_relation(drv_buf *b, const char *text, const char *first, const char *end, bool comma) {
  const char *start = first; /* the "//" lines right above it belong to it */
  for (const char *p = text, *run = NULL; p < first; p = next_line(p)) {
    const char *q = p + strspn(p, " \t");
    run = !strncmp(q, "//", 2) ? (run ? run : p) : NULL;
    start = run ? run : first;
  }
  while (end > first && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    end--;
  const char *name = first + 8 + strspn(first + 8, " \t");
  size_t nlen = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  char *nm = drv_fmt("%.*s", (int)nlen, name), *body = drv_fmt("%.*s", (int)(end - start), start);
  unsigned line = 1;
  for (const char *p = text; p < first; p++)
    line += *p == '\n';
  drv_buf_printf(b, "%s\n  {\"name\": ", comma ? "," : "");
  drv_buf_json_str(b, nm);
  drv_buf_printf(b, ", \"line\": %u, \"text\": ", line);
  drv_buf_json_str(b, body);
  drv_buf_printf(b, "}");
  free(nm);
  free(body);
}

/* The relations of the .mr file as [{name, line, text}]: split at the lines that begin a
 * relation, each with the comment block above it (as the file says it, comments kept). */
static void put_relations(drv_buf *b, const char *mr) {
  char *text = drv_read_file(mr, NULL);
  drv_buf_printf(b, "[");
  const char *first = NULL;
  bool comma = false;
  for (const char *p = text; p && *p; p = next_line(p)) {
    if (!starts_relation(p))
      continue;
    if (first) { /* the previous one ends where this one's comment block begins */
      const char *end = p;
      for (const char *q = first; q < p; q = next_line(q)) {
        const char *s = q + strspn(q, " \t");
        if (strncmp(s, "//", 2) && *s != '\n')
          end = next_line(q);
      }
      put_relation(b, text, first, end, comma);
      comma = true;
    }
    first = p;
  }
  if (first)
    put_relation(b, text, first, first + strlen(first), comma);
  drv_buf_printf(b, "\n]");
  free(text);
}

/* See report.h. */
void drv_html_script(drv_buf *b, const char *attrs, const char *text, bool json) {
  drv_buf_printf(b, "<script%s>", attrs);
  for (const char *p = text; *p; p++) {
    size_t n = strcspn(p, "<");
    drv_buf_printf(b, "%.*s", (int)n, p);
    p += n;
    if (!*p)
      break;
    if (json) /* only strings hold a '<' in JSON: \u003c reads the same */
      drv_buf_printf(b, "\\u003c");
    else if (p[1] == '/' && !strncasecmp(p + 2, "script", 6))
      drv_buf_printf(b, "<\\");    /* "<\/script" in a string, template or regex: the same */
    else if (!strncmp(p + 1, "!--", 3))
      drv_buf_printf(b, "<\\");    /* "<\!--": no escaped state that hides the end */
    else
      drv_buf_printf(b, "<");
  }
  drv_buf_printf(b, "</script>\n");
}

/* A run's JSON file: inlined into runs as its own script element (id mrfuzz-KEY, parsed
 * on its own, so a damaged file costs only its part), its path in the data as KEY_path;
 * or KEY_note says why it is missing. */
static void put_file(drv_buf *b, drv_buf *runs, const char *key, const char *path, const char *missing) {
  char *text = drv_read_file(path, NULL);
  drv_buf_printf(b, ",\n\"%s_path\": ", key);
  drv_buf_json_str(b, path);
  drv_buf_printf(b, ", \"%s_note\": ", key);
  if (text) {
    char *attrs = drv_fmt(" type=\"application/json\" id=\"mrfuzz-%s\"", key);
    drv_html_script(runs, attrs, text, true);
    free(attrs);
    drv_buf_printf(b, "null");
  } else {
    char *why = drv_fmt("%s: %s (%s)", path, strerror(errno), missing);
    drv_buf_json_str(b, why);
    free(why);
  }
  free(text);
}

static void put_source(drv_buf *b, const char *path, bool comma) {
  char *text = drv_read_file(path, NULL);
  drv_buf_printf(b, "%s\n  {\"path\": ", comma ? "," : "");
  char *abs = drv_abspath(path);
  drv_buf_json_str(b, abs ? abs : path);
  free(abs);
  drv_buf_printf(b, ", \"text\": ");
  drv_buf_json_str(b, text);
  drv_buf_printf(b, "}");
  free(text);
}

/* See report.h. */
void drv_report_data(drv_buf *b, drv_buf *runs, const drv_report_in *in, bool bundle, const char *bundle_note) {
  drv_buf_printf(b, "{\"target\": ");
  drv_buf_json_str(b, in->target);
  drv_buf_printf(b, ", \"function\": ");
  drv_buf_json_str(b, in->function);
  drv_buf_printf(b, ", \"mr\": ");
  drv_buf_json_str(b, in->mr);
  drv_buf_printf(b, ",\n\"relations\": ");
  put_relations(b, in->mr);
  drv_buf_printf(b, ",\n\"sources\": [");
  put_source(b, in->src_path, false);
  for (size_t i = 0; in->sources && i < in->sources->n; i++)
    put_source(b, in->sources->v[i], true);
  drv_buf_printf(b, "\n]");
  char *p = drv_fmt("%s/" DRV_CHECK_SUMMARY, in->dir);
  put_file(b, runs, "check", p, "run 'mrfuzz check' with this build directory");
  free(p);
  p = drv_fmt("%s/mutants/" DRV_SCORE_MTE, in->dir);
  put_file(b, runs, "score", p, "run 'mrfuzz score' with this build directory");
  free(p);
  p = drv_fmt("%s/mutants/" DRV_SCORE_COVERAGE, in->dir);
  put_file(b, runs, "coverage", p, "run 'mrfuzz score' with this build directory");
  free(p);
  drv_buf_printf(b, ",\n\"mte_bundle\": %s, \"mte_note\": ", bundle ? "true" : "false");
  drv_buf_json_str(b, bundle_note);
  drv_buf_printf(b, "}\n");
}

/* See report.h. */
char *drv_report_bundle(char **why) {
  drv_tools t;
  drv_tools_init(&t);
  char *text = drv_read_file(t.mte_bundle, NULL);
  *why = text ? NULL
              : drv_fmt("%s: %s (the build copies it from driver/report, where scripts/setup "
                        "installs it with npm ci; MRFUZZ_MTE_BUNDLE names another copy)",
                        t.mte_bundle, strerror(errno));
  drv_tools_fini(&t);
  return text;
}
