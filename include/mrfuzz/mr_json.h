/* SPDX-License-Identifier: MIT
 * mr_json.h - the JSON and SARIF writers of libmrrt, shared by the driver (check's
 * --json and --sarif, discover FILE's) and the engines in the harness (score's Mutation
 * Testing Elements report and --sarif, discover's --json and --sarif, mutants --json), so
 * every report escapes strings and lays out SARIF the same way (rt/core/json.c, sarif.c).
 */
#ifndef MRFUZZ_MR_JSON_H
#define MRFUZZ_MR_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mr_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* s[0..n) as a JSON string with its quotes: escapes as JSON requires, valid UTF-8 as is,
 * each byte of invalid UTF-8 as \u00XX, so the output is always valid JSON. */
MR_API void mr_json_escape(FILE *f, const char *s, size_t n);

/* A writer of one JSON document, indented two spaces a level (depth at most 32: a deeper
 * object or array is not opened). Inside an object every value takes its key; inside an
 * array and at the top the key is NULL. */
typedef struct mr_json {
  FILE *f;
  int depth;
  char close[32]; /* '}' or ']' per open level */
  bool any[32];   /* the level has a value already (a comma goes first) */
} mr_json;

MR_API void mr_json_init(mr_json *j, FILE *f);
MR_API void mr_json_obj(mr_json *j, const char *key);                /* { */
MR_API void mr_json_arr(mr_json *j, const char *key);                /* [ */
MR_API void mr_json_end(mr_json *j);                                 /* the innermost } or ] */
MR_API void mr_json_str(mr_json *j, const char *key, const char *s); /* NULL: null */
MR_API void mr_json_u64(mr_json *j, const char *key, uint64_t v);
MR_API void mr_json_i64(mr_json *j, const char *key, int64_t v);
MR_API void mr_json_num(mr_json *j, const char *key, double v);      /* not finite: null */
MR_API void mr_json_bool(mr_json *j, const char *key, bool v);
MR_API void mr_json_null(mr_json *j, const char *key);
/* The separator and key of a value the caller writes itself, as valid JSON, to j->f. */
MR_API void mr_json_key(mr_json *j, const char *key);

/* ---- SARIF 2.1.0 (docs/checking.md, "SARIF") ---------------------------------------- */

/* A place in a file: a source line (the target's definition, a mutant) or a relation's
 * line in its .mr file. line 0: the file as a whole; col 0: no column. */
typedef struct mr_sarif_loc {
  const char *file;
  unsigned line, col;
  const char *text; /* what is there (a related location's message); may be NULL */
} mr_sarif_loc;

/* A rule: a relation (its .mr file and line), or one of mrfuzz's own kinds of finding. */
typedef struct mr_sarif_rule {
  const char *id;
  const char *name;
  const char *text;   /* its short description */
  mr_sarif_loc where; /* the relation's .mr file and line (file NULL: none) */
} mr_sarif_rule;

/* One result. */
typedef struct mr_sarif_result {
  size_t rule;                /* index into the rules */
  const char *level;          /* "error", "warning" or "note" */
  const char *message;
  mr_sarif_loc loc;           /* file NULL: no location */
  const mr_sarif_loc *related; /* [nrelated]: the relations involved, where they are */
  size_t nrelated;
  const char *function;       /* properties; NULL: left out */
  const char *reproducer;
  const char *replay;
} mr_sarif_result;

/* One run of a SARIF log: tool mrfuzz VERSION. Paths under srcroot (an absolute
 * directory, usually the working directory; NULL: none) are written relative to
 * %SRCROOT%, as GitHub code scanning resolves them against the checkout; others as
 * absolute file: URIs. */
MR_API void mr_sarif_write(FILE *f, const char *version, const char *srcroot, const mr_sarif_rule *rules,
                           size_t nrules, const mr_sarif_result *res, size_t nres);

#ifdef __cplusplus
}
#endif

#endif /* MRFUZZ_MR_JSON_H */
