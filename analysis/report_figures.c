/* report_figures.c — the report's figures: the gnuplot scripts of plots/ are copied into DIR/plots (so the report
 * can be redrawn from its own TSV files) and each figure is drawn as PNG and SVG by util/tc_gnuplot, gnuplot's
 * messages going to DIR/plots/gnuplot.log. A figure whose data is absent (no triton trace, no second kernel
 * family) is named with the reason, or left out with its section; one that has its data and is not drawn fails
 * the report, unless figures were not asked for (--no-figures). */
#include "report_results.h"
#include "tc_figures.h"
#include "tc_gnuplot.h"
#include "trace.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The report's figures, in util/tc_figures' order, with whether their data is there: a figure is drawn when the
 * report has every TC_FIG_NEEDS_* of its row (a triton trace, the input's FLOP count, a second kernel family); one
 * that needs a second family is left out, section and all, without one. */
static void list_figures(struct report_ctx *c)
{
    unsigned have = 0;
    if (c->res.estimate != NULL)
        have |= TC_FIG_NEEDS_TRITON;
    if (c->res.d[REPORT_SIM_INPUT] != NULL && !isnan(sim_data_flops(c->res.d[REPORT_SIM_INPUT], 0)))
        have |= TC_FIG_NEEDS_FLOPS;
    if (c->res.landscape != NULL)
        have |= TC_FIG_NEEDS_FAMILY;
    for (int i = 0; i < tc_n_figures && c->n_figs < REPORT_MAX_FIGURES; i++) {
        const struct tc_figure *t = &tc_figures[i];
        struct report_figure *f;
        if (t->needs & ~have & TC_FIG_NEEDS_FAMILY)
            continue;
        f = &c->figs[c->n_figs++];
        memset(f, 0, sizeof *f);
        f->name = t->name;
        f->script = t->script;
        f->row = t;
        f->title = t->title;
        f->caption = t->caption;
        f->needs = tc_figure_needs_text(t->needs & ~have);
        f->have_data = (t->needs & ~have) == 0;
    }
}

/* Every TSV file the figure's script reads (its `reads` in util/tc_figures) is in the report: else an internal
 * error naming the file, so the table cannot drift from what the report writes. */
static int check_reads(struct report_ctx *c, const struct tc_figure *t)
{
    char path[PATH_MAX];
    for (int k = 0; k < t->n_reads; k++) {
        const char *file = tc_figure_data[t->reads[k]].file;
        if (report_fmt(path, sizeof path, "%s/%s", c->od.tmp, file) != 0)
            return -1;
        if (access(path, R_OK) != 0)
            return tc_seterr("internal: figure %s reads %s (util/tc_figures.c), which the report did not write",
                             t->name, file);
    }
    return 0;
}

/* "; VAR='FILE'" for each file the figure reads, appended to expr (len bytes): its script types no file name. */
static int figure_files_expr(const struct tc_figure *t, char *expr, size_t len)
{
    size_t o = strlen(expr);
    for (int k = 0; k < t->n_reads; k++) {
        const struct tc_figure_datum *d = &tc_figure_data[t->reads[k]];
        int n = snprintf(expr + o, len - o, "; %s='%s'", d->var, d->file);
        if (n < 0 || (size_t)n >= len - o)
            return tc_seterr("internal: figure %s: its gnuplot variables are too long", t->name);
        o += (size_t)n;
    }
    return 0;
}

/* The -e expression of one figure: output format and name, and the values its title and legend use. */
static int figure_expr(struct report_ctx *c, const struct report_figure *f, const char *fmt, char *expr,
                       size_t len)
{
    char device[128], ref[128] = "", cmp[128] = "";
    snprintf(device, sizeof device, "%s", trace_get_meta(c->t)->device_name);
    tc_gnuplot_clean(device);
    if (!(f->row->needs & TC_FIG_NEEDS_FAMILY)) /* the two-family figure is titled by its families */
        return report_fmt(expr, len, "fmt='%s'; out='%s.%s'; input='%s'; device='%s'; factor=%d; paper=%d; "
                          "cm_paper=%d", fmt, f->name, fmt, c->input_label, device, c->o->compile_factor,
                          c->o->paper, c->res.s[REPORT_SIM_INPUT].compile_model == SIM_CM_PAPER);
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
    if (figure_expr(c, f, fmt, expr, sizeof expr) != 0 || figure_files_expr(f->row, expr, sizeof expr) != 0 ||
        report_fmt(script, sizeof script, "plots/%s", f->script) != 0 ||
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
            "report_input = '%s'\nreport_device = '%s'\nreport_factor = %d\nreport_paper = %d\n"
            "report_cm_paper = %d\n", c->input_label, device, c->o->compile_factor, c->o->paper,
            c->res.s[REPORT_SIM_INPUT].compile_model == SIM_CM_PAPER);
    if (c->cmp != NULL) {
        report_family_name(c->t, ref, sizeof ref);
        report_family_name(c->cmp, cmp, sizeof cmp);
        tc_gnuplot_clean(ref);
        tc_gnuplot_clean(cmp);
        fprintf(fp, "report_ref = '%s'\nreport_cmp = '%s'\n", ref, cmp);
    }
    fprintf(fp, "# the files each figure reads, by their variables (a redraw's -e may name others)\n");
    for (int k = 0; k < TC_N_FIGURE_DATA; k++)
        fprintf(fp, "if (!exists(\"%s\")) %s = '%s'\n", tc_figure_data[k].var, tc_figure_data[k].var,
                tc_figure_data[k].file);
    return report_close(fp, path);
}

int report_draw_figures(struct report_ctx *c)
{
    char from[PATH_MAX], to[PATH_MAX], gnuplot[PATH_MAX];
    struct stat st;
    list_figures(c);
    if (report_fmt(to, sizeof to, "%s/plots", c->od.tmp) != 0)
        return -1;
    if (mkdir(to, 0755) != 0)
        return tc_seterr("%s: cannot create: %s", to, strerror(errno));
    for (int i = -2; i < tc_n_figures; i++) { /* palette.gp, common.gp, then every figure's script */
        const char *script = i == -2 ? tc_figure_palette_script : i < 0 ? tc_figure_common_script
                                                                         : tc_figures[i].script;
        if (report_fmt(from, sizeof from, "%s/%s", c->o->plots_dir, script) != 0 ||
            report_fmt(to, sizeof to, "%s/plots/%s", c->od.tmp, script) != 0)
            return -1;
        if (report_copy_file(from, to) != 0)
            return tc_preferr("gnuplot scripts (set TUNECOST_PLOTS_DIR to the folder holding them)");
    }
    if (write_titles(c) != 0)
        return -1;
    if (!c->o->no_figures && tc_gnuplot_find(gnuplot, sizeof gnuplot) != 0)
        return tc_preferr("the figures cannot be drawn (--no-figures writes the report without them)");
    for (int i = 0; i < c->n_figs; i++) {
        struct report_figure *f = &c->figs[i];
        if (report_check_interrupt(c) != 0)
            return -1;
        if (!f->have_data) {
            snprintf(f->why, sizeof f->why, "%s", f->needs);
            continue;
        }
        if (c->o->no_figures) {
            snprintf(f->why, sizeof f->why, "figures were not asked for (--no-figures)");
            continue;
        }
        if (check_reads(c, f->row) != 0)
            return -1;
        report_say(c, "drawing %s (png, svg)", f->name);
        if (report_draw_one(c, f, gnuplot, "png") != 0 || report_draw_one(c, f, gnuplot, "svg") != 0) {
            char why[sizeof f->why];
            snprintf(why, sizeof why, "%s", tc_errmsg());
            return tc_seterr("figure %s was not drawn: %s; --no-figures writes the report without figures", f->name,
                             why);
        }
        f->drawn = 1;
    }
    if (report_fmt(to, sizeof to, "%s/plots/gnuplot.log", c->od.tmp) == 0 && stat(to, &st) == 0 && st.st_size == 0)
        unlink(to);
    return 0;
}
