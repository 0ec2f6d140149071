/* SPDX-License-Identifier: MIT
 * flags.c - command-line parsing for the driver's subcommands, driven by flags.def (the
 * driver's own options) and by the engines' tables (fwd.c: options forwarded to the
 * harness). Accepted spellings: --name VALUE, --name=VALUE, -x VALUE, -xVALUE (so the
 * compiler-like -Idir -DNAME -lm -O2 work), and `--` ends the options. No getopt: the
 * tables are the spec.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/drv.h"

enum { DRV_T_BOOL, DRV_T_STR, DRV_T_LIST };

typedef struct drv_flag {
  const char *lng;  /* long name, without "--" */
  char shrt;        /* short letter or 0 */
  const char *meta; /* value placeholder; NULL for BOOL */
  unsigned cmds;    /* DRV_CMD_* mask */
  const char *help;
  int type;         /* DRV_T_* */
  size_t off;       /* offset of the field in drv_opts */
} drv_flag;

static const drv_flag flags[] = {
#define DRV_FLAG(id, type, lng, shrt, meta, cmds, help) \
  {lng, shrt, meta, cmds, help, DRV_T_##type, offsetof(drv_opts, id)},
#include "flags.def"
#undef DRV_FLAG
};
#define NFLAGS (sizeof flags / sizeof flags[0])

static const drv_flag *find_long(unsigned cmd, const char *name, size_t n) {
  for (size_t i = 0; i < NFLAGS; i++)
    if ((flags[i].cmds & cmd) && strlen(flags[i].lng) == n && !strncmp(flags[i].lng, name, n))
      return &flags[i];
  return NULL;
}

static const drv_flag *find_short(unsigned cmd, char c) {
  for (size_t i = 0; i < NFLAGS; i++)
    if ((flags[i].cmds & cmd) && flags[i].shrt == c)
      return &flags[i];
  return NULL;
}

static void store(drv_opts *o, const drv_flag *f, const char *val) {
  char *field = (char *)o + f->off;
  switch (f->type) {
  case DRV_T_BOOL:
    *(bool *)(void *)field = true;
    break;
  case DRV_T_STR:
    *(const char **)(void *)field = val;
    break;
  default:
    drv_list_push((drv_list *)(void *)field, val);
    break;
  }
}

/* argv[0] names the subcommand: several share one flag bit (check, repro, minimize). */
static int usage_error(char **argv, const char *what, const char *arg) {
  drv_error("%s '%s' (see 'mrfuzz %s --help')", what, arg, argv[0]);
  return DRV_EXIT_USAGE;
}

/* The user option of one of tabs spelled by a[0..n), or NULL. */
static const drv_eopt *find_engine(const drv_etab *const *tabs, const char *a, size_t n) {
  for (size_t t = 0; tabs && tabs[t]; t++) {
    const drv_eopt *e = drv_etab_find(tabs[t], a, n);
    if (e && e->user)
      return e;
  }
  return NULL;
}

/* An engine option at argv[*i] (spelled a[0..n), value after '=' at eq or next): into
 * o->fwd. */
static int forward(drv_opts *o, const drv_eopt *e, int argc, char **argv, int *i, const char *eq) {
  const char *a = argv[*i], *val = NULL;
  if (e->meta) {
    if (eq)
      val = eq + 1;
    else if (*i + 1 < argc)
      val = argv[++*i];
    else
      return usage_error(argv, "missing value for option", a);
  } else if (eq) {
    return usage_error(argv, "option takes no value:", a);
  }
  o->fwd = drv_realloc(o->fwd, (o->nfwd + 1) * sizeof *o->fwd);
  o->fwd[o->nfwd++] = (drv_fwdarg){e, val};
  return DRV_EXIT_OK;
}

/* One option at argv[*i]; advances *i past its value. */
static int parse_one(drv_opts *o, unsigned cmd, const drv_etab *const *tabs, int argc, char **argv,
                     int *i) {
  const char *a = argv[*i];
  const drv_flag *f;
  const char *val = NULL;
  const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
  const drv_eopt *e = find_engine(tabs, a, eq ? (size_t)(eq - a) : strlen(a));
  if (e && !(a[1] == '-' ? find_long(cmd, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2))
                         : (a[2] ? NULL : find_short(cmd, a[1]))))
    return forward(o, e, argc, argv, i, eq);
  if (a[1] == '-') {
    const char *name = a + 2;
    eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    if (!(f = find_long(cmd, name, n)))
      return usage_error(argv, "unknown option", a);
    if (eq) {
      if (f->type == DRV_T_BOOL)
        return usage_error(argv, "option takes no value:", a);
      val = eq + 1;
    }
  } else {
    if (!(f = find_short(cmd, a[1])))
      return usage_error(argv, "unknown option", a);
    if (a[2]) {
      if (f->type == DRV_T_BOOL)
        return usage_error(argv, "option takes no value:", a);
      val = a + 2;
    }
  }
  if (f->type != DRV_T_BOOL && !val) {
    if (*i + 1 >= argc)
      return usage_error(argv, "missing value for option", a);
    val = argv[++*i];
  }
  store(o, f, val);
  return DRV_EXIT_OK;
}

/* The output files given to cmd (OUT... placeholders, ours and the engines'), checked
 * before any build or run: a directory or an unwritable place found after the run loses
 * its work. */
static int check_outputs(const drv_opts *o, unsigned cmd) {
  for (size_t i = 0; i < NFLAGS; i++) {
    const drv_flag *f = &flags[i];
    if (!(f->cmds & cmd) || f->type != DRV_T_STR || !drv_meta_is_output(f->meta))
      continue; /* only a STR flag's field is a char * */
    const char *val = *(const char *const *)(const void *)((const char *)o + f->off);
    if (!val)
      continue;
    char *opt = drv_fmt("--%s", f->lng);
    int rc = drv_check_output(opt, val);
    free(opt);
    if (rc != DRV_EXIT_OK)
      return rc;
  }
  return drv_fwd_check_outputs(o);
}

/* -o is the output file (flags.def): minimize and trace-tests write one; the other commands here take
 * -o DIR as the build directory, its meaning before --build-dir, with a warning. A file or
 * both options given are refused: neither reading is safe to guess. */
static int resolve_out_file(drv_opts *o, const char *name) {
  struct stat st;
  bool dir = o->out_file && stat(o->out_file, &st) == 0 && S_ISDIR(st.st_mode);
  if (o->out_file && !strcmp(name, "minimize") && dir) {
    drv_error("-o %s: minimize's -o is the shrunk reproducer, a file; the build directory is "
              "--build-dir (nothing was run)", o->out_file);
    return DRV_EXIT_USAGE;
  }
  if (!o->out_file || !strcmp(name, "minimize") || !strcmp(name, "trace-tests"))
    return DRV_EXIT_OK;
  if (o->build_dir) {
    drv_error("%s: -o is the output file and the build directory is --build-dir: 'mrfuzz %s' "
              "writes no output file, give --build-dir only", name, name);
    return DRV_EXIT_USAGE;
  }
  if (!dir && stat(o->out_file, &st) == 0) {
    drv_error("-o %s: 'mrfuzz %s' writes no output file (-o is the output file; the build "
              "directory is --build-dir)", o->out_file, name);
    return DRV_EXIT_USAGE;
  }
  drv_warn("-o %s: -o is the output file; the build directory is --build-dir: taken as "
           "--build-dir %s (deprecated)", o->out_file, o->out_file);
  o->build_dir = o->out_file;
  o->out_file = NULL;
  return DRV_EXIT_OK;
}

/* See drv.h. */
int drv_dash_index(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--"))
      return i;
  return argc;
}

/* Parse the options and positionals of one subcommand (see drv.h). */
int drv_opts_parse(drv_opts *o, unsigned cmd, const drv_etab *const *tabs, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  bool only_pos = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || a[1] == '\0') {
      drv_list_push(&o->pos, a);
      continue;
    }
    if (!strcmp(a, "--")) {
      only_pos = true;
      continue;
    }
    int rc = parse_one(o, cmd, tabs, argc, argv, &i);
    if (rc != DRV_EXIT_OK)
      return rc;
  }
  if (o->help)
    return DRV_EXIT_OK;
  int rc = resolve_out_file(o, argv[0]);
  return rc != DRV_EXIT_OK ? rc : check_outputs(o, cmd);
}

/* Release the lists held by o. */
void drv_opts_fini(drv_opts *o) {
#define DRV_FINI_BOOL(id)
#define DRV_FINI_STR(id)
#define DRV_FINI_LIST(id) drv_list_fini(&o->id);
#define DRV_FLAG(id, type, lng, shrt, meta, cmds, help) DRV_FINI_##type(id)
#include "flags.def"
#undef DRV_FLAG
  drv_list_fini(&o->pos);
  free(o->fwd);
  o->fwd = NULL;
  o->nfwd = 0;
}

/* Print a help text wrapped at 80 columns, indented by `col` after the first line. */
static void print_wrapped(const char *s, int col) {
  int at = col;
  while (*s) {
    size_t w = strcspn(s, " ");
    if (at > col && at + 1 + (int)w > 79) {
      printf("\n%*s", col, "");
      at = col;
    } else if (at > col) {
      putchar(' ');
      at++;
    }
    printf("%.*s", (int)w, s);
    at += (int)w;
    s += w;
    while (*s == ' ')
      s++;
  }
  putchar('\n');
}

/* One option line of --help: "  -x, --name META" and the wrapped help. */
static void help_line(const char *left, const char *help) {
  printf("%-28s", left);
  if (strlen(left) >= 28)
    printf("\n%28s", "");
  print_wrapped(help, 28);
}

/* See drv.h. */
void drv_help_tables(const drv_etab *const *tabs) {
  for (size_t t = 0; tabs && tabs[t]; t++) {
    printf("\n%s options:\n", tabs[t]->title);
    for (size_t i = 0; i < tabs[t]->n; i++) {
      const drv_eopt *e = &tabs[t]->v[i];
      if (!e->user)
        continue;
      char left[64];
      bool short_alias = e->alias && e->alias[1] != '-'; /* "-j, --jobs"; "-n, --runs" */
      snprintf(left, sizeof left, "  %s%s%s%s%s", short_alias ? e->alias : e->name,
               e->alias ? ", " : "", short_alias ? e->name : e->alias ? e->alias : "",
               e->meta ? " " : "", e->meta ? e->meta : "");
      help_line(left, e->help);
    }
  }
}

/* The --help text of one subcommand, generated from flags.def and the engine tables. */
void drv_opts_help(unsigned cmd, const drv_etab *const *tabs, const char *name, const char *args,
                   const char *summary) {
  printf("usage: mrfuzz %s [options] %s\n\n", name, args);
  print_wrapped(summary, 0);
  printf("\noptions:\n");
  for (size_t i = 0; i < NFLAGS; i++) {
    const drv_flag *f = &flags[i];
    if (!(f->cmds & cmd))
      continue;
    char left[64];
    int n = f->shrt ? snprintf(left, sizeof left, "  -%c, --%s", f->shrt, f->lng)
                    : snprintf(left, sizeof left, "      --%s", f->lng);
    if (f->meta && n > 0 && (size_t)n < sizeof left)
      snprintf(left + n, sizeof left - (size_t)n, " %s", f->meta);
    help_line(left, f->help);
  }
  drv_help_tables(tabs);
  printf("\nexit codes: 0 ok, 1 property violated (the target crashed),\n"
         "            2 usage or input error, 3 internal error (missing tool, I/O)\n");
}
