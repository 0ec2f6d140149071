/* SPDX-License-Identifier: MIT
 * fwd.c - the harness commands' options as the driver sees them: the engines' option
 * tables (rt/engine/ENGINE/NAME.def, the driver-harness contract) expanded into name,
 * alias, value placeholder and help. drv_opts_parse forwards a user's engine option to
 * the harness unchanged, drv_opts_help documents it, so each is spelled once, in its
 * engine's table. Values are checked by the harness, which owns them.
 */
#include <string.h>

#include "base/drv.h"

#define ENG_OPT(type, name, alias, field, lo, hi, meta, who, help) \
  {name, alias, meta, help, DRV_WHO_##who},
#define DRV_WHO_USER true
#define DRV_WHO_DRIVER false

static const drv_eopt run_opts[] = {
#include "engine/base/run.def"
};
static const drv_eopt check_opts[] = {
#include "engine/check/check.def"
};
static const drv_eopt score_opts[] = {
#include "engine/score/score.def"
};
static const drv_eopt adequacy_opts[] = {
#include "engine/inputs/adequacy.def"
};
static const drv_eopt prioritize_opts[] = {
#include "engine/inputs/prioritize.def"
};
static const drv_eopt discover_opts[] = {
#include "engine/automr/discover.def"
};
static const drv_eopt genmorph_opts[] = {
#include "engine/genmorph/genmorph.def"
};
static const drv_eopt vet_opts[] = {
#include "engine/genmorph/vet.def"
};
static const drv_eopt compose_opts[] = {
#include "engine/compose/compose.def"
};
#undef ENG_OPT

#define TAB(v, title) {title, v, sizeof v / sizeof v[0]}
const drv_etab drv_tab_run = TAB(run_opts, "run");
const drv_etab drv_tab_check = TAB(check_opts, "checking");
const drv_etab drv_tab_score = TAB(score_opts, "score");
const drv_etab drv_tab_adequacy = TAB(adequacy_opts, "adequacy");
const drv_etab drv_tab_prioritize = TAB(prioritize_opts, "prioritize");
const drv_etab drv_tab_discover = TAB(discover_opts, "discovery (AutoMR)");
const drv_etab drv_tab_genmorph = TAB(genmorph_opts, "discovery --engine genmorph");
const drv_etab drv_tab_compose = TAB(compose_opts, "compose");
const drv_etab drv_tab_vet = TAB(vet_opts, "round trips (vet)");

/* See drv.h. */
const drv_eopt *drv_etab_find(const drv_etab *t, const char *arg, size_t n) {
  for (size_t i = 0; i < t->n; i++) {
    const drv_eopt *o = &t->v[i];
    if ((strlen(o->name) == n && !strncmp(o->name, arg, n)) ||
        (o->alias && strlen(o->alias) == n && !strncmp(o->alias, arg, n)))
      return o;
  }
  return NULL;
}

/* See drv.h. */
const char *drv_fwd_get(const drv_opts *o, const char *name) {
  const char *v = NULL;
  for (size_t i = 0; i < o->nfwd; i++)
    if (!strcmp(o->fwd[i].opt->name, name))
      v = o->fwd[i].value ? o->fwd[i].value : "";
  return v;
}

/* See drv.h. */
int drv_fwd_check_outputs(const drv_opts *o) {
  for (size_t i = 0; i < o->nfwd; i++)
    if (drv_meta_is_output(o->fwd[i].opt->meta) &&
        drv_check_output(o->fwd[i].opt->name, o->fwd[i].value) != DRV_EXIT_OK)
      return DRV_EXIT_USAGE;
  return DRV_EXIT_OK;
}

/* See drv.h. */
void drv_fwd_push(const drv_opts *o, const drv_etab *t, drv_list *l, const char *const *except) {
  for (size_t i = 0; i < o->nfwd; i++) {
    const drv_eopt *e = o->fwd[i].opt;
    bool skip = !drv_etab_find(t, e->name, strlen(e->name));
    for (size_t k = 0; except && except[k] && !skip; k++)
      skip = !strcmp(except[k], e->name);
    if (skip)
      continue;
    drv_list_push(l, e->name);
    if (o->fwd[i].value)
      drv_list_push(l, o->fwd[i].value);
  }
}

/* See drv.h. */
int drv_split_args(const char *cmd, int argc, char **argv, const drv_etab *const *tabs,
                   const char *const *own, const char **ownval, drv_list *h, drv_list *b) {
  drv_list_push(b, argv[0]);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    if (!strcmp(a, "-h") || !strcmp(a, "--help"))
      return -1;
    size_t k = 0;
    while (own[k] && (strlen(own[k]) != n || strncmp(own[k], a, n)))
      k++;
    const drv_eopt *e = NULL;
    for (size_t t = 0; !own[k] && tabs[t] && !e; t++)
      if ((e = drv_etab_find(tabs[t], a, n)) && !e->user)
        e = NULL;
    if (!own[k] && !e) {
      drv_list_push(b, a); /* build options (flags.def) and positionals */
      continue;
    }
    bool takes = own[k] || e->meta;
    const char *v = eq ? eq + 1 : NULL;
    if (takes && !v && i + 1 >= argc) {
      drv_error("%s: missing value for %s", cmd, a);
      return DRV_EXIT_USAGE;
    }
    if (!takes && eq) {
      drv_error("%s: option takes no value: '%s' (see 'mrfuzz %s --help')", cmd, a, cmd);
      return DRV_EXIT_USAGE;
    }
    if (takes && !v)
      v = argv[++i];
    if (own[k]) {
      ownval[k] = v;
    } else if (drv_meta_is_output(e->meta) && drv_check_output(e->name, v) != DRV_EXIT_OK) {
      return DRV_EXIT_USAGE;
    } else {
      drv_list_push(h, e->name);
      if (takes)
        drv_list_push(h, v);
    }
  }
  return DRV_EXIT_OK;
}
