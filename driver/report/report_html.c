/* SPDX-License-Identifier: MIT
 * report_html.c - the HTML report of `mrfuzz report` / `adequacy --html`: one
 * self-contained page (inline CSS, inline SVG charts, inline scripts, no external asset).
 * Rendered here: k-MR adequacy over the corpus inputs and over a check run's time,
 * per-relation checks on the corpus, and the target's source annotated per line with the
 * relations associated with the best input reaching it. Rendered by the page's own
 * script (report/report.js, compiled in) from the data report_data.c gathers: the
 * relations with their checks and kills, the findings, every source of the build with
 * coverage and mutants per line, and the Mutation Testing Elements view (its bundle
 * inlined). Numbers carry ids so tests can read them from the rendered DOM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report_js.h"
#ifdef DRV_HAVE_DSL
#include <mrfuzz/mrdsl.h>
#endif

static void esc(drv_buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; i++) {
    char c = s[i];
    if (c == '<')
      drv_buf_printf(b, "&lt;");
    else if (c == '>')
      drv_buf_printf(b, "&gt;");
    else if (c == '&')
      drv_buf_printf(b, "&amp;");
    else if (c == '"')
      drv_buf_printf(b, "&quot;");
    else if (c == '\t')
      drv_buf_printf(b, "        ");
    else
      drv_buf_printf(b, "%c", c);
  }
}

static double frac(unsigned long long n, unsigned long long d) { return d ? (double)n / (double)d : 1.0; }

/* A step chart of C_MT^k (0..1) against x (inputs or seconds), inline SVG. */
static void chart(drv_buf *b, const char *id, const drv_adeq *a, bool by_time, const char *xlabel) {
  const int W = 640, H = 220, L = 50, B = 30, T = 10, R = 10;
  double xmax = 0;
  for (size_t i = 0; i < a->npts; i++) {
    double x = by_time ? a->pts[i].secs : (double)a->pts[i].inputs;
    xmax = x > xmax ? x : xmax;
  }
  double xend = by_time ? (a->seconds > xmax ? a->seconds : xmax) : (double)(a->inputs > xmax ? a->inputs : xmax);
  if (xend <= 0)
    xend = 1;
  drv_buf_printf(b, "<svg id=\"%s\" width=\"%d\" height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">\n", id, W, H);
  drv_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>\n", L, T,
                 W - L - R, H - T - B);
  for (int g = 0; g <= 4; g++) {
    double y = T + (H - T - B) * (1 - g / 4.0);
    drv_buf_printf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                      "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>\n",
                   L, W - R, y, y, L - 4, y + 4, g / 4.0);
  }
  drv_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0</text><text x=\"%d\" y=\"%d\" font-size=\"11\" "
                    "text-anchor=\"end\">%.4g %s</text>\n",
                 L, H - 12, W - R, H - 12, xend, xlabel);
  drv_buf_printf(b, "<polyline fill=\"none\" stroke=\"#2060c0\" stroke-width=\"2\" points=\"");
  double py = T + (H - T - B);
  drv_buf_printf(b, "%d,%.1f ", L, py);
  for (size_t i = 0; i < a->npts; i++) {
    double x = by_time ? a->pts[i].secs : (double)a->pts[i].inputs;
    double px = L + (W - L - R) * x / xend;
    double y = T + (H - T - B) * (1 - frac(a->pts[i].sum, a->den));
    drv_buf_printf(b, "%.1f,%.1f %.1f,%.1f ", px, py, px, y);
    py = y;
  }
  drv_buf_printf(b, "%d,%.1f\"/>\n</svg>\n", W - R, py);
}

static void rel_table(drv_buf *b, const char *cls, const drv_adeq *a, const char *what) {
  drv_buf_printf(b, "<table class=\"%s\"><tr><th>relation</th><th>checked (%s)</th><th>skipped</th>"
                    "<th>violated</th></tr>\n", cls, what);
  for (size_t i = 0; i < a->nrels; i++) {
    const drv_adeq_rel *r = &a->rels[i];
    drv_buf_printf(b, "<tr data-rel=\"");
    esc(b, r->name, sizeof r->name);
    drv_buf_printf(b, "\"><td>");
    esc(b, r->name, sizeof r->name);
    drv_buf_printf(b, "</td><td class=\"checked\">%llu</td><td class=\"skipped\">%llu</td>"
                      "<td class=\"violated\">%llu</td></tr>\n",
                   r->checked, r->skipped, r->violated);
  }
  drv_buf_printf(b, "</table>\n");
}

/* Per source line: the best relation count of the requirements there (-1 unreached, -2
 * no requirement on this line). */
static int *line_best(const drv_adeq *a, size_t nlines) {
  int *lb = drv_alloc((nlines + 1) * sizeof *lb);
  for (size_t i = 0; i <= nlines; i++)
    lb[i] = -2;
  for (size_t i = 0; i < a->nreqs; i++) {
    unsigned l = a->reqs[i].line;
    if (l && l <= nlines && a->reqs[i].best > lb[l])
      lb[l] = a->reqs[i].best;
  }
  return lb;
}

static void source(drv_buf *b, const drv_adeq *a, const char *path) {
  size_t len = 0;
  char *s = drv_read_file(path, &len);
  if (!s) {
    drv_buf_printf(b, "<p>The source file could not be read.</p>\n");
    return;
  }
  size_t nlines = 1;
  for (size_t i = 0; i < len; i++)
    nlines += s[i] == '\n';
  int *lb = line_best(a, nlines);
  drv_buf_printf(b, "<table class=\"src\"><tr><th>line</th><th>relations</th><th>source</th></tr>\n");
  const char *p = s;
  for (size_t l = 1; p && *p; l++) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    const char *cls = lb[l] == -2 ? "none" : lb[l] < 0 ? "unreached" : (unsigned)lb[l] >= a->k ? "full" : "short";
    drv_buf_printf(b, "<tr class=\"%s\" id=\"L%zu\"><td class=\"ln\">%zu</td><td class=\"k\">", cls, l, l);
    if (lb[l] == -1)
      drv_buf_printf(b, "&#8709;");
    else if (lb[l] >= 0)
      drv_buf_printf(b, "%d", lb[l]);
    drv_buf_printf(b, "</td><td><pre>");
    esc(b, p, n);
    drv_buf_printf(b, "</pre></td></tr>\n");
    p = e ? e + 1 : NULL;
  }
  drv_buf_printf(b, "</table>\n");
  free(lb);
  free(s);
}

/* Fault detection rate (% of the faults found) after 10%..100% of the tests, one line
 * per order of prioritize's table. */
static void fdr_chart(drv_buf *b, const drv_fdr *f, size_t n) {
  static const char *colors[] = {"#c03030", "#2060c0", "#30a030", "#a060c0", "#808080"};
  const int W = 640, H = 240, L = 50, B = 30, T = 10, R = 150;
  drv_buf_printf(b, "<svg id=\"chart-fdr\" width=\"%d\" height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">\n", W, H);
  drv_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>\n", L, T,
                 W - L - R, H - T - B);
  for (int g = 0; g <= 4; g++) {
    double y = T + (H - T - B) * (1 - g / 4.0);
    drv_buf_printf(b, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%d%%</text>\n", L - 4, y + 4, 25 * g);
  }
  drv_buf_printf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">100%% of the tests</text>\n",
                 W - R, H - 12);
  for (size_t i = 0; i < n; i++) {
    drv_buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colors[i % 5]);
    for (int j = 0; j < 10; j++)
      drv_buf_printf(b, "%.1f,%.1f ", L + (W - L - R) * (j + 1) / 10.0, T + (H - T - B) * (1 - f[i].pct[j] / 100.0));
    drv_buf_printf(b, "\"/><text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">", W - R + 6, T + 14 + 16 * (int)i,
                   colors[i % 5]);
    esc(b, f[i].label, sizeof f[i].label);
    drv_buf_printf(b, "</text>\n");
  }
  drv_buf_printf(b, "</svg>\n<table class=\"fdr\"><tr><th>order</th><th>APFD</th>");
  for (int j = 1; j <= 10; j++)
    drv_buf_printf(b, "<th>%d%%</th>", 10 * j);
  drv_buf_printf(b, "</tr>\n");
  for (size_t i = 0; i < n; i++) {
    drv_buf_printf(b, "<tr><td>");
    esc(b, f[i].label, sizeof f[i].label);
    drv_buf_printf(b, "</td><td class=\"apfd\">%.3f</td>", f[i].apfd);
    for (int j = 0; j < 10; j++)
      drv_buf_printf(b, "<td>%.1f</td>", f[i].pct[j]);
    drv_buf_printf(b, "</tr>\n");
  }
  drv_buf_printf(b, "</table>\n");
}

/* The .mr's declarations (records and the subject, canonical form), so a record's fields
 * show under the names the relations use. Nothing when the file does not load. */
static void subject_section(drv_buf *b, const char *mr) {
#ifdef DRV_HAVE_DSL
  mrdsl_ctx *ctx;
  mrdsl_file *f;
  if (mrdsl_ctx_new(NULL, NULL, &ctx) != MR_OK)
    return;
  if (mrdsl_load_path(ctx, mr, &f) == MR_OK) {
    size_t n = mrdsl_print(f, NULL, 0);
    char *text = drv_alloc(n + 1);
    mrdsl_print(f, text, n + 1);
    char *rel = strstr(text, "\nrelation ");
    size_t len = rel ? (size_t)(rel - text) + 1 : n; /* up to the first relation's line */
    while (rel && len > 0) { /* and its comment lines */
      size_t start = len - 1;
      while (start > 0 && text[start - 1] != '\n')
        start--;
      if (strncmp(text + start + strspn(text + start, " \t"), "//", 2))
        break;
      len = start;
    }
    drv_buf_printf(b, "<pre id=\"subject\">");
    esc(b, text, len);
    drv_buf_printf(b, "</pre>\n");
    free(text);
  }
  mrdsl_ctx_free(ctx);
#else
  (void)b;
  (void)mr;
#endif
}

/* The first sections report.js fills from the runs' data: the relations, the tests beside
 * them, the findings. */
static void run_sections_top(drv_buf *b) {
  drv_buf_printf(b, "<noscript><p>The relations, findings, sources and mutation sections are drawn "
                    "by the page's script: allow JavaScript for this file.</p></noscript>\n");
  drv_buf_printf(b, "<h2>Relations</h2>\n<section id=\"relations\"><p>Each relation as the file "
                    "says it; checked, skipped and violated in the last <code>mrfuzz check</code>; the "
                    "mutants it kills in the last <code>mrfuzz score</code>.</p></section>\n");
  drv_buf_printf(b, "<h2>The project's tests and the relations</h2>\n<section id=\"tests\"><p>The "
                    "mutation score of the project's own tests beside the relations', on the same "
                    "mutants (<code>mrfuzz score ... -- TEST-COMMAND</code>), and the mutants only one "
                    "side kills.</p></section>\n");
  drv_buf_printf(b, "<h2>Findings</h2>\n<section id=\"findings\"></section>\n");
}

/* The last ones (every source, the Mutation Testing Elements view), the data and the
 * scripts. */
static void run_sections_end(drv_buf *b, const drv_report_in *in) {
  char *why = NULL, *bundle = drv_report_bundle(&why);
  drv_buf data = {0}, runs = {0};
  drv_report_data(&data, &runs, in, bundle != NULL, why);
  drv_buf_printf(b, "<h2>Sources</h2>\n<section id=\"sources\"><p>Every file of the build. Per line: "
                    "how many relations reached it on the original in the last <code>mrfuzz score</code> "
                    "(green: some, red: none, blank: no block starts there), and its mutants by id "
                    "(red: survived, green: killed, orange: timed out, grey: equivalent suspect).</p>"
                    "</section>\n");
  drv_buf_printf(b, "<h2>Mutation testing</h2>\n<section id=\"mte\"><p id=\"mte-status\" "
                    "data-state=\"pending\">Loading the Mutation Testing Elements view&#8230;</p>\n"
                    "<mutation-test-report-app title-postfix=\"mrfuzz\"></mutation-test-report-app>"
                    "</section>\n");
  drv_html_script(b, " type=\"application/json\" id=\"mrfuzz-data\"", data.s, true);
  drv_buf_printf(b, "%s", runs.s ? runs.s : "");
  if (bundle)
    drv_html_script(b, "", bundle, false);
  drv_html_script(b, "", drv_report_js, false);
  drv_buf_fini(&data);
  drv_buf_fini(&runs);
  free(bundle);
  free(why);
}

/* k-MR adequacy over the corpus and over the last check's time, the fault detection
 * rates, the relations on the corpus and the adequacy per line of the target's file. */
static void adequacy_sections(drv_buf *b, const drv_report_in *in) {
  const drv_adeq *a = in->a, *run = in->run;
  const char *crit = a->branch ? "branch" : "statement";
  drv_buf_printf(b, "<h2>k-MR adequacy</h2>\n<p class=\"big\">C<sub>MT</sub><sup>%u</sup>(%s) = "
                    "<span id=\"adequacy-frac\">%llu/%llu</span> = <span id=\"adequacy\">%.4f</span></p>\n",
                 a->k, crit, a->sum, a->den, frac(a->sum, a->den));
  size_t shortfall = 0, unreached = 0;
  for (size_t i = 0; i < a->nreqs; i++) {
    shortfall += a->reqs[i].best < (int)a->k;
    unreached += a->reqs[i].best < 0;
  }
  drv_buf_printf(b, "<p>k = <span id=\"k\">%u</span>; <span id=\"nreqs\">%zu</span> requirements (%ss), "
                    "<span id=\"shortfall\">%zu</span> short of k, of which <span id=\"unreached\">%zu</span> "
                    "unreached; <span id=\"inputs\">%llu</span> source inputs replayed from the corpus.</p>\n",
                 a->k, a->nreqs, crit, shortfall, unreached, a->inputs);
  drv_buf_printf(b, "<h3>Over the corpus inputs (replay order)</h3>\n");
  chart(b, "chart-inputs", a, false, "inputs");
  drv_buf_printf(b, "<h3>Over time (last <code>mrfuzz check --until-adequate</code>)</h3>\n");
  if (run && run->npts) {
    drv_buf_printf(b, "<p>Reached <span id=\"run-adequacy\">%.4f</span> after %llu inputs in %.3g s.</p>\n",
                   frac(run->sum, run->den), run->inputs, run->seconds);
    chart(b, "chart-time", run, true, "s");
  } else {
    drv_buf_printf(b, "<p id=\"run-none\">No check run tracked adequacy in this build directory "
                      "(run <code>mrfuzz check ... --until-adequate K</code>).</p>\n");
  }
  drv_buf_printf(b, "<h2>Fault detection rate</h2>\n");
  if (in->nfdr) {
    drv_buf_printf(b, "<p>Mutants as faults: the share found after each tenth of the corpus, in "
                      "path-distance order against random orders and a random set "
                      "(<code>mrfuzz prioritize --apfd</code>).</p>\n");
    fdr_chart(b, in->fdr, in->nfdr);
  } else {
    drv_buf_printf(b, "<p id=\"fdr-none\">Not measured (<code>mrfuzz report --fdr</code> runs "
                      "<code>mrfuzz prioritize --apfd</code> on the mutants).</p>\n");
  }
  drv_buf_printf(b, "<h3>Relations on the corpus</h3>\n");
  rel_table(b, "rels", a, "associated inputs");
  if (run && run->nrels) {
    drv_buf_printf(b, "<h3>Relations during the last check run</h3>\n");
    rel_table(b, "rels-run", run, "inputs");
  }
  drv_buf_printf(b, "<h3>Adequacy per line</h3>\n<p>Per line of the target's file, the relations "
                    "associated with the best corpus input reaching it (green: at least k, yellow: "
                    "fewer, red &#8709;: unreached).</p>\n");
  source(b, a, in->src_path);
}

void drv_report_html(drv_buf *b, const drv_report_in *in) {
  const char *target = in->target, *mr = in->mr;
  drv_buf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>mrfuzz report: ");
  esc(b, target, strlen(target));
  drv_buf_printf(b, "</title>\n<style>\n"
                    "body{font-family:sans-serif;margin:2em;max-width:90em}\n"
                    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px}\n"
                    "table.src td{border:none;padding:0 6px}table.src pre{margin:0}\n"
                    "tr.full{background:#d8f5d0}tr.short{background:#fff3c0}tr.unreached{background:#f8d0d0}\n"
                    "td.ln,td.k,td.cov{text-align:right;color:#555}.big{font-size:1.6em}\n"
                    "tr.covered td.cov{background:#d8f5d0}tr.uncovered td.cov{background:#f8d0d0}\n"
                    "tr.has-survivor{background:#fde8e8}tr.violated{background:#f8d0d0}\n"
                    "pre.rel-text{margin:0;font-size:.9em}.note{color:#555;font-style:italic}\n"
                    ".mutant{display:inline-block;min-width:1.6em;margin:0 1px;padding:0 3px;border-radius:3px;"
                    "font-size:.8em;text-align:center;color:#fff;background:#888}\n"
                    ".mutant.survived{background:#c03030}.mutant.killed{background:#30a030}"
                    ".mutant.timeout{background:#d08020}\n"
                    "</style></head><body>\n<h1>mrfuzz report: ");
  esc(b, target, strlen(target));
  drv_buf_printf(b, "</h1>\n<p>Relations: ");
  esc(b, mr, strlen(mr));
  drv_buf_printf(b, "</p>\n");
  subject_section(b, mr);
  run_sections_top(b);
  if (in->a)
    adequacy_sections(b, in);
  else
    drv_buf_printf(b, "<h2>k-MR adequacy</h2>\n<p id=\"adequacy-none\">No corpus to measure it on: "
                      "run <code>mrfuzz check</code> with this build directory (it keeps the inputs), "
                      "or give <code>--corpus DIR</code>.</p>\n");
  run_sections_end(b, in);
  drv_buf_printf(b, "</body></html>\n");
}
