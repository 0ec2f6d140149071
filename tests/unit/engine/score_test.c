/* SPDX-License-Identifier: MIT
 * score_test.c - the score engine on a hand-made mutation build: f(a) = 2a with four
 * "mutants" that read the active mutant id the way the pass's schemata do (3a: killed by
 * a relation that must catch it, not by one that cannot; an infinite loop: timeout; a
 * crash; a + a: equivalent). Checks the classification through the Mutation Testing
 * Elements report, the exclusion of an invalid relation, the refusal of another subject's
 * relation file, and the message for a function without mutable sites.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "score/score.h"

void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);

static const mr_param_desc f_params[] = {{"a", MR_KIND_I64, 0, -1, 0, 0, 0}};
static const mr_mutant_desc f_mutants[] = {
    {MR_MUT_AOR, {0}, 0, 3, 10, "*", "+", "replace '*' with '+' (3a)"},
    {MR_MUT_BCN, {0}, 0, 4, 3, "condition", "!condition", "loop forever"},
    {MR_MUT_SDL, {0}, 0, 5, 3, "x", "", "crash"},
    {MR_MUT_AOR, {0}, 0, 6, 3, "2 * a", "a + a", "equivalent"},
};
static mr_fn_desc f_desc = {.abi_version = MR_ABI_VERSION, .name = "f", .file = "f.c",
                            .nparams = 1, .ret_kind = MR_KIND_I64, .params = f_params,
                            .nmutants = 4, .mutants = f_mutants, .flags = MR_FN_MUTATED};
static mr_fn_desc h_desc = {.abi_version = MR_ABI_VERSION, .name = "h", .file = "h.c",
                            .nparams = 1, .ret_kind = MR_KIND_I64, .params = f_params,
                            .flags = MR_FN_MUTATED};

static volatile int64_t sink;

/* The schemata of f: local id = active - base. */
static int64_t f(int64_t a) {
  switch (mr_mutant_active() - f_desc.mutant_base) {
  case 1: return 3 * a;
  case 2: for (;;) sink++;
  case 3: raise(SIGSEGV); return 0;
  case 4: return a + a;
  default: return 2 * a;
  }
}

static void f_thunk(const uint64_t *args, uint64_t *ret) { *ret = (uint64_t)f((int64_t)args[0]); }
static void h_thunk(const uint64_t *args, uint64_t *ret) { *ret = args[0]; }

static const mr_subject_param sp[] = {{"a", "long", MR_KIND_I64, 0, -1}};
static const mr_subject f_subj = {"f", "f.c", 1, sp, MR_KIND_I64, "long", f_thunk};
static const mr_subject h_subj = {"h", "h.c", 1, sp, MR_KIND_I64, "long", h_thunk};

static char dir[64];

static const char *write_mr(const char *name, const char *text) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "w");
  fputs(text, fp);
  fclose(fp);
  return path;
}

static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, fp);
  buf[n] = 0;
  fclose(fp);
  return buf;
}

/* The report line of mutant id contains every one of the given fragments. */
static bool mutant_has(const char *json, unsigned id, const char *a, const char *b) {
  char key[32];
  snprintf(key, sizeof key, "{\"id\":\"%u\"", id);
  const char *p = strstr(json, key);
  if (!p)
    return false;
  const char *end = strchr(p, '\n');
  size_t n = end ? (size_t)(end - p) : strlen(p);
  char line[2048];
  snprintf(line, sizeof line, "%.*s", (int)n, p);
  return strstr(line, a) && (!b || strstr(line, b));
}

static int score(const mr_subject *s, const char *mr, const char *json) {
  char *argv[] = {"score", "--mr", (char *)mr, "-n", "50", "--seed", "7", "--jobs", "2",
                  "--mutant-timeout", "0.5", "--json", (char *)json, NULL};
  int argc = json ? 13 : 11;
  argv[argc] = NULL;
  fflush(stdout);
  return eng_cmd_score(s, argc, argv);
}

static const char rels[] =
    "mrdsl 1;\nsubject f(int64_t a) -> int64_t y;\n"
    "relation lin { a2 = a1 + 1; check y2 == y1 + 2; }\n"  /* must catch 3a */
    "relation odd { a2 = -a1; check y2 == -y1; }\n"        /* cannot catch 3a */
    "relation bad { a2 = a1; check y2 == y1 + 1; }\n";     /* false on the original */

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/mr_score_test.%ld", (long)getpid());
  char cmd[128];
  snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
  CHECK(system(cmd) == 0);
  mr_fn_desc *sec[] = {&f_desc, &h_desc};
  __mr_module_init(MR_ABI_VERSION, sec, sec + 2);

  char json[160];
  snprintf(json, sizeof json, "%s/report.json", dir);
  const char *mr = write_mr("f.mr", rels);
  printf("check: scoring 4 mutants of f with lin, odd and an invalid relation\n");
  CHECK(score(&f_subj, mr, json) == ENG_EXIT_OK);
  const char *j = slurp(json);
  CHECK(j != NULL);
  if (j) {
    CHECK(strstr(j, "\"schemaVersion\":\"1\"") != NULL);
    printf("check: 3a is killed by lin (must catch it) and not by odd (cannot)\n");
    CHECK(mutant_has(j, 1, "\"status\":\"Killed\"", "\"killedBy\":[\"lin\"]"));
    printf("check: the infinite loop timed out and the run finished\n");
    CHECK(mutant_has(j, 2, "\"status\":\"Timeout\"", NULL));
    printf("check: the crash is recorded (killed, reason 'crashed')\n");
    /* a signal, or exit code 1 where ASan turns the SIGSEGV into a report */
    CHECK(mutant_has(j, 3, "\"status\":\"Killed\"", "crashed: "));
    printf("check: a + a is an equivalent suspect (Ignored)\n");
    CHECK(mutant_has(j, 4, "\"status\":\"Ignored\"", "equivalent suspect"));
    printf("check: the invalid relation kills nothing\n");
    CHECK(!strstr(j, "\"killedBy\":[\"bad\""));
    CHECK(!strstr(j, ",\"bad\"]"));
  }

  printf("check: with odd alone, 3a survives\n");
  const char *odd = write_mr("odd.mr", "mrdsl 1;\nsubject f(int64_t a) -> int64_t y;\n"
                                       "relation odd { a2 = -a1; check y2 == -y1; }\n");
  CHECK(score(&f_subj, odd, json) == ENG_EXIT_OK);
  j = slurp(json);
  CHECK(j && mutant_has(j, 1, "\"status\":\"Survived\"", NULL));

  printf("check: a relation file for another subject is refused (exit 2)\n");
  const char *other = write_mr("g.mr", "mrdsl 1;\nsubject g(double x) -> double y;\n"
                                        "relation r { x2 = x1; check y2 == y1; }\n");
  CHECK(score(&f_subj, other, NULL) == ENG_EXIT_USAGE);

  printf("check: a function without mutable sites gets exit 2 and a message\n");
  const char *hmr = write_mr("h.mr", "mrdsl 1;\nsubject h(int64_t a) -> int64_t y;\n"
                                      "relation r { a2 = a1; check y2 == y1; }\n");
  CHECK(score(&h_subj, hmr, NULL) == ENG_EXIT_USAGE);

  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
  return CHECK_DONE();
}
