/* SPDX-License-Identifier: MIT
 * disc_suspect.c - suspected faults (docs/discover.md, "Suspected faults"): a candidate
 * that held on all but a few inputs of the domain is evidence, not noise, when the code
 * under discovery is today's code. It is never written as a relation and never dropped
 * silently: it goes to OUT.suspects.mr, each input that broke it becomes a reproducer in
 * OUT.suspects/ (check's encoding), and this harness replays it the way `mrfuzz repro`
 * does (its own `repro` and `minimize` commands, children of /proc/self/exe), so what is
 * reported is what the user can replay.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "automr/disc.h"

/* Suspects shown with replayed reproducers (the simplest; all go to the file). */
#define SHOWN 5

/* The arguments of a replay (argv NULL-terminated in a[], the ud of exec_self). */
typedef struct self_args {
  const char *a[16];
  const char *log; /* the child's stdout and stderr, or NULL: none */
} self_args;

static int exec_self(void *ud) {
  self_args *x = ud;
  if (x->log) {
    int fd = open(x->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) return 127;
    close(fd);
  }
  execv("/proc/self/exe", (char *const *)x->a);
  return 127;
}

/* Run this harness's `cmd` (repro or minimize) on input `file` against relation `rel` of
 * `mr`, quietly; its exit status (-1: it did not run). */
static int replay(const char *cmd, const char *mr, const char *rel, const char *file, const char *out,
                  const char *range_args, const char *log) {
  self_args x = {{"harness", cmd, "--mr", mr, "--relation", rel}, log};
  int n = 6;
  char ranges[4096];
  snprintf(ranges, sizeof ranges, "%s", range_args ? range_args : "");
  for (char *tok = strtok(ranges, "\n"); tok && n < 12; tok = strtok(NULL, "\n"))
    x.a[n++] = tok;
  if (out) {
    x.a[n++] = "-o";
    x.a[n++] = out;
  }
  x.a[n++] = file;
  x.a[n] = NULL;
  eng_child_opts q = {.quiet = !log};
  pid_t pid = eng_fork(&q, exec_self, &x);
  if (pid < 0)
    return -1;
  int st = eng_child_wait(pid, eng_now() + 120, NULL, NULL, NULL);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool write_file(const char *path, const uint8_t *d, size_t n) {
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(d, 1, n, f) == n;
  return f && fclose(f) == 0 && ok;
}

/* The triage line of a replay's output (eng_triage) onto so, indented under its reproducer. */
static void put_triage(FILE *so, const char *log) {
  FILE *f = fopen(log, "r");
  char line[1024];
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "triage ", 7)) {
      fprintf(so, "      %s%s", line, strchr(line, '\n') ? "" : "\n");
      break;
    }
  if (f) fclose(f);
}

/* OUT.mr -> OUT.suspects.mr and OUT.suspects (the extension dropped first). */
static void suspect_paths(const char *out, char *mr, char *dir, size_t cap) {
  size_t n = strlen(out);
  if (n > 3 && !strcmp(out + n - 3, ".mr"))
    n -= 3;
  snprintf(mr, cap, "%.*s.suspects.mr", (int)n, out);
  snprintf(dir, cap, "%.*s.suspects", (int)n, out);
}

/* The file states the domains its suspects were found on (range_args: "--range\nx=LO:HI"
 * or "--range\nx=whole" lines), so `mrfuzz repro` replays their reproducers as they are. */
static void set_domains(mrdsl_ctx *ctx, mrdsl_file *f, const char *range_args) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", range_args ? range_args : "");
  char *save = NULL;
  for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char *eq = strchr(l, '=');
    if (!strcmp(l, "--range") || !eq)
      continue;
    *eq = 0;
    double lo, hi;
    if (!strcmp(eq + 1, "whole"))
      mrdsl_set_domain(ctx, f, l, true, 0, 0);
    else if (sscanf(eq + 1, "%lf:%lf", &lo, &hi) == 2)
      mrdsl_set_domain(ctx, f, l, false, lo, hi);
  }
}

/* See disc.h. */
int disc_suspects_report(const mr_subject *s, const char *out, const char *subj_text,
                         const disc_suspect *sus, int n, const char *range_args, const char *replay_as,
                         FILE *so, FILE *rep) {
  if (n == 0)
    return 0;
  char mr[4096], dir[4096];
  suspect_paths(out, mr, dir, sizeof mr);
  mrdsl_ctx *ctx = NULL;
  mrdsl_file *f = NULL;
  int replays = 0;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK || mrdsl_file_new(ctx, subj_text, &f) != MR_OK) {
    eng_error("discover: cannot write the suspects: out of memory");
    mrdsl_ctx_free(ctx);
    return 0;
  }
  set_domains(ctx, f, range_args);
  for (int i = 0; i < n; i++) {
    /* a file of two subjects (a twin's suspect among them): the others call the first */
    char *text = disc_rel_text_calls(sus[i].rel, mrdsl_subject_count(f) > 1 ? mrdsl_subject_name(f) : NULL);
    mrdsl_rel *r;
    if (!text)
      continue;
    if (mrdsl_add_relation(ctx, f, text, &r) == MR_OK) {
      mrdsl_rel_set_meta_str(ctx, r, "origin", "discover/suspect");
      mrdsl_rel_set_meta_num(ctx, r, "checked", sus[i].checked);
      mrdsl_rel_set_meta_num(ctx, r, "broken", sus[i].broken);
      if (sus[i].others)
        mrdsl_rel_set_meta_num(ctx, r, "broken_elsewhere", sus[i].others);
      if (sus[i].fuzzed)
        mrdsl_rel_set_meta_str(ctx, r, "broken_by", "libFuzzer");
    }
    free(text);
  }
  if (mrdsl_write(ctx, f, mr) != MR_OK) {
    eng_error("discover: cannot write %s: %s", mr, mrdsl_errmsg(ctx));
    mrdsl_ctx_free(ctx);
    return 0;
  }
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    eng_error("discover: cannot create %s: %s", dir, strerror(errno));
  fprintf(so, "\nsuspected faults: %d relation%s held on all but a few inputs (%s; never written as "
          "relations):\n", n, n > 1 ? "s" : "", mr);
  if (rep)
    fprintf(rep, "suspects\t%s\n", mr);
  for (int i = 0; i < n; i++) {
    const disc_suspect *x = &sus[i];
    const char *name = mrdsl_rel_name(x->rel);
    if (rep)
      fprintf(rep, "suspect\t%s\t%u\t%u\t%u\t%d\n", name, x->checked, x->broken, x->others, x->fuzzed);
    if (i >= SHOWN)
      continue; /* in the file and the record; the reproducers of the simplest only */
    fprintf(so, "  %s: broken on %u of %u %s", name, x->broken, x->checked,
            x->over ? x->over : "random inputs of the domain");
    if (x->others)
      fprintf(so, "%s on %u special values or constants", x->fuzzed ? "," : " and", x->others);
    fprintf(so, "%s\n", x->fuzzed ? " and by libFuzzer" : "");
    /* the replay command as the user would type it: ranges joined on one line */
    char ropts[2048] = "";
    size_t at = 0;
    for (const char *p = range_args ? range_args : ""; *p && at + 2 < sizeof ropts; p++)
      ropts[at++] = *p == '\n' ? ' ' : *p;
    ropts[at] = 0;
    char target[1024];
    if (replay_as)
      snprintf(target, sizeof target, "%s", replay_as);
    else
      snprintf(target, sizeof target, "%s:%s", s->file ? s->file : "FILE", s->name);
    int shown = 0;
    for (int k = 0; k < x->ninputs; k++) {
      char file[4200], min[4300];
      snprintf(file, sizeof file, "%s/%s-%d", dir, name, k + 1);
      snprintf(min, sizeof min, "%s.min", file);
      if (!x->inputs[k] || !write_file(file, x->inputs[k], x->len[k]))
        continue;
      char logf[4400]; /* the replay's output, for the triage of a reproducer shown */
      snprintf(logf, sizeof logf, "%s.log", file);
      const char *log = shown < 3 ? logf : NULL;
      bool again = replay("repro", mr, name, file, NULL, range_args, log) == ENG_EXIT_VIOLATION;
      bool minimized = again && replay("minimize", mr, name, file, min, range_args, NULL) == ENG_EXIT_OK &&
                       replay("repro", mr, name, min, NULL, range_args, log) == ENG_EXIT_VIOLATION;
      if (again && shown++ < 3) {
        fprintf(so, "    reproducer %s (replay: mrfuzz repro %s --mr %s --relation %s%s%s %s)\n",
                minimized ? min : file, target, mr, name, *ropts ? " " : "", ropts, minimized ? min : file);
        put_triage(so, logf);
      }
      if (log)
        unlink(log);
      if (again && rep)
        fprintf(rep, "repro\t%s\t%s\tmrfuzz repro %s --mr %s --relation %s%s%s %s\n", name,
                minimized ? min : file, target, mr, name, *ropts ? " " : "", ropts, minimized ? min : file);
      replays += minimized;
      if (!again)
        unlink(file);
    }
    if (!shown)
      fprintf(so, "    no reproducer replays (the breaking follow-up was random): see %s\n", mr);
  }
  if (n > SHOWN)
    fprintf(so, "  and %d more in %s (often the same fault, seen by other relations)\n", n - SHOWN, mr);
  fflush(so);
  mrdsl_ctx_free(ctx);
  return replays;
}
