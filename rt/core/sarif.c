/* SPDX-License-Identifier: MIT
 * sarif.c - one SARIF 2.1.0 log (mr_json.h), the form CI systems read (GitHub code
 * scanning among them): the rules are relations, or mrfuzz's own kinds of finding, each
 * with its .mr file and line; a result's location is the target function's definition or
 * a mutant's position, its related locations the relations, its properties the
 * reproducer and the command that replays it. The mapping: docs/checking.md, "SARIF".
 */
#include <stdio.h>
#include <string.h>

#include "mrfuzz/mr_json.h"

/* prefix + path as a quoted URI reference: unreserved bytes and '/' as they are, others
 * %XX; dir: ending in '/', as a base URI must. */
static void put_uri(FILE *f, const char *prefix, const char *path, bool dir) {
  fputc('"', f);
  fputs(prefix, f);
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, f);
    else
      fprintf(f, "%%%02X", *p);
  if (dir && (!*path || path[strlen(path) - 1] != '/'))
    fputc('/', f);
  fputc('"', f);
}

/* Is path under directory root (an absolute path without its trailing '/')? The part
 * after it, or NULL. */
static const char *under(const char *root, const char *path) {
  size_t n = root ? strlen(root) : 0;
  while (n > 1 && root[n - 1] == '/')
    n--;
  if (!n || strncmp(path, root, n) || path[n] != '/')
    return NULL;
  return path + n + 1;
}

/* {"artifactLocation": ..., "region": ...} of loc. */
static void physical(mr_json *j, const char *srcroot, const mr_sarif_loc *loc) {
  mr_json_obj(j, "physicalLocation");
  mr_json_obj(j, "artifactLocation");
  const char *rel = loc->file[0] == '/' ? under(srcroot, loc->file) : loc->file;
  mr_json_key(j, "uri"); /* a URI: percent-encoded, never JSON-escaped */
  if (rel)
    put_uri(j->f, "", rel, false);
  else
    put_uri(j->f, "file://", loc->file, false);
  if (rel && loc->file[0] == '/')
    mr_json_str(j, "uriBaseId", "%SRCROOT%");
  mr_json_end(j);
  if (loc->line) {
    mr_json_obj(j, "region");
    mr_json_u64(j, "startLine", loc->line);
    if (loc->col)
      mr_json_u64(j, "startColumn", loc->col);
    mr_json_end(j);
  }
  mr_json_end(j);
}

static void location(mr_json *j, const char *srcroot, const mr_sarif_loc *loc, int id) {
  mr_json_obj(j, NULL);
  if (id >= 0)
    mr_json_i64(j, "id", id);
  physical(j, srcroot, loc);
  if (loc->text) {
    mr_json_obj(j, "message");
    mr_json_str(j, "text", loc->text);
    mr_json_end(j);
  }
  mr_json_end(j);
}

static void rule(mr_json *j, const mr_sarif_rule *r) {
  mr_json_obj(j, NULL);
  mr_json_str(j, "id", r->id);
  mr_json_str(j, "name", r->name);
  mr_json_obj(j, "shortDescription");
  mr_json_str(j, "text", r->text);
  mr_json_end(j);
  if (r->where.file) {
    mr_json_obj(j, "properties");
    mr_json_str(j, "mrFile", r->where.file);
    if (r->where.line)
      mr_json_u64(j, "mrLine", r->where.line);
    mr_json_end(j);
  }
  mr_json_end(j);
}

static void result(mr_json *j, const char *srcroot, const mr_sarif_rule *rules, const mr_sarif_result *r) {
  mr_json_obj(j, NULL);
  mr_json_str(j, "ruleId", rules[r->rule].id);
  mr_json_u64(j, "ruleIndex", r->rule);
  mr_json_str(j, "level", r->level);
  mr_json_obj(j, "message");
  mr_json_str(j, "text", r->message);
  mr_json_end(j);
  if (r->loc.file) {
    mr_json_arr(j, "locations");
    location(j, srcroot, &r->loc, -1);
    mr_json_end(j);
  }
  if (r->nrelated) {
    mr_json_arr(j, "relatedLocations");
    for (size_t i = 0; i < r->nrelated; i++)
      location(j, srcroot, &r->related[i], (int)i);
    mr_json_end(j);
  }
  if (r->function || r->reproducer || r->replay) {
    mr_json_obj(j, "properties");
    if (r->function)
      mr_json_str(j, "function", r->function);
    if (r->reproducer)
      mr_json_str(j, "reproducer", r->reproducer);
    if (r->replay)
      mr_json_str(j, "replay", r->replay);
    mr_json_end(j);
  }
  mr_json_end(j);
}

/* See mr_json.h. */
void mr_sarif_write(FILE *f, const char *version, const char *srcroot, const mr_sarif_rule *rules,
                    size_t nrules, const mr_sarif_result *res, size_t nres) {
  mr_json j;
  mr_json_init(&j, f);
  mr_json_obj(&j, NULL);
  mr_json_str(&j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  mr_json_str(&j, "version", "2.1.0");
  mr_json_arr(&j, "runs");
  mr_json_obj(&j, NULL);
  mr_json_obj(&j, "tool");
  mr_json_obj(&j, "driver");
  mr_json_str(&j, "name", "mrfuzz");
  mr_json_str(&j, "version", version);
  mr_json_arr(&j, "rules");
  for (size_t i = 0; i < nrules; i++)
    rule(&j, &rules[i]);
  mr_json_end(&j);
  mr_json_end(&j);
  mr_json_end(&j);
  if (srcroot) {
    mr_json_obj(&j, "originalUriBaseIds");
    mr_json_obj(&j, "%SRCROOT%");
    mr_json_key(&j, "uri");
    put_uri(f, "file://", srcroot, true);
    mr_json_end(&j);
    mr_json_end(&j);
  }
  mr_json_arr(&j, "results");
  for (size_t i = 0; i < nres; i++)
    result(&j, srcroot, rules, &res[i]);
  mr_json_end(&j);
  mr_json_end(&j);
  mr_json_end(&j);
  mr_json_end(&j);
}
