/* SPDX-License-Identifier: MIT
 * mutants.c - `harness mutants`: the mutants a mutation build (MR_MUTATE) holds for the
 * subject, from the registry's descriptor tables, in id order (the pass lists them in a
 * fixed order: blocks, instructions, operators, operands), as text or JSON Lines.
 */
#include <stdio.h>
#include <string.h>

#include "base/eng.h"

/* `harness mutants`'s options (mutants.def). */
typedef struct mutants_cmd {
  bool json;
} mutants_cmd;

static const eng_opt mutants_opts[] = {
#define ENG_OPT(...) ENG_OPT_ROW(mutants_cmd, __VA_ARGS__)
#include "base/mutants.def"
#undef ENG_OPT
};
static const eng_optgroup mutants_groups[] = {ENG_OPTGROUP(mutants_opts)};
static const eng_cmdline mutants_cmdline = {
    "mutants", "", "List the mutants of the function: id, operator, FILE:LINE:COL, description.",
    mutants_groups, 1, NULL, NULL};

/* JSON string body (quotes added by the caller). */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

/* Checks shared by `mutants` and `score`: NULL and a message when fn has no mutants to
 * offer. */
const mr_fn *eng_mutated_fn(const mr_subject *s, int *rc /* OUT: exit code on NULL */) {
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  *rc = ENG_EXIT_USAGE;
  if (!fn) {
    eng_error("out of memory while registering %s", s->name);
    *rc = ENG_EXIT_INTERNAL;
  } else if (black) {
    eng_error("%s is a black box (not compiled with mrpass here): it has no mutants", s->name);
  } else if (!(fn->flags & MR_FN_MUTATED)) {
    eng_error("%s was not compiled in mutation mode (MR_MUTATE=1); 'mrfuzz mutants' and "
              "'mrfuzz score' build it so", s->name);
  } else {
    return fn;
  }
  return NULL;
}

/* `harness mutants` (mutants.def). */
int eng_cmd_mutants(const mr_subject *s, int argc, char **argv) {
  mutants_cmd o = {0};
  void *bases[] = {&o};
  int rc = eng_opts_parse(&mutants_cmdline, bases, s, argc, argv);
  if (rc != ENG_EXIT_OK)
    return rc < 0 ? ENG_EXIT_OK : rc;
  bool json = o.json;
  const mr_fn *fn = eng_mutated_fn(s, &rc);
  if (!fn)
    return rc;
  if (fn->nmutants == 0) {
    fprintf(stderr, "mrfuzz: %s has no mutable sites: no arithmetic, comparison, logical or "
                    "bitwise operator, literal, returned value, unused call or branch\n",
            s->name);
    return ENG_EXIT_OK;
  }
  const char *file = fn->file ? fn->file : "?";
  for (uint32_t k = 0; k < fn->nmutants; k++) {
    const mr_mutant *m = mr_fn_mutant(fn, k);
    uint32_t id = mr_fn_mutant_id(fn, k);
    if (json) {
      printf("{\"id\":%u,\"op\":\"%s\",\"file\":", id, mr_mutant_op_name(m->op));
      json_str(stdout, file);
      printf(",\"line\":%u,\"col\":%u,\"original\":", m->line, m->col);
      json_str(stdout, m->orig);
      fputs(",\"replacement\":", stdout);
      json_str(stdout, m->repl);
      fputs(",\"description\":", stdout);
      json_str(stdout, m->desc);
      fputs("}\n", stdout);
    } else {
      printf("%5u  %s  %s:%u:%u: %s\n", id, mr_mutant_op_name(m->op), file, m->line, m->col,
             m->desc);
    }
  }
  if (!json)
    printf("mrfuzz: mutants: %u in %s\n", fn->nmutants, s->name);
  return ENG_EXIT_OK;
}
