/* report_findings.c — the report's findings on the trace and its simulations, one function each, every number
 * computed from the data. A finding that reads a table's column looks it up with table_col_need(), so a renamed
 * column stops the report with a message instead of printing NaN. */
#include "report_results.h"
#include "tc_stats.h"
#include "trace.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* A re-evaluated number as the report's TSV tables hold it (time-to-target-*.tsv, budget.tsv, verdicts.tsv). */
struct est_row {
    double time_s, time_lo, time_hi, speedup, speedup_lo, speedup_hi;
    int bounded;    /* costs.tsv: the time is a higher target's sample's (chosen_by "sample for ..."), a bound */
    double fresh_s; /* the fresh runs' mean time whether or not they reached the target (NaN: not in the table) */
};

/* Row of table t whose column `first` equals v and whose column `scenario` is sc: -1 when none (message set). */
static int find_est(const struct table *t, const char *first, double v, const char *sc, struct est_row *out)
{
    int cf = table_col_need(t, first), cs = table_col_need(t, "scenario"), c[6];
    static const char *names[6] = {"time_s", "time_s_lo", "time_s_hi", "speedup", "speedup_lo", "speedup_hi"};
    if (cf < 0 || cs < 0)
        return -1;
    for (int k = 0; k < 6; k++)
        if ((c[k] = table_col_need(t, names[k])) < 0)
            return -1;
    for (int i = 0; i < table_n_rows(t); i++)
        if (fabs(table_num(t, i, cf) - v) < 1e-9 && strcmp(table_cell(t, i, cs), sc) == 0) {
            double *o[6] = {&out->time_s, &out->time_lo, &out->time_hi, &out->speedup, &out->speedup_lo,
                            &out->speedup_hi};
            for (int k = 0; k < 6; k++)
                *o[k] = table_num(t, i, c[k]);
            int cfr = table_col_index(t, "fresh_time_s");
            out->fresh_s = cfr >= 0 ? table_num(t, i, cfr) : NAN;
            return 0;
        }
    return tc_seterr("%s: no row %s = %g, scenario %s", table_title(t), first, v, sc);
}

/* "12.02 s (95% CI 11.80-12.25)"; a target the chosen sample's fresh runs do not reach on average: "not reached
 * (0.9481, 32.74 s)": the best attained and when; no sample: "never". */
static void fmt_time(char *buf, size_t len, const struct est_row *e)
{
    if (isfinite(e->time_s))
        snprintf(buf, len, "%.2f s (95%% CI %.2f-%.2f)", e->time_s, e->time_lo, e->time_hi);
    else if (isfinite(e->speedup) && isfinite(e->fresh_s))
        snprintf(buf, len, "not reached (%.4f, %.2f s)", e->speedup, e->fresh_s);
    else
        snprintf(buf, len, "never");
}

/* One row of stability.tsv: the measure on each seed, each seed's category and whether they agree. */
struct stab_row {
    double v[3];
    char cat[3][48];
    double mean, lo, hi;   /* over the three seeds: mean and 95% CI */
    char category[48];     /* the verdict, or "no verdict" */
    int stable;
    double slo[3], shi[3]; /* each seed's own 95% CI (paired rows; NaN elsewhere) */
};

static int find_stab(const struct table *t, const char *verdict, const char *model, const char *measure,
                     struct stab_row *out)
{
    int cv = table_col_need(t, "verdict"), cm = table_col_need(t, "model"), cme = table_col_need(t, "measure");
    int cst = table_col_need(t, "stable");
    if (cv < 0 || cm < 0 || cme < 0 || cst < 0)
        return -1;
    for (int i = 0; i < table_n_rows(t); i++) {
        if (strcmp(table_cell(t, i, cv), verdict) != 0 || strcmp(table_cell(t, i, cm), model) != 0 ||
            strcmp(table_cell(t, i, cme), measure) != 0)
            continue;
        for (int k = 0; k < 3; k++) {
            char col[32];
            snprintf(col, sizeof col, "seed_%d", k + 1);
            int a = table_col_need(t, col);
            snprintf(col, sizeof col, "category_%d", k + 1);
            int b = table_col_need(t, col);
            if (a < 0 || b < 0)
                return -1;
            out->v[k] = table_num(t, i, a);
            snprintf(out->cat[k], sizeof out->cat[k], "%s", table_cell(t, i, b));
            snprintf(col, sizeof col, "seed_%d_lo", k + 1);
            a = table_col_need(t, col);
            snprintf(col, sizeof col, "seed_%d_hi", k + 1);
            b = table_col_need(t, col);
            if (a < 0 || b < 0)
                return -1;
            out->slo[k] = table_num(t, i, a);
            out->shi[k] = table_num(t, i, b);
        }
        {
            int cmean = table_col_need(t, "mean"), clo = table_col_need(t, "ci_lo"), chi = table_col_need(t, "ci_hi");
            int ccat = table_col_need(t, "category");
            if (cmean < 0 || clo < 0 || chi < 0 || ccat < 0)
                return -1;
            out->mean = table_num(t, i, cmean);
            out->lo = table_num(t, i, clo);
            out->hi = table_num(t, i, chi);
            snprintf(out->category, sizeof out->category, "%s", table_cell(t, i, ccat));
        }
        out->stable = (int)table_num(t, i, cst);
        return 0;
    }
    return tc_seterr("%s: no row %s / %s / %s", table_title(t), verdict, model, measure);
}

/* The findings below are one sentence each: claim, condition, the number with its CI, and the TSV that holds the
 * details (per seed, per model, per budget). tests/test-report.c recomputes every number from that TSV and counts
 * the words (at most 45). */

/* N_CONFIG vs EXEC_TIME (single input, every cost model, three seeds, stability.tsv's exec-time rows): the lowest
 * N_CONFIG and highest EXEC_TIME eta squared over the models and seeds where N_CONFIG decides everywhere, else the
 * verdict for the tuned kernel's performance and that tuning time's differs between models. */
static int finding_knobs(struct report_ctx *c)
{
    static const char *const m1[2] = {"eta2_n_config", "eta2_time_n_config"};
    static const char *const m2[2] = {"eta2_exec_time", "eta2_time_exec_time"};
    const struct sim_settings *s = &c->res.s[REPORT_SIM_INPUT];
    const char *perf = isnan(sim_data_flops(c->res.d[REPORT_SIM_INPUT], 0)) ? "speedup" : "TFLOP/s";
    double lo_nc = INFINITY, hi_ex = -INFINITY;
    int all_nc = 1;
    struct stab_row a, b, p0;
    for (int m = 0; m < REPORT_N_MODELS; m++)
        for (int w = m > 0; w < 2; w++) { /* the tuned kernel's performance: the same under every model */
            if (find_stab(c->res.stability, "exec-time", report_model_names[m], m1[w], &a) != 0 ||
                find_stab(c->res.stability, "exec-time", report_model_names[m], m2[w], &b) != 0)
                return -1;
            all_nc &= a.stable && strcmp(a.category, "N_CONFIG decides") == 0;
            for (int k = 0; k < 3; k++) {
                lo_nc = fmin(lo_nc, a.v[k]);
                hi_ex = fmax(hi_ex, b.v[k]);
            }
        }
    if (all_nc)
        return report_finding(c, "**N_CONFIG decides, EXEC_TIME hardly matters** (%s, EXEC_TIME %g-%g ms, every cost "
                              "model, seeds 1-3): N_CONFIG explains at least %.2f of the variance of the tuned "
                              "kernel's %s and tuning time, EXEC_TIME at most %.2f (eta squared, stability.tsv).",
                              c->input_label, s->exec_ms_lo, s->exec_ms_hi, lo_nc, perf, hi_ex);
    if (find_stab(c->res.stability, "exec-time", report_model_names[0], m1[0], &p0) != 0)
        return -1;
    return report_finding(c, "**N_CONFIG does not decide everywhere** (%s, EXEC_TIME %g-%g ms, seeds 1-3): for the "
                          "tuned kernel's %s, %s; tuning time's verdict per cost model is in stability.tsv (eta "
                          "squared).", c->input_label, s->exec_ms_lo, s->exec_ms_hi, perf,
                          p0.stable ? p0.category : "no verdict");
}

/* EXEC_TIME down to the noise floor, paired on shared draws (report_verdicts.c, exec_floor_verdicts): the shortest
 * EXEC_TIME against the longest, each seed's speedup difference and seed 1's CI; every EXEC_TIME in
 * exec-floor-paired.tsv. */
static int finding_exec_floor(struct report_ctx *c)
{
    struct stab_row ra;
    if (find_stab(c->res.stability, "exec-time-floor", "sequential", "paired_speedup_diff_0.05ms", &ra) != 0)
        return -1;
    return report_finding(c, "**EXEC_TIME down to 0.05 ms: %s** (%s, against 100 ms on shared draws, sequential "
                          "compilation): speedup difference %+.4f, %+.4f, %+.4f on seeds 1-3 (seed 1's 95%% CI %+.4f "
                          "to %+.4f); every EXEC_TIME in exec-floor-paired.tsv.", ra.stable ? ra.category
                          : "no verdict, the seeds disagree", c->input_label, ra.v[0], ra.v[1], ra.v[2], ra.slo[0],
                          ra.shi[0]);
}

/* Along Table 6's frontier: does N_CONFIG rise with tuning time (Spearman, seed 1), and is EXEC_TIME's trend the
 * same on three seeds (stability.tsv)? */
static int finding_frontier(struct report_ctx *c)
{
    int m = c->res.t6 != NULL ? table_n_rows(c->res.t6) : 0, rc = -1;
    double *a, *work;
    struct stab_row x;
    if (m < 3)
        return 0;
    if (find_stab(c->res.stability, "exec-time-frontier", "sequential", "spearman_rho", &x) != 0)
        return -1;
    a = malloc(sizeof(double) * (size_t)m * 2);
    work = malloc(sizeof(double) * (size_t)m * 2);
    if (a == NULL || work == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int i = 0; i < m; i++) {
        a[i] = table_num(c->res.t6, i, T6_TIME_S);
        a[m + i] = table_num(c->res.t6, i, T6_N_CONFIG);
    }
    double rn = gsl_stats_spearman(a, 1, a + m, 1, (size_t)m, work);
    rc = report_finding(c, "Along the frontier of %s (%d points, Table 6) N_CONFIG rises with tuning time (Spearman "
                        "rho %.2f); EXEC_TIME %s (rho mean %.2f, 95%% CI %.2f to %.2f over seeds 1-3, "
                        "stability.tsv).", c->input_label, m, rn, x.stable ? x.category : "has no settled trend",
                        x.mean, x.lo, x.hi);
out:
    free(a);
    free(work);
    return rc;
}

/* The single input's best configuration and how long the paper's tuner takes to get near it, on three seeds
 * (stability.tsv, time-to-target): per seed the report's one selection (report_ttt_set, seed 1 = the rows of
 * time-to-target-input.tsv); a target reached on some seeds and not on others gets no verdict. */
static int finding_best_speed(struct report_ctx *c)
{
    const struct sim_data *d = c->res.d[REPORT_SIM_INPUT];
    double opt_ms = sim_data_optimal_ms(d, 0, c->res.s[REPORT_SIM_INPUT].truth);
    static const char *const meas[2] = {"time_s_0.90", "time_s_0.98"};
    static const int pct[2] = {90, 98};
    char part[2][160], best[64];
    for (int k = 0; k < 2; k++) {
        struct stab_row st;
        struct est_row e1;
        int reached = 0;
        if (find_stab(c->res.stability, "time-to-target", "sequential", meas[k], &st) != 0 ||
            find_est(c->res.ttt_input, "target_speedup", pct[k] / 100.0, report_scenarios[SC_BASELINE].name, &e1) != 0)
            return -1;
        for (int q = 0; q < 3; q++)
            reached += isfinite(st.v[q]);
        if (reached == 3)
            snprintf(part[k], sizeof part[k], "%d%% after %.2f s (mean of seeds 1-3, 95%% CI %.2f-%.2f)", pct[k],
                     st.mean, st.lo, st.hi);
        else if (reached == 0) {
            char t1[96];
            fmt_time(t1, sizeof t1, &e1);
            snprintf(part[k], sizeof part[k], "%d%% on no seed (the report's seed %llu: %s)", pct[k],
                     (unsigned long long)c->o->seed, t1);
        }
        else
            snprintf(part[k], sizeof part[k], "%d%% on %d of seeds 1-3 only, no verdict", pct[k], reached);
    }
    if (!isnan(sim_data_flops(d, 0)))
        snprintf(best, sizeof best, "%.1f TFLOP/s", sim_data_flops(d, 0) / opt_ms / 1e9);
    else
        snprintf(best, sizeof best, "%.4g ms", opt_ms);
    return report_finding(c, "For %s (best %s) the paper's tuner (sequential compilation) reaches %s and %s "
                          "(time-to-target-input.tsv, stability.tsv).", c->input_label, best,
                          part[0], part[1]);
}

/* One paired verdict row of stability.tsv as "4.41x (95% CI 4.30-4.52)" (seed 1's estimate and CI). */
static void fmt_paired(char *buf, size_t len, const struct stab_row *r)
{
    snprintf(buf, len, "%.2fx (95%% CI %.2f-%.2f)", r->v[0], r->slo[0], r->shi[0]);
}

/* Parallel compilation (all inputs): the paired time ratio sequential / list-scheduled parallel on shared draws
 * (stability.tsv, every model there), and why: compilation's share of tuning time (fig1-split.tsv). */
static int finding_parallel(struct report_ctx *c)
{
    struct stab_row r;
    struct report_split sp;
    char rs[96];
    if (find_stab(c->res.stability, "parallel-compile", "parallel", "paired_time_ratio", &r) != 0 ||
        report_split_shares(c->res.split, &sp) != 0)
        return -1;
    double all = sp.repetition_ms + sp.overhead_ms + sp.compile_ms, cs = 100 * sp.compile_ms / all;
    fmt_paired(rs, sizeof rs, &r);
    if (r.stable && strcmp(r.category, "saves time") == 0)
        return report_finding(c, "**Parallel compilation pays** (%d list-scheduled workers, all inputs, shared "
                              "draws, seeds 1-3): compilation is %.0f%% of tuning time, so the workers cut it %s on "
                              "seed 1; every model in stability.tsv.", c->o->compile_factor, cs, rs);
    return report_finding(c, "**Parallel compilation (%d workers): %s** (all inputs, shared draws, seeds 1-3): "
                          "sequential / parallel %s on seed 1, as compilation is only %.0f%% of tuning time; it pays "
                          "once compilation outweighs benchmarking (stability.tsv).", c->o->compile_factor,
                          r.stable ? r.category : "no verdict", rs, cs);
}

/* Early stopping (all inputs): whether it pays under any compile model (paired on shared draws, stability.tsv),
 * why (it cuts only repetition: its share against compilation's, fig1-split.tsv) and where it pays most
 * (early-stop-conditions.tsv: the largest ratio over EXEC_TIME x compile model). */
static int finding_early_stop(struct report_ctx *c)
{
    struct report_split sp;
    char pays[128] = "";
    const struct table *t = c->res.es_cond;
    int cm = table_col_need(t, "model"), cx = table_col_need(t, "exec_ms_lo"), cr = table_col_need(t, "time_ratio");
    int clo = table_col_need(t, "ratio_lo"), chi = table_col_need(t, "ratio_hi"), top = -1, n_pay = 0;
    if (cm < 0 || cx < 0 || cr < 0 || clo < 0 || chi < 0 || report_split_shares(c->res.split, &sp) != 0)
        return -1;
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        struct stab_row r;
        if (find_stab(c->res.stability, "early-stop", report_model_names[m], "paired_time_ratio", &r) != 0)
            return -1;
        if (r.stable && strcmp(r.category, "saves time") == 0) {
            size_t at = strlen(pays);
            snprintf(pays + at, sizeof pays - at, "%s%s", n_pay++ ? ", " : "", report_model_names[m]);
        }
    }
    for (int i = 0; i < table_n_rows(t); i++)
        if (isfinite(table_num(t, i, cr)) && (top < 0 || table_num(t, i, cr) > table_num(t, top, cr)))
            top = i;
    double all = sp.repetition_ms + sp.overhead_ms + sp.compile_ms;
    char head[160];
    if (n_pay == 0)
        snprintf(head, sizeof head, "Early stopping does not pay at these settings");
    else
        snprintf(head, sizeof head, "Early stopping pays only under %s", pays);
    if (top < 0)
        return report_finding(c, "**%s** (all inputs, paired, seeds 1-3): it cuts only repetition, %.0f%% of tuning "
                              "time, while compilation is %.0f%% (stability.tsv).", head,
                              100 * sp.repetition_ms / all, 100 * sp.compile_ms / all);
    return report_finding(c, "**%s** (all inputs, paired, seeds 1-3): it cuts only repetition, %.0f%% of tuning time, "
                          "while compilation is %.0f%%; its largest gain, %.3fx (95%% CI %.3f-%.3f), is at EXEC_TIME "
                          "%.0f ms and more under %s (early-stop-conditions.tsv).", head, 100 * sp.repetition_ms / all,
                          100 * sp.compile_ms / all, table_num(t, top, cr), table_num(t, top, clo),
                          table_num(t, top, chi), table_num(t, top, cx), table_cell(t, top, cm));
}

/* The single input under the other cost models: time to 0.95 of optimal on the three verdict seeds, each seed's
 * selection re-evaluated (stability.tsv, time-to-target, time_s_0.95): the mean and its CI where all three reach
 * it, else on how many of them (no verdict), so the sentence does not move with the report's seed. */
static int finding_models(struct report_ctx *c)
{
    static const char *const label[REPORT_N_AT95] = {"sequential", "per-exec overhead", "pipelined workers",
                                                     "parallel workers"};
    char ts[REPORT_N_AT95][128];
    for (int q = 0; q < REPORT_N_AT95; q++) {
        struct stab_row st;
        int reached = 0, at = 0;
        if (find_stab(c->res.stability, "time-to-target", report_at95_names[q], "time_s_0.95", &st) != 0)
            return -1;
        for (int k = 0; k < 3; k++)
            reached += isfinite(st.v[k]);
        if (q >= 2)
            at = snprintf(ts[q], sizeof ts[q], "%d ", c->o->compile_factor);
        if (reached == 3)
            snprintf(ts[q] + at, sizeof ts[q] - (size_t)at, "%s %.2f s (95%% CI %.2f-%.2f)", label[q], st.mean,
                     st.lo, st.hi);
        else
            snprintf(ts[q] + at, sizeof ts[q] - (size_t)at, "%s %s", label[q],
                     reached == 0 ? "not reached" : reached == 1 ? "on 1 seed only" : "on 2 seeds only");
    }
    return report_finding(c, "**Beyond the paper** (%s, 0.95 of optimal, mean of seeds 1-3, fresh runs): %s, %s, %s, "
                          "%s (stability.tsv).", c->input_label, ts[0], ts[1], ts[2], ts[3]);
}

/* costs.tsv: seed k's (1-3) re-evaluated time to 0.95 of a cost setting and model. */
static int cost_time(const struct table *t, int k, const char *setting, const char *model, struct est_row *out)
{
    static const char *names[6] = {"time_s", "time_s_lo", "time_s_hi", "speedup", "speedup_lo", "speedup_hi"};
    int cs = table_col_need(t, "seed_index"), cf = table_col_need(t, "failed_cost");
    int cc = table_col_need(t, "compile_model"), cm = table_col_need(t, "model"), cb = table_col_need(t, "chosen_by");
    int col[6];
    char fc[16], cmod[16];
    const char *plus = strchr(setting, '+');
    if (cs < 0 || cf < 0 || cc < 0 || cm < 0 || cb < 0 || plus == NULL)
        return -1;
    for (int q = 0; q < 6; q++)
        if ((col[q] = table_col_need(t, names[q])) < 0)
            return -1;
    snprintf(fc, sizeof fc, "%.*s", (int)(plus - setting), setting);
    snprintf(cmod, sizeof cmod, "%s", plus + 1);
    for (int i = 0; i < table_n_rows(t); i++)
        if ((int)table_num(t, i, cs) == k && strcmp(table_cell(t, i, cf), fc) == 0 &&
            strcmp(table_cell(t, i, cc), cmod) == 0 && strcmp(table_cell(t, i, cm), model) == 0) {
            double *o[6] = {&out->time_s, &out->time_lo, &out->time_hi, &out->speedup, &out->speedup_lo,
                            &out->speedup_hi};
            for (int q = 0; q < 6; q++)
                *o[q] = table_num(t, i, col[q]);
            out->bounded = strncmp(table_cell(t, i, cb), "sample for ", 11) == 0;
            return 0;
        }
    return tc_seterr("costs.tsv: no row for seed %d, %s, %s", k, setting, model);
}

/* A ratio of times on three seeds (costs.tsv) as "4.91x (95% CI 4.81-5.02)" with the CI over the seeds
 * (report_seeds_ci), "no ratio" where a seed does not reach the target, "n/a (seed K upper-bounded)" where seed K's
 * time is a higher target's bound (bounded_seed K > 0). */
static void fmt_ratio3(char *buf, size_t len, const double r[3], int bounded_seed)
{
    double mean, lo, hi;
    if (bounded_seed > 0) { /* a time that is a higher target's upper bound is no point to take a ratio of */
        snprintf(buf, len, "n/a (seed %d upper-bounded)", bounded_seed);
        return;
    }
    if (!(isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]))) {
        snprintf(buf, len, "no ratio (a seed short of 0.95)");
        return;
    }
    report_seeds_ci(r, &mean, &lo, &hi);
    snprintf(buf, len, "%.2fx (95%% CI %.2f-%.2f)", mean, lo, hi);
}

/* costs.tsv: the time-to-0.95 ratio of setting a over setting b for a model, on seeds 1-3; "n/a" naming the first
 * seed where either time is not its own sample's but a higher target's (chosen_by "sample for ..."): an upper
 * bound, whose ratio would mix a bound with a point. */
static int cost_ratio(const struct table *t, const char *a, const char *b, const char *model, char *buf, size_t len)
{
    double r[3];
    int bounded = 0;
    for (int k = 1; k <= 3; k++) {
        struct est_row x, y;
        if (cost_time(t, k, a, model, &x) != 0 || cost_time(t, k, b, model, &y) != 0)
            return -1;
        r[k - 1] = x.time_s / y.time_s;
        if (bounded == 0 && (x.bounded || y.bounded))
            bounded = k;
    }
    fmt_ratio3(buf, len, r, bounded);
    return 0;
}

/* What the cost model can charge on this trace. Where a cost is not recorded, which and how it is estimated; where
 * every cost is (costs.tsv), what charging failed configurations and contended compile times change. */
static int finding_costs(struct report_ctx *c)
{
    const struct sim_data *d = c->res.d[REPORT_SIM_ALL];
    long pairs = 0, failed = 0;
    char seq[96], pip[96], ide[96], con[96];
    for (int i = 0; i < sim_data_n_inputs(d); i++) {
        pairs += sim_data_n_valid(d, i) + sim_data_n_failed(d, i);
        failed += sim_data_n_failed(d, i);
    }
    if (c->res.costs == NULL)
        return report_finding(c, "**Compile costs this trace does not record**: %ld of %ld pairs lack an isolated "
                              "compile time (charged their %d-worker one), %ld of %ld failed ones any (charged their "
                              "input's median); collect with --compile-invalid --compile-isolated-all.",
                              c->res.no_isolated, pairs, trace_get_meta(c->t)->compile_jobs, c->res.failed_no_compile,
                              failed);
    if (cost_ratio(c->res.costs, report_cost_names[0], report_cost_names[1], "sequential", seq, sizeof seq) != 0 ||
        cost_ratio(c->res.costs, report_cost_names[0], report_cost_names[1], "pipelined", pip, sizeof pip) != 0 ||
        cost_ratio(c->res.costs, report_cost_names[0], report_cost_names[1], "ideal", ide, sizeof ide) != 0 ||
        cost_ratio(c->res.costs, report_cost_names[2], report_cost_names[0], "sequential", con, sizeof con) != 0)
        return -1;
    return report_finding(c, "**Charging every compile cost lengthens tuning** (all inputs, time to 0.95, seeds 1-3): "
                          "charged failures multiply it by %s sequential, %s pipelined, %s ideal; contended compile "
                          "times by %s (costs.tsv).", seq, pip, ide, con);
}

/* Where tuning time goes (Figure 1): repetition, overhead, compilation over all inputs. */
static int finding_split(struct report_ctx *c)
{
    struct report_split sp;
    double all;
    if (report_split_shares(c->res.split, &sp) != 0)
        return -1;
    all = sp.repetition_ms + sp.overhead_ms + sp.compile_ms;
    return report_finding(c, "**Where tuning time goes** (all inputs, Figure 1): compilation %.0f%%, repetition %.0f%%, "
                          "overhead %.0f%%; overhead exceeds half of an input's tuning time on %d of %d inputs (paper, "
                          "A40: most) (fig1-split.tsv).", 100 * sp.compile_ms / all, 100 * sp.repetition_ms / all,
                          100 * sp.overhead_ms / all, sp.over_half, sp.n_inputs);
}

/* The best configuration per input against cuBLAS (tables_best): over the inputs that have a ratio. */
struct report_vs_cublas {
    int n, at_least_1;
    double median, lo, hi;
};

static int report_vs_cublas(const struct table *b, struct report_vs_cublas *out)
{
    int cv = table_col_need(b, "vs_cublas");
    double *v;
    memset(out, 0, sizeof *out);
    out->median = out->lo = out->hi = NAN;
    if (cv < 0)
        return -1;
    if ((v = malloc(((size_t)table_n_rows(b) + 1) * sizeof *v)) == NULL)
        return tc_seterr_env("out of memory");
    for (int i = 0; i < table_n_rows(b); i++)
        if (isfinite(table_num(b, i, cv))) {
            v[out->n++] = table_num(b, i, cv);
            out->at_least_1 += v[out->n - 1] >= 1;
        }
    qsort(v, (size_t)out->n, sizeof *v, tc_cmp_double);
    if (out->n > 0) {
        out->median = tc_median_sorted(v, (size_t)out->n);
        out->lo = v[0];
        out->hi = v[out->n - 1];
    }
    free(v);
    return 0;
}

/* The best tuned configuration against cuBLAS over the inputs. */
static int finding_cublas(struct report_ctx *c)
{
    struct report_vs_cublas v;
    if (report_vs_cublas(c->res.best, &v) != 0)
        return -1;
    if (v.n == 0)
        return report_finding(c, "The trace has no cuBLAS reference times, so the comparison with cuBLAS is missing.");
    return report_finding(c, "The best tuned configuration reaches a median %.0f%% of cuBLAS's TFLOP/s (range "
                          "%.0f%%-%.0f%% over %d inputs) and matches or beats it on %d.", 100 * v.median, 100 * v.lo,
                          100 * v.hi, v.n, v.at_least_1);
}

/* How many configurations fail, and the most common reason. */
static int finding_failures(struct report_ctx *c)
{
    const struct table *f = c->res.failures;
    int nc = trace_n_configs(c->t), bad = 0, top = -1;
    int cs = table_col_need(f, "scope"), cst = table_col_need(f, "status"), cr = table_col_need(f, "reason");
    int cn = table_col_need(f, "count");
    if (cs < 0 || cst < 0 || cr < 0 || cn < 0)
        return -1;
    for (int i = 0; i < table_n_rows(f); i++) {
        if (strcmp(table_cell(f, i, cs), "configs") != 0 || strcmp(table_cell(f, i, cst), "ok") == 0)
            continue;
        bad += (int)table_num(f, i, cn);
        if (top < 0 || table_num(f, i, cn) > table_num(f, top, cn))
            top = i;
    }
    if (bad > 0 && strcmp(table_cell(f, top, cr), "(no compile log)") == 0)
        return report_finding(c, "%d of %d configurations fail; the most common status: %s (%d).", bad, nc,
                              table_cell(f, top, cst), (int)table_num(f, top, cn));
    if (bad > 0)
        return report_finding(c, "%d of %d configurations fail; the most common reason (%d): %s: %s.", bad, nc,
                              (int)table_num(f, top, cn), table_cell(f, top, cst), table_cell(f, top, cr));
    return report_finding(c, "All %d configurations compiled and ran.", nc);
}

/* Triton's execution-time estimate (Figure 2), from the triton-protocol trace. */
static int finding_estimate(struct report_ctx *c)
{
    const struct table *e = c->res.estimate;
    int cr, ct, ce, cw, cf, ck, m, shortn = 0, cold = 0;
    double *r;
    if (e == NULL)
        return report_finding(c, "No triton-protocol trace was given (--triton-trace), so the estimation study "
                              "(Figure 2) is not in this report.");
    cr = table_col_need(e, "estimate_ratio");
    ct = table_col_need(e, "timed_vs_requested");
    ce = table_col_need(e, "est_exec_mean_ms");
    cw = table_col_need(e, "warm_median_ms");
    cf = table_col_need(e, "flush_per_exec_ms");
    ck = table_col_need(e, "estimate_ms");
    if (cr < 0 || ct < 0 || ce < 0 || cw < 0 || cf < 0 || ck < 0)
        return -1;
    m = table_n_rows(e);
    if ((r = malloc(((size_t)m + 1) * sizeof *r)) == NULL)
        return tc_seterr_env("out of memory");
    for (int i = 0; i < m; i++) {
        double est = table_num(e, i, ck);
        r[i] = table_num(e, i, cr);
        shortn += table_num(e, i, ct) < 0.9;
        cold += fabs(est - table_num(e, i, ce)) < fabs(est - (table_num(e, i, cw) + table_num(e, i, cf)));
    }
    qsort(r, (size_t)m, sizeof *r, tc_cmp_double);
    int rc = report_finding(c, "Triton's per-execution estimate (Figure 2, %s) is a median %.2fx the warmed time; %d "
                            "of %d runs time under 90%% of the requested repetition; it is closer to the cold "
                            "executions' mean in %d runs (fig2-estimate.tsv).", tables_base_name(trace_path(c->tt)),
                            m ? r[m / 2] : NAN, shortn, m, cold);
    free(r);
    return rc;
}

int report_findings(struct report_ctx *c)
{
    int (*const steps[])(struct report_ctx *) = {finding_knobs,  finding_exec_floor, finding_frontier,
                                                 finding_best_speed,
                                                 finding_parallel, finding_early_stop, finding_costs,
                                                 finding_models,
                                                 finding_split,  finding_cublas,   finding_failures,
                                                 finding_estimate};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i](c) != 0)
            return -1;
    return 0;
}
