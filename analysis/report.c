/* report.c — builds the report directory of `tunecost report` (contract in report.h).
 * Layout of DIR: index.html, summary.md, the tables as TSV at the top (table1-compile.tsv, ...), the simulation
 * data under sim/, the figures as NAME.png and NAME.svg, the gnuplot scripts under plots/ (they read only TSV).
 * Nothing in DIR depends on the clock or the thread count: the same trace and seed give the same files. */
#include "report.h"
#include "policy.h"
#include "frontier.h"
#include "sim.h"
#include "tables.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_outdir.h"
#include "tc_stats.h"
#include "trace.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gsl/gsl_statistics_double.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TC_PLOTS_DIR_LOCAL
#define TC_PLOTS_DIR_LOCAL "plots"
#endif
#ifndef TC_PLOTS_DIR
#define TC_PLOTS_DIR "/usr/local/share/tunecost/plots"
#endif

#define MARKER ".tunecost-report"
#define MAX_FINDINGS 24
#define MAX_TABLES 16

/* Scenarios of the single-input simulation (Figure 3, Table 6, models) and of the all-inputs one (4, 5). */
enum { SC_BASELINE, SC_PARALLEL, SC_EARLY, SC_PEREXEC, SC_PIPELINED, N_SC_INPUT };
#define N_SC_ALL 3
static const char *sc_names[N_SC_INPUT] = {"baseline", "parallel", "early-stop", "per-exec", "pipelined"};

struct figure {
    const char *name;      /* file stem: NAME.png, NAME.svg, plots/NAME.gp */
    const char *title;
    const char *caption;
    int drawn;
    char why[160];         /* why it was not drawn */
};

struct report_ctx {
    struct report_options *o;
    struct trace *t, *tt;  /* trace, triton trace (or NULL) */
    int input;             /* index of the single input */
    char input_label[64];
    struct tc_outdir od;   /* the report is written into od.tmp, then swapped into place whole */
    struct table *tabs[MAX_TABLES];
    const char *tab_files[MAX_TABLES];
    const char *tab_heads[MAX_TABLES];
    int tab_max_rows[MAX_TABLES];
    int n_tabs;
    struct table *split, *best, *failures, *estimate, *t6, *budget, *ttt_all, *ttt_input;
    struct sim_settings s_in, s_all;
    struct sim_data *d_in, *d_all;
    struct sim_result *r_in, *r_all;
    char *findings[MAX_FINDINGS];
    int n_findings;
    struct figure figs[12];
    int n_figs;
    char gnuplot[PATH_MAX]; /* "" if not found */
};

/* snprintf for paths and lines: -1 (message set) when the result would not fit. */
static int fmt_into(char *buf, size_t len, const char *fmt, ...) TC_PRINTF(3, 4);
static int fmt_into(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len)
        return tc_seterr("path or text too long: '%.60s...'", buf);
    return 0;
}

void report_options_default(struct report_options *o)
{
    memset(o, 0, sizeof *o);
    o->input_dims[0] = 4096;
    o->input_dims[1] = 256;
    o->input_dims[2] = 4096;
    snprintf(o->input_label, sizeof o->input_label, "4096x256x4096");
    o->seed = 1;
    o->samples = 500;
    o->runs = 30;
    o->compile_factor = 16;
}

const char *report_plots_dir(void)
{
    const char *env = getenv("TUNECOST_PLOTS_DIR");
    static const char *candidates[] = {TC_PLOTS_DIR_LOCAL, TC_PLOTS_DIR};
    char probe[PATH_MAX];
    if (env != NULL && env[0] != '\0')
        return env;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        snprintf(probe, sizeof probe, "%s/common.gp", candidates[i]);
        if (access(probe, R_OK) == 0)
            return candidates[i];
    }
    return TC_PLOTS_DIR_LOCAL;
}

static void say(struct report_ctx *c, const char *fmt, ...) TC_PRINTF(2, 3);
static void say(struct report_ctx *c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    if (c->o->progress == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->o->progress(buf, c->o->progress_arg);
}

static int add_finding(struct report_ctx *c, const char *fmt, ...) TC_PRINTF(2, 3);
static int add_finding(struct report_ctx *c, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (c->n_findings >= MAX_FINDINGS)
        return 0;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if ((c->findings[c->n_findings] = strdup(buf)) == NULL)
        return tc_seterr("out of memory");
    c->n_findings++;
    return 0;
}

static int check_interrupt(struct report_ctx *c)
{
    if (c->o->interrupted != NULL && *c->o->interrupted)
        return tc_seterr("interrupted");
    return 0;
}

/* ---- files ------------------------------------------------------------------------------------------------ */

static FILE *open_out(struct report_ctx *c, const char *name, char *path, size_t len)
{
    FILE *fp;
    if (fmt_into(path, len, "%s/%s", c->od.tmp, name) != 0)
        return NULL;
    if ((fp = fopen(path, "w")) == NULL)
        tc_seterr("%s: cannot create: %s", path, strerror(errno));
    return fp;
}

static int close_out(FILE *fp, const char *path)
{
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad)
        return tc_seterr("%s: write failed: %s", path, strerror(errno));
    return 0;
}

static int write_tsv(struct report_ctx *c, const char *name, const struct table *t)
{
    char path[PATH_MAX];
    FILE *fp = open_out(c, name, path, sizeof path);
    if (fp == NULL)
        return -1;
    if (table_write_tsv(t, fp) != 0) {
        fclose(fp);
        return tc_seterr("%s: write failed", path);
    }
    return close_out(fp, path);
}

/* Keep a table: written now as TSV, shown later in summary.md and index.html (head = section title). */
static int keep_table(struct report_ctx *c, struct table *t, const char *file, const char *head, int max_rows)
{
    if (t == NULL)
        return -1;
    if (c->n_tabs >= MAX_TABLES)
        return tc_seterr("internal: more than %d tables", MAX_TABLES);
    c->tabs[c->n_tabs] = t;
    c->tab_files[c->n_tabs] = file;
    c->tab_heads[c->n_tabs] = head;
    c->tab_max_rows[c->n_tabs] = max_rows;
    c->n_tabs++;
    return write_tsv(c, file, t);
}

static int copy_file(const char *from, const char *to)
{
    char buf[8192];
    size_t n;
    FILE *in = fopen(from, "rb"), *out;
    if (in == NULL)
        return tc_seterr("%s: cannot read: %s", from, strerror(errno));
    if ((out = fopen(to, "wb")) == NULL) {
        fclose(in);
        return tc_seterr("%s: cannot create: %s", to, strerror(errno));
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    fclose(in);
    return close_out(out, to);
}

/* ---- simulations ---------------------------------------------------------------------------------------- */

struct sim_progress_arg {
    struct report_ctx *c;
    const char *what;
};

static void sim_progress(int done, int total, void *arg)
{
    struct sim_progress_arg *a = arg;
    if (a->c->o->progress_tty)
        fprintf(stderr, "\rreport:   %s: %d/%d samples", a->what, done, total);
}

static void set_scenario(struct sim_scenario *sc, const char *name, enum sim_compile comp, int factor,
                         enum sim_overhead ovh, int early)
{
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "%s", name);
    sc->compile = comp;
    sc->compile_factor = factor;
    sc->overhead = ovh;
    sc->early_stop = early;
}

static int simulate(struct report_ctx *c, int all)
{
    struct report_options *o = c->o;
    struct sim_settings *s = all ? &c->s_all : &c->s_in;
    struct sim_data **d = all ? &c->d_all : &c->d_in;
    struct sim_result **r = all ? &c->r_all : &c->r_in;
    struct sim_progress_arg pa = {c, all ? "all inputs" : c->input_label};
    int f = o->compile_factor;

    sim_settings_default(s);
    s->samples = o->samples;
    s->runs = o->runs;
    s->seed = o->seed;
    s->threads = o->threads;
    s->input = all ? -1 : 0;
    s->n_scenarios = all ? N_SC_ALL : N_SC_INPUT;
    set_scenario(&s->scenarios[SC_BASELINE], sc_names[SC_BASELINE], SIM_COMPILE_SEQUENTIAL, 1, SIM_OVERHEAD_PAPER,
                 0);
    set_scenario(&s->scenarios[SC_PARALLEL], sc_names[SC_PARALLEL], SIM_COMPILE_PARALLEL, f, SIM_OVERHEAD_PAPER, 0);
    set_scenario(&s->scenarios[SC_EARLY], sc_names[SC_EARLY], SIM_COMPILE_SEQUENTIAL, 1, SIM_OVERHEAD_PAPER, 1);
    if (!all) {
        set_scenario(&s->scenarios[SC_PEREXEC], sc_names[SC_PEREXEC], SIM_COMPILE_SEQUENTIAL, 1,
                     SIM_OVERHEAD_PER_EXEC, 0);
        set_scenario(&s->scenarios[SC_PIPELINED], sc_names[SC_PIPELINED], SIM_COMPILE_PIPELINED, f,
                     SIM_OVERHEAD_PAPER, 0);
    }
    if (sim_settings_check(s) != 0)
        return REPORT_EBADINPUT;
    say(c, "simulating %s: %d scenarios x %d samples x %d runs%s", all ? "all inputs" : c->input_label,
        s->n_scenarios, s->samples, s->runs, all ? " x every input" : "");
    *d = sim_data_from_trace(c->t, all ? NULL : &c->input, all ? 0 : 1, s);
    if (*d == NULL)
        return REPORT_EBADINPUT;
    *r = sim_run(*d, s, sim_progress, &pa);
    if (o->progress_tty)
        fputc('\n', stderr);
    if (*r == NULL)
        return -1;
    say(c, "  %s: %d points in %.1f s", all ? "all inputs" : c->input_label, (*r)->n_points, (*r)->elapsed_s);
    return 0;
}

static const char *pt_cols[] = {"sample", "n_config", "exec_ms", "es_num", "es_thr", "results", "time_s",
                                "time_s_lo", "time_s_hi", "tflops", "tflops_lo", "tflops_hi", "speedup",
                                "speedup_lo", "speedup_hi", "n_short", "stopped"};
#define N_PT_COLS ((int)(sizeof pt_cols / sizeof pt_cols[0]))

static int cmp_time(const void *a, const void *b)
{
    const struct sim_point *x = *(const struct sim_point *const *)a, *y = *(const struct sim_point *const *)b;
    if (x->time_s != y->time_s)
        return x->time_s < y->time_s ? -1 : 1;
    if (x->tflops != y->tflops)
        return x->tflops > y->tflops ? -1 : 1;
    return (x->sample > y->sample) - (x->sample < y->sample);
}

/* The points of one scenario (frontier only: sorted by time) as a table. perf_speedup: the frontier is over
 * (time, speedup) — all inputs, where TFLOP/s of different inputs do not compare — else over (time, TFLOP/s). */
static struct table *scenario_table(const struct sim_result *r, int n_sc, int sc, int frontier_only,
                                    int perf_speedup, const char *title)
{
    int n = r->n_points / n_sc;
    const struct sim_point **p = malloc(((size_t)n + 1) * sizeof *p);
    double *tm = malloc(((size_t)n + 1) * sizeof *tm), *pf = malloc(((size_t)n + 1) * sizeof *pf);
    unsigned char *on = malloc((size_t)n + 1);
    struct table *tab = table_new(title, N_PT_COLS, pt_cols);
    int m = 0;
    if (p == NULL || tm == NULL || pf == NULL || on == NULL || tab == NULL) {
        tc_seterr("out of memory");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        const struct sim_point *q = &r->points[(size_t)i * n_sc + sc];
        tm[i] = q->time_s;
        pf[i] = perf_speedup ? q->speedup : q->tflops;
    }
    if (frontier_mark((size_t)n, tm, pf, on) != 0) {
        tc_seterr("out of memory");
        goto fail;
    }
    for (int i = 0; i < n; i++)
        if (!frontier_only || on[i])
            p[m++] = &r->points[(size_t)i * n_sc + sc];
    if (frontier_only)
        qsort(p, (size_t)m, sizeof *p, cmp_time);
    for (int i = 0; i < m; i++) {
        const struct sim_point *q = p[i];
        int row = table_add_row(tab), k = 0;
        if (row < 0)
            goto fail;
        table_set_int(tab, row, k++, q->sample);
        table_set_int(tab, row, k++, q->n_config);
        table_set_int(tab, row, k++, q->exec_ms);
        table_set_int(tab, row, k++, q->es_num);
        table_set_num(tab, row, k++, q->es_thr, 4);
        table_set_int(tab, row, k++, q->results);
        table_set_num(tab, row, k++, q->time_s, 4);
        table_set_num(tab, row, k++, q->time_s_lo, 4);
        table_set_num(tab, row, k++, q->time_s_hi, 4);
        table_set_num(tab, row, k++, q->tflops, 3);
        table_set_num(tab, row, k++, q->tflops_lo, 3);
        table_set_num(tab, row, k++, q->tflops_hi, 3);
        table_set_num(tab, row, k++, q->speedup, 5);
        table_set_num(tab, row, k++, q->speedup_lo, 5);
        table_set_num(tab, row, k++, q->speedup_hi, 5);
        table_set_int(tab, row, k++, q->n_short);
        if (table_set_num(tab, row, k++, q->stopped, 3) != 0)
            goto fail;
    }
    free(p);
    free(tm);
    free(pf);
    free(on);
    return tab;
fail:
    free(p);
    free(tm);
    free(pf);
    free(on);
    table_free(tab);
    return NULL;
}

static int write_sim_files(struct report_ctx *c, int all)
{
    const struct sim_result *r = all ? c->r_all : c->r_in;
    int n_sc = all ? N_SC_ALL : N_SC_INPUT;
    const char *set = all ? "all" : "input";
    char name[128], path[PATH_MAX];
    FILE *fp;

    snprintf(name, sizeof name, "sim/points-%s.tsv", set);
    if ((fp = open_out(c, name, path, sizeof path)) == NULL)
        return -1;
    if (sim_write_points(fp, all ? c->d_all : c->d_in, all ? &c->s_all : &c->s_in, r, c->o->trace_path) != 0) {
        fclose(fp);
        return tc_seterr("%s: write failed", path);
    }
    if (close_out(fp, path) != 0)
        return -1;
    for (int sc = 0; sc < n_sc; sc++) {
        for (int fr = 0; fr < 2; fr++) {
            struct table *tab = scenario_table(r, n_sc, sc, fr, all || isnan(sim_data_flops(c->d_in, 0)),
                                               fr ? "frontier" : "points");
            int rc;
            if (tab == NULL)
                return -1;
            snprintf(name, sizeof name, "sim/%s-%s%s.tsv", set, sc_names[sc], fr ? "-frontier" : "");
            rc = write_tsv(c, name, tab);
            if (rc == 0 && !all && sc == SC_BASELINE && fr) {
                /* Table 6: the frontier of the paper's model for the single input */
                static const char *cols[] = {"time_s", "tflops", "n_config", "exec_ms", "time_s_lo", "time_s_hi",
                                             "tflops_lo", "tflops_hi"};
                static const char *src[] = {"time_s", "tflops", "n_config", "exec_ms", "time_s_lo", "time_s_hi",
                                            "tflops_lo", "tflops_hi"};
                c->t6 = table_new("Pareto frontier points (paper Table 6)", 8, cols);
                for (int i = 0; c->t6 != NULL && i < table_n_rows(tab); i++) {
                    int row = table_add_row(c->t6);
                    for (int k = 0; k < 8; k++) {
                        int col = table_col_index(tab, src[k]);
                        double v = table_num(tab, i, col);
                        if (k == 2 || k == 3)
                            table_set_int(c->t6, row, k, (long long)v);
                        else
                            table_set_num(c->t6, row, k, v, 2);
                    }
                }
                if (c->t6 == NULL)
                    rc = -1;
            }
            table_free(tab);
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- derived numbers for the findings -------------------------------------------------------------------- */

/* Lowest mean tuning time of a scenario's points whose mean speedup reaches target; NaN if none does. */
static double time_to_target(const struct sim_result *r, int n_sc, int sc, double target)
{
    double best = NAN;
    for (int i = sc; i < r->n_points; i += n_sc)
        if (r->points[i].speedup >= target && (isnan(best) || r->points[i].time_s < best))
            best = r->points[i].time_s;
    return best;
}

/* Highest mean speedup of a scenario's points within a budget (s); NaN if no point fits. */
static double best_within(const struct sim_result *r, int n_sc, int sc, double budget_s)
{
    double best = NAN;
    for (int i = sc; i < r->n_points; i += n_sc)
        if (r->points[i].time_s <= budget_s && (isnan(best) || r->points[i].speedup > best))
            best = r->points[i].speedup;
    return best;
}

/* Share of the variance of y explained by grouping the samples on x into up to 10 equal-width bins (eta²). */
static double eta_squared(const double *x, const double *y, int n, double lo, double hi)
{
    int nb = (int)fmin(10.0, hi - lo + 1.0), cnt[10] = {0};
    double sum[10] = {0}, mean = 0, ss_tot = 0, ss_b = 0;
    if (n < 2 || nb < 1)
        return NAN;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    for (int i = 0; i < n; i++) {
        int b = hi > lo ? (int)((x[i] - lo) / (hi - lo + 1.0) * nb) : 0;
        if (b < 0)
            b = 0;
        if (b >= nb)
            b = nb - 1;
        cnt[b]++;
        sum[b] += y[i];
        ss_tot += (y[i] - mean) * (y[i] - mean);
    }
    for (int b = 0; b < nb; b++)
        if (cnt[b] > 0)
            ss_b += cnt[b] * (sum[b] / cnt[b] - mean) * (sum[b] / cnt[b] - mean);
    return ss_tot > 0 ? ss_b / ss_tot : NAN;
}

static double round_sig2(double v)
{
    double p;
    if (!(v > 0))
        return v;
    p = pow(10.0, floor(log10(v)) - 1);
    return round(v / p) * p;
}

/* v rounded up to two significant digits (0.01234 -> 0.013). */
static double round_sig2_up(double v)
{
    double p;
    if (!(v > 0))
        return v;
    p = pow(10.0, floor(log10(v)) - 1);
    return ceil(v / p - 1e-9) * p;
}

static struct table *ttt_table(const struct sim_result *r, int n_sc, const char *title)
{
    static const double targets[] = {0.80, 0.90, 0.95, 0.98};
    const char *cols[2 + N_SC_INPUT];
    struct table *tab;
    cols[0] = "target_speedup";
    for (int sc = 0; sc < n_sc; sc++)
        cols[1 + sc] = sc_names[sc];
    tab = table_new(title, 1 + n_sc, cols);
    for (size_t i = 0; tab != NULL && i < sizeof targets / sizeof targets[0]; i++) {
        int row = table_add_row(tab);
        table_set_num(tab, row, 0, targets[i], 2);
        for (int sc = 0; sc < n_sc; sc++)
            table_set_num(tab, row, 1 + sc, time_to_target(r, n_sc, sc, targets[i]), 2);
    }
    if (tab != NULL)
        table_add_note(tab, "seconds of mean tuning time the cheapest sample needs to reach the target mean speedup "
                       "relative to optimal; nan = no sample reaches it");
    return tab;
}

/* Tuning policies (docs/simulation.md): every built-in policy on every input, the report's runs and seed, a 60 s
 * budget; policies-curves.tsv for the figure, policies.tsv (scores) as a table, one finding. */
static int policies_section(struct report_ctx *c)
{
    static const char *cols[] = {"policy", "score", "t90_s", "t95_s", "t99_s", "final_speedup", "budget_stops"};
    struct pol_settings s;
    struct pol_data *d = NULL;
    struct pol_curve curves[16];
    struct table *tab = NULL;
    double grid[60];
    char path[PATH_MAX];
    int n = 0, rc = -1, best = -1, rnd = -1;
    FILE *fp = NULL;
    say(c, "tuning policies: every built-in policy, %d runs per input", c->o->runs);
    pol_settings_default(&s);
    s.runs = c->o->runs;
    s.seed = c->o->seed;
    s.n_grid = 60;
    pol_grid(s.budget_s * 1e-4, s.budget_s, s.n_grid, grid);
    if ((d = pol_data_from_trace(c->t)) == NULL)
        goto out;
    for (; policy_registry[n] != NULL && n < 16; n++)
        if (pol_evaluate(d, policy_registry[n], &s, grid, &curves[n]) != 0)
            goto out;
    if ((fp = open_out(c, "policies-curves.tsv", path, sizeof path)) == NULL)
        goto out;
    fprintf(fp, "policy\ttime_s\tspeedup\tspeedup_lo\tspeedup_hi\tbaseline\n");
    for (int i = 0; i < n; i++)
        for (int g = 0; g < curves[i].n_grid; g++)
            fprintf(fp, "%s\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", curves[i].policy, curves[i].grid_s[g],
                    curves[i].mean[g], curves[i].lo[g], curves[i].hi[g], curves[i].baseline[g]);
    if (close_out(fp, path) != 0) {
        fp = NULL;
        goto out;
    }
    fp = NULL;
    if ((tab = table_new("Tuning policies: score against random search, time to 90/95/99% of optimal", 7, cols)) ==
        NULL)
        goto out;
    for (int i = 0; i < n; i++) {
        int row = table_add_row(tab);
        table_set_str(tab, row, 0, curves[i].policy);
        table_set_num(tab, row, 1, curves[i].score, 3);
        table_set_num(tab, row, 2, curves[i].t90_s, 3);
        table_set_num(tab, row, 3, curves[i].t95_s, 3);
        table_set_num(tab, row, 4, curves[i].t99_s, 3);
        table_set_num(tab, row, 5, curves[i].final_speedup, 4);
        table_set_num(tab, row, 6, (double)curves[i].n_budget_stops, 0);
        if (best < 0 || curves[i].score > curves[best].score)
            best = i;
        if (strcmp(curves[i].policy, "random") == 0)
            rnd = i;
    }
    table_add_note(tab, "score: mean over the time grid of (speedup - baseline) / (1 - baseline), 0 = random search "
                   "(analytic), 1 = optimal at once; budget %g s, %d runs per input, seed %llu (docs/simulation.md)",
                   s.budget_s, s.runs, (unsigned long long)s.seed);
    if (keep_table(c, tab, "policies.tsv", "Tuning policies (beyond the paper)", 20) != 0) {
        tab = NULL;
        goto out;
    }
    tab = NULL;
    if (best >= 0 && rnd >= 0)
        add_finding(c, "**Tuning policies** (every cost charged, %d inputs x %d runs): %s scores best (%.3f against "
                    "random search's analytic baseline) and reaches 95%% of optimal after %.3g s on average, random "
                    "search after %.3g s.", pol_data_n_inputs(d), s.runs, curves[best].policy, curves[best].score,
                    curves[best].t95_s, curves[rnd].t95_s);
    rc = 0;
out:
    if (fp != NULL)
        fclose(fp);
    table_free(tab);
    for (int i = 0; i < n; i++)
        pol_curve_free(&curves[i]);
    pol_data_free(d);
    return rc;
}

static int compute_findings(struct report_ctx *c)
{
    const struct sim_result *ri = c->r_in, *ra = c->r_all;
    int n = ri->n_points / N_SC_INPUT, na = ra->n_points / N_SC_ALL;
    int flops_known = !isnan(sim_data_flops(c->d_in, 0));
    double *x1 = calloc((size_t)n + 1, sizeof *x1), *x2 = calloc((size_t)n + 1, sizeof *x2);
    double *y = calloc((size_t)n + 1, sizeof *y), *times = calloc((size_t)na + 1, sizeof *times);
    int rc = -1;
    if (x1 == NULL || x2 == NULL || y == NULL || times == NULL) {
        tc_seterr("out of memory");
        goto out;
    }

    /* 1. N_CONFIG vs EXEC_TIME (single input, paper's model) */
    for (int i = 0; i < n; i++) {
        const struct sim_point *p = &ri->points[(size_t)i * N_SC_INPUT + SC_BASELINE];
        x1[i] = p->n_config;
        x2[i] = p->exec_ms;
        y[i] = flops_known ? p->tflops : p->speedup; /* an imported trace may not know its flops */
    }
    {
        double e_n = eta_squared(x1, y, n, c->s_in.n_config_lo, c->s_in.n_config_hi);
        double e_x = eta_squared(x2, y, n, c->s_in.exec_ms_lo, c->s_in.exec_ms_hi);
        for (int i = 0; i < n; i++)
            y[i] = ri->points[(size_t)i * N_SC_INPUT + SC_BASELINE].time_s;
        double t_n = eta_squared(x1, y, n, c->s_in.n_config_lo, c->s_in.n_config_hi);
        double t_x = eta_squared(x2, y, n, c->s_in.exec_ms_lo, c->s_in.exec_ms_hi);
        double chance = 9.0 / (n > 1 ? n - 1 : 1);
        const char *head = e_n >= 2 * e_x && e_n > 2 * chance   ? "N_CONFIG decides, EXEC_TIME hardly matters"
                           : e_x >= 2 * e_n && e_x > 2 * chance ? "EXEC_TIME matters more than N_CONFIG"
                                                                : "Neither N_CONFIG nor EXEC_TIME clearly decides";
        add_finding(c, "**%s** (%s, %d samples): N_CONFIG explains %.0f%% "
                    "of the variance of the tuned kernel's %s and %.0f%% of tuning time; EXEC_TIME explains "
                    "%.0f%% and %.0f%% (share of variance between 10 equal-width bins of each, eta squared; "
                    "by chance about %.0f%%; the headline needs one at least twice the other and twice chance).",
                    head, c->input_label, n, 100 * e_n, flops_known ? "TFLOP/s" : "speedup", 100 * t_n, 100 * e_x,
                    100 * t_x, 100 * chance);
    }
    if (c->t6 != NULL && table_n_rows(c->t6) >= 3) {
        int m = table_n_rows(c->t6);
        double *a = malloc(sizeof(double) * (size_t)m * 4), *work = malloc(sizeof(double) * (size_t)m * 2);
        if (a != NULL && work != NULL) {
            for (int i = 0; i < m; i++) {
                a[i] = table_num(c->t6, i, 0);
                a[m + i] = table_num(c->t6, i, 2);
                a[2 * m + i] = table_num(c->t6, i, 3);
            }
            double rn = gsl_stats_spearman(a, 1, a + m, 1, (size_t)m, work);
            double rx = gsl_stats_spearman(a, 1, a + 2 * m, 1, (size_t)m, work);
            add_finding(c, "Along the frontier of %s (%d points, Table 6) N_CONFIG rises with tuning time "
                        "(Spearman rho %.2f) while EXEC_TIME %s (rho %.2f).", c->input_label, m, rn,
                        fabs(rx) < 0.3 ? "looks random" : (rx > 0 ? "rises too" : "falls"), rx);
        }
        free(a);
        free(work);
    }
    {
        double best_tf = sim_data_flops(c->d_in, 0) / sim_data_optimal_ms(c->d_in, 0) / 1e9;
        double t90 = time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.90);
        double t98 = time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.98);
        char s90[64], s98[64];
        /* time_to_target is NaN when no sample on the frontier reaches the target */
        if (isfinite(t90))
            snprintf(s90, sizeof s90, "after %.2f s of tuning on average", t90);
        else
            snprintf(s90, sizeof s90, "never in these samples");
        if (isfinite(t98))
            snprintf(s98, sizeof s98, "after %.2f s", t98);
        else
            snprintf(s98, sizeof s98, "never in these samples");
        if (flops_known)
            add_finding(c, "For %s the best configuration runs at %.1f TFLOP/s; the paper's tuner reaches 90%% of "
                        "it %s and 98%% %s.", c->input_label, best_tf, s90, s98);
        else
            add_finding(c, "For %s the best configuration takes %.4g ms (flops unknown); the paper's tuner reaches "
                        "90%% of its speed %s and 98%% %s.", c->input_label, sim_data_optimal_ms(c->d_in, 0), s90,
                        s98);
    }

    /* 2. parallel compilation and early stopping at fixed budget (all inputs) */
    for (int i = 0; i < na; i++)
        times[i] = ra->points[(size_t)i * N_SC_ALL + SC_BASELINE].time_s;
    qsort(times, (size_t)na, sizeof *times, tc_cmp_double);
    {
        /* budgets: 6 steps, evenly spaced in log, from the cheapest baseline sample to the median one */
        static const char *cols[] = {"budget_s", "baseline", "parallel", "early-stop"};
        double lo = times[0], hi = times[(na - 1) / 2];
        c->budget = table_new("Best mean speedup vs optimal within a tuning budget, all inputs", 4, cols);
        for (int k = 0; c->budget != NULL && k < 6; k++) {
            double b = round_sig2(lo > 0 && hi > lo ? lo * pow(hi / lo, k / 5.0) : hi);
            if (k == 0 && b < lo) /* rounding must not put the first budget below the cheapest sample */
                b = round_sig2_up(lo);
            int row = table_add_row(c->budget);
            table_set_num(c->budget, row, 0, b, -1);
            for (int sc = 0; sc < N_SC_ALL; sc++)
                table_set_num(c->budget, row, 1 + sc, best_within(ra, N_SC_ALL, sc, b), 4);
        }
        if (c->budget == NULL)
            goto out;
        table_add_note(c->budget, "budgets: from the cheapest to the median tuning time of the baseline's samples, "
                       "log-spaced and rounded; nan = no sample that cheap");
    }
    c->ttt_all = ttt_table(ra, N_SC_ALL, "Tuning time to reach a mean speedup vs optimal, all inputs (s)");
    c->ttt_input = ttt_table(ri, N_SC_INPUT, "Tuning time to reach a mean speedup vs optimal, single input (s)");
    if (c->ttt_all == NULL || c->ttt_input == NULL)
        goto out;
    {
        /* the fixed budget: what the baseline needs for 0.90 of optimal (else its median tuning time) */
        double b90 = time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.90);
        double med = isfinite(b90) ? b90 : times[(na - 1) / 2];
        double sb = best_within(ra, N_SC_ALL, SC_BASELINE, med), sp = best_within(ra, N_SC_ALL, SC_PARALLEL, med);
        double tb = time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.95);
        double tp = time_to_target(ra, N_SC_ALL, SC_PARALLEL, 0.95);
        double te = time_to_target(ra, N_SC_ALL, SC_EARLY, 0.95);
        double tb9 = time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.90);
        double te9 = time_to_target(ra, N_SC_ALL, SC_EARLY, 0.90);
        double stopped = 0;
        for (int i = 0; i < na; i++)
            stopped += ra->points[(size_t)i * N_SC_ALL + SC_EARLY].stopped / na;
        add_finding(c, "**Parallel compilation (%d workers, the paper's ideal) %s** (all %d "
                    "inputs): with the %.2f s the baseline needs for 0.90 of optimal, it reaches a mean speedup vs "
                    "optimal of %.3f instead of %.3f; reaching 0.95 takes %.2f s instead of %.2f s (%.1fx less tuning time).",
                    c->o->compile_factor,
                    !isfinite(tb / tp) ? "cannot be compared at 0.95 of optimal (a frontier never reaches it)"
                    : tb / tp > 1.1    ? "moves the frontier left"
                    : tb / tp < 0.9    ? "moves the frontier right"
                                       : "does not move the frontier",
                    ra->n_inputs_used, med, sp, sb, tp, tb, tb / tp);
        {
            double g95 = tb / te, g90 = tb9 / te9;
            int moves = (isfinite(g95) && fabs(g95 - 1) > 0.1) || (isfinite(g90) && fabs(g90 - 1) > 0.1);
            int comparable = isfinite(g95) || isfinite(g90);
            add_finding(c, "**Early stopping %s** (EARLY_STOP_NUM %d:%d, threshold %.2f:%.2f): reaching 0.90 and "
                        "0.95 of optimal takes %.2f s and %.2f s with it vs %.2f s and %.2f s without "
                        "(ratios %.2f, %.2f; a change under 10%% counts as none); it stops %.2f configurations per "
                        "tuning run on average.",
                        !comparable ? "cannot be compared (no frontier reaches 0.90 of optimal)"
                        : moves     ? (g95 > 1 || g90 > 1 ? "moves the frontier left" : "moves the frontier right")
                                    : "does not move the frontier",
                        c->s_all.es_num_lo, c->s_all.es_num_hi, c->s_all.es_thr_lo, c->s_all.es_thr_hi, te9, te,
                        tb9, tb, g90, g95, stopped);
        }
    }
    {
        double tb = time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.95);
        double tx = time_to_target(ri, N_SC_INPUT, SC_PEREXEC, 0.95);
        double tq = time_to_target(ri, N_SC_INPUT, SC_PIPELINED, 0.95);
        double tp = time_to_target(ri, N_SC_INPUT, SC_PARALLEL, 0.95);
        add_finding(c, "Beyond the paper (%s, 0.95 of optimal): the paper's model needs %.2f s; charging the "
                    "overhead per execution actually run (per-exec) %.2f s; pipelined compilation with %d workers "
                    "%.2f s; the paper's ideal parallel compilation %.2f s.", c->input_label, tb, tx,
                    c->o->compile_factor, tq, tp);
    }

    /* 3. characterisation of the trace */
    {
        const struct table *s = c->split;
        int cr = table_col_index(s, "repetition_ms"), co = table_col_index(s, "overhead_ms");
        int cc = table_col_index(s, "compile_ms"), cp = table_col_index(s, "overhead_pct");
        int cw = table_col_index(s, "mean_wall_ms");
        double rep = 0, ovh = 0, cmp = 0, all, req = trace_get_meta(c->t)->warmup_ms + trace_get_meta(c->t)->rep_ms;
        int over_half = 0, below = 0, ni = table_n_rows(s);
        for (int i = 0; i < ni; i++) {
            double v;
            rep += isfinite(v = table_num(s, i, cr)) ? v : 0;
            ovh += isfinite(v = table_num(s, i, co)) ? v : 0;
            cmp += isfinite(v = table_num(s, i, cc)) ? v : 0;
            over_half += table_num(s, i, cp) > 50;
            below += table_num(s, i, cw) < req;
        }
        all = rep + ovh + cmp;
        add_finding(c, "Where tuning time goes (all inputs, Figure 1): repetition %.0f%%, overhead %.0f%%, "
                    "compilation %.0f%%; overhead is more than half of an input's tuning time for %d of %d inputs "
                    "(paper, A40: most inputs). On %d inputs a configuration's mean wall time is below the "
                    "requested %.0f ms of warm-up and repetition.", 100 * rep / all, 100 * ovh / all,
                    100 * cmp / all, over_half, ni, below, req);
    }
    {
        const struct table *b = c->best;
        int cv = table_col_index(b, "vs_cublas"), m = 0, beat = 0;
        double *v = malloc(((size_t)table_n_rows(b) + 1) * sizeof *v);
        if (v == NULL) {
            tc_seterr("out of memory");
            goto out;
        }
        for (int i = 0; i < table_n_rows(b); i++)
            if (isfinite(table_num(b, i, cv))) {
                v[m++] = table_num(b, i, cv);
                beat += v[m - 1] >= 1;
            }
        qsort(v, (size_t)m, sizeof *v, tc_cmp_double);
        if (m > 0)
            add_finding(c, "The best tuned configuration reaches a median %.0f%% of cuBLAS's TFLOP/s (range "
                        "%.0f%%-%.0f%% over %d inputs) and matches or beats it on %d.",
                        100 * tc_median_sorted(v, (size_t)m), 100 * v[0], 100 * v[m - 1], m, beat);
        else
            add_finding(c, "The trace has no cuBLAS reference times, so the comparison with cuBLAS is missing.");
        free(v);
    }
    {
        const struct table *f = c->failures;
        int nc = trace_n_configs(c->t), bad = 0, top = -1;
        for (int i = 0; i < table_n_rows(f); i++) {
            if (strcmp(table_cell(f, i, 0), "configs") != 0 || strcmp(table_cell(f, i, 1), "ok") == 0)
                continue;
            bad += (int)table_num(f, i, 3);
            if (top < 0 || table_num(f, i, 3) > table_num(f, top, 3))
                top = i;
        }
        if (bad > 0 && strcmp(table_cell(f, top, 2), "(no compile log)") == 0)
            add_finding(c, "%d of %d configurations fail; the most common status: %s (%d).", bad, nc,
                        table_cell(f, top, 1), (int)table_num(f, top, 3));
        else if (bad > 0)
            add_finding(c, "%d of %d configurations fail; the most common reason (%d): %s: %s.", bad, nc,
                        (int)table_num(f, top, 3), table_cell(f, top, 1), table_cell(f, top, 2));
        else
            add_finding(c, "All %d configurations compiled and ran.", nc);
    }
    if (c->estimate != NULL) {
        const struct table *e = c->estimate;
        int cr = table_col_index(e, "estimate_ratio"), ct = table_col_index(e, "timed_vs_requested");
        int ce = table_col_index(e, "est_exec_mean_ms"), cw = table_col_index(e, "warm_median_ms");
        int cf = table_col_index(e, "flush_per_exec_ms"), ck = table_col_index(e, "estimate_ms");
        int m = table_n_rows(e), shortn = 0, cold = 0;
        double *r = malloc(((size_t)m + 1) * sizeof *r);
        if (r == NULL) {
            tc_seterr("out of memory");
            goto out;
        }
        for (int i = 0; i < m; i++) {
            double est = table_num(e, i, ck);
            r[i] = table_num(e, i, cr);
            shortn += table_num(e, i, ct) < 0.9;
            cold += fabs(est - table_num(e, i, ce)) < fabs(est - (table_num(e, i, cw) + table_num(e, i, cf)));
        }
        qsort(r, (size_t)m, sizeof *r, tc_cmp_double);
        add_finding(c, "Triton's estimate (Figure 2, %s): the per-execution estimate is a median %.2fx the warmed "
                    "execution time; %d of %d runs timed less than 90%% of the requested repetition time. The "
                    "estimate is closer to the mean of the (cold) estimate executions in %d runs and to the warm "
                    "time plus the flush per execution in %d.", trace_path(c->tt), m ? r[m / 2] : NAN, shortn, m,
                    cold, m - cold);
        free(r);
    } else {
        add_finding(c, "No triton-protocol trace was given (--triton-trace), so the estimation study (Figure 2) is "
                    "not in this report.");
    }
    rc = 0;
out:
    free(x1);
    free(x2);
    free(y);
    free(times);
    return rc;
}

/* ---- figures ------------------------------------------------------------------------------------------------ */

static void add_figure(struct report_ctx *c, const char *name, const char *title, const char *caption)
{
    struct figure *f = &c->figs[c->n_figs++];
    f->name = name;
    f->title = title;
    f->caption = caption;
    f->drawn = 0;
    f->why[0] = '\0';
}

static int find_in_path(const char *prog, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    while (path != NULL && *path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", prog);
        if (access(buf, X_OK) == 0) {
            snprintf(out, len, "%s", buf);
            return 0;
        }
        path = e ? e + 1 : NULL;
    }
    return -1;
}

/* A value for a gnuplot string literal in single quotes: no quotes or backslashes. */
static void gp_clean(char *s)
{
    for (; *s; s++)
        if (*s == '\'' || *s == '\\' || *s == '"' || *s == ';')
            *s = ' ';
}

/* gnuplot -e "fmt='png'; out='NAME.png'; ..." plots/NAME.gp, in the report directory; output to the log. */
static int run_gnuplot(struct report_ctx *c, const char *name, const char *fmt)
{
    char expr[1024], script[PATH_MAX], log[PATH_MAX], device[128], out[PATH_MAX];
    struct stat st;
    pid_t pid;
    int status;
    snprintf(device, sizeof device, "%s", trace_get_meta(c->t)->device_name);
    gp_clean(device);
    snprintf(expr, sizeof expr, "fmt='%s'; out='%s.%s'; input='%s'; device='%s'; factor=%d", fmt, name, fmt,
             c->input_label, device, c->o->compile_factor);
    snprintf(script, sizeof script, "plots/%s.gp", name);
    if (fmt_into(log, sizeof log, "%s/plots/gnuplot.log", c->od.tmp) != 0 ||
        fmt_into(out, sizeof out, "%s/%s.%s", c->od.tmp, name, fmt) != 0)
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return tc_seterr("cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644), nul = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        if (nul >= 0)
            dup2(nul, STDIN_FILENO);
        if (chdir(c->od.tmp) != 0)
            _exit(126);
        execl(c->gnuplot, "gnuplot", "-e", expr, script, (char *)NULL);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return tc_seterr("waiting for gnuplot: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(out, &st) != 0 || st.st_size == 0) {
        unlink(out);
        return tc_seterr("gnuplot failed on plots/%s.gp (%s); see plots/gnuplot.log", name, fmt);
    }
    return 0;
}

static int draw_figures(struct report_ctx *c)
{
    char from[PATH_MAX], to[PATH_MAX];
    int have_gnuplot = find_in_path("gnuplot", c->gnuplot, sizeof c->gnuplot) == 0;
    struct stat st;

    add_figure(c, "fig1-split", "Where tuning time goes, per input (paper Figure 1)",
               "Per input, summed over its valid runs: repetition (timed executions), overhead (wall time minus "
               "timed executions, warm-up included) and compilation of the configurations measured on it.");
    add_figure(c, "fig2-estimate", "Triton's execution-time estimate vs the warmed execution time (paper Figure 2)",
               "Left: the per-execution estimate of each run against the median of its warmed timed executions "
               "(the diagonal is a perfect estimate). Right: the timed total against the requested repetition "
               "time.");
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
               "Configurations ordered by their mean over inputs; blank = failed or not measured.");
    add_figure(c, "models", "The frontier under other cost models (beyond the paper)",
               "Frontiers for the single input: the paper's model, overhead charged per execution actually run "
               "(per-exec), pipelined compilation, and the paper's ideal parallel compilation.");
    add_figure(c, "policies", "Tuning policies: speedup relative to optimal over tuning time (beyond the paper)",
               "Every built-in policy replayed on every input (tunecost policies, every cost charged), mean and 95% "
               "CI over inputs and runs; dashed: the analytic random-search baseline. Scores in policies.tsv.");

    if (fmt_into(to, sizeof to, "%s/plots", c->od.tmp) != 0)
        return -1;
    if (mkdir(to, 0755) != 0)
        return tc_seterr("%s: cannot create: %s", to, strerror(errno));
    /* the scripts travel with the report, so it can be redrawn from its own TSV files */
    {
        const char *scripts[] = {"common.gp", "fig1-split.gp", "fig2-estimate.gp", "fig3-frontier.gp",
                                 "fig4-parallel.gp", "fig5-early-stop.gp", "heatmap.gp", "models.gp",
                                 "policies.gp"};
        for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
            snprintf(from, sizeof from, "%s/%s", c->o->plots_dir, scripts[i]);
            if (fmt_into(to, sizeof to, "%s/plots/%s", c->od.tmp, scripts[i]) != 0)
                return -1;
            if (copy_file(from, to) != 0)
                return tc_preferr("gnuplot scripts (set TUNECOST_PLOTS_DIR to the folder holding them)");
        }
    }
    for (int i = 0; i < c->n_figs; i++) {
        struct figure *f = &c->figs[i];
        if (check_interrupt(c) != 0)
            return -1;
        if (!have_gnuplot) {
            snprintf(f->why, sizeof f->why, "gnuplot not found on PATH (Debian: apt-get install gnuplot-nox)");
            continue;
        }
        if (strcmp(f->name, "fig2-estimate") == 0 && c->estimate == NULL) {
            snprintf(f->why, sizeof f->why, "needs a triton-protocol trace (--triton-trace)");
            continue;
        }
        say(c, "drawing %s (png, svg)", f->name);
        if (run_gnuplot(c, f->name, "png") != 0 || run_gnuplot(c, f->name, "svg") != 0) {
            snprintf(f->why, sizeof f->why, "%s", tc_errmsg());
            continue;
        }
        f->drawn = 1;
    }
    if (fmt_into(to, sizeof to, "%s/plots/gnuplot.log", c->od.tmp) == 0 && stat(to, &st) == 0 && st.st_size == 0)
        unlink(to);
    return 0;
}

/* ---- summary.md and index.html ----------------------------------------------------------------------------- */

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

static void settings_lines(struct report_ctx *c, char lines[][256], int *n)
{
    const struct trace_meta *m = trace_get_meta(c->t);
    int k = 0;
    fmt_into(lines[k++], 256, "trace: %s (%s, %s, %s protocol, timer %s, created %s)", c->o->trace_path,
             m->device_name, m->kernel, m->protocol, m->timer, m->created_utc);
    fmt_into(lines[k++], 256, "trace holds %d inputs, %d configurations, %zu runs; warm-up %.0f ms, repetition "
             "%.0f ms, L2 flush %lld bytes", trace_n_inputs(c->t), trace_n_configs(c->t), trace_n_runs(c->t),
             m->warmup_ms, m->rep_ms, (long long)m->flush_bytes);
    fmt_into(lines[k++], 256, "simulation: seed %llu, %d samples x %d runs, N_CONFIG %d:%d, EXEC_TIME %d:%d ms, "
             "compile factor %d, estimator %s", (unsigned long long)c->o->seed, c->o->samples, c->o->runs,
             c->s_in.n_config_lo, c->s_in.n_config_hi, c->s_in.exec_ms_lo, c->s_in.exec_ms_hi,
             c->o->compile_factor, sim_estimator_name(c->s_in.estimator));
    fmt_into(lines[k++], 256, "single input: %s; triton trace: %s", c->input_label,
             c->tt ? trace_path(c->tt) : "none");
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

static int write_summary(struct report_ctx *c)
{
    char path[PATH_MAX], lines[8][256];
    int nl;
    FILE *fp = open_out(c, "summary.md", path, sizeof path);
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
    fprintf(fp, "\nRegenerate: `tunecost report %s -o DIR --input %s --seed %llu --samples %d --runs %d "
            "--compile-factor %d%s%s`\n\n## Findings\n\n", c->o->trace_path, c->input_label,
            (unsigned long long)c->o->seed, c->o->samples, c->o->runs, c->o->compile_factor,
            c->tt ? " --triton-trace " : "", c->tt ? trace_path(c->tt) : "");
    for (int i = 0; i < c->n_findings; i++)
        fprintf(fp, "- %s\n", c->findings[i]);
    fprintf(fp, "\n## Figures\n\n");
    for (int i = 0; i < c->n_figs; i++) {
        const struct figure *f = &c->figs[i];
        fprintf(fp, "### %s\n\n", f->title);
        if (f->drawn)
            fprintf(fp, "![%s](%s.png)\n\n%s ([SVG](%s.svg), script `plots/%s.gp`)\n\n", f->title, f->name,
                    f->caption, f->name, f->name);
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
    return close_out(fp, path);
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

static int write_index(struct report_ctx *c)
{
    char path[PATH_MAX], lines[8][256];
    int nl;
    FILE *fp = open_out(c, "index.html", path, sizeof path);
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
          "<a href=\"#tables\">Tables</a><a href=\"summary.md\">summary.md</a></nav>\n"
          "<h2 id=\"findings\">Findings</h2>\n<ul>\n", fp);
    for (int i = 0; i < c->n_findings; i++) {
        fputs("<li>", fp);
        html_finding(fp, c->findings[i]);
        fputs("</li>\n", fp);
    }
    fputs("</ul>\n<h2 id=\"figures\">Figures</h2>\n", fp);
    for (int i = 0; i < c->n_figs; i++) {
        const struct figure *f = &c->figs[i];
        fprintf(fp, "<figure id=\"%s\">\n<h3>", f->name);
        html_escape(fp, f->title);
        fputs("</h3>\n", fp);
        if (f->drawn) {
            fprintf(fp, "<img src=\"%s.png\" alt=\"", f->name);
            html_escape(fp, f->title);
            fprintf(fp, "\">\n<figcaption>");
            html_escape(fp, f->caption);
            fprintf(fp, " <a href=\"%s.svg\">SVG</a> &middot; script <code>plots/%s.gp</code></figcaption>\n",
                    f->name, f->name);
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
    return close_out(fp, path);
}

/* ---- putting it in place ------------------------------------------------------------------------------------ */

static int dir_is_replaceable(const char *dir, int force)
{
    char probe[PATH_MAX];
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? 1 : tc_seterr("%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return tc_seterr("%s: exists and is not a directory", dir);
    snprintf(probe, sizeof probe, "%s/%s", dir, MARKER);
    if (force || access(probe, F_OK) == 0 || rmdir(dir) == 0)
        return 1;
    return tc_seterr("%s: exists and is not a tunecost report (no %s in it); choose another -o or use --force",
                     dir, MARKER);
}

static int make_tmp(struct report_ctx *c)
{
    char copy[PATH_MAX], parent[PATH_MAX], base[PATH_MAX], sub[PATH_MAX];
    struct stat st;
    snprintf(copy, sizeof copy, "%s", c->o->out_dir);
    snprintf(parent, sizeof parent, "%s", dirname(copy));
    snprintf(copy, sizeof copy, "%s", c->o->out_dir);
    snprintf(base, sizeof base, "%s", basename(copy));
    if (strcmp(base, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return tc_seterr("-o %s: expected a directory name to create or replace", c->o->out_dir);
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return tc_seterr("-o %s: the parent directory '%s' does not exist", c->o->out_dir, parent);
    /* the temporary beside DIR (and the removal of dead runs' temporaries): util/tc_outdir */
    if (tc_outdir_begin(&c->od, c->o->out_dir) != 0)
        return -1;
    if (fmt_into(sub, sizeof sub, "%s/sim", c->od.tmp) != 0 || mkdir(sub, 0755) != 0)
        return tc_seterr("%s: cannot create: %s", sub, strerror(errno));
    return 0;
}

/* Free a table the context points at unless it is among the kept ones (those are freed once, below). */
static void free_unkept(struct report_ctx *c, struct table *t)
{
    for (int i = 0; i < c->n_tabs; i++)
        if (c->tabs[i] == t)
            return;
    table_free(t);
}

static void ctx_free(struct report_ctx *c)
{
    struct table *loose[] = {c->split, c->best, c->failures, c->estimate, c->t6, c->budget, c->ttt_all,
                             c->ttt_input};
    for (size_t i = 0; i < sizeof loose / sizeof loose[0]; i++)
        free_unkept(c, loose[i]);
    for (int i = 0; i < c->n_tabs; i++)
        table_free(c->tabs[i]);
    for (int i = 0; i < c->n_findings; i++)
        free(c->findings[i]);
    sim_result_free(c->r_in);
    sim_result_free(c->r_all);
    sim_data_free(c->d_in);
    sim_data_free(c->d_all);
    trace_close(c->t);
    trace_close(c->tt);
    tc_outdir_abort(&c->od); /* nothing once committed */
}

int report_write(struct report_options *o)
{
    struct report_ctx c;
    int rc = -1;
    char path[PATH_MAX];
    FILE *fp;

    memset(&c, 0, sizeof c);
    c.o = o;
    o->n_figures = o->n_missing = 0;
    o->missing_why[0] = '\0';
    if (o->out_dir == NULL || o->trace_path == NULL) {
        tc_seterr("report: needs a trace and an output directory");
        return REPORT_EBADINPUT;
    }
    if ((c.t = trace_open(o->trace_path)) == NULL) {
        rc = REPORT_EBADINPUT;
        goto out;
    }
    if (o->triton_path != NULL && (c.tt = trace_open(o->triton_path)) == NULL) {
        tc_preferr("--triton-trace");
        rc = REPORT_EBADINPUT;
        goto out;
    }
    c.input = trace_n_dims(c.t) == 3 ? trace_find_input(c.t, o->input_dims) : -1;
    if (c.input < 0) {
        if (o->input_given) {
            tc_seterr("--input %s: %s has no such input (see `tunecost table tuning %s` for its inputs)",
                      o->input_label, o->trace_path, o->trace_path);
            rc = REPORT_EBADINPUT;
            goto out;
        }
        if (trace_n_inputs(c.t) == 0) {
            tc_seterr("%s: the trace has no inputs", o->trace_path);
            rc = REPORT_EBADINPUT;
            goto out;
        }
        /* the first input with a valid run (the single-input simulation needs one) */
        c.input = 0;
        for (size_t r = 0; r < trace_n_runs(c.t); r++)
            if (trace_run_valid(c.t, r)) {
                c.input = trace_run(c.t, r)->input;
                break;
            }
        for (size_t r = 0; r < trace_n_runs(c.t); r++)
            if (trace_run_valid(c.t, r) && trace_run(c.t, r)->input < c.input)
                c.input = trace_run(c.t, r)->input;
    }
    tables_input_label(c.t, c.input, c.input_label, sizeof c.input_label);
    if (!o->input_given && strcmp(c.input_label, o->input_label) != 0)
        say(&c, "note: %s has no input %s (the paper's Table 6); using %s", o->trace_path, o->input_label,
            c.input_label);
    if (dir_is_replaceable(o->out_dir, o->force) != 1 || make_tmp(&c) != 0) {
        rc = REPORT_EBADINPUT;
        goto out;
    }
    say(&c, "trace %s (%s): %d inputs, %d configurations; input %s, seed %llu, %d samples x %d runs",
        o->trace_path, trace_get_meta(c.t)->device_name, trace_n_inputs(c.t), trace_n_configs(c.t), c.input_label,
        (unsigned long long)o->seed, o->samples, o->runs);

    /* 1. tables */
    say(&c, "[1/5] characterisation tables");
    if (keep_table(&c, tables_compile(c.t), "table1-compile.tsv", "Compile time per configuration (Table 1)",
                   120) != 0 ||
        keep_table(&c, tables_tuning(c.t), "table2-tuning.tsv", "Tuning time per input (Table 2)", 80) != 0)
        goto out;
    if (keep_table(&c, c.split = tables_split(c.t), "fig1-split.tsv", "Repetition, overhead, compilation per "
                   "input (Figure 1 data)", 80) != 0)
        goto out;
    if (keep_table(&c, c.best = tables_best(c.t), "best-vs-cublas.tsv", "Best configuration per input vs cuBLAS",
                   80) != 0)
        goto out;
    if (keep_table(&c, c.failures = tables_failures(c.t), "failures.tsv", "Failures by status and reason", 40) != 0)
        goto out;
    if (keep_table(&c, tables_heatmap(c.t), "heatmap.tsv", "Relative performance of every pair (heat map data)",
                   -1) != 0)
        goto out;
    if (c.tt != NULL) {
        if ((c.estimate = tables_estimate(c.tt)) == NULL) {
            tc_preferr("--triton-trace");
            rc = REPORT_EBADINPUT;
            goto out;
        }
        if (keep_table(&c, c.estimate, "fig2-estimate.tsv", "Triton estimate vs warmed time (Figure 2 data)", 30) !=
            0)
            goto out;
    }
    if (check_interrupt(&c) != 0)
        goto out;

    /* 2-3. simulations */
    say(&c, "[2/5] simulating the single input");
    if ((rc = simulate(&c, 0)) != 0 || (rc = check_interrupt(&c)) != 0)
        goto out;
    rc = -1;
    say(&c, "[3/5] simulating all inputs");
    if ((rc = simulate(&c, 1)) != 0 || (rc = check_interrupt(&c)) != 0)
        goto out;
    rc = -1;
    if (write_sim_files(&c, 0) != 0 || write_sim_files(&c, 1) != 0)
        goto out;
    if (keep_table(&c, c.t6, "table6-frontier.tsv", "Pareto frontier points (Table 6)", 100) != 0)
        goto out;
    if (compute_findings(&c) != 0)
        goto out;
    if (keep_table(&c, c.budget, "budget.tsv", "Best speedup within a budget, all inputs", 20) != 0 ||
        keep_table(&c, c.ttt_all, "time-to-target-all.tsv", "Tuning time to reach a speedup, all inputs", 20) !=
            0 ||
        keep_table(&c, c.ttt_input, "time-to-target-input.tsv", "Tuning time to reach a speedup, single input",
                   20) != 0)
        goto out;

    if (policies_section(&c) != 0)
        goto out;

    /* 4. figures */
    say(&c, "[4/5] figures");
    if (draw_figures(&c) != 0)
        goto out;
    o->n_figures = c.n_figs;
    for (int i = 0; i < c.n_figs; i++) {
        if (c.figs[i].drawn)
            continue;
        if (o->n_missing == 0)
            snprintf(o->missing_why, sizeof o->missing_why, "%s", c.figs[i].why);
        o->n_missing++;
        say(&c, "  not drawn: %s: %s", c.figs[i].name, c.figs[i].why);
    }

    /* 5. pages */
    say(&c, "[5/5] summary.md and index.html");
    if (write_summary(&c) != 0 || write_index(&c) != 0)
        goto out;
    if ((fp = open_out(&c, MARKER, path, sizeof path)) == NULL)
        goto out;
    fprintf(fp, "tunecost report directory: `tunecost report` replaces it as a whole\n");
    if (close_out(fp, path) != 0 || check_interrupt(&c) != 0)
        goto out;
    if (tc_outdir_commit(&c.od) != 0)
        goto out;
    rc = 0;
out:
    ctx_free(&c);
    return rc;
}
