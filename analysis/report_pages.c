/* report_pages.c — the report's two pages: summary.md (Markdown, for a repository or a terminal) and index.html
 * (self-contained, offline: no scripts, no network), both listing the settings, the findings, the figures and the
 * tables kept by the other parts. */
#include "report_results.h"
#include "trace.h"

#include <string.h>

#define SETTINGS_LINES 8
#define SETTINGS_LEN 900

/* Text from the trace (device name, paths) in Markdown: '<', '>' and '&' as entities, so that a renderer shows
 * them instead of treating them as HTML. */
static void md_escape(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", fp);
        else if (*s == '>')
            fputs("&gt;", fp);
        else if (*s == '&')
            fputs("&amp;", fp);
        else
            fputc(*s, fp);
    }
}

static void settings_lines(struct report_ctx *c, char lines[][SETTINGS_LEN], int *n)
{
    const struct trace_meta *m = trace_get_meta(c->t);
    int k = 0;
    report_fmt(lines[k++], SETTINGS_LEN, "trace: %s (%s, %s, %s protocol, timer %s, created %s)", c->o->trace_path,
             m->device_name, m->kernel, m->protocol, m->timer, m->created_utc);
    report_fmt(lines[k++], SETTINGS_LEN, "trace holds %d inputs, %d configurations, %zu runs; warm-up %.0f ms, repetition "
             "%.0f ms, flush_bytes %lld", trace_n_inputs(c->t), trace_n_configs(c->t), trace_n_runs(c->t),
             m->warmup_ms, m->rep_ms, (long long)m->flush_bytes);
    report_fmt(lines[k++], SETTINGS_LEN, "simulation: seed %llu, %d samples x %d runs, N_CONFIG %d:%d, EXEC_TIME %g:%g ms, "
             "compile factor %d, estimator %s", (unsigned long long)c->o->seed, c->o->samples, c->o->runs,
             c->res.s[REPORT_SIM_INPUT].n_config_lo, c->res.s[REPORT_SIM_INPUT].n_config_hi,
             c->res.s[REPORT_SIM_INPUT].exec_ms_lo, c->res.s[REPORT_SIM_INPUT].exec_ms_hi,
             c->o->compile_factor, sim_estimator_name(c->res.s[REPORT_SIM_INPUT].estimator));
    {
        const struct sim_settings *s = &c->res.s[REPORT_SIM_INPUT];
        long no_iso = 0, fail_no = 0, pairs = 0, failed = 0;
        char warm[200] = "compile-worker warm-up";
        int charged = 0;
        const struct sim_data *d =
            c->res.d[REPORT_SIM_ALL] != NULL ? c->res.d[REPORT_SIM_ALL] : c->res.d[REPORT_SIM_INPUT];
        if (d != NULL) {
            sim_data_missing(d, &no_iso, &fail_no);
            charged = sim_data_warmup_note(d, s->compile_model, warm, sizeof warm);
            for (int i = 0; i < sim_data_n_inputs(d); i++) {
                failed += sim_data_n_failed(d, i);
                pairs += sim_data_n_valid(d, i) + sim_data_n_failed(d, i);
            }
        }
        report_fmt(lines[k++], SETTINGS_LEN, "cost model: %s; failed configurations %s (%s); compile model %s (%s); truth "
                   "%s; isolated compile times measured for %ld of %ld (input, configuration) pairs, imputed (their "
                   "compile_ms) for %ld; failing configurations' compile times measured for %ld of %ld, imputed (the "
                   "input's median valid one) for %ld; %s: %s", c->o->paper ? "the paper's (--paper)" : "simulate's default",
                   sim_failed_cost_name(s->failed_cost),
                   s->failed_cost == SIM_FAILED_TRITON ? "drawn, charged compile + failed launch" : "not drawn, free",
                   sim_compile_model_name(s->compile_model),
                   s->compile_model == SIM_CM_PAPER ? "the contended compile_ms everywhere, parallel = the ideal bound"
                                                    : "sequential isolated times, the parallel models interpolated between isolated and contended ones by the compiles running together",
                   sim_estimator_name(s->truth), pairs - no_iso, pairs, no_iso, failed - fail_no, failed, fail_no,
                   charged ? "charged" : "not charged", warm);
    }
    report_fmt(lines[k++], SETTINGS_LEN, "single input: %s; triton trace: %s", c->input_label,
             c->tt ? trace_path(c->tt) : "none");
    report_fmt(lines[k++], SETTINGS_LEN, "L2 flush study: %s; compile scaling: %s; recorded session: %s",
               c->o->flush_dir ? c->o->flush_dir : "none", c->o->scaling_dir ? c->o->scaling_dir : "none",
               c->o->recorded_dir ? c->o->recorded_dir : "none");
    report_fmt(lines[k++], SETTINGS_LEN, "second kernel family: %s", c->cmp ? trace_path(c->cmp) : "none");
    *n = k;
}

/* Markdown/HTML text: findings may contain **bold**; HTML gets <strong>. */
static void html_finding(FILE *fp, const char *s)
{
    int open = 0;
    char buf[2];
    buf[1] = '\0';
    for (; *s; s++) {
        if (s[0] == '*' && s[1] == '*') {
            fputs(open ? "</strong>" : "<strong>", fp);
            open = !open;
            s++;
            continue;
        }
        buf[0] = *s;
        html_escape(fp, buf);
    }
    if (open)
        fputs("</strong>", fp);
}

int report_write_summary(struct report_ctx *c)
{
    char path[PATH_MAX], lines[SETTINGS_LINES][SETTINGS_LEN];
    int nl;
    FILE *fp = report_open(c, "summary.md", path, sizeof path);
    if (fp == NULL)
        return -1;
    settings_lines(c, lines, &nl);
    fputs("# tunecost report: ", fp);
    md_escape(fp, trace_get_meta(c->t)->device_name);
    fputs("\n\n", fp);
    for (int i = 0; i < nl; i++) {
        fputs("- ", fp);
        md_escape(fp, lines[i]);
        fputc('\n', fp);
    }
    fprintf(fp, "\nRegenerate: `tunecost report %s -o DIR --input %s --seed %llu --samples %d --runs %d%s%s%s "
            "--compile-factor %d --triton-trace %s --compare-trace %s --flush-study %s --scaling %s --recorded %s`\n\n",
            c->o->trace_path, c->input_label, (unsigned long long)c->o->seed, c->o->samples,
            c->o->runs, c->o->paper ? " --paper" : "",
            c->o->failed_cost >= 0 ? (c->o->failed_cost ? " --failed-cost none" : " --failed-cost triton") : "",
            c->o->compile_model >= 0 ? (c->o->compile_model ? " --compile-model paper" : " --compile-model measured")
                                     : "",
            c->o->compile_factor, c->tt ? trace_path(c->tt) : "none", c->cmp ? trace_path(c->cmp) : "none",
            c->o->flush_dir ? c->o->flush_dir : "none", c->o->scaling_dir ? c->o->scaling_dir : "none",
            c->o->recorded_dir ? c->o->recorded_dir : "none");
    if (c->n_opening > 0) {
        fprintf(fp, "## What tuning costs and what it buys\n\n");
        for (int i = c->opening_at; i < c->opening_at + c->n_opening; i++)
            fprintf(fp, "- %s\n", c->findings[i]);
        fputc('\n', fp);
    }
    fprintf(fp, "## Findings\n\n");
    for (int i = 0; i < c->n_findings; i++)
        if (i < c->opening_at || i >= c->opening_at + c->n_opening)
            fprintf(fp, "- %s\n", c->findings[i]);
    fprintf(fp, "\n## Figures\n\n");
    for (int i = 0; i < c->n_figs; i++) {
        const struct report_figure *f = &c->figs[i];
        fprintf(fp, "### %s\n\n", f->title);
        if (f->drawn)
            fprintf(fp, "![%s](%s.png)\n\n%s ([SVG](%s.svg), script `plots/%s`)\n\n", f->title, f->name,
                    f->caption, f->name, f->script);
        else
            fprintf(fp, "**Not drawn:** %s.\n\n", f->why);
    }
    fprintf(fp, "## Tables\n\n");
    for (int i = 0; i < c->n_tabs; i++) {
        fprintf(fp, "### %s\n\nFile: [%s](%s)\n\n", c->tab_heads[i], c->tab_files[i], c->tab_files[i]);
        if (c->tab_max_rows[i] >= 0)
            table_write_markdown(c->tabs[i], fp, c->tab_max_rows[i]);
        fputc('\n', fp);
    }
    fprintf(fp, "## Simulation data\n\n`sim/points-input.tsv`, `sim/points-all.tsv`: every point of both "
            "simulations (format in docs/simulation.md); `sim/<input|all>-<scenario>[-frontier].tsv`: one "
            "scenario's points or frontier, as the figures read them.\n");
    return report_close(fp, path);
}

static const char *css =
    "body{font-family:sans-serif;max-width:1150px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}"
    "figure{margin:1.5em 0}figure img{width:100%;height:auto;border:1px solid #ddd}"
    "figcaption{font-size:.92em;color:#444}table{border-collapse:collapse;font-size:.85em;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:.15em .5em}th{background:#f2f2f2}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums}.missing{background:#fff3cd;border:1px solid #e0c36c;padding:.5em}"
    ".settings{font-size:.9em;color:#444}.notes{font-size:.85em;color:#444}nav a{margin-right:1em}"
    ".scroll{overflow-x:auto}";

int report_write_index(struct report_ctx *c)
{
    char path[PATH_MAX], lines[SETTINGS_LINES][SETTINGS_LEN];
    int nl;
    FILE *fp = report_open(c, "index.html", path, sizeof path);
    if (fp == NULL)
        return -1;
    settings_lines(c, lines, &nl);
    fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>tunecost report: ");
    html_escape(fp, trace_get_meta(c->t)->device_name);
    fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>tunecost report: ", css);
    html_escape(fp, trace_get_meta(c->t)->device_name);
    fputs("</h1>\n<ul class=\"settings\">\n", fp);
    for (int i = 0; i < nl; i++) {
        fputs("<li>", fp);
        html_escape(fp, lines[i]);
        fputs("</li>\n", fp);
    }
    fputs("</ul>\n<nav><a href=\"#findings\">Findings</a><a href=\"#figures\">Figures</a>"
          "<a href=\"#tables\">Tables</a><a href=\"summary.md\">summary.md</a></nav>\n", fp);
    if (c->n_opening > 0) {
        fputs("<h2 id=\"costs\">What tuning costs and what it buys</h2>\n<ul>\n", fp);
        for (int i = c->opening_at; i < c->opening_at + c->n_opening; i++) {
            fputs("<li>", fp);
            html_finding(fp, c->findings[i]);
            fputs("</li>\n", fp);
        }
        fputs("</ul>\n", fp);
    }
    fputs("<h2 id=\"findings\">Findings</h2>\n<ul>\n", fp);
    for (int i = 0; i < c->n_findings; i++) {
        if (i >= c->opening_at && i < c->opening_at + c->n_opening)
            continue;
        fputs("<li>", fp);
        html_finding(fp, c->findings[i]);
        fputs("</li>\n", fp);
    }
    fputs("</ul>\n<h2 id=\"figures\">Figures</h2>\n", fp);
    for (int i = 0; i < c->n_figs; i++) {
        const struct report_figure *f = &c->figs[i];
        fprintf(fp, "<figure id=\"%s\">\n<h3>", f->name);
        html_escape(fp, f->title);
        fputs("</h3>\n", fp);
        if (f->drawn) {
            fprintf(fp, "<img src=\"%s.png\" alt=\"", f->name);
            html_escape(fp, f->title);
            fprintf(fp, "\">\n<figcaption>");
            html_escape(fp, f->caption);
            fprintf(fp, " <a href=\"%s.svg\">SVG</a> &middot; script <code>plots/%s</code></figcaption>\n",
                    f->name, f->script);
        } else {
            fputs("<p class=\"missing\">Not drawn: ", fp);
            html_escape(fp, f->why);
            fputs(".</p>\n", fp);
        }
        fputs("</figure>\n", fp);
    }
    fputs("<h2 id=\"tables\">Tables</h2>\n", fp);
    for (int i = 0; i < c->n_tabs; i++) {
        fputs("<h3>", fp);
        html_escape(fp, c->tab_heads[i]);
        fprintf(fp, "</h3>\n<p>File: <a href=\"%s\">%s</a></p>\n", c->tab_files[i], c->tab_files[i]);
        if (c->tab_max_rows[i] >= 0) {
            fputs("<div class=\"scroll\">\n", fp);
            table_write_html(c->tabs[i], fp, c->tab_max_rows[i]);
            fputs("</div>\n", fp);
        }
    }
    fputs("<p class=\"notes\">Made by tunecost from the TSV files beside this page; no network resources.</p>\n"
          "</body>\n</html>\n", fp);
    return report_close(fp, path);
}
