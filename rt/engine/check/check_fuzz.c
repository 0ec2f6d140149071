/* SPDX-License-Identifier: MIT
 * check_fuzz.c - the libFuzzer entry of a `mrfuzz check` harness. The fuzz variant of the
 * build compiles the generated harness.c with -Dmain=mr_harness_fuzz_main, so libFuzzer's
 * main runs and this file (pulled from libmreng only by LLVMFuzzerTestOneInput) gets the
 * subject through the harness's `fuzz_init` command. Options come from MRFUZZ_CHECK (one
 * argument per line, '%' and control bytes as %XX, as `harness check` takes them), set by
 * the driver, or from PROGRAM.mrcheck beside the program when MRFUZZ_CHECK is unset (a
 * target run without mrfuzz); libFuzzer's own flags stay on its command line. A harness of
 * several subjects checks each with its own options (check_multi.c). A violation prints the report and aborts, so libFuzzer
 * saves the input like any crash (honouring -artifact_prefix). The driver's one-off runs
 * stop in LLVMFuzzerInitialize: MRFUZZ_VALIDATE (and MRFUZZ_CALIBRATE), MRFUZZ_DICT, and
 * MRFUZZ_SEEDS with MRFUZZ_SEEDS_FROM (the tests' calls as seeds: check_seed.c).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "automr/disc.h" /* discovery's falsification stage (disc_fuzz.c), MRFUZZ_FALSIFY */
#include "check/check.h"

int mr_harness_fuzz_main(int argc, char **argv); /* harness.c's main, renamed */
__attribute__((visibility("default"))) int LLVMFuzzerInitialize(int *argc, char ***argv);
__attribute__((visibility("default"))) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static eng_mchk *chk;
static eng_chk_opts *opts;  /* [eng_nsubjects] */
static eng_margv *margv;    /* [eng_nsubjects]: what opts borrow */
static bool falsify; /* MRFUZZ_FALSIFY: discovery's falsification stage runs instead */

static void at_exit(void) {
  if (chk)
    eng_mchk_stats_flush(chk);
}

/* Undo the driver's %XX escapes in place (a path may hold any byte but NUL). */
static int hex(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}
static void unescape(char *s) {
  char *w = s;
  for (const char *p = s; *p; p++) {
    if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
      *w++ = (char)(hex(p[1]) * 16 + hex(p[2]));
      p += 2;
    } else {
      *w++ = *p;
    }
  }
  *w = '\0';
}

/* MRFUZZ_CHECK, else the file PROGRAM.mrcheck beside the program (a fuzz target that
 * runs without mrfuzz: OSS-Fuzz, ClusterFuzzLite; docs/checking.md), whose relative
 * paths are relative to its directory. Caller frees. */
static char *check_text(const char *argv0, char **dir) {
  const char *env = getenv("MRFUZZ_CHECK");
  *dir = NULL;
  if (env || !argv0)
    return strdup(env ? env : "");
  size_t n = strlen(argv0) + 9;
  char *path = malloc(n);
  FILE *f = NULL;
  if (path) {
    snprintf(path, n, "%s.mrcheck", argv0);
    f = fopen(path, "r");
  }
  free(path);
  if (!f)
    return strdup("");
  char *text = NULL;
  size_t cap = 0, len = 0, got;
  char buf[4096];
  while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
    char *t = len + got + 1 > cap ? realloc(text, cap = 2 * (len + got + 1)) : text;
    if (!t)
      break;
    text = t;
    memcpy(text + len, buf, got);
    len += got;
  }
  fclose(f);
  if (text)
    text[len] = '\0';
  const char *slash = strrchr(argv0, '/');
  *dir = strndup(argv0, slash ? (size_t)(slash - argv0) : 1);
  if (*dir && !slash)
    (*dir)[0] = '.';
  return text ? text : strdup("");
}

/* Split MRFUZZ_CHECK (or PROGRAM.mrcheck) at newlines into an argv, each argument
 * unescaped, a relative --mr path of the file made relative to its directory; lives as
 * long as the process (kept in statics so leak checkers see it reachable). */
static char *env_text, *env_dir;
static char **env_argv, **env_paths;
static char **env_args(const char *argv0, int *argc) {
  char *s = env_text = check_text(argv0, &env_dir);
  size_t n = 2;
  for (const char *p = s ? s : ""; *p; p++)
    n += *p == '\n';
  char **v = env_argv = calloc(n + 1, sizeof *v);
  char **p = env_paths = calloc(n + 1, sizeof *p);
  if (!s || !v || !p)
    return NULL;
  int k = 0;
  v[k++] = "fuzz";
  for (char *tok = strtok(s, "\n"); tok; tok = strtok(NULL, "\n")) {
    unescape(tok);
    if (env_dir && k > 1 && !strcmp(v[k - 1], "--mr") && tok[0] != '/') {
      size_t len = strlen(env_dir) + strlen(tok) + 2;
      if ((*p = malloc(len))) {
        snprintf(*p, len, "%s/%s", env_dir, tok);
        tok = *p++;
      }
    }
    v[k++] = tok;
  }
  *argc = k;
  return v;
}

/* libFuzzer calls this once, before any input: load and check the relations. Errors end
 * the process with the harness's exit codes (2: bad or mismatched .mr, 3: internal). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  char *init_argv[] = {"harness", "fuzz_init", NULL};
  int rc = mr_harness_fuzz_main(2, init_argv);
  const mr_subject *s = eng_fuzz_subject;
  if (rc != ENG_EXIT_OK || !s)
    exit(rc ? rc : ENG_EXIT_INTERNAL);
  size_t n = eng_nsubjects;
  if ((falsify = getenv("MRFUZZ_FALSIFY") != NULL)) {
    if (!disc_fuzz_init) {
      eng_error("MRFUZZ_FALSIFY: this harness was not linked for falsification "
                "(the driver's falsify variant links disc_fuzz.o)");
      exit(ENG_EXIT_USAGE);
    }
    if ((rc = disc_fuzz_init(s)) != ENG_EXIT_OK)
      exit(rc);
  }
  if (falsify)
    return 0;
  int ac = 0;
  char **av = env_args(*argc > 0 ? (*argv)[0] : NULL, &ac);
  const char *dict = getenv("MRFUZZ_DICT"); /* write the dictionary to this file and stop */
  if (dict && av) {
    av[0] = "dict";
    if (!freopen(dict, "w", stdout)) {
      eng_error("cannot write %s", dict);
      exit(ENG_EXIT_INTERNAL);
    }
    exit(eng_cmd_dict(s, ac, av));
  }
  opts = calloc(n, sizeof *opts);
  margv = calloc(n, sizeof *margv);
  if (!av || !opts || !margv)
    exit(ENG_EXIT_INTERNAL);
  eng_cmdline cl = {"MRFUZZ_CHECK", "", "The checker's options, one per line.", &eng_chk_optgroup, 1,
                    NULL, NULL};
  for (size_t k = 0; k < n; k++) { /* each subject's own (check_multi.c) */
    if ((rc = eng_margv_split(&margv[k], k, ac, av)) != ENG_EXIT_OK)
      exit(rc);
    eng_dom_defaults(eng_subjects[k], &opts[k].run);
    void *bases[] = {&opts[k]};
    if (!opts[k].run.dom)
      exit(ENG_EXIT_INTERNAL);
    if (eng_opts_parse(&cl, bases, eng_subjects[k], margv[k].n, margv[k].v) != ENG_EXIT_OK ||
        eng_dom_from_mr(eng_subjects[k], &opts[k].run, opts[k].mr) != ENG_EXIT_OK)
      exit(ENG_EXIT_USAGE);
  }
  const char *seeds = getenv("MRFUZZ_SEEDS"), *from = getenv("MRFUZZ_SEEDS_FROM");
  if (seeds && from) { /* write the tests' calls as seeds into this directory and stop */
    if (n != 1) {
      eng_error("MRFUZZ_SEEDS: a harness of one subject only (this one has %zu)", n);
      exit(ENG_EXIT_USAGE);
    }
    exit(eng_chk_seeds(s, &opts[0].run, from, seeds));
  }
  rc = eng_mchk_new(opts, &chk);
  if (rc != ENG_EXIT_OK)
    exit(rc);
  if (getenv("MRFUZZ_VALIDATE")) { /* the driver's check of the .mr before fuzzing */
    eng_mchk_native_note(chk, stderr); /* once per run: compiled or interpreted */
    const char *cal = getenv("MRFUZZ_CALIBRATE"); /* and the default -timeout */
    FILE *f = cal ? fopen(cal, "w") : NULL;
    if (f) {
      double budget = 0;
      for (int i = 1; i < *argc; i++)
        if (!strncmp((*argv)[i], "-max_total_time=", 16))
          budget = atof((*argv)[i] + 16);
      fprintf(f, "%u\n", eng_mchk_timeout(chk, budget));
      fclose(f);
    }
    exit(ENG_EXIT_OK);
  }
  atexit(at_exit);
  return 0;
}

/* One fuzz input: every relation on the source input it decodes to. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (falsify)
    return disc_fuzz_input(data, size);
  int rc = eng_mchk_input(chk, data, size);
  if (rc == MRDSL_FAIL) {
    eng_mchk_stats_flush(chk); /* every subject's: abort() runs no exit handler */
    fflush(NULL);
    eng_mchk_die(chk); /* abort() in the relation's own frame: libFuzzer saves the input */
  }
  if (rc < 0) {
    eng_error("internal error while checking (code %d)", rc);
    exit(ENG_EXIT_INTERNAL);
  }
  if (eng_mchk_done(chk)) { /* --until-adequate: exit() here would be a libFuzzer error */
    eng_mchk_stats_flush(chk);
    fflush(NULL);
    _exit(ENG_EXIT_OK);
  }
  return 0;
}
