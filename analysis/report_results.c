/* report_results.c — the results several report sections read, below every section (it calls none): the report's
 * simulations (simulate/sim.h: the single input with five scenarios, all inputs with three, the second kernel
 * family's trace with the baseline) and their TSV files under sim/, Table 6, the budget and time-to-target tables,
 * the shares of Figure 1 and a kernel family's name. Each is built once, by the section report.c runs first for it,
 * into the context's results; later sections read them there. */
#include "frontier.h"
#include "report_results.h"
#include "sim_budget.h"
#include "tc_atomic.h"
#include "tc_stats.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_SC_ROW(id, name, compile, parallel, overhead, early_stop, all_inputs) \
    [id] = {name, compile, parallel, overhead, early_stop},
const struct report_scenario report_scenarios[N_SC_INPUT] = {REPORT_SCENARIOS(REPORT_SC_ROW)};

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

/* Scenarios per simulation and the file-name stem of its TSV files. */
static const int n_scenarios[N_REPORT_SIM] = {N_SC_INPUT, N_SC_ALL, 1};
static const char *const set_names[N_REPORT_SIM] = {"input", "all", "compare"};

static const char *sim_label(const struct report_ctx *c, enum report_sim which)
{
    return which == REPORT_SIM_INPUT ? c->input_label : which == REPORT_SIM_ALL ? "all inputs"
                                                                                 : "all inputs, second family";
}

void report_cost_settings(const struct report_options *o, struct sim_settings *s)
{
    sim_settings_default(s);
    if (o->paper)
        sim_settings_paper(s); /* (its scenarios are replaced by the caller's) */
    if (o->failed_cost >= 0)
        s->failed_cost = (enum sim_failed_cost)o->failed_cost;
    if (o->compile_model >= 0)
        s->compile_model = (enum sim_compile_model)o->compile_model;
}

int report_cost_fold(const struct report_ctx *c)
{
    const struct sim_settings *s = &c->res.s[REPORT_SIM_ALL];
    long no_iso, failed_nc;
    if (s->failed_cost != SIM_FAILED_TRITON || s->compile_model != SIM_CM_MEASURED || c->res.d[REPORT_SIM_ALL] == NULL)
        return -1;
    sim_data_missing(c->res.d[REPORT_SIM_ALL], &no_iso, &failed_nc);
    if (no_iso > 0 || failed_nc > 0) /* costs.tsv is not made (report_verdicts.c) */
        return -1;
    for (int q = 0; q < REPORT_N_COSTS; q++)
        if (report_cost_failed[q] == SIM_FAILED_TRITON && report_cost_model[q] == SIM_CM_PAPER)
            return q;
    return -1;
}

static int sim_prepare(struct report_ctx *c, enum report_sim which);

int report_common_ref(struct report_ctx *c)
{
    struct report_common *cr = &c->res.common;
    const struct report_results *r = &c->res;
    int ni, rc;
    if (cr->ready)
        return 1;
    if (c->cmp == NULL || trace_n_dims(c->cmp) != trace_n_dims(c->t) || r->d[REPORT_SIM_ALL] == NULL)
        return 0;
    if ((rc = sim_prepare(c, REPORT_SIM_CMP)) != 0)
        return -1;
    ni = trace_n_inputs(c->t);
    for (int f = 0; f < 2; f++) {
        int nd = f == 0 ? ni : trace_n_inputs(c->cmp);
        free(cr->in[f]), free(cr->w[f]), free(cr->wd[f]);
        cr->in[f] = malloc(((size_t)ni + 1) * sizeof *cr->in[f]);
        cr->w[f] = malloc(((size_t)ni + 1) * sizeof *cr->w[f]);
        cr->wd[f] = malloc(((size_t)nd + 1) * sizeof *cr->wd[f]);
        if (cr->in[f] == NULL || cr->w[f] == NULL || cr->wd[f] == NULL)
            return tc_seterr_env("out of memory");
        for (int i = 0; i < nd; i++)
            cr->wd[f][i] = NAN;
    }
    cr->n = 0;
    for (int i = 0; i < ni; i++) {
        int j = trace_find_input(c->cmp, trace_dims(c->t, i));
        double oa = j >= 0 ? sim_data_optimal_ms(r->d[REPORT_SIM_ALL], i, r->s[REPORT_SIM_ALL].truth) : NAN;
        double ob = j >= 0 ? sim_data_optimal_ms(r->d[REPORT_SIM_CMP], j, r->s[REPORT_SIM_CMP].truth) : NAN;
        if (!isfinite(oa) || !isfinite(ob))
            continue;
        cr->in[0][cr->n] = i;
        cr->in[1][cr->n] = j;
        cr->wd[0][i] = cr->w[0][cr->n] = fmin(oa, ob) / oa;
        cr->wd[1][j] = cr->w[1][cr->n++] = fmin(oa, ob) / ob;
    }
    cr->ready = 1;
    return 1;
}

/* The common reference's scenarios: every cost model m as scenario m, weighted, named with suffix (none: the
 * model's name). */
static void common_scenarios(struct sim_scenario *sc, int factor, const char *suffix)
{
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        report_model_scenario(&sc[m], m, 0, factor);
        sc[m].weighted = 1;
        if (suffix != NULL)
            snprintf(sc[m].name, sizeof sc[m].name, "%s%s", report_model_names[m], suffix);
    }
}

void report_common_settings(const struct report_ctx *c, int f, int k, struct sim_settings *s)
{
    *s = c->res.s[f ? REPORT_SIM_CMP : REPORT_SIM_ALL];
    s->seed = report_seed_k(c->o->seed, k);
    s->n_scenarios = REPORT_N_MODELS;
    s->input_weight = c->res.common.wd[f];
    common_scenarios(s->scenarios, c->o->compile_factor, NULL);
}

/* 1 when the first family's simulation against the common reference can ride on the verdict set: every input the
 * verdicts replay is a common one (so the weights leave none out), else 0. Builds the reference. */
static int common_fold(struct report_ctx *c)
{
    const struct sim_data *d = c->res.d[REPORT_SIM_ALL];
    int ni;
    if (report_common_ref(c) != 1) {
        tc_clearerr(); /* the two-family study says why, when it runs */
        return 0;
    }
    ni = trace_n_inputs(c->t);
    for (int i = 0; i < ni; i++)
        if (isfinite(sim_data_optimal_ms(d, i, c->res.s[REPORT_SIM_ALL].truth)) && isnan(c->res.common.wd[0][i]))
            return 0;
    return c->res.common.n > 0;
}

void report_verdict_settings(struct report_ctx *c, int k, struct sim_settings *s)
{
    *s = c->res.s[REPORT_SIM_ALL];
    s->seed = report_seed_k(c->o->seed, k);
    s->n_scenarios = REPORT_N_VERDICT_SC;
    for (int sc = 0; sc < REPORT_N_VERDICT_SC; sc++)
        report_model_scenario(&s->scenarios[sc], sc / 2, sc % 2, c->o->compile_factor);
    if (report_cost_fold(c) >= 0) {
        struct sim_scenario *sc = &s->scenarios[s->n_scenarios];
        report_cost_scenarios(sc, c->o->compile_factor);
        for (int m = 0; m < REPORT_N_COST_MODELS; m++) {
            sc[m].paper_compile = 1;
            snprintf(sc[m].name, sizeof sc[m].name, "%s@paper", report_model_names[report_cost_models[m]]);
        }
        s->n_scenarios += REPORT_N_COST_MODELS;
    }
    if (common_fold(c)) { /* the first family's scenarios against the common reference (report_common_settings) */
        s->input_weight = c->res.common.wd[0];
        common_scenarios(&s->scenarios[s->n_scenarios], c->o->compile_factor, "@common");
        s->n_scenarios += REPORT_N_MODELS;
    }
}

/* Scenarios map[0..n) of r (n_full scenarios) as a result of n scenarios, renumbered 0..n-1; NULL with the message. */
static struct sim_result *sub_result(const struct sim_result *full, int n_full, const int *map, int n)
{
    struct sim_result *r = calloc(1, sizeof *r);
    int samples = full->n_points / n_full;
    if (r == NULL || (r->points = calloc((size_t)samples * (size_t)n + 1, sizeof *r->points)) == NULL) {
        free(r);
        tc_seterr_env("out of memory");
        return NULL;
    }
    r->n_points = samples * n;
    r->n_inputs_used = full->n_inputs_used;
    r->elapsed_s = full->elapsed_s;
    for (int i = 0; i < samples; i++)
        for (int sc = 0; sc < n; sc++) {
            struct sim_point *p = &r->points[(size_t)i * (size_t)n + (size_t)sc];
            *p = full->points[(size_t)i * (size_t)n_full + (size_t)map[sc]];
            p->scenario = sc;
        }
    return r;
}

struct sim_result *report_verdict_run(struct report_ctx *c, int k)
{
    struct sim_settings s;
    struct sim_result *full, *r;
    int map[SIM_MAX_SCENARIOS];
    report_verdict_settings(c, k, &s);
    if (k == 0 && c->res.verdict1 != NULL) {
        full = c->res.verdict1;
        c->res.verdict1 = NULL;
    } else if ((full = sim_run(c->res.d[REPORT_SIM_ALL], &s, NULL, NULL)) == NULL) {
        return NULL;
    }
    if (s.n_scenarios == REPORT_N_VERDICT_SC)
        return full;
    for (int sc = 0; sc < s.n_scenarios; sc++)
        map[sc] = sc;
    r = sub_result(full, s.n_scenarios, map, REPORT_N_VERDICT_SC);
    /* after the eight: a cost setting's scenarios (paper_compile), then the common reference's (weighted) */
    for (int at = REPORT_N_VERDICT_SC; r != NULL && at < s.n_scenarios && k < 3;) {
        int paper = s.scenarios[at].paper_compile, n = paper ? REPORT_N_COST_MODELS : REPORT_N_MODELS;
        struct sim_result **dst = paper ? &c->res.cost_fold[k] : &c->res.common_fold[k];
        sim_result_free(*dst);
        if ((*dst = sub_result(full, s.n_scenarios, map + at, n)) == NULL) {
            sim_result_free(r);
            r = NULL;
        }
        at += n;
    }
    sim_result_free(full);
    return r;
}

/* REPORT_SIM_ALL's result (settings s): from the verdict set of seed 1 when it replays the same draws with every
 * scenario of s (report_simulate), which is then kept in c->res.verdict1; else replayed alone. NULL with the
 * message. */
static struct sim_result *sim_all_from_verdicts(struct report_ctx *c, const struct sim_settings *s,
                                                struct sim_progress_arg *pa)
{
    struct sim_settings v;
    struct sim_result *full;
    int map[SIM_MAX_SCENARIOS];
    report_verdict_settings(c, 0, &v);
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        const struct sim_scenario *a = &s->scenarios[sc];
        map[sc] = -1;
        for (int j = 0; j < v.n_scenarios && map[sc] < 0; j++) {
            const struct sim_scenario *b = &v.scenarios[j];
            if (a->compile == b->compile && a->compile_factor == b->compile_factor && a->overhead == b->overhead &&
                a->early_stop == b->early_stop && a->paper_compile == b->paper_compile && a->weighted == b->weighted)
                map[sc] = j;
        }
        if (map[sc] < 0 || v.seed != s->seed)
            return sim_run(c->res.d[REPORT_SIM_ALL], s, sim_progress, pa);
    }
    if ((full = sim_run(c->res.d[REPORT_SIM_ALL], &v, sim_progress, pa)) == NULL)
        return NULL;
    c->res.verdict1 = full;
    return sub_result(full, v.n_scenarios, map, s->n_scenarios);
}

/* Simulation which's settings (c->res.s[which]) and data (c->res.d[which], built once). 0, or REPORT_EBADINPUT
 * with the message. */
static int sim_prepare(struct report_ctx *c, enum report_sim which)
{
    struct report_options *o = c->o;
    struct sim_settings *s = &c->res.s[which];
    int f = o->compile_factor, all = which != REPORT_SIM_INPUT;

    report_cost_settings(o, s);
    s->samples = o->samples;
    s->runs = o->runs;
    s->seed = o->seed;
    s->threads = o->threads;
    s->input = all ? -1 : 0;
    s->n_scenarios = n_scenarios[which];
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        const struct report_scenario *x = &report_scenarios[sc];
        set_scenario(&s->scenarios[sc], x->name, sim_compile_for_model(s->compile_model, x->compile),
                     x->parallel ? f : 1, x->overhead, x->early_stop);
    }
    if (sim_settings_check(s) != 0)
        return REPORT_EBADINPUT;
    if (c->res.d[which] == NULL &&
        (c->res.d[which] = sim_data_from_trace(which == REPORT_SIM_CMP ? c->cmp : c->t, all ? NULL : &c->input,
                                               all ? 0 : 1, s)) == NULL)
        return REPORT_EBADINPUT;
    return 0;
}

int report_simulate(struct report_ctx *c, enum report_sim which)
{
    struct sim_settings *s = &c->res.s[which];
    struct sim_progress_arg pa = {c, sim_label(c, which)};
    int rc, all = which != REPORT_SIM_INPUT;

    if ((rc = sim_prepare(c, which)) != 0)
        return rc;
    report_say(c, "simulating %s: %d scenarios x %d samples x %d runs%s", sim_label(c, which), s->n_scenarios,
               s->samples, s->runs, all ? " x every input" : "");
    if (which == REPORT_SIM_ALL)
        c->res.r[which] = sim_all_from_verdicts(c, s, &pa);
    else
        c->res.r[which] = sim_run(c->res.d[which], s, sim_progress, &pa);
    if (c->o->progress_tty)
        fputc('\n', stderr);
    if (c->res.r[which] == NULL)
        return -1;
    report_say(c, "  %s: %d points in %.1f s", sim_label(c, which), c->res.r[which]->n_points,
               c->res.r[which]->elapsed_s);
    return 0;
}

/* Table 6 from the single input's baseline frontier (sim_scenario_frontier, as sim/input-baseline-frontier.tsv
 * has it): time, TFLOP/s, the drawn N_CONFIG and EXEC_TIME, and the CIs. NULL with a message. */
static struct table *table6(const struct sim_result *r, int n_sc, int by_speedup)
{
    static const char *cols[] = {"time_s", "tflops", "n_config", "exec_ms", "time_s_lo", "time_s_hi", "tflops_lo",
                                 "tflops_hi"};
    const struct sim_point **p;
    int m = sim_scenario_frontier(r, n_sc, SC_BASELINE, 1, by_speedup, 0, &p);
    struct table *t6 = m < 0 ? NULL : table_new("Pareto frontier points (paper Table 6)", 8, cols);
    for (int i = 0; t6 != NULL && i < m; i++) {
        const struct sim_point *q = p[i];
        int row = table_add_row(t6);
        if (row < 0) {
            table_free(t6);
            t6 = NULL;
            break;
        }
        table_set_num(t6, row, 0, q->time_s, 2);
        table_set_num(t6, row, 1, q->tflops, 2);
        table_set_int(t6, row, 2, q->n_config);
        table_set_int(t6, row, 3, (long long)q->exec_ms);
        table_set_num(t6, row, 4, q->time_s_lo, 2);
        table_set_num(t6, row, 5, q->time_s_hi, 2);
        table_set_num(t6, row, 6, q->tflops_lo, 2);
        table_set_num(t6, row, 7, q->tflops_hi, 2);
    }
    if (m >= 0)
        free(p);
    return t6;
}

int report_write_sim_files(struct report_ctx *c, enum report_sim which)
{
    const struct sim_result *r = c->res.r[which];
    int n_sc = n_scenarios[which];
    /* all inputs: the frontier over (time, speedup), since TFLOP/s of different inputs do not compare */
    int by_speedup = which != REPORT_SIM_INPUT || isnan(sim_data_flops(c->res.d[which], 0));
    const char *set = set_names[which];
    char name[128], path[PATH_MAX];
    FILE *fp;

    snprintf(name, sizeof name, "sim/points-%s.tsv", set);
    if ((fp = report_open(c, name, path, sizeof path)) == NULL)
        return -1;
    if (sim_write_points(fp, c->res.d[which], &c->res.s[which], r,
                         which == REPORT_SIM_CMP ? c->o->compare_path : c->o->trace_path) != 0) {
        int rc = tc_stream_check(fp, path);
        fclose(fp);
        return rc != 0 ? rc : tc_seterr("%s: write failed", path);
    }
    if (report_close(fp, path) != 0)
        return -1;
    for (int sc = 0; sc < n_sc; sc++)
        for (int fr = 0; fr < 2; fr++) {
            snprintf(name, sizeof name, "sim/%s-%s%s.tsv", set, report_scenarios[sc].name, fr ? "-frontier" : "");
            if ((fp = report_open(c, name, path, sizeof path)) == NULL)
                return -1;
            if (sim_write_scenario_points(fp, c->res.d[which], &c->res.s[which], r, sc, fr, by_speedup) != 0) {
                fclose(fp);
                return tc_preferr("%s", path);
            }
            if (report_close(fp, path) != 0)
                return -1;
        }
    if (which == REPORT_SIM_INPUT && (c->res.t6 = table6(r, n_sc, by_speedup)) == NULL)
        return -1; /* Table 6: the single input's frontier under the paper's model */
    return 0;
}

/* v rounded to two significant digits. */
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

/* Columns of the re-evaluated tables: what was asked (the target or the budget) and the scenario, the fresh runs'
 * mean and 95% CI, the chosen sample and what the selection set said of it. */
static const char *const est_cols[] = {"", "scenario", "time_s", "time_s_lo", "time_s_hi", "speedup", "speedup_lo",
                                       "speedup_hi", "sample", "n_config", "exec_ms", "sel_time_s", "sel_speedup",
                                       "fresh_time_s", "chosen_by"};
#define N_EST_COLS ((int)(sizeof est_cols / sizeof est_cols[0]))

static int est_row(struct table *tab, double asked, int asked_dec, const char *scenario, const struct report_est *e)
{
    int row = table_add_row(tab), k = 0;
    if (row < 0)
        return -1;
    table_set_num(tab, row, k++, asked, asked_dec);
    table_set_str(tab, row, k++, scenario);
    table_set_num(tab, row, k++, e->time_s, 3);
    table_set_num(tab, row, k++, e->time_lo, 3);
    table_set_num(tab, row, k++, e->time_hi, 3);
    table_set_num(tab, row, k++, e->speedup, 4);
    table_set_num(tab, row, k++, e->speedup_lo, 4);
    table_set_num(tab, row, k++, e->speedup_hi, 4);
    table_set_int(tab, row, k++, e->sample);
    table_set_int(tab, row, k++, e->sample >= 0 ? e->n_config : -1);
    table_set_num(tab, row, k++, e->sample >= 0 ? e->exec_ms : NAN, -1);
    table_set_num(tab, row, k++, e->sel_time_s, 3);
    table_set_num(tab, row, k++, e->sel_speedup, 4);
    table_set_num(tab, row, k++, e->fresh_time_s, 3);
    return table_set_str(tab, row, k, e->sample >= 0 ? e->chosen_by : "");
}

static struct table *est_table(const char *title, const char *first)
{
    const char *cols[N_EST_COLS];
    memcpy(cols, est_cols, sizeof cols);
    cols[0] = first;
    return table_new(title, N_EST_COLS, cols);
}

/* Seconds each scenario needs to reach 0.80 ... 0.98 of optimal: the report's one selection (report_ttt_set), seeds
 * from `stream`. */
static struct table *ttt_table(struct report_ctx *c, enum report_sim which, uint64_t stream, const char *title)
{
    const struct sim_settings *s = &c->res.s[which];
    struct table *tab = est_table(title, "target_speedup");
    struct report_est *e = calloc((size_t)REPORT_N_TTT * (size_t)s->n_scenarios, sizeof *e);
    if (tab == NULL || e == NULL ||
        report_ttt_set(c->res.d[which], s, c->res.r[which], c->o->seed, stream, -1, 0, e) != 0) {
        if (e == NULL)
            tc_seterr_env("out of memory");
        free(e);
        table_free(tab);
        return NULL;
    }
    for (int i = 0; i < REPORT_N_TTT; i++)
        for (int sc = 0; sc < s->n_scenarios; sc++)
            if (est_row(tab, report_ttt_targets[i], 2, s->scenarios[sc].name, &e[i * s->n_scenarios + sc]) != 0) {
                free(e);
                table_free(tab);
                return NULL;
            }
    free(e);
    table_add_note(tab, "time_s: mean tuning time, on %d fresh runs (another seed), of the cheapest sample whose 95%% "
                   "CI lower bound of speedup vs optimal reached the target in the simulation (sel_*: what the "
                   "simulation said of it), only when the fresh runs' mean speedup reaches the target too (else nan: "
                   "not reached, and speedup / fresh_time_s are the best attained and when); chosen_by: own = that "
                   "sample; parallel's sample = pipelined short of the target, the sample parallel compilation "
                   "reaches it with, replayed under pipelining on the same fresh draws; sample for 0.98 (say) = this "
                   "target's sample short or dearer, the higher target's, whose fresh mean reaches this one too; "
                   "*_lo, *_hi: 95%% CI; sample -1: no sample qualifies", report_reeval_runs(s->runs));
    return tab;
}

int report_budget_tables(struct report_ctx *c)
{
    /* budgets: 6 steps, evenly spaced in log, from the cheapest baseline sample to the median one */
    const struct sim_result *ra = c->res.r[REPORT_SIM_ALL];
    const struct sim_settings *s = &c->res.s[REPORT_SIM_ALL];
    int na = ra->n_points / N_SC_ALL;
    double *times = calloc((size_t)na + 1, sizeof *times), lo, hi;
    if (times == NULL)
        return tc_seterr_env("out of memory");
    for (int i = 0; i < na; i++)
        times[i] = ra->points[(size_t)i * N_SC_ALL + SC_BASELINE].time_s;
    qsort(times, (size_t)na, sizeof *times, tc_cmp_double);
    lo = times[0];
    hi = times[(na - 1) / 2];
    free(times);
    double budgets[6];
    struct sim_budget_row *w = NULL;
    int nw = 0;
    for (int k = 0; k < 6; k++) {
        budgets[k] = round_sig2(lo > 0 && hi > lo ? lo * pow(hi / lo, k / 5.0) : hi);
        if (k == 0 && budgets[k] < lo) /* rounding must not put the first budget below the cheapest sample */
            budgets[k] = round_sig2_up(lo);
    }
    /* simulate --budget's function: the same choice, fresh runs and seeds as `tunecost simulate --budget` */
    if (sim_budget_eval(c->res.d[REPORT_SIM_ALL], s, ra, budgets, 6, NULL, 0, &w, &nw) != 0)
        return -1;
    c->res.budget = est_table("Best mean speedup vs optimal within a tuning budget, all inputs", "budget_s");
    for (int i = 0; c->res.budget != NULL && i < nw; i++) {
        struct report_est e;
        report_est_from_budget(&w[i], &e);
        if (est_row(c->res.budget, w[i].budget_s, -1, s->scenarios[w[i].scenario].name, &e) != 0) {
            free(w);
            return -1;
        }
    }
    free(w);
    if (c->res.budget == NULL)
        return -1;
    table_add_note(c->res.budget, "budgets: from the cheapest to the median tuning time of the baseline's samples, "
                   "log-spaced and rounded; per budget the sample with the highest 95%% CI lower bound of speedup "
                   "whose time (95%% CI upper bound) fits it in the simulation, re-evaluated on %d fresh runs (its "
                   "fresh time may still exceed the budget), as `tunecost simulate --budget` chooses and reports it "
                   "(sim_budget_eval, the same seed); nan = no sample that cheap", sim_budget_fresh_runs(s->runs));
    c->res.ttt_all = ttt_table(c, REPORT_SIM_ALL, 2000,
                               "Tuning time to reach a mean speedup vs optimal, all inputs (s)");
    c->res.ttt_input = ttt_table(c, REPORT_SIM_INPUT, 1000,
                                 "Tuning time to reach a mean speedup vs optimal, single input (s)");
    return c->res.ttt_all == NULL || c->res.ttt_input == NULL ? -1 : 0;
}

int report_split_shares(const struct table *s, struct report_split *out)
{
    int cr = table_col_need(s, "repetition_ms"), co = table_col_need(s, "overhead_ms");
    int cc = table_col_need(s, "compile_ms"), cp = table_col_need(s, "overhead_pct");
    int cw = table_col_need(s, "mean_wall_ms");
    memset(out, 0, sizeof *out);
    if (cr < 0 || co < 0 || cc < 0 || cp < 0 || cw < 0)
        return -1;
    out->n_inputs = table_n_rows(s);
    for (int i = 0; i < out->n_inputs; i++) {
        double v;
        out->repetition_ms += isfinite(v = table_num(s, i, cr)) ? v : 0;
        out->overhead_ms += isfinite(v = table_num(s, i, co)) ? v : 0;
        out->compile_ms += isfinite(v = table_num(s, i, cc)) ? v : 0;
        out->over_half += table_num(s, i, cp) > 50;
    }
    out->mean_wall_col = cw;
    return 0;
}

void report_family_name(const struct trace *t, char *buf, size_t len)
{
    int nw = 0, nc = trace_n_configs(t);
    for (int k = 0; k < nc; k++)
        nw += trace_config(t, k)->path == 1;
    if (nw > 0)
        snprintf(buf, len, "%s: wgmma on %d of %d configurations", tables_base_name(trace_path(t)), nw, nc);
    else
        snprintf(buf, len, "%s: mma.sync", tables_base_name(trace_path(t)));
}
