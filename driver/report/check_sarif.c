/* SPDX-License-Identifier: MIT
 * check_sarif.c - `mrfuzz check --sarif OUT`: the findings of a run (chk_sum, the same the
 * summary prints) as a SARIF 2.1.0 log (rt/core/sarif.c). A rule per relation checked
 * (FUNCTION/RELATION, with its .mr file and line) and one for the target's own failures;
 * a result per finding, at the target function's definition, the relation's line as its
 * related location, the reproducer and its replay command in the message and properties.
 * The mapping: docs/checking.md, "SARIF".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mrfuzz/mr_json.h>

#include "rel/rel.h"
#include "report/report.h"
#include "sig/sig.h"

#include "drv_config.h"

/* What the SARIF log is made of: every string owned by the lists. */
typedef struct sarif_doc {
  mr_sarif_rule *rules;
  size_t nrules;
  mr_sarif_result *res;
  size_t nres;
  mr_sarif_loc *related; /* [nres]: each result's relation */
  drv_list owned;
  char *srcroot;
} sarif_doc;

static const char *own(sarif_doc *d, char *s) {
  drv_list_push(&d->owned, s);
  return s;
}

/* The rule of relation rel of subject k (added on first use); rel NULL: the failure rule. */
static size_t rule_of(sarif_doc *d, const chk_run *r, const char *fn, size_t k, const char *rel) {
  const char *id = rel ? own(d, drv_fmt("%s/%s", fn, rel)) : "target-failure";
  for (size_t i = 0; i < d->nrules; i++)
    if (!strcmp(d->rules[i].id, id))
      return i;
  d->rules = drv_realloc(d->rules, (d->nrules + 1) * sizeof *d->rules);
  mr_sarif_rule *u = &d->rules[d->nrules];
  memset(u, 0, sizeof *u);
  u->id = id;
  if (rel) {
    const char *mr = r->mrs.paths.v[k];
    u->name = rel;
    u->where = (mr_sarif_loc){mr, drv_mr_rel_line(mr, rel), 0, NULL};
    u->text = own(d, drv_fmt("metamorphic relation %s of %s (%s:%u) is violated", rel, fn, mr, u->where.line));
  } else {
    u->name = "target-failure";
    u->text = "the target function itself failed: a crash, a sanitizer report, a hang, running "
              "out of memory or a leak";
  }
  return d->nrules++;
}

static void put_log(FILE *f, const void *ud) {
  const sarif_doc *d = ud;
  mr_sarif_write(f, DRV_VERSION, d->srcroot, d->rules, d->nrules, d->res, d->nres);
}

/* See report.h. */
int chk_sarif_write(const chk_run *r, const chk_sum *s, const char *path) {
  sarif_doc d = {0};
  char cwd[4096];
  d.srcroot = getcwd(cwd, sizeof cwd) ? drv_strdup(cwd) : NULL;
  /* each subject's definition, as the build reads the signature */
  mr_sarif_loc *def = drv_alloc((s->nsub ? s->nsub : 1) * sizeof *def);
  drv_list sources = {r->o.pos.v + 1, r->o.pos.n - 1};
  for (size_t k = 0; k < s->nsub; k++) {
    drv_build_req req = {r->file, s->subj[k].function, &sources, &r->o};
    drv_sig sig;
    def[k] = (mr_sarif_loc){own(&d, drv_abspath(r->file)), 0, 0, NULL};
    if (drv_sig_of(&req, &sig) == DRV_EXIT_OK) {
      def[k] = (mr_sarif_loc){own(&d, drv_abspath(sig.file)), sig.line, sig.col, NULL};
      drv_sig_free(&sig);
    }
  }
  for (size_t k = 0; k < s->nsub; k++) /* every relation checked is a rule */
    for (size_t i = 0; i < s->subj[k].nrels; i++)
      rule_of(&d, r, s->subj[k].function, k, s->subj[k].rels[i].name);
  d.res = drv_alloc((s->nf ? s->nf : 1) * sizeof *d.res);
  d.related = drv_alloc((s->nf ? s->nf : 1) * sizeof *d.related);
  for (size_t i = 0; i < s->nf; i++) {
    const chk_finding *f = &s->f[i];
    size_t k = 0;
    while (k + 1 < s->nsub && s->subj[k].function != f->function)
      k++;
    size_t u = rule_of(&d, r, f->function, k, f->relation);
    mr_sarif_result *x = &d.res[d.nres++];
    memset(x, 0, sizeof *x);
    x->rule = u;
    x->level = "error";
    x->loc = def[k];
    x->function = f->function;
    x->reproducer = f->file;
    x->replay = f->replay;
    if (f->relation) {
      d.related[i] = d.rules[u].where;
      d.related[i].text = own(&d, drv_fmt("relation %s", f->relation));
      x->related = &d.related[i];
      x->nrelated = 1;
      x->message = own(&d, drv_fmt("%s violates metamorphic relation %s (%s:%u) on the input %s; "
                                   "replay: %s", f->function, f->relation, d.rules[u].where.file,
                                   d.rules[u].where.line, f->file, f->replay));
    } else {
      x->message = own(&d, drv_fmt("%s failed: %s, on the input %s", f->function, f->failure, f->file));
    }
  }
  int rc = drv_write_report(path, put_log, &d);
  int saved = errno;
  free(def);
  free(d.rules);
  free(d.res);
  free(d.related);
  free(d.srcroot);
  for (size_t i = 0; i < d.owned.n; i++)
    free((char *)d.owned.v[i]);
  drv_list_fini(&d.owned);
  errno = saved;
  return rc;
}
