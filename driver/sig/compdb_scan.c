/* SPDX-License-Identifier: MIT
 * compdb_scan.c - a compilation database read as a stream before libclang sees it. libclang
 * loads the whole file: a 50 MB compile_commands.json cost 929 MB of memory per command,
 * and a truncated one printed libclang's parser error and was used with the entries before
 * the cut (exit 0). The scan keeps one entry at a time, copies the entries that may be the
 * sources' own (their text names a source's file name; libclang decides which is) into a
 * small database, and refuses a file that is not one whole JSON array of objects, with the
 * byte where it stops making sense (exit 2). Only the structure is checked here: strings,
 * nesting and the array's commas; the entries kept are parsed by libclang in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sig/sig.h"

typedef struct scan {
  FILE *in;
  long off;  /* of the byte last read */
  int c;     /* that byte, or EOF */
} scan;

static int next(scan *s) {
  s->c = getc(s->in);
  s->off++;
  return s->c;
}

static int skip_ws(scan *s) {
  while (s->c == ' ' || s->c == '\t' || s->c == '\n' || s->c == '\r')
    next(s);
  return s->c;
}

/* c onto b (a byte at a time: drv_buf_printf per byte would cost seconds on 50 MB). */
static void put(drv_buf *b, char c) {
  if (b->len + 2 > b->cap) {
    b->cap = b->cap ? 2 * b->cap : 4096;
    b->s = drv_realloc(b->s, b->cap);
  }
  b->s[b->len++] = c;
  b->s[b->len] = '\0';
}

/* One object from its '{' (s->c) to its '}' into o; false at the end of the file. */
static bool object(scan *s, drv_buf *o) {
  int depth = 0;
  bool str = false, esc = false;
  for (;;) {
    if (s->c == EOF)
      return false;
    put(o, (char)s->c);
    if (str) {
      if (esc)
        esc = false;
      else if (s->c == '\\')
        esc = true;
      else if (s->c == '"')
        str = false;
    } else if (s->c == '"') {
      str = true;
    } else if (s->c == '{' || s->c == '[') {
      depth++;
    } else if ((s->c == '}' || s->c == ']') && --depth == 0) {
      next(s);
      return true;
    }
    next(s);
  }
}

/* Does the entry's text name one of names (file names, without their directories)? */
static bool mentions(const char *text, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && *names[i] && strstr(text, names[i]))
      return true;
  return false;
}

/* See sig.h. */
int drv_cdb_extract(const char *json, const char *const *names, size_t n, const char *out, size_t *kept) {
  *kept = 0;
  FILE *in = fopen(json, "rb");
  if (!in) {
    drv_error("cannot read the compilation database %s: %s", json, strerror(errno));
    return DRV_EXIT_USAGE;
  }
  scan s = {in, -1, 0};
  next(&s);
  drv_buf keep = {0}, one = {0};
  const char *bad = NULL;
  drv_buf_printf(&keep, "[");
  if (skip_ws(&s) != '[') {
    bad = "it does not start with '['";
  } else {
    next(&s);
    bool first = true;
    for (;;) {
      skip_ws(&s);
      if (s.c == ']' && first) {
        next(&s);
        break;
      }
      if (s.c != '{') {
        bad = s.c == EOF ? "it ends inside the array (truncated?)" : "an entry is not an object";
        break;
      }
      one.len = 0;
      if (one.s)
        one.s[0] = '\0';
      if (!object(&s, &one)) {
        bad = "it ends inside an entry (truncated?)";
        break;
      }
      if (mentions(one.s, names, n))
        drv_buf_printf(&keep, "%s%s\n", (*kept)++ ? "," : "", one.s);
      first = false;
      skip_ws(&s);
      if (s.c == ',') {
        next(&s);
      } else if (s.c == ']') {
        next(&s);
        break;
      } else {
        bad = s.c == EOF ? "it ends inside the array (truncated?)" : "entries are not separated by ','";
        break;
      }
    }
    if (!bad && skip_ws(&s) != EOF)
      bad = "there is more after the array";
  }
  bool rerr = ferror(in);
  fclose(in);
  drv_buf_printf(&keep, "]\n");
  int rc = DRV_EXIT_OK;
  if (rerr) {
    drv_error("cannot read the compilation database %s", json);
    rc = DRV_EXIT_USAGE;
  } else if (bad) {
    drv_error("%s: not a compilation database (a JSON array of entries): %s, at byte %ld", json, bad,
              s.off);
    rc = DRV_EXIT_USAGE;
  } else if (drv_write_atomic(out, keep.s, keep.len) != 0) {
    drv_error("cannot write %s: %s", out, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  drv_buf_fini(&keep);
  drv_buf_fini(&one);
  return rc;
}
