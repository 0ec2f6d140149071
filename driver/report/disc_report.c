/* SPDX-License-Identifier: MIT
 * disc_report.c - `mrfuzz discover --json OUT / --sarif OUT`, for one function, a group
 * of functions (FILE:F,G, F->G: its record made the user's by cmd_discover_across.c) or
 * every function of a file (one document over all of them). The harness leaves the record of
 * its run (--report: rt/engine/automr/discover.c, disc_suspect.c, genmorph/gm_cmd.c):
 * tab-separated lines, the engine, the .mr written, the table per type, the suspected
 * faults with their reproducers and replay commands. Read here with the relations of the
 * .mr files (their lines and scores) into drv_disc_rec, then written as JSON (the fields:
 * docs/discover.md, "The JSON summary") and as SARIF (a rule per suspected fault, at its
 * line in OUT.suspects.mr; docs/checking.md, "SARIF").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mrfuzz/mr_json.h>

#include "rel/rel.h"
#include "report/report.h"
#include "drv_config.h"

/* The tab-separated fields of line (modified in place) into f[cap]; how many. */
static size_t fields(char *line, char **f, size_t cap) {
  size_t n = 0;
  for (char *p = line; p && n < cap;) {
    f[n++] = p;
    p = strchr(p, '\t');
    if (p)
      *p++ = 0;
  }
  return n;
}

static drv_disc_suspect *suspect_named(drv_disc_rec *r, const char *name) {
  for (size_t i = 0; i < r->nsus; i++)
    if (!strcmp(r->sus[i].name, name))
      return &r->sus[i];
  return NULL;
}

/* See report.h. */
void drv_disc_rec_read(drv_disc_rec *r, const char *path) {
  char *text = drv_read_file(path, NULL);
  if (!text || strncmp(text, "mrfuzz-discover-report\t1\n", 25)) {
    free(text);
    return;
  }
  r->have = true;
  for (char *line = text, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    char *f[10];
    size_t n = fields(line, f, 10);
    if (n == 2 && !strcmp(f[0], "engine")) {
      free(r->engine);
      r->engine = drv_strdup(f[1]);
    } else if (n == 2 && !strcmp(f[0], "seed")) {
      r->seed = strtoull(f[1], NULL, 10);
    } else if (n == 2 && !strcmp(f[0], "seconds")) {
      r->seconds = strtod(f[1], NULL);
    } else if (n == 2 && !strcmp(f[0], "cut")) {
      free(r->cut);
      r->cut = drv_strdup(f[1]);
    } else if (n == 2 && !strcmp(f[0], "output")) {
      r->output = drv_abspath(f[1]);
    } else if (n == 2 && !strcmp(f[0], "suspects")) {
      r->suspects = drv_abspath(f[1]);
    } else if (n == 9 && !strcmp(f[0], "type")) {
      r->types = drv_realloc(r->types, (r->ntypes + 1) * sizeof *r->types);
      drv_disc_type *t = &r->types[r->ntypes++];
      snprintf(t->name, sizeof t->name, "%s", f[1]);
      for (int k = 0; k < 4; k++)
        t->counts[k] = strtol(f[2 + k], NULL, 10);
      t->seconds = strtod(f[6], NULL);
      t->evals = strtoll(f[7], NULL, 10);
      t->calls = strtoull(f[8], NULL, 10);
    } else if (n == 6 && !strcmp(f[0], "suspect")) {
      r->sus = drv_realloc(r->sus, (r->nsus + 1) * sizeof *r->sus);
      drv_disc_suspect *x = &r->sus[r->nsus++];
      memset(x, 0, sizeof *x);
      x->name = drv_strdup(f[1]);
      x->checked = strtoul(f[2], NULL, 10);
      x->broken = strtoul(f[3], NULL, 10);
      x->others = strtoul(f[4], NULL, 10);
      x->fuzzed = atoi(f[5]) != 0;
    } else if (n == 4 && !strcmp(f[0], "repro")) {
      drv_disc_suspect *x = suspect_named(r, f[1]);
      if (x) {
        drv_list_push(&x->repro, drv_strdup(f[2]));
        drv_list_push(&x->replay, drv_strdup(f[3]));
      }
    }
  }
  free(text);
  for (size_t i = 0; r->suspects && i < r->nsus; i++)
    r->sus[i].line = drv_mr_rel_line(r->suspects, r->sus[i].name);
}

/* See report.h. */
void drv_disc_rec_fini(drv_disc_rec *r) {
  free(r->function);
  free(r->engine);
  free(r->cut);
  free(r->output);
  free(r->suspects);
  free(r->types);
  for (size_t i = 0; i < r->nsus; i++) {
    drv_disc_suspect *x = &r->sus[i];
    free(x->name);
    for (size_t k = 0; k < x->repro.n; k++) {
      free((char *)x->repro.v[k]);
      free((char *)x->replay.v[k]);
    }
    drv_list_fini(&x->repro);
    drv_list_fini(&x->replay);
  }
  free(r->sus);
  free(r->def_file);
  for (size_t i = 0; i < r->ngroup; i++) {
    free(r->group[i].name);
    free(r->group[i].file);
  }
  free(r->group);
  memset(r, 0, sizeof *r);
}

/* ============================== JSON ============================== */

static void put_types(mr_json *j, const drv_disc_rec *r) {
  static const char *const keys[4] = {"candidates", "filter", "falsify", "cleansed"};
  mr_json_arr(j, "types");
  for (size_t i = 0; i < r->ntypes; i++) {
    const drv_disc_type *t = &r->types[i];
    mr_json_obj(j, NULL);
    mr_json_str(j, "type", t->name);
    for (int k = 0; k < 4; k++)
      mr_json_i64(j, keys[k], t->counts[k]);
    mr_json_num(j, "seconds", t->seconds);
    mr_json_i64(j, "evaluations", t->evals);
    mr_json_u64(j, "calls", t->calls);
    mr_json_end(j);
  }
  mr_json_end(j);
}

static void put_calls(mr_json *j, const drv_mr_rel *rel) {
  mr_json_arr(j, "calls");
  for (size_t k = 0; rel && k < rel->calls.n; k++)
    mr_json_str(j, NULL, rel->calls.v[k]);
  mr_json_end(j);
}

static const drv_mr_rel *rel_named(const drv_mr_rel *v, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v[i].name, name))
      return &v[i];
  return NULL;
}

static void put_relations(mr_json *j, const drv_disc_rec *r) {
  drv_mr_rel *rels = NULL;
  size_t n = r->output ? drv_mr_rels(r->output, &rels) : 0;
  mr_json_arr(j, "relations");
  for (size_t i = 0; i < n; i++) {
    mr_json_obj(j, NULL);
    mr_json_str(j, "name", rels[i].name);
    mr_json_u64(j, "line", rels[i].line);
    mr_json_str(j, "type", rels[i].type);
    mr_json_str(j, "origin", rels[i].origin);
    if (rels[i].has_checked)
      mr_json_num(j, "checked", rels[i].checked);
    else
      mr_json_null(j, "checked");
    if (rels[i].has_score)
      mr_json_num(j, "score", rels[i].score);
    else
      mr_json_null(j, "score");
    put_calls(j, &rels[i]);
    mr_json_end(j);
  }
  mr_json_end(j);
  drv_mr_rels_free(rels, n);
}

static void put_suspects(mr_json *j, const drv_disc_rec *r) {
  drv_mr_rel *rels = NULL;
  size_t nrels = r->suspects && r->nsus ? drv_mr_rels(r->suspects, &rels) : 0;
  mr_json_str(j, "suspects_file", r->suspects);
  mr_json_arr(j, "suspects");
  for (size_t i = 0; i < r->nsus; i++) {
    const drv_disc_suspect *x = &r->sus[i];
    mr_json_obj(j, NULL);
    mr_json_str(j, "name", x->name);
    mr_json_u64(j, "line", x->line);
    mr_json_u64(j, "checked", x->checked);
    mr_json_u64(j, "broken", x->broken);
    mr_json_u64(j, "broken_elsewhere", x->others);
    mr_json_bool(j, "fuzzed", x->fuzzed);
    put_calls(j, rel_named(rels, nrels, x->name));
    mr_json_arr(j, "reproducers");
    for (size_t k = 0; k < x->repro.n; k++) {
      mr_json_obj(j, NULL);
      mr_json_str(j, "file", x->repro.v[k]);
      mr_json_str(j, "replay", x->replay.v[k]);
      mr_json_end(j);
    }
    mr_json_end(j);
    mr_json_end(j);
  }
  mr_json_end(j);
  drv_mr_rels_free(rels, nrels);
}

/* A group's functions with their definitions (null for one function), and whether it is
 * a chain. */
static void put_group(mr_json *j, const drv_disc_rec *r) {
  if (!r->ngroup) {
    mr_json_null(j, "group");
  } else {
    mr_json_arr(j, "group");
    for (size_t i = 0; i < r->ngroup; i++) {
      mr_json_obj(j, NULL);
      mr_json_str(j, "function", r->group[i].name);
      mr_json_str(j, "file", r->group[i].file);
      if (r->group[i].file)
        mr_json_u64(j, "line", r->group[i].line);
      else
        mr_json_null(j, "line");
      mr_json_end(j);
    }
    mr_json_end(j);
  }
  mr_json_bool(j, "chain", r->chain);
}

typedef struct recs {
  const drv_disc_rec *v;
  size_t n;
} recs;

static void put_json(FILE *f, const void *ud) {
  const recs *rs = ud;
  mr_json j;
  mr_json_init(&j, f);
  mr_json_obj(&j, NULL);
  mr_json_str(&j, "format", "mrfuzz-discover-summary");
  mr_json_u64(&j, "version", 1);
  mr_json_arr(&j, "functions");
  for (size_t i = 0; i < rs->n; i++) {
    const drv_disc_rec *r = &rs->v[i];
    mr_json_obj(&j, NULL);
    mr_json_str(&j, "function", r->function);
    put_group(&j, r);
    mr_json_str(&j, "file", r->def_file);
    mr_json_str(&j, "engine", r->engine);
    mr_json_str(&j, "status", r->skipped ? "skipped" : r->have ? "run" : "failed");
    mr_json_str(&j, "reason", r->skipped);
    if (r->skipped) {
      mr_json_null(&j, "exit_code");
    } else {
      mr_json_i64(&j, "exit_code", r->exit_code);
    }
    if (r->have) {
      mr_json_u64(&j, "seed", r->seed);
      mr_json_num(&j, "seconds", r->seconds);
      mr_json_str(&j, "cut", r->cut); /* null: the seed alone decided */
    } else {
      mr_json_null(&j, "seed");
      mr_json_null(&j, "seconds");
      mr_json_null(&j, "cut");
    }
    mr_json_str(&j, "output", r->output);
    put_types(&j, r);
    put_relations(&j, r);
    put_suspects(&j, r);
    mr_json_end(&j);
  }
  mr_json_end(&j);
  mr_json_end(&j);
}

/* ============================== SARIF ============================== */

/* Where result n's related locations go: the suspect's line, then, for a group, the
 * definition of each other function its relation calls (their texts into owned). */
static size_t put_related(const drv_disc_rec *r, const drv_disc_suspect *x, const drv_mr_rel *rel,
                          mr_sarif_loc *at, drv_list *owned) {
  char *text = drv_fmt("suspected relation %s", x->name);
  drv_list_push(owned, text);
  size_t n = 0;
  at[n++] = (mr_sarif_loc){r->suspects, x->line, 0, text};
  for (size_t i = 1; i < r->ngroup; i++) {
    bool called = false;
    for (size_t k = 0; rel && k < rel->calls.n; k++)
      called |= !strcmp(rel->calls.v[k], r->group[i].name);
    if (!called || !r->group[i].file)
      continue;
    text = drv_fmt("%s, which relation %s calls", r->group[i].name, x->name);
    drv_list_push(owned, text);
    at[n++] = (mr_sarif_loc){r->group[i].file, r->group[i].line, r->group[i].col, text};
  }
  return n;
}

static void put_sarif(FILE *f, const void *ud) {
  const recs *rs = ud;
  size_t total = 0, per = 1;
  for (size_t i = 0; i < rs->n; i++) {
    total += rs->v[i].nsus;
    per = rs->v[i].ngroup > per ? rs->v[i].ngroup : per;
  }
  mr_sarif_rule *rules = drv_alloc((total ? total : 1) * sizeof *rules);
  mr_sarif_result *res = drv_alloc((total ? total : 1) * sizeof *res);
  mr_sarif_loc *related = drv_alloc((total ? total : 1) * per * sizeof *related);
  drv_list owned = {0};
  size_t n = 0;
  for (size_t i = 0; i < rs->n; i++) {
    const drv_disc_rec *r = &rs->v[i];
    drv_mr_rel *rels = NULL;
    size_t nrels = r->ngroup && r->nsus && r->suspects ? drv_mr_rels(r->suspects, &rels) : 0;
    for (size_t k = 0; k < r->nsus; k++, n++) {
      const drv_disc_suspect *x = &r->sus[k];
      char *id = drv_fmt("%s/%s", r->function, x->name);
      char *text = drv_fmt("suspected fault of %s: relation %s (%s:%u) held on all but a few inputs", r->function,
                           x->name, r->suspects, x->line);
      char *why = x->repro.n ? drv_fmt("reproducer %s; replay: %s", x->repro.v[0], x->replay.v[0])
                             : drv_strdup("no reproducer replays (the breaking follow-up was random)");
      char *others = x->others ? drv_fmt(" and on %u special values or constants", x->others) : drv_strdup("");
      char *full = drv_fmt("suspected fault of %s: relation %s (%s:%u) held on all inputs but a few: broken on %u "
                           "of %u random inputs of the domain%s%s; %s", r->function, x->name, r->suspects, x->line,
                           x->broken, x->checked, others, x->fuzzed ? " and by libFuzzer" : "", why);
      free(others);
      free(why);
      drv_list_push(&owned, id);
      drv_list_push(&owned, text);
      drv_list_push(&owned, full);
      mr_sarif_loc *at = &related[n * per];
      size_t nat = put_related(r, x, rel_named(rels, nrels, x->name), at, &owned);
      rules[n] = (mr_sarif_rule){id, x->name, text, at[0]};
      res[n] = (mr_sarif_result){n, "warning", full, {r->def_file, r->def_line, r->def_col, NULL}, at, nat,
                                 r->function, x->repro.n ? x->repro.v[0] : NULL,
                                 x->replay.n ? x->replay.v[0] : NULL};
    }
    drv_mr_rels_free(rels, nrels);
  }
  char cwd[4096];
  mr_sarif_write(f, DRV_VERSION, getcwd(cwd, sizeof cwd) ? cwd : NULL, rules, n, res, n);
  for (size_t i = 0; i < owned.n; i++)
    free((char *)owned.v[i]);
  drv_list_fini(&owned);
  free(rules);
  free(res);
  free(related);
}

/* See report.h. */
int drv_disc_reports(const drv_disc_rec *v, size_t n, const char *json, const char *sarif) {
  recs rs = {v, n};
  int rc = DRV_EXIT_OK;
  if (json && drv_write_report(json, put_json, &rs) != 0) {
    drv_error("cannot write the JSON summary %s: %s", json, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  if (sarif && drv_write_report(sarif, put_sarif, &rs) != 0) {
    drv_error("cannot write the SARIF log %s: %s", sarif, strerror(errno));
    rc = DRV_EXIT_INTERNAL;
  }
  return rc;
}
