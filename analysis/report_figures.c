/* report_figures.c — the report's figures: the gnuplot scripts of plots/ are copied into DIR/plots (so the report
 * can be redrawn from its own TSV files) and each figure is drawn as PNG and SVG by util/tc_gnuplot, gnuplot's
 * messages going to DIR/plots/gnuplot.log. A figure whose data is absent (no triton trace, no second kernel
 * family) is named with the reason, or left out with its section. */
#include "report_ctx.h"
#include "tc_gnuplot.h"
#include "trace.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The scripts that travel with the report: common.gp and one per figure. */
static const char *const scripts[] = {"common.gp",   "fig1-split.gp", "fig2-estimate.gp", "fig3-frontier.gp",
                                      "fig4-parallel.gp", "fig5-early-stop.gp", "heatmap.gp", "models.gp",
                                      "policies.gp", "landscapes.gp"};

static struct report_figure *add_figure(struct report_ctx *c, const char *name, const char *title,
                                        const char *caption)
{
    struct report_figure *f = &c->figs[c->n_figs++];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->title = title;
    f->caption = caption;
    f->have_data = 1;
    return f;
}

static void list_figures(struct report_ctx *c)
{
    struct report_figure *f;
    add_figure(c, "fig1-split", "Where tuning time goes, per input (paper Figure 1)",
               "Per input, summed over its valid runs: repetition (timed executions), overhead (wall time minus "
               "timed executions, warm-up included) and compilation of the configurations measured on it; the "
               "lower panel leaves compilation out, so repetition and overhead can be compared.");
    f = add_figure(c, "fig2-estimate", "Triton's execution-time estimate vs the warmed execution time (paper Figure 2)",
                   "Left: the per-execution estimate of each run against the median of its warmed timed executions "
                   "(the diagonal is a perfect estimate). Right: the timed total against the requested repetition "
                   "time.");
    f->have_data = c->estimate != NULL;
    f->needs = "needs a triton-protocol trace (--triton-trace)";
    add_figure(c, "fig3-frontier", "Pareto frontier of tuning time vs performance (paper Figure 3)",
               "Every simulated sample (mean over its runs) faint, coloured by N_CONFIG; the Pareto frontier bold, "
               "labelled with N_CONFIG.");
    add_figure(c, "fig4-parallel", "Parallel vs sequential compilation, all inputs (paper Figure 4)",
               "Pareto frontiers of mean speedup relative to optimal vs mean tuning time; bands are the 95% "
               "confidence intervals of the frontier points' speedup.");
    add_figure(c, "fig5-early-stop", "Early stopping vs baseline, all inputs (paper Figure 5)",
               "Pareto frontiers of mean speedup relative to optimal vs mean tuning time, with 95% confidence "
               "bands.");
    add_figure(c, "heatmap", "Every configuration's performance relative to the best, per input",
               "Colour: best time of the input divided by the configuration's median time (1 = the best). "
               "Configurations ordered by their mean over inputs; grey = failed or not measured; configurations "
               "that failed on every input are left out (counted under the plot).");
    add_figure(c, "models", "The frontier under other cost models (beyond the paper)",
               "Frontiers for the single input: the paper's model, overhead charged per execution actually run "
               "(per-exec), pipelined compilation, and the paper's ideal parallel compilation.");
    add_figure(c, "policies", "Tuning policies: speedup relative to optimal over tuning time (beyond the paper)",
               "Every built-in policy replayed on every input (tunecost policies, every cost charged), mean and 95% "
               "CI over inputs and runs; dashed: the analytic random-search baseline. Scores in policies.tsv.");
    if (c->landscape != NULL) /* the section is left out, figure included, without a second family's trace */
        add_figure(c, "landscapes", "Two kernel families: what tuning buys (beyond the paper)",
                   "Left: per input, the best configuration's TFLOP/s over cuBLAS's for each kernel family "
                   "(landscapes.tsv). Right: each family's Pareto frontier of mean speedup relative to its own "
                   "optimal vs mean tuning time, all inputs, the paper's model (sim/all-baseline-frontier.tsv, "
                   "sim/compare-baseline-frontier.tsv).");
}

/* The -e expression of one figure: output format and name, and the values its title and legend use. */
static int figure_expr(struct report_ctx *c, const struct report_figure *f, const char *fmt, char *expr,
                       size_t len)
{
    char device[128], ref[128] = "", cmp[128] = "";
    snprintf(device, sizeof device, "%s", trace_get_meta(c->t)->device_name);
    tc_gnuplot_clean(device);
    if (strcmp(f->name, "landscapes") != 0)
        return report_fmt(expr, len, "fmt='%s'; out='%s.%s'; input='%s'; device='%s'; factor=%d", fmt, f->name, fmt,
                          c->input_label, device, c->o->compile_factor);
    report_family_name(c->t, ref, sizeof ref);
    report_family_name(c->cmp, cmp, sizeof cmp);
    tc_gnuplot_clean(ref);
    tc_gnuplot_clean(cmp);
    return report_fmt(expr, len, "fmt='%s'; out='%s.%s'; device='%s'; ref='%s'; cmp='%s'", fmt, f->name, fmt, device,
                      ref, cmp);
}

static int report_draw_one(struct report_ctx *c, const struct report_figure *f, const char *gnuplot, const char *fmt)
{
    char expr[1024], script[PATH_MAX], out[PATH_MAX];
    struct tc_gnuplot_job j = {gnuplot, c->od.tmp, script, expr, out, "plots/gnuplot.log"};
    if (figure_expr(c, f, fmt, expr, sizeof expr) != 0 ||
        report_fmt(script, sizeof script, "plots/%s.gp", f->name) != 0 ||
        report_fmt(out, sizeof out, "%s.%s", f->name, fmt) != 0)
        return -1;
    return tc_gnuplot_run(&j);
}

/* plots/titles.gp: the values the figures were drawn with, which plots/common.gp takes for a redraw that does not
 * give them (`cd DIR && gnuplot -e "fmt='svg'; out='x.svg'" plots/NAME.gp` titles the figure as the report did). */
static int write_titles(struct report_ctx *c)
{
    char path[PATH_MAX], device[128], ref[128] = "", cmp[128] = "";
    FILE *fp = report_open(c, "plots/titles.gp", path, sizeof path);
    if (fp == NULL)
        return -1;
    snprintf(device, sizeof device, "%s", trace_get_meta(c->t)->device_name);
    tc_gnuplot_clean(device);
    fprintf(fp, "# titles.gp — written by tunecost report: the values its figures were drawn with\n"
            "report_input = '%s'\nreport_device = '%s'\nreport_factor = %d\n", c->input_label, device,
            c->o->compile_factor);
    if (c->cmp != NULL) {
        report_family_name(c->t, ref, sizeof ref);
        report_family_name(c->cmp, cmp, sizeof cmp);
        tc_gnuplot_clean(ref);
        tc_gnuplot_clean(cmp);
        fprintf(fp, "report_ref = '%s'\nreport_cmp = '%s'\n", ref, cmp);
    }
    return report_close(fp, path);
}

int report_draw_figures(struct report_ctx *c)
{
    char from[PATH_MAX], to[PATH_MAX], gnuplot[PATH_MAX], why_none[256] = "";
    struct stat st;
    int have_gnuplot = tc_gnuplot_find(gnuplot, sizeof gnuplot) == 0;
    if (!have_gnuplot)
        snprintf(why_none, sizeof why_none, "%s", tc_errmsg());
    list_figures(c);
    if (report_fmt(to, sizeof to, "%s/plots", c->od.tmp) != 0)
        return -1;
    if (mkdir(to, 0755) != 0)
        return tc_seterr("%s: cannot create: %s", to, strerror(errno));
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        snprintf(from, sizeof from, "%s/%s", c->o->plots_dir, scripts[i]);
        if (report_fmt(to, sizeof to, "%s/plots/%s", c->od.tmp, scripts[i]) != 0)
            return -1;
        if (report_copy_file(from, to) != 0)
            return tc_preferr("gnuplot scripts (set TUNECOST_PLOTS_DIR to the folder holding them)");
    }
    if (write_titles(c) != 0)
        return -1;
    for (int i = 0; i < c->n_figs; i++) {
        struct report_figure *f = &c->figs[i];
        if (report_check_interrupt(c) != 0)
            return -1;
        if (!have_gnuplot) {
            snprintf(f->why, sizeof f->why, "%s", why_none);
            continue;
        }
        if (!f->have_data) {
            snprintf(f->why, sizeof f->why, "%s", f->needs);
            continue;
        }
        report_say(c, "drawing %s (png, svg)", f->name);
        if (report_draw_one(c, f, gnuplot, "png") != 0 || report_draw_one(c, f, gnuplot, "svg") != 0) {
            snprintf(f->why, sizeof f->why, "%s", tc_errmsg());
            continue;
        }
        f->drawn = 1;
    }
    if (report_fmt(to, sizeof to, "%s/plots/gnuplot.log", c->od.tmp) == 0 && stat(to, &st) == 0 && st.st_size == 0)
        unlink(to);
    return 0;
}
