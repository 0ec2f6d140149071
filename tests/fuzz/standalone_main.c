/* SPDX-License-Identifier: MIT
 * standalone_main.c - replays files (or every file of directories) through
 * LLVMFuzzerTestOneInput, so every build runs the fuzz corpus as a regression test
 * (like SQLite's fuzzcheck): it looks for crashes, sanitizer reports and leaks.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 4096;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return 1;
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    if (got == 0) break;
    len += got;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int replay_path(const char *path, int *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: no such file or directory: %s\n", path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode)) {
    (*count)++;
    return replay_file(path);
  }
  DIR *d = opendir(path);
  if (!d) return 1;
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    rc |= replay_path(sub, count);
  }
  closedir(d);
  return rc;
}

int main(int argc, char **argv) {
  int rc = 0, count = 0;
  for (int i = 1; i < argc; i++) rc |= replay_path(argv[i], &count);
  printf("replayed %d input(s)\n", count);
  return rc;
}
