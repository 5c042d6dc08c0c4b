/* report_findings.c — the report's findings on the trace and its simulations, one function each, every number
 * computed from the data. A finding that reads a table's column looks it up with table_col_need(), so a renamed
 * column stops the report with a message instead of printing NaN. */
#include "report_ctx.h"
#include "tc_stats.h"
#include "trace.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* A re-evaluated number as the report's TSV tables hold it (time-to-target-*.tsv, budget.tsv, verdicts.tsv). */
struct est_row {
    double time_s, time_lo, time_hi, speedup, speedup_lo, speedup_hi;
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
 * (best attained 0.9481 of optimal, 95% CI 0.9462-0.9500, after 32.74 s)"; no sample: "never in these samples". */
static void fmt_time(char *buf, size_t len, const struct est_row *e)
{
    if (isfinite(e->time_s))
        snprintf(buf, len, "%.2f s (95%% CI %.2f-%.2f)", e->time_s, e->time_lo, e->time_hi);
    else if (isfinite(e->speedup) && isfinite(e->fresh_s))
        snprintf(buf, len, "not reached (best attained %.4f of optimal, 95%% CI %.4f-%.4f, after %.2f s)", e->speedup,
                 e->speedup_lo, e->speedup_hi, e->fresh_s);
    else
        snprintf(buf, len, "never in these samples");
}

/* One row of stability.tsv: the measure on each seed, each seed's category and whether they agree. */
struct stab_row {
    double v[3];
    char cat[3][48];
    double mean, lo, hi;   /* over the three seeds: mean and 95% CI */
    char category[48];     /* the verdict, or "no verdict" */
    int stable;
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

/* How many of three values are not finite (a time to target not reached on that seed), and the three as text
 * ("n/a, 4.41, 4.32"). */
static int fmt_three(char *buf, size_t len, const double v[3])
{
    char t[3][32];
    int missing = 0;
    for (int k = 0; k < 3; k++) {
        missing += !isfinite(v[k]);
        if (isfinite(v[k]))
            snprintf(t[k], sizeof t[k], "%.2f", v[k]);
        else
            snprintf(t[k], sizeof t[k], "n/a");
    }
    snprintf(buf, len, "%s, %s, %s", t[0], t[1], t[2]);
    return missing;
}

/* A ratio of times on three seeds of which some are not reached: "no verdict (n/a, 4.41, 4.32 on three seeds: ...)"
 * into buf, returning 1; 0 (buf untouched) when all three are finite. */
static int fmt_no_ratio(char *buf, size_t len, const double v[3])
{
    char three[112];
    int missing = fmt_three(three, sizeof three, v);
    if (missing > 0)
        snprintf(buf, len, "no verdict (%s on three seeds: the time to target is not reached on %d of the seeds, so "
                 "there is no ratio there)", three, missing);
    return missing > 0;
}

/* "none (1.04, 1.03, 1.02 on three seeds; mean 1.03, 95% CI 1.01 to 1.06)" or, where the CI over the seeds reaches
 * past a threshold, "no verdict (1.10, 1.11, 1.06 on three seeds; mean 1.09, 95% CI 1.02 to 1.16 reaches past the
 * 10% threshold)"; where a seed has no ratio, fmt_no_ratio's sentence. */
static void fmt_stab(char *buf, size_t len, const struct stab_row *r)
{
    if (fmt_no_ratio(buf, len, r->v))
        return;
    if (r->stable)
        snprintf(buf, len, "%s (%.2f, %.2f, %.2f on three seeds; mean %.2f, 95%% CI %.2f to %.2f)", r->category,
                 r->v[0], r->v[1], r->v[2], r->mean, r->lo, r->hi);
    else
        snprintf(buf, len, "no verdict (%.2f, %.2f, %.2f on three seeds; mean %.2f, 95%% CI %.2f to %.2f reaches past "
                 "the 10%% threshold)", r->v[0], r->v[1], r->v[2], r->mean, r->lo, r->hi);
}


/* "sequential: N_CONFIG decides on all three seeds (N_CONFIG 0.91, 0.90, 0.89; EXEC_TIME 0.01, 0.01, 0.03)". */
static int knob_part(const struct table *st, const char *model, const char *label, const char *m1, const char *m2,
                     char *buf, size_t len, int *n_config_decides)
{
    struct stab_row a, b;
    if (find_stab(st, "exec-time", model, m1, &a) != 0 || find_stab(st, "exec-time", model, m2, &b) != 0)
        return -1;
    *n_config_decides &= a.stable && strcmp(a.cat[0], "N_CONFIG decides") == 0;
    if (a.stable)
        snprintf(buf, len, "%s%s on all three seeds (eta squared N_CONFIG %.2f, %.2f, %.2f; EXEC_TIME %.2f, "
                 "%.2f, %.2f)", label, a.cat[0], a.v[0], a.v[1], a.v[2], b.v[0], b.v[1], b.v[2]);
    else
        snprintf(buf, len, "%snot settled (%s / %s / %s on three seeds), no verdict", label, a.cat[0], a.cat[1],
                 a.cat[2]);
    return 0;
}

/* The lowest N_CONFIG and highest EXEC_TIME eta squared over three seeds of one (model, measures) pair, folded into
 * *lo_nc and *hi_ex. */
static int knob_range(const struct table *st, const char *model, const char *m1, const char *m2, double *lo_nc,
                      double *hi_ex)
{
    struct stab_row a, b;
    if (find_stab(st, "exec-time", model, m1, &a) != 0 || find_stab(st, "exec-time", model, m2, &b) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        *lo_nc = a.v[k] < *lo_nc ? a.v[k] : *lo_nc;
        *hi_ex = b.v[k] > *hi_ex ? b.v[k] : *hi_ex;
    }
    return 0;
}

/* N_CONFIG vs EXEC_TIME: which of the two explains the tuned kernel's performance (the same under every cost
 * model: they change time, not the choice) and, per cost model, the tuning time (single input, three seeds,
 * stability.tsv). Where N_CONFIG decides everywhere, one sentence with the range over models and seeds (the
 * details are the exec-time rows of stability.tsv); else every model's verdict. */
static int finding_knobs(struct report_ctx *c)
{
    const struct sim_settings *s = &c->s[REPORT_SIM_INPUT];
    char perf[256], tm[1024] = "";
    int perf_nc = 1, time_nc = 1;
    if (knob_part(c->stability, report_model_names[0], "", "eta2_n_config", "eta2_exec_time", perf, sizeof perf,
                  &perf_nc) != 0)
        return -1;
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        char label[48];
        size_t at = strlen(tm);
        snprintf(label, sizeof label, "%s%s: ", m ? "; " : "", report_model_names[m]);
        if (knob_part(c->stability, report_model_names[m], label, "eta2_time_n_config", "eta2_time_exec_time", tm + at,
                      sizeof tm - at, &time_nc) != 0)
            return -1;
    }
    if (perf_nc && time_nc) {
        double lo_nc = INFINITY, hi_ex = -INFINITY;
        if (knob_range(c->stability, report_model_names[0], "eta2_n_config", "eta2_exec_time", &lo_nc, &hi_ex) != 0)
            return -1;
        for (int m = 0; m < REPORT_N_MODELS; m++)
            if (knob_range(c->stability, report_model_names[m], "eta2_time_n_config", "eta2_time_exec_time", &lo_nc,
                           &hi_ex) != 0)
                return -1;
        return report_finding(c, "**N_CONFIG decides and EXEC_TIME hardly matters under every cost model** (%s, "
                              "EXEC_TIME %g-%g ms, three seeds): N_CONFIG explains at least %.2f of the variance of "
                              "the tuned kernel's %s and of tuning time, EXEC_TIME at most %.2f (eta squared; per "
                              "model and seed in stability.tsv).", c->input_label, s->exec_ms_lo, s->exec_ms_hi, lo_nc,
                              isnan(sim_data_flops(c->d[REPORT_SIM_INPUT], 0)) ? "speedup" : "TFLOP/s", hi_ex);
    }
    return report_finding(c, "**%s** (%s, %d samples, EXEC_TIME sampled in %g-%g ms only): the tuned kernel's %s, "
                          "the same under every cost model, %s; tuning time, %s. (eta squared: share of the "
                          "variance between 10 equal-width bins of each knob; a knob decides when it explains at least "
                          "twice the other and twice chance.)",
                          perf_nc && time_nc ? "N_CONFIG decides and EXEC_TIME hardly matters under every cost model"
                                             : "What N_CONFIG and EXEC_TIME decide depends on the cost model",
                          c->input_label, s->samples, s->exec_ms_lo, s->exec_ms_hi,
                          isnan(sim_data_flops(c->d[REPORT_SIM_INPUT], 0)) ? "speedup" : "TFLOP/s", perf, tm);
}

/* EXEC_TIME down to the noise floor (report_verdicts.c, exec_floor_verdicts): what decides the tuned kernel's
 * performance when EXEC_TIME reaches 0.05 ms, and what short repetitions cost in speedup, on three seeds. */
static int finding_exec_floor(struct report_ctx *c)
{
    struct stab_row en, ex, ra;
    char knob[512], ratio[512];
    if (find_stab(c->stability, "exec-time-floor", "sequential", "eta2_n_config", &en) != 0 ||
        find_stab(c->stability, "exec-time-floor", "sequential", "eta2_log_exec_time", &ex) != 0 ||
        find_stab(c->stability, "exec-time-floor", "sequential", "speedup_ratio_short_long", &ra) != 0)
        return -1;
    if (en.stable)
        snprintf(knob, sizeof knob, "%s on all three seeds (eta squared N_CONFIG %.2f, %.2f, %.2f; log EXEC_TIME %.2f, "
                 "%.2f, %.2f)", en.category, en.v[0], en.v[1], en.v[2], ex.v[0], ex.v[1], ex.v[2]);
    else
        snprintf(knob, sizeof knob, "not settled (%s / %s / %s on three seeds), no verdict", en.cat[0], en.cat[1],
                 en.cat[2]);
    if (ra.stable)
        snprintf(ratio, sizeof ratio, "%s (%.3f, %.3f, %.3f on three seeds; mean %.3f, 95%% CI %.3f to %.3f)",
                 ra.category, ra.v[0], ra.v[1], ra.v[2], ra.mean, ra.lo, ra.hi);
    else
        snprintf(ratio, sizeof ratio, "no verdict (%.3f, %.3f, %.3f on three seeds; mean %.3f, 95%% CI %.3f to %.3f "
                 "reaches past the 2%% threshold)", ra.v[0], ra.v[1], ra.v[2], ra.mean, ra.lo, ra.hi);
    return report_finding(c, "**EXEC_TIME down to the noise floor** (%s, EXEC_TIME log-uniform over 0.05-100 ms, "
                          "sequential compilation, %d samples, sim/input-exec-log.tsv): for the tuned kernel's %s, %s; "
                          "mean speedup of the samples with EXEC_TIME under 1 ms over those with 10 ms or more: %s.",
                          c->input_label, c->s[REPORT_SIM_INPUT].samples,
                          isnan(sim_data_flops(c->d[REPORT_SIM_INPUT], 0)) ? "speedup" : "TFLOP/s", knob, ratio);
}

/* Along Table 6's frontier: does N_CONFIG rise with tuning time (Spearman, seed 1), and is EXEC_TIME's trend the
 * same on three seeds (stability.tsv)? */
static int finding_frontier(struct report_ctx *c)
{
    int m = c->t6 != NULL ? table_n_rows(c->t6) : 0, rc = -1;
    double *a, *work;
    struct stab_row x;
    if (m < 3)
        return 0;
    if (find_stab(c->stability, "exec-time-frontier", "sequential", "spearman_rho", &x) != 0)
        return -1;
    a = malloc(sizeof(double) * (size_t)m * 2);
    work = malloc(sizeof(double) * (size_t)m * 2);
    if (a == NULL || work == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    for (int i = 0; i < m; i++) {
        a[i] = table_num(c->t6, i, T6_TIME_S);
        a[m + i] = table_num(c->t6, i, T6_N_CONFIG);
    }
    double rn = gsl_stats_spearman(a, 1, a + m, 1, (size_t)m, work);
    if (x.stable)
        rc = report_finding(c, "Along the frontier of %s (%d points, Table 6) N_CONFIG rises with tuning time "
                            "(Spearman rho %.2f) while EXEC_TIME %s (rho %.2f, %.2f, %.2f on three seeds; mean %.2f, "
                            "95%% CI %.2f to %.2f).", c->input_label, m, rn, x.category, x.v[0], x.v[1], x.v[2],
                            x.mean, x.lo, x.hi);
    else
        rc = report_finding(c, "Along the frontier of %s (%d points, Table 6) N_CONFIG rises with tuning time "
                            "(Spearman rho %.2f); EXEC_TIME's trend along it is not settled (rho %.2f, %.2f, %.2f on "
                            "three seeds; mean %.2f, 95%% CI %.2f to %.2f reaches past |rho| = 0.3): no statement on "
                            "it.", c->input_label, m, rn, x.v[0], x.v[1], x.v[2], x.mean, x.lo, x.hi);
out:
    free(a);
    free(work);
    return rc;
}

/* The single input's best configuration and how long the paper's tuner takes to get near it, on three seeds
 * (stability.tsv, time-to-target): per seed the cheapest sample whose fresh runs confirm the target
 * (report_ttt_confirmed); a target reached on some seeds and not on others gets no verdict. */
static int finding_best_speed(struct report_ctx *c)
{
    const struct sim_data *d = c->d[REPORT_SIM_INPUT];
    double opt_ms = sim_data_optimal_ms(d, 0, c->s[REPORT_SIM_INPUT].truth);
    double best_tf = sim_data_flops(d, 0) / opt_ms / 1e9;
    static const char *const meas[2] = {"time_s_0.90", "time_s_0.98"};
    static const int pct[2] = {90, 98};
    char part[2][512], best[128];
    for (int k = 0; k < 2; k++) {
        struct stab_row st;
        int reached = 0;
        if (find_stab(c->stability, "time-to-target", "sequential", meas[k], &st) != 0)
            return -1;
        for (int q = 0; q < 3; q++)
            reached += strcmp(st.cat[q], "reached") == 0;
        struct est_row e1; /* seed 1's chosen sample (time-to-target-input.tsv): the best attained when short */
        char t1[160], tv[3][24];
        if (find_est(c->ttt_input, "target_speedup", pct[k] / 100.0, report_scenarios[SC_BASELINE].name, &e1) != 0)
            return -1;
        fmt_time(t1, sizeof t1, &e1);
        for (int q = 0; q < 3; q++)
            isfinite(st.v[q]) ? snprintf(tv[q], sizeof tv[q], "%.2f s", st.v[q])
                              : snprintf(tv[q], sizeof tv[q], "not reached");
        if (reached == 3)
            snprintf(part[k], sizeof part[k], "%d%% of it after %.2f, %.2f, %.2f s on three seeds (mean %.2f s, 95%% "
                     "CI %.2f-%.2f)", pct[k], st.v[0], st.v[1], st.v[2], st.mean, st.lo, st.hi);
        else if (reached == 0)
            snprintf(part[k], sizeof part[k], "%d%% of it on none of three seeds (seed 1: %s)", pct[k], t1);
        else
            snprintf(part[k], sizeof part[k], "%d%% of it on %d of three seeds only (%s, %s, %s), no verdict",
                     pct[k], reached, tv[0], tv[1], tv[2]);
    }
    if (!isnan(sim_data_flops(d, 0)))
        snprintf(best, sizeof best, "runs at %.1f TFLOP/s", best_tf);
    else
        snprintf(best, sizeof best, "takes %.4g ms (flops unknown)", opt_ms);
    return report_finding(c, "For %s the best configuration %s; the paper's tuner (sequential compilation) reaches %s, "
                          "and %s (per seed the cheapest sample whose 95%% CI lower bound of speedup reaches the "
                          "target, counted only when the mean of %d fresh runs, not those that chose it, reaches the "
                          "target too; where the sample for 90%% falls short, the one confirmed for 98%% gives the "
                          "time, as it reaches 90%% too).", c->input_label,
                          best, part[0], part[1], report_reeval_runs(c->s[REPORT_SIM_INPUT].runs));
}

/* verdicts.tsv: seed k's (1-3) re-evaluated time to target of a model (early stopping on or off). */
static int verdict_time_k(const struct table *v, int k, const char *model, int early, double target,
                          struct est_row *out)
{
    int cs = table_col_need(v, "seed_index"), cm = table_col_need(v, "model"), ce = table_col_need(v, "early_stop");
    int ct = table_col_need(v, "target_speedup"), c0 = table_col_need(v, "time_s");
    int c1 = table_col_need(v, "time_s_lo"), c2 = table_col_need(v, "time_s_hi");
    if (cs < 0 || cm < 0 || ce < 0 || ct < 0 || c0 < 0 || c1 < 0 || c2 < 0)
        return -1;
    for (int i = 0; i < table_n_rows(v); i++)
        if (table_num(v, i, cs) == k && strcmp(table_cell(v, i, cm), model) == 0 && table_num(v, i, ce) == early &&
            fabs(table_num(v, i, ct) - target) < 1e-9) {
            out->time_s = table_num(v, i, c0);
            out->time_lo = table_num(v, i, c1);
            out->time_hi = table_num(v, i, c2);
            return 0;
        }
    return tc_seterr("verdicts.tsv: no row for seed %d, %s, early stop %d, target %.2f", k, model, early, target);
}

/* "29.41, 29.57, 28.89 s on three seeds (mean 29.29 s, 95% CI 28.43-30.15)": a model's time to target on the three
 * seeds of verdicts.tsv (early stopping off) with the CI over the seeds, which covers the choice of sample as well
 * as the fresh runs; "never" for a seed without a sample. */
static int fmt_time3(char *buf, size_t len, const struct table *v, const char *model, double target)
{
    struct est_row e;
    double t[3], mean, lo, hi;
    for (int k = 0; k < 3; k++) {
        if (verdict_time_k(v, k + 1, model, 0, target, &e) != 0)
            return -1;
        t[k] = e.time_s;
    }
    if (isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2])) {
        report_seeds_ci(t, &mean, &lo, &hi);
        snprintf(buf, len, "%.2f, %.2f, %.2f s on three seeds (mean %.2f s, 95%% CI %.2f-%.2f)", t[0], t[1], t[2],
                 mean, lo, hi);
    } else {
        char p[3][16];
        for (int k = 0; k < 3; k++)
            snprintf(p[k], sizeof p[k], isfinite(t[k]) ? "%.2f s" : "never", t[k]);
        snprintf(buf, len, "%s, %s, %s on three seeds", p[0], p[1], p[2]);
    }
    return 0;
}

/* A model's mean time to target over the three seeds of verdicts.tsv (early stopping off) and its 95% CI over the
 * seeds; 1 when every seed reaches the target, 0 when one does not, -1 on a missing row. */
static int time3_mean(const struct table *v, const char *model, double target, double *mean, double *lo, double *hi)
{
    struct est_row e;
    double t[3];
    for (int k = 0; k < 3; k++) {
        if (verdict_time_k(v, k + 1, model, 0, target, &e) != 0)
            return -1;
        t[k] = e.time_s;
    }
    if (!(isfinite(t[0]) && isfinite(t[1]) && isfinite(t[2])))
        return 0;
    report_seeds_ci(t, mean, lo, hi);
    return 1;
}

/* Where parallel compilation saves time under every model: one sentence, each model's mean time over the seeds and
 * the speed-up with its CI (per seed in verdicts.tsv and stability.tsv). 1 when written, 0 when the verdicts differ
 * (the caller writes every model's). */
static int parallel_short(struct report_ctx *c, int ni)
{
    char txt[1024] = "";
    double m0, lo0, hi0, m, lo, hi;
    int rc = time3_mean(c->verdicts, report_model_names[0], 0.95, &m0, &lo0, &hi0);
    if (rc <= 0)
        return rc;
    for (int k = 1; k < REPORT_N_MODELS; k++) {
        struct stab_row r;
        size_t at = strlen(txt);
        if (find_stab(c->stability, "parallel-compile", report_model_names[k], "time_ratio_0.95", &r) != 0 ||
            (rc = time3_mean(c->verdicts, report_model_names[k], 0.95, &m, &lo, &hi)) < 0)
            return -1;
        if (rc == 0 || !r.stable || strcmp(r.category, "saves time") != 0)
            return 0;
        snprintf(txt + at, sizeof txt - at, "%s%s %.2f s, %.2fx (95%% CI %.2f-%.2f)", k > 1 ? "; " : "",
                 report_model_names[k], m, r.mean, r.lo, r.hi);
    }
    report_finding(c, "**Parallel compilation (%d workers) saves time under every compile model** (%s %d input%s, "
                   "time to 0.95 of optimal on fresh runs, mean of three seeds): sequential %.2f s (95%% CI "
                   "%.2f-%.2f); %s; per seed in verdicts.tsv and stability.tsv.", c->o->compile_factor,
                   ni > 1 ? "all" : "its", ni, ni > 1 ? "s" : "", m0, lo0, hi0, txt);
    return 1;
}

/* Parallel compilation per model (all inputs): time to 0.95 of optimal, re-evaluated, and whether it saves time
 * on three seeds. */
static int finding_parallel(struct report_ctx *c)
{
    int sh = parallel_short(c, c->r[REPORT_SIM_ALL]->n_inputs_used);
    if (sh != 0)
        return sh < 0 ? -1 : 0;
    char txt[3072] = "", ts[160], rs[256];
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        struct stab_row r;
        size_t at = strlen(txt);
        if (fmt_time3(ts, sizeof ts, c->verdicts, report_model_names[m], 0.95) != 0)
            return -1;
        if (m == 0) {
            snprintf(txt, sizeof txt, "%s %s", report_model_labels[m], ts);
            continue;
        }
        if (find_stab(c->stability, "parallel-compile", report_model_names[m], "time_ratio_0.95", &r) != 0)
            return -1;
        fmt_stab(rs, sizeof rs, &r);
        snprintf(txt + at, sizeof txt - at, "; %s %s, sequential / %s %s", report_model_labels[m], ts,
                 report_model_names[m], rs);
    }
    int ni = c->r[REPORT_SIM_ALL]->n_inputs_used;
    return report_finding(c, "**Parallel compilation (%d workers), per cost model** (%s %d input%s, time to 0.95 of "
                          "optimal, re-evaluated on fresh runs): %s.", c->o->compile_factor, ni > 1 ? "all" : "its",
                          ni, ni > 1 ? "s" : "", txt);
}

/* Early stopping per model (all inputs): time to 0.95 of optimal without / with it, on three seeds. */
static int finding_early_stop(struct report_ctx *c)
{
    const struct sim_result *ra = c->r[REPORT_SIM_ALL];
    const struct sim_settings *s = &c->s[REPORT_SIM_ALL];
    int na = ra->n_points / N_SC_ALL;
    double stopped = 0;
    char part[4096] = "", cond[1024];
    for (int i = 0; i < na; i++)
        stopped += ra->points[(size_t)i * N_SC_ALL + SC_EARLY].stopped / na;
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        size_t at = strlen(part);
        struct stab_row r;
        if (find_stab(c->stability, "early-stop", report_model_names[m], "time_ratio_0.95", &r) != 0)
            return -1;
        char three[112];
        int missing = fmt_three(three, sizeof three, r.v);
        if (missing > 0)
            snprintf(part + at, sizeof part - at, "%s%s no verdict (%s on three seeds: the time to 0.95 without or "
                     "with it is not reached on %d of the seeds)", m ? "; " : "", report_model_names[m], three,
                     missing);
        else
            snprintf(part + at, sizeof part - at, "%s%s %.2f (95%% CI %.2f-%.2f, %s)", m ? "; " : "",
                     report_model_names[m], r.mean, r.lo, r.hi, r.category);
    }
    /* why: early stopping cuts only repetition; what share of the time that is (Figure 1 data) */
    struct report_split sp;
    if (report_split_shares(c->split, &sp) != 0)
        return -1;
    double all = sp.repetition_ms + sp.overhead_ms + sp.compile_ms;
    report_early_stop_conditions(c, cond, sizeof cond);
    return report_finding(c, "**Early stopping, per cost model** (EARLY_STOP_NUM %d:%d, threshold %.2f:%.2f; all "
                          "inputs, time to 0.95 of optimal on fresh runs, mean of seeds 1-3 on the same draws; a "
                          "change under 10%% counts as none), time without / with: %s; per seed in verdicts.tsv and "
                          "stability.tsv%s (early-stop-conditions.tsv). It stops %.2f configurations per tuning run on "
                          "average. Why: it cuts only repetition, %.0f%% of tuning time here, while compilation is "
                          "%.0f%% (fig1-split.tsv).",
                          s->es_num_lo, s->es_num_hi, s->es_thr_lo, s->es_thr_hi, part, cond, stopped,
                          100 * sp.repetition_ms / all, 100 * sp.compile_ms / all);
}

/* The single input under the other cost models: time to 0.95 of optimal, re-evaluated. */
static int finding_models(struct report_ctx *c)
{
    static const int sc[4] = {SC_BASELINE, SC_PEREXEC, SC_PIPELINED, SC_PARALLEL};
    struct est_row e[4];
    char ts[4][320];
    for (int k = 0; k < 4; k++) {
        if (find_est(c->ttt_input, "target_speedup", 0.95, report_scenarios[sc[k]].name, &e[k]) != 0)
            return -1;
        fmt_time(ts[k], sizeof ts[k], &e[k]);
    }
    /* The same sample draws the same configurations under either model, and pipelining never takes longer than
     * compiling everything first: the sample confirmed for parallel compilation bounds pipelined's time. */
    if (!isfinite(e[2].time_s) && isfinite(e[3].time_s)) {
        size_t at = strlen(ts[2]);
        snprintf(ts[2] + at, sizeof ts[2] - at, ", though the sample confirmed for parallel compilation reaches it "
                 "under pipelined compilation too, by %.2f s at the latest (on the same draws pipelining never takes "
                 "longer)", e[3].time_s);
    }
    return report_finding(c, "Beyond the paper (%s, 0.95 of optimal, the report's seed re-evaluated on fresh runs; "
                          "each CI covers those runs, not which sample the seed picks): sequential "
                          "compilation needs %s; charging the overhead per execution actually run (per-exec) %s; "
                          "pipelined compilation with %d workers %s; parallel compilation (list-scheduled on %d "
                          "workers before benchmarking) %s.", c->input_label, ts[0], ts[1], c->o->compile_factor,
                          ts[2], c->o->compile_factor, ts[3]);
}

/* costs.tsv: seed k's (1-3) re-evaluated time to 0.95 of a cost setting and model. */
static int cost_time(const struct table *t, int k, const char *setting, const char *model, struct est_row *out)
{
    static const char *names[6] = {"time_s", "time_s_lo", "time_s_hi", "speedup", "speedup_lo", "speedup_hi"};
    int cs = table_col_need(t, "seed_index"), cf = table_col_need(t, "failed_cost");
    int cc = table_col_need(t, "compile_model"), cm = table_col_need(t, "model"), col[6];
    char fc[16], cmod[16];
    const char *plus = strchr(setting, '+');
    if (cs < 0 || cf < 0 || cc < 0 || cm < 0 || plus == NULL)
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
            return 0;
        }
    return tc_seterr("costs.tsv: no row for seed %d, %s, %s", k, setting, model);
}

/* "takes longer (3.52, 3.61, 3.40 on three seeds; mean 3.51, 95% CI 3.22 to 3.80)": a ratio of times on three
 * seeds, its verdict by the 95% CI over the seeds (report_seeds_ci): above 1.1 `more`, below 0.9 `less`, inside
 * [0.9, 1.1] "no change", else no verdict. */
static void fmt_ratio3(char *buf, size_t len, const double r[3], const char *more, const char *less)
{
    double mean, lo, hi;
    if (fmt_no_ratio(buf, len, r))
        return;
    report_seeds_ci(r, &mean, &lo, &hi);
    const char *cat = !isfinite(lo) || !isfinite(hi) ? NULL : lo > 1.1 ? more : hi < 0.9 ? less
                      : lo >= 0.9 && hi <= 1.1 ? "no change" : NULL;
    if (cat != NULL)
        snprintf(buf, len, "%s (%.2f, %.2f, %.2f on three seeds; mean %.2f, 95%% CI %.2f to %.2f)", cat, r[0], r[1],
                 r[2], mean, lo, hi);
    else
        snprintf(buf, len, "no verdict (%.2f, %.2f, %.2f on three seeds; mean %.2f, 95%% CI %.2f to %.2f reaches past "
                 "the 10%% threshold)", r[0], r[1], r[2], mean, lo, hi);
}

/* What the cost model can charge on this trace. Where a cost is not recorded, which and how it is estimated; where
 * every cost is (costs.tsv), what charging failed configurations and isolated vs contended compile times change. */
static int finding_costs(struct report_ctx *c)
{
    const struct sim_data *d = c->d[REPORT_SIM_ALL];
    long pairs = 0, failed = 0;
    int jobs = trace_get_meta(c->t)->compile_jobs;
    char txt[3072] = "", a[96], b[96], rs[256];
    for (int i = 0; i < sim_data_n_inputs(d); i++) {
        pairs += sim_data_n_valid(d, i) + sim_data_n_failed(d, i);
        failed += sim_data_n_failed(d, i);
    }
    if (c->costs == NULL) {
        if (c->no_isolated > 0)
            snprintf(txt, sizeof txt, " %ld of %ld (input, configuration) pairs have no isolated (1-worker) compile "
                     "time, so sequential compilation charges their compile_ms, measured with %d compile workers "
                     "at once;", c->no_isolated, pairs, jobs);
        if (c->failed_no_compile > 0)
            snprintf(txt + strlen(txt), sizeof txt - strlen(txt), " %ld of the %ld failed pairs have no compile "
                     "time and are charged their input's median valid one (an underestimate where the failing "
                     "configurations are the largest tiles);", c->failed_no_compile, failed);
        return report_finding(c, "**Compile costs this trace does not record**:%s collect with --compile-invalid "
                              "--compile-isolated-all to record every one (docs/simulation.md, \"Failed "
                              "configurations\" and \"Compile models\").", txt);
    }
    for (int m = 0; m < 3; m++) {
        static const int models[3] = {0, 2, 3};
        const char *name = report_model_names[models[m]];
        struct est_row on, off;
        double r[3];
        for (int k = 1; k <= 3; k++) {
            if (cost_time(c->costs, k, report_cost_names[0], name, &on) != 0 ||
                cost_time(c->costs, k, report_cost_names[1], name, &off) != 0)
                return -1;
            r[k - 1] = on.time_s / off.time_s;
        }
        if (cost_time(c->costs, 1, report_cost_names[0], name, &on) != 0 ||
            cost_time(c->costs, 1, report_cost_names[1], name, &off) != 0)
            return -1;
        fmt_time(a, sizeof a, &on);
        fmt_time(b, sizeof b, &off);
        fmt_ratio3(rs, sizeof rs, r, "takes longer", "takes less");
        snprintf(txt + strlen(txt), sizeof txt - strlen(txt), "%s%s compilation %s charged vs %s free, charged / "
                 "free: %s", m ? "; " : "", name, a, b, rs);
    }
    {
        struct est_row iso, con;
        double r[3];
        for (int k = 1; k <= 3; k++) {
            if (cost_time(c->costs, k, report_cost_names[0], "sequential", &iso) != 0 ||
                cost_time(c->costs, k, report_cost_names[2], "sequential", &con) != 0)
                return -1;
            r[k - 1] = con.time_s / iso.time_s;
        }
        if (cost_time(c->costs, 1, report_cost_names[0], "sequential", &iso) != 0 ||
            cost_time(c->costs, 1, report_cost_names[2], "sequential", &con) != 0)
            return -1;
        fmt_time(a, sizeof a, &iso);
        fmt_time(b, sizeof b, &con);
        fmt_ratio3(rs, sizeof rs, r, "takes longer", "takes less");
        return report_finding(c, "**Every compile cost measured** (every configuration has its compile time under "
                              "%d workers and alone, failing ones included; time to 0.95 of optimal, all inputs, "
                              "re-evaluated on fresh runs, costs.tsv). Failed configurations: %s. Sequential "
                              "compilation on isolated compile times %s vs on the contended ones %s; contended / "
                              "isolated: %s.", jobs, txt, a, b, rs);
    }
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

/* Where tuning time goes (Figure 1): repetition, overhead, compilation over all inputs. */
static int finding_split(struct report_ctx *c)
{
    struct report_split sp;
    double req = trace_get_meta(c->t)->warmup_ms + trace_get_meta(c->t)->rep_ms, all;
    int below = 0;
    if (report_split_shares(c->split, &sp) != 0)
        return -1;
    for (int i = 0; i < sp.n_inputs; i++)
        below += table_num(c->split, i, sp.mean_wall_col) < req;
    all = sp.repetition_ms + sp.overhead_ms + sp.compile_ms;
    return report_finding(c, "Where tuning time goes (all inputs, Figure 1): repetition %.0f%%, overhead %.0f%%, "
                          "compilation %.0f%%; overhead is more than half of an input's tuning time for %d of %d "
                          "inputs (paper, A40: most inputs). On %d inputs a configuration's mean wall time is below "
                          "the requested %.0f ms of warm-up and repetition.", 100 * sp.repetition_ms / all,
                          100 * sp.overhead_ms / all, 100 * sp.compile_ms / all, sp.over_half, sp.n_inputs, below,
                          req);
}

int report_vs_cublas(const struct table *b, struct report_vs_cublas *out)
{
    int cv = table_col_need(b, "vs_cublas");
    double *v;
    memset(out, 0, sizeof *out);
    out->median = out->lo = out->hi = NAN;
    if (cv < 0)
        return -1;
    if ((v = malloc(((size_t)table_n_rows(b) + 1) * sizeof *v)) == NULL)
        return tc_seterr("out of memory");
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
    if (report_vs_cublas(c->best, &v) != 0)
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
    const struct table *f = c->failures;
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
    const struct table *e = c->estimate;
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
        return tc_seterr("out of memory");
    for (int i = 0; i < m; i++) {
        double est = table_num(e, i, ck);
        r[i] = table_num(e, i, cr);
        shortn += table_num(e, i, ct) < 0.9;
        cold += fabs(est - table_num(e, i, ce)) < fabs(est - (table_num(e, i, cw) + table_num(e, i, cf)));
    }
    qsort(r, (size_t)m, sizeof *r, tc_cmp_double);
    int rc = report_finding(c, "Triton's estimate (Figure 2, %s): the per-execution estimate is a median %.2fx the "
                            "warmed execution time; %d of %d runs timed less than 90%% of the requested repetition "
                            "time. The estimate is closer to the mean of the (cold) estimate executions in %d runs "
                            "and to the warm time plus the flush per execution in %d.", trace_path(c->tt),
                            m ? r[m / 2] : NAN, shortn, m, cold, m - cold);
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
