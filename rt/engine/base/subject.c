/* SPDX-License-Identifier: MIT
 * subject.c - the function under test as the registry knows it: an instrumented subject
 * registered itself through mrpass's module constructor; a black box (libm, GSL) is
 * registered here from its subject description, so every engine finds one registry
 * entry either way. `harness info` prints the signature and what is observed of it.
 * Also the harness's subjects and the functions relations across functions call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/eng.h"

/* The harness's subjects and callees (see eng.h; set by mr_harness_main_n and
 * mr_harness_callees). */
const mr_subject *const *eng_subjects;
size_t eng_nsubjects;
static const mr_subject *const *callees;
static size_t ncallees;

/* See mr_rt.h. */
void mr_harness_callees(const mr_subject *const *c, size_t n) {
  callees = c;
  ncallees = n;
}

/* See eng.h. */
const mr_subject *eng_callee(const char *name) {
  for (size_t i = 0; i < eng_nsubjects; i++)
    if (!strcmp(eng_subjects[i]->name, name))
      return eng_subjects[i];
  for (size_t i = 0; i < ncallees; i++)
    if (!strcmp(callees[i]->name, name))
      return callees[i];
  return NULL;
}

/* Provided by libmrrt (the ABI entry the pass's module constructor calls; mr_abi.h). */
void __mr_module_init(uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop);

/* The synthesized descriptor lives as long as the process: the registry keeps pointers. */
static mr_fn_desc *black_desc;
static mr_fn_desc *black_list[1];

/* See eng.h. */
mr_fn *eng_subject_register(const mr_subject *s, bool *black) {
  const mr_fn *fn = mr_fn_find(s->name);
  *black = fn == NULL;
  if (fn)
    return (mr_fn *)fn;
  if (!black_desc) {
    mr_param_desc *params = calloc(s->nparams ? s->nparams : 1, sizeof *params);
    black_desc = calloc(1, sizeof *black_desc);
    if (!params || !black_desc) {
      free(params);
      free(black_desc);
      black_desc = NULL;
      return NULL;
    }
    for (size_t i = 0; i < s->nparams; i++) {
      params[i].name = s->params[i].name;
      /* An in-out record's after-call twin is its own slot here: "v.x'" keeps the trace's
       * keys apart (lives as long as the descriptor). */
      const uint8_t twin = MR_PF_INOUT | MR_PF_OUT;
      char *tn = (s->params[i].flags & twin) == twin ? malloc(strlen(s->params[i].name) + 2) : NULL;
      if (tn) {
        strcpy(tn, s->params[i].name);
        strcat(tn, "'");
        params[i].name = tn;
      }
      params[i].kind = s->params[i].kind;
      /* A black box's slots are the subject's: record leaves are scalar inputs and out
       * cells there (mr_rt.h), never the record pointers mrpass sees in a white box. */
      params[i].flags = s->params[i].flags & (MR_PF_ARRAY | MR_PF_OUT | MR_PF_CONST);
      params[i].len_index = s->params[i].len_index;
    }
    black_desc->abi_version = MR_ABI_VERSION;
    black_desc->name = s->name;
    black_desc->file = s->file;
    black_desc->nparams = (uint32_t)s->nparams;
    black_desc->ret_kind = s->ret_kind;
    black_desc->params = params;
    black_list[0] = black_desc;
    __mr_module_init(MR_ABI_VERSION, black_list, black_list + 1);
  }
  fn = mr_fn_find(s->name);
  return (mr_fn *)(fn ? fn : black_desc);
}

static void describe(const mr_subject_param *p, const mr_subject *s) {
  printf("  %-12s %-6s %s", p->name, mr_kind_name(p->kind), p->ctype);
  if (p->flags & MR_PF_ARRAY)
    printf("  (array, length in '%s')", s->params[p->len_index].name);
  else if (p->flags & MR_PF_OUT)
    printf("  (out-parameter)");
  else if (p->kind == MR_KIND_CSTR)
    printf("  (string)");
  putchar('\n');
}

/* `info`: the signature and what the harness observes of the function. */
int eng_cmd_info(const mr_subject *s, int argc, char **argv) {
  (void)argc;
  (void)argv;
  bool black;
  const mr_fn *fn = eng_subject_register(s, &black);
  printf("function:   %s\nfile:       %s\nreturns:    %s (%s)\nparameters: %zu\n", s->name,
         s->file ? s->file : "?", mr_kind_name(s->ret_kind), s->ret_ctype, s->nparams);
  for (size_t i = 0; i < s->nparams; i++)
    describe(&s->params[i], s);
  if (!fn || black)
    printf("observed:   black box (not compiled with mrpass: no constants, no coverage)\n");
  else
    printf("observed:   instrumented with mrpass: %u blocks, %u edges, %u mined constants\n",
           fn->nblocks, fn->nedges, fn->nconsts);
  return ENG_EXIT_OK;
}

