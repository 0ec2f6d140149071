/* SPDX-License-Identifier: MIT
 * util.c - the driver's small helpers: messages, allocation that exits on exhaustion,
 * text buffers, FNV-1a hashing and file I/O (atomic writes: temp file + rename, so a
 * reader never sees a half-written file; through symlinks, keeping the file's mode).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/drv.h"
#include <mrfuzz/mr_json.h>

static drv_buf *captured; /* drv_error_capture: errors go here instead of stderr */

/* See drv.h. */
void drv_error_capture(drv_buf *b) { captured = b; }

static void vmsg(const char *tag, const char *fmt, va_list ap) {
  if (captured && !strcmp(tag, "mrfuzz: error: ")) { /* the last error is the reason */
    char m[1024];
    vsnprintf(m, sizeof m, fmt, ap);
    drv_buf_fini(captured);
    drv_buf_printf(captured, "%s", m);
    return;
  }
  fputs(tag, stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

/* Print "mrfuzz: error: <message>" on stderr. */
void drv_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("mrfuzz: error: ", fmt, ap);
  va_end(ap);
}

/* Print "mrfuzz: warning: <message>" on stderr. */
void drv_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("mrfuzz: warning: ", fmt, ap);
  va_end(ap);
}

/* Print "mrfuzz: <message>" on stderr (progress, kept off stdout, which carries data). */
void drv_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("mrfuzz: ", fmt, ap);
  va_end(ap);
}

static void oom(void) {
  drv_error("out of memory");
  exit(DRV_EXIT_INTERNAL);
}

/* malloc that exits with code 3 on exhaustion; never returns NULL. */
void *drv_alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    oom();
  return p;
}

/* realloc that exits with code 3 on exhaustion. */
void *drv_realloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q)
    oom();
  return q;
}

/* strdup that exits with code 3 on exhaustion; NULL stays NULL. */
char *drv_strdup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  return memcpy(drv_alloc(n), s, n);
}

/* printf into a new string; caller frees. */
char *drv_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = drv_alloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* Append printf output to b, growing it geometrically. */
void drv_buf_printf(drv_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + (size_t)n + 1)
      cap *= 2;
    b->s = drv_realloc(b->s, cap);
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* Release b's memory and reset it to empty. */
void drv_buf_fini(drv_buf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

/* Append a borrowed string to l. */
void drv_list_push(drv_list *l, const char *s) {
  l->v = drv_realloc(l->v, (l->n + 1) * sizeof *l->v);
  l->v[l->n++] = s;
}

static int by_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* See drv.h. */
void drv_list_sort(drv_list *l, size_t from) {
  if (l->n > from + 1) /* qsort's array must not be NULL, even for no element */
    qsort(l->v + from, l->n - from, sizeof *l->v, by_str);
}

/* Release l's array (not the strings, which are borrowed). */
void drv_list_fini(drv_list *l) {
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* Continue the FNV-1a 64 hash h over n bytes at p. */
uint64_t drv_fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    h ^= c[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* Hash a string and its NUL, so that ("ab","c") and ("a","bc") differ. */
uint64_t drv_fnv_str(uint64_t h, const char *s) {
  return drv_fnv(h, s ? s : "", strlen(s ? s : "") + 1);
}

/* See drv.h. A directory or a regular file over max is refused before reading; a stream
 * (pipe, /dev/zero) is read up to max + 1 bytes at most. */
char *drv_read_file_max(const char *path, size_t max, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  struct stat st;
  int err = 0;
  if (fstat(fileno(f), &st) != 0)
    err = errno;
  else if (S_ISDIR(st.st_mode))
    err = EISDIR;
  else if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max)
    err = EFBIG;
  size_t cap = 4096, n = 0;
  char *s = err ? NULL : drv_alloc(cap);
  while (!err) {
    size_t want = cap - n - 1, got = fread(s + n, 1, want, f);
    n += got;
    if (n > max) {
      err = EFBIG;
    } else if (got < want) {
      break;
    } else { /* full: grow, at most to max + 1 bytes and the NUL */
      cap = cap > max / 2 ? max + 2 : cap * 2;
      s = drv_realloc(s, cap);
    }
  }
  if (!err && ferror(f))
    err = EIO;
  fclose(f);
  if (err) {
    free(s);
    errno = err;
    return NULL;
  }
  s[n] = '\0';
  if (len)
    *len = n;
  return s;
}

/* Read a whole file, any size; see drv_read_file_max. */
char *drv_read_file(const char *path, size_t *len) {
  return drv_read_file_max(path, SIZE_MAX / 2, len);
}

/* Where a write to path lands: path, or the file its chain of symlinks ends at (a relative
 * link is read against the link's directory; the end need not exist yet). NULL (ELOOP)
 * for a loop. Caller frees. */
static char *write_target(const char *path) {
  char *p = drv_strdup(path);
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    char buf[PATH_MAX];
    ssize_t n;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode) || (n = readlink(p, buf, sizeof buf - 1)) < 0)
      return p;
    buf[n] = '\0';
    char *slash = strrchr(p, '/');
    char *next = buf[0] == '/' || !slash ? drv_strdup(buf)
                                         : drv_fmt("%.*s/%s", (int)(slash - p), p, buf);
    free(p);
    p = next;
  }
  free(p);
  errno = ELOOP;
  return NULL;
}

/* Write data through "<target>.tmp.<pid>" and rename(2), which is atomic on POSIX. The
 * target is where path's symlinks lead, so a link stays a link; an existing target keeps
 * its mode (the temp file would otherwise get the umask's). */
int drv_write_atomic(const char *path, const char *data, size_t len) {
  char *dst = write_target(path);
  if (!dst)
    return -1;
  struct stat st;
  bool keep_mode = stat(dst, &st) == 0;
  char *tmp = drv_fmt("%s.tmp.%ld", dst, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
  bool bad = fd < 0 || (keep_mode && fchmod(fd, st.st_mode & 07777) != 0);
  for (size_t off = 0; !bad && off < len;) {
    ssize_t w = write(fd, data + off, len - off);
    if (w >= 0)
      off += (size_t)w;
    else if (errno != EINTR)
      bad = true;
  }
  bad = bad || fsync(fd) != 0; /* the data is on disk before the name points at it */
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && !bad) {
    bad = true;
    saved = errno;
  }
  if (!bad && rename(tmp, dst) != 0) {
    bad = true;
    saved = errno;
  }
  if (bad && fd >= 0)
    unlink(tmp);
  free(tmp);
  free(dst);
  errno = saved;
  return bad ? -1 : 0;
}

/* See drv.h. */
int drv_write_report(const char *path, void (*put)(FILE *f, const void *ud), const void *ud) {
  char *data = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&data, &len);
  if (!f)
    return -1;
  put(f, ud);
  int rc = fclose(f) == 0 ? drv_write_atomic(path, data, len) : -1;
  int saved = errno;
  free(data);
  errno = saved;
  return rc;
}

/* See drv.h. */
int drv_check_reports(const char *json, const char *sarif) {
  const char *opt[2] = {"--json", "--sarif"}, *path[2] = {json, sarif};
  for (int i = 0; i < 2; i++)
    if (path[i] && !strcmp(path[i], "-")) {
      drv_error("%s needs a file: the summary itself goes to stdout", opt[i]);
      return DRV_EXIT_USAGE;
    } else if (path[i] && drv_check_output(opt[i], path[i]) != DRV_EXIT_OK) {
      return DRV_EXIT_USAGE;
    }
  return DRV_EXIT_OK;
}

int drv_copy_file(const char *from, const char *to) {
  size_t len;
  char *text = drv_read_file(from, &len);
  int rc = text ? drv_write_atomic(to, text, len) : -1;
  free(text);
  return rc;
}

static FILE *rel_stream;

/* See drv.h. */
void drv_relations_alone_on_stdout(void) {
  if (rel_stream)
    return;
  fflush(stdout);
  int fd = dup(1);
  if (fd < 0 || !(rel_stream = fdopen(fd, "w")) || dup2(2, 1) < 0)
    return; /* everything stays on stdout, as before */
  char v[16];
  snprintf(v, sizeof v, "%d", fd);
  setenv("MRFUZZ_RELATIONS_FD", v, 1);
}

/* See drv.h. */
FILE *drv_relations_stream(void) { return rel_stream ? rel_stream : stdout; }

/* See drv.h. Only access(2) and stat(2): a refused run leaves no probe file behind. */
int drv_check_output(const char *opt, const char *path) {
  struct stat st;
  if (!strcmp(path, "-"))
    return DRV_EXIT_OK;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    drv_error("%s %s: is a directory (nothing was run)", opt, path);
    return DRV_EXIT_USAGE;
  }
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return DRV_EXIT_OK; /* a device or a pipe (--trace /dev/null) is written in place */
  /* the writers put a temp file next to path and rename it: its directory must take both */
  char *dir = drv_strdup(path), *slash = strrchr(dir, '/');
  if (slash)
    *(slash == dir ? slash + 1 : slash) = '\0'; /* "/x.mr": "/" */
  int rc = DRV_EXIT_OK;
  if (access(slash ? dir : ".", W_OK | X_OK) != 0) {
    drv_error("%s %s: cannot write in %s: %s (nothing was run)", opt, path, slash ? dir : ".",
              strerror(errno));
    rc = DRV_EXIT_USAGE;
  }
  free(dir);
  return rc;
}

/* See drv.h. */
bool drv_meta_is_output(const char *meta) {
  return meta && !strncmp(meta, "OUT", 3);
}

/* Create path and its missing parents (mode 0777 & ~umask). */
int drv_mkdirs(const char *path) {
  char *p = drv_strdup(path);
  for (char *c = p + 1; *c; c++) {
    if (*c != '/')
      continue;
    *c = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      free(p);
      return -1;
    }
    *c = '/';
  }
  int rc = mkdir(p, 0777);
  free(p);
  if (rc != 0 && errno != EEXIST)
    return -1;
  struct stat st;
  if (stat(path, &st) != 0)
    return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

/* The absolute form of path; caller frees. */
char *drv_abspath(const char *path) {
  char buf[PATH_MAX];
  if (realpath(path, buf))
    return drv_strdup(buf);
  if (path[0] == '/' || !getcwd(buf, sizeof buf))
    return drv_strdup(path);
  return drv_fmt("%s/%s", buf, path);
}

/* See drv.h. */
bool drv_parse_secs(const char *opt, const char *v, double max, double *out) {
  char *end = NULL;
  double x = strtod(v, &end);
  if (end == v || *end || !(x >= 0 && x <= max)) {
    if (max == HUGE_VAL)
      drv_error("%s: expected a number of seconds >= 0, got '%s'", opt, v);
    else
      drv_error("%s: expected a number of seconds in [0, %g], got '%s'", opt, max, v);
    return false;
  }
  *out = x;
  return true;
}

/* See drv.h. */
bool drv_parse_whole(const char *opt, const char *v, unsigned long lo, unsigned long hi, unsigned long *out) {
  char *end = NULL;
  errno = 0;
  unsigned long n = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
  if (!end || *end || errno || n < lo || n > hi) {
    if (hi >= 0xffffffffUL)
      drv_error("%s %s: expected a whole number >= %lu", opt, v, lo);
    else
      drv_error("%s %s: expected a whole number from %lu to %lu", opt, v, lo, hi);
    return false;
  }
  if (out)
    *out = n;
  return true;
}

/* See drv.h. */
unsigned drv_ncpu(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

/* Does s end with suffix? */
/* See drv.h. */
bool drv_is_c_name(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$' || c >= 0x80;
    if (!letter && !(i && c >= '0' && c <= '9'))
      return false;
  }
  return n > 0;
}

/* See drv.h. */
int drv_width(const char *s, int cols) {
  for (; *s; s++)
    cols += ((unsigned char)*s & 0xc0) == 0x80; /* a UTF-8 continuation byte takes no column */
  return cols;
}

/* See drv.h. */
char *drv_fn_dir(const char *root, const char *function) {
  char *d = drv_fmt("%s/%s", root, function);
  for (char *p = d + strlen(root) + 1; *p; p++)
    if (*p == '$')
      *p = '-';
  return d;
}

bool drv_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* See drv.h. mr_json_escape's escaping: one JSON spelling across the reports. */
void drv_buf_json_str(drv_buf *b, const char *s) {
  if (!s) {
    drv_buf_printf(b, "null");
    return;
  }
  char *t = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&t, &n);
  if (!f)
    oom();
  mr_json_escape(f, s, strlen(s));
  fclose(f);
  drv_buf_printf(b, "%s", t ? t : "\"\"");
  free(t);
}

/* See drv.h. */
void drv_buf_shell_arg(drv_buf *b, const char *a) {
  bool quote = !*a || a[strcspn(a, " \t\n'\"\\$`*?[]{}()<>|&;!#~")];
  drv_buf_printf(b, "%s", quote ? "'" : "");
  for (; *a; a++)
    drv_buf_printf(b, "%s", *a == '\'' && quote ? "'\\''" : (char[]){*a, 0});
  drv_buf_printf(b, "%s", quote ? "'" : "");
}
