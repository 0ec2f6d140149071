/* SPDX-License-Identifier: MIT
 * stamp.c - "builds if needed": a harness is reused only when its stamp matches.
 *
 *   DIR/stamp:  mrfuzz-stamp 1
 *               key  <16 hex>           tools (path, size, mtime), mrfuzz itself, flags
 *                                       (the compilation database's, as used, included)
 *               dep  <16 hex> <path>    FNV-1a of the contents of every file clang read
 *
 * Dependencies are hashed by content, not mtime, so a checkout that restores a file does
 * not force a rebuild while any real edit (a source or any header it includes) does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/harness.h"
#include "sig/sig.h"

#define STAMP_MAGIC "mrfuzz-stamp 1"

static uint64_t hash_file_meta(uint64_t h, const char *path) {
  struct stat st;
  h = drv_fnv_str(h, path);
  if (stat(path, &st) == 0) {
    int64_t v[3] = {(int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec};
    h = drv_fnv(h, v, sizeof v);
  }
  return h;
}

static uint64_t hash_list(uint64_t h, const char *tag, const drv_list *l, bool paths) {
  h = drv_fnv_str(h, tag);
  for (size_t i = 0; i < l->n; i++) {
    if (paths) {
      char *a = drv_abspath(l->v[i]);
      h = drv_fnv_str(h, a);
      free(a);
    } else {
      h = drv_fnv_str(h, l->v[i]);
    }
  }
  return h;
}

/* The key of a build: everything but the contents of the files clang reads. */
uint64_t drv_stamp_key(const drv_build_req *req, const drv_tools *t, const char *opt,
                       const drv_cdb *db) {
  const drv_opts *o = req->opts;
  uint64_t h = drv_fnv_str(DRV_FNV_INIT, STAMP_MAGIC);
  /* mrfuzz itself: a new driver may generate a different harness. */
  h = hash_file_meta(h, "/proc/self/exe");
  h = hash_file_meta(h, t->clang);
  h = hash_file_meta(h, t->objcopy);
  h = hash_file_meta(h, t->plugin);
  h = hash_file_meta(h, t->lib_rt);
  h = hash_file_meta(h, t->lib_eng);
  h = hash_file_meta(h, t->lib_dsl);
  h = drv_fnv_str(h, t->include);
  for (size_t i = 0; drv_san_flags[i]; i++)
    h = drv_fnv_str(h, drv_san_flags[i]);
  h = drv_fnv_str(h, req->function);
  if (req->opts->subjects)
    h = hash_list(h, "subjects", req->opts->subjects, false);
  char *file = drv_abspath(req->file);
  h = drv_fnv_str(h, file);
  free(file);
  h = hash_list(h, "sources", req->sources, true);
  h = drv_fnv_str(h, opt);
  h = hash_list(h, "-I", &o->include, true);
  h = hash_list(h, "-D", &o->define, false);
  h = hash_list(h, "-l", &o->lib, false);
  h = hash_list(h, "-L", &o->libdir, true);
  h = hash_list(h, "--array", &o->array, false);
  h = hash_list(h, "--string", &o->string, false);
  h = hash_list(h, "--out", &o->out, false);
  if (o->setup) { /* its contents are in the dependency list, like every source's */
    char *setup = drv_abspath(o->setup);
    h = drv_fnv_str(drv_fnv_str(h, "--setup"), setup);
    free(setup);
  }
  /* The database's flags as used, not its file: an edit of another entry keeps the
   * harness, one of these sources' entries (or a database appearing) rebuilds it. */
  h = drv_fnv_str(h, db->path ? db->path : "no compilation database");
  for (size_t s = 0; s < db->nsrc; s++)
    h = hash_list(h, "cdb", &db->src[s], false);
  h = hash_list(h, "cdb-harness", &db->harness, false);
  return h;
}

/* FNV-1a of a file's contents; false when it cannot be read. */
static bool hash_contents(const char *path, uint64_t *h) {
  size_t len;
  char *s = drv_read_file(path, &len);
  if (!s)
    return false;
  *h = drv_fnv(DRV_FNV_INIT, s, len);
  free(s);
  return true;
}

/* Is the stamp in dir current for key (see harness.h)? */
bool drv_stamp_ok(const char *dir, uint64_t key) {
  char *path = drv_fmt("%s/stamp", dir);
  char *s = drv_read_file(path, NULL);
  free(path);
  if (!s)
    return false;
  bool ok = false;
  char *save = NULL, *line = strtok_r(s, "\n", &save);
  if (!line || strcmp(line, STAMP_MAGIC) != 0)
    goto out;
  unsigned long long k;
  line = strtok_r(NULL, "\n", &save);
  if (!line || sscanf(line, "key %16llx", &k) != 1 || k != key)
    goto out;
  ok = true;
  while (ok && (line = strtok_r(NULL, "\n", &save))) {
    unsigned long long want;
    int off = 0;
    uint64_t got;
    if (sscanf(line, "dep %16llx %n", &want, &off) != 1 || off == 0)
      ok = false;
    else
      ok = hash_contents(line + off, &got) && got == want;
  }
out:
  free(s);
  return ok;
}

/* Paths of a Makefile-style .d file ("obj.o: a.c b.h \" ...), appended to out (owned). */
static void parse_depfile(const char *text, drv_list *out) {
  const char *p = strstr(text, ": ");
  if (!p)
    return;
  p += 2;
  drv_buf tok = {0};
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n'))
      p += *p == '\\' ? 2 : 1;
    if (!*p)
      break;
    tok.len = 0;
    drv_buf_printf(&tok, "%s", "");
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\\' && p[1] == '\n')
        break;
      if (*p == '\\' && p[1] == ' ')
        p++;
      drv_buf_printf(&tok, "%c", *p++);
    }
    char *abs = drv_abspath(tok.s);
    bool seen = false;
    for (size_t i = 0; i < out->n && !seen; i++)
      seen = strcmp(out->v[i], abs) == 0;
    if (seen)
      free(abs);
    else
      drv_list_push(out, abs);
  }
  drv_buf_fini(&tok);
}

/* Write dir/stamp for key from the .d files (see harness.h). */
int drv_stamp_write(const char *dir, uint64_t key, const drv_list *depfiles) {
  drv_list deps = {0};
  int saved;
  for (size_t i = 0; i < depfiles->n; i++) {
    char *text = drv_read_file(depfiles->v[i], NULL);
    if (!text)
      goto fail;
    parse_depfile(text, &deps);
    free(text);
  }
  drv_buf b = {0};
  drv_buf_printf(&b, "%s\nkey %016llx\n", STAMP_MAGIC, (unsigned long long)key);
  for (size_t i = 0; i < deps.n; i++) {
    uint64_t h;
    if (!hash_contents(deps.v[i], &h)) {
      drv_buf_fini(&b);
      goto fail;
    }
    drv_buf_printf(&b, "dep %016llx %s\n", (unsigned long long)h, deps.v[i]);
  }
  char *path = drv_fmt("%s/stamp", dir);
  int rc = drv_write_atomic(path, b.s, b.len);
  saved = errno;
  free(path);
  drv_buf_fini(&b);
  for (size_t i = 0; i < deps.n; i++)
    free((char *)deps.v[i]);
  drv_list_fini(&deps);
  errno = saved;
  return rc;
fail:
  saved = errno;
  for (size_t i = 0; i < deps.n; i++)
    free((char *)deps.v[i]);
  drv_list_fini(&deps);
  errno = saved;
  return -1;
}
