/* SPDX-License-Identifier: MIT
 * rt_test.h - helpers of the runtime-core unit tests: the hook prototypes as instrumented
 * code sees them (mr_abi.h), slot encoding like the pass does it, temporary trace paths,
 * and rendering a trace into a string.
 */
#ifndef MR_RT_TEST_H
#define MR_RT_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mrfuzz/mr_abi.h"
#include "mrfuzz/mr_rt.h"

void __mr_enter(mr_fn_desc *desc, const uint64_t *args);
void __mr_exit(mr_fn_desc *desc, const uint64_t *args, uint64_t ret);
void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);

/* Slots as the pass fills them: signed integers sign-extended, f32 as its bits. */
static inline uint64_t slot_i(int64_t v) { return (uint64_t)v; }
static inline uint64_t slot_p(const void *p) { return (uint64_t)(uintptr_t)p; }
static inline uint64_t slot_f64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
static inline uint64_t slot_f32(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

/* Register the descriptors of one "module". */
static inline void register_fns(mr_fn_desc **fns, size_t n) {
  __mr_module_init(MR_ABI_VERSION, fns, fns + n);
}

/* A fresh path in a per-process temporary directory (removed files are not cleaned up
 * on failure, to keep the evidence). */
static inline const char *tmp_path(const char *name) {
  static char dir[256];
  static char path[512];
  if (!dir[0]) {
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/mrrt_test_XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir)) {
      perror("mkdtemp");
      exit(2);
    }
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  unlink(path);
  return path;
}

/* Render the trace at path with mr_trace_write_jsonl (summary when `summary`) into a
 * malloc'd string; *rc gets the return code and err the message. */
static inline char *render(const char *path, bool summary, int *rc, char *err, size_t errlen) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  *rc = summary ? mr_trace_write_summary(path, f, err, errlen)
                : mr_trace_write_jsonl(path, f, err, errlen);
  fclose(f);
  return s;
}

#ifdef MR_RT_INT_H
/* Render a trace image held in memory as JSON Lines (the internal rt_render_jsonl) into a
 * malloc'd string; *rc gets the return code and err the message. */
static inline char *render_mem(const unsigned char *buf, size_t len, int *rc, char *err,
                               size_t errlen) {
  char *s = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&s, &n);
  *rc = rt_render_jsonl(buf, len, f, err, errlen);
  fclose(f);
  return s;
}
#endif

/* The whole file at path as a malloc'd buffer of *len bytes (NULL when unreadable). */
static inline unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
  *len = fread(b, 1, n > 0 ? (size_t)n : 0, f);
  fclose(f);
  return b;
}

/* Number of lines of s containing `needle` (all lines when needle is NULL). */
static inline size_t count_lines(const char *s, const char *needle) {
  size_t n = 0;
  while (s && *s) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (!needle) {
      n++;
    } else {
      for (size_t i = 0; i + strlen(needle) <= len; i++)
        if (!memcmp(s + i, needle, strlen(needle))) {
          n++;
          break;
        }
    }
    s += len + (e != NULL);
  }
  return n;
}

/* Remove the temporary directory of tmp_path() and its files (after a passing run). */
static inline void tmp_cleanup(void) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s", tmp_path("x"));
  *strrchr(dir, '/') = '\0';
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char f[1024];
    snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
    unlink(f);
  }
  if (d) closedir(d);
  rmdir(dir);
}

#endif /* MR_RT_TEST_H */
