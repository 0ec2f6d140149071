/* SPDX-License-Identifier: MIT
 * cmd_trace.c - `mrfuzz trace [--summary] FILE`: a recorded trace as JSON Lines (one object
 * per call) or as a per-function summary. Decoding and rendering belong to libmrrt
 * (mr_trace_write_jsonl / mr_trace_write_summary); this file maps their codes to exits:
 * a cut tail (a crash mid-record) or an empty file is a warning, a corrupted record an
 * input error.
 */
#include <stdio.h>

#include <mrfuzz/mr_rt.h>

#include "cmd/cmd.h"
#include "tests/tests.h"

static const char trace_args[] = "[--summary | --domain | --pairs] FILE";
static const char trace_summary[] =
    "Print the trace FILE written by 'mrfuzz run' (or MR_TRACE=FILE) as JSON Lines, one "
    "object per call: function, depth, inputs and outputs by parameter name. With "
    "--summary: calls per function, the constants mined from each function's body and the "
    "blocks and edges reached. With --domain: each function's parameters as the calls saw "
    "them, and the --range options that make that the domain of run, check, score and "
    "discover (their --domain-from FILE). With --pairs: the relations the tests encode, "
    "pairs of calls of one function made by one test process on related inputs with equal "
    "or opposite results, as mrdsl (discover --from-tests FILE checks them), and round trips "
    "between two functions. A trace cut in the middle of a record (the target crashed or "
    "was killed) prints every complete call, the interrupted one marked \"incomplete\", and "
    "a warning about the cut (exit 0); an empty file prints nothing and a warning (exit 0); "
    "a corrupted record "
    "is an error (exit 2) after everything before it was printed.";

/* `mrfuzz trace`: see trace_summary. */
int drv_cmd_trace(int argc, char **argv) {
  drv_opts o;
  int rc = drv_opts_parse(&o, DRV_CMD_TRACE, NULL, argc, argv);
  if (rc == DRV_EXIT_OK && o.help) {
    drv_opts_help(DRV_CMD_TRACE, NULL, "trace", trace_args, trace_summary);
    drv_opts_fini(&o);
    return DRV_EXIT_OK;
  }
  if (rc == DRV_EXIT_OK && o.pos.n != 1) {
    drv_error("expected one trace FILE, got %zu arguments (see 'mrfuzz trace --help')", o.pos.n);
    rc = DRV_EXIT_USAGE;
  }
  if (rc == DRV_EXIT_OK && o.domain + o.summary + o.pairs > 1) {
    drv_error("--summary, --domain and --pairs: one view at a time");
    rc = DRV_EXIT_USAGE;
  } else if (rc == DRV_EXIT_OK && o.pairs) {
    drv_pair_rel *c;
    size_t n;
    rc = drv_pairs_find(o.pos.v[0], &c, &n);
    for (size_t i = 0; rc == DRV_EXIT_OK && i < n; i++)
      if (c[i].round_trip)
        printf("%s: a round trip, %zu pairs (test %s): mrfuzz discover 'FILE:%s'\n", c[i].body,
               c[i].pairs, c[i].test[0] ? c[i].test : "-", c[i].body);
      else
        printf("%s: %s, %zu pairs (test %s)\n%s", c[i].function, c[i].name, c[i].pairs,
               c[i].test[0] ? c[i].test : "-", c[i].body);
    if (rc == DRV_EXIT_OK) {
      if (!n)
        drv_note("%s: no pair of calls the tests made is related as discovery knows", o.pos.v[0]);
      drv_pairs_free(c, n);
    }
    drv_opts_fini(&o);
    return rc;
  } else if (rc == DRV_EXIT_OK && o.domain) {
    drv_domain *d;
    size_t n;
    rc = drv_domains_read(o.pos.v[0], &d, &n);
    for (size_t i = 0; rc == DRV_EXIT_OK && i < n; i++)
      drv_domain_print(stdout, &d[i]);
    if (rc == DRV_EXIT_OK) {
      if (!n)
        drv_warn("%s: no completed call in it", o.pos.v[0]);
      drv_domains_free(d, n);
    }
    drv_opts_fini(&o);
    return rc;
  }
  if (rc == DRV_EXIT_OK) {
    char err[512] = "";
    const char *path = o.pos.v[0];
    int mr = o.summary ? mr_trace_write_summary(path, stdout, err, sizeof err)
                       : mr_trace_write_jsonl(path, stdout, err, sizeof err);
    fflush(stdout);
    if (mr == MR_OK) {
      if (err[0])
        drv_warn("%s: %s", path, err);
    } else if (mr == MR_ECORRUPT || mr == MR_EIO) {
      drv_error("%s: %s", path, err[0] ? err : mr == MR_EIO ? "cannot read" : "corrupted");
      rc = DRV_EXIT_USAGE;
    } else {
      drv_error("%s: reading the trace failed (code %d)%s%s", path, mr, err[0] ? ": " : "", err);
      rc = DRV_EXIT_INTERNAL;
    }
  }
  drv_opts_fini(&o);
  return rc;
}
