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
/* N_CONFIG vs EXEC_TIME: which of the two explains the tuned kernel's performance and the tuning time (single
 * input, the paper's model). */
static int finding_knobs(struct report_ctx *c)
{
    const struct sim_result *ri = c->r[REPORT_SIM_INPUT];
    const struct sim_settings *s = &c->s[REPORT_SIM_INPUT];
    int n = ri->n_points / N_SC_INPUT, flops_known = !isnan(sim_data_flops(c->d[REPORT_SIM_INPUT], 0));
    double *x1 = calloc((size_t)n + 1, sizeof *x1), *x2 = calloc((size_t)n + 1, sizeof *x2);
    double *y = calloc((size_t)n + 1, sizeof *y);
    int rc = -1;
    if (x1 == NULL || x2 == NULL || y == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        const struct sim_point *p = &ri->points[(size_t)i * N_SC_INPUT + SC_BASELINE];
        x1[i] = p->n_config;
        x2[i] = p->exec_ms;
        y[i] = flops_known ? p->tflops : p->speedup; /* an imported trace may not know its flops */
    }
    double e_n = eta_squared(x1, y, n, s->n_config_lo, s->n_config_hi);
    double e_x = eta_squared(x2, y, n, s->exec_ms_lo, s->exec_ms_hi);
    for (int i = 0; i < n; i++)
        y[i] = ri->points[(size_t)i * N_SC_INPUT + SC_BASELINE].time_s;
    double t_n = eta_squared(x1, y, n, s->n_config_lo, s->n_config_hi);
    double t_x = eta_squared(x2, y, n, s->exec_ms_lo, s->exec_ms_hi);
    double chance = 9.0 / (n > 1 ? n - 1 : 1);
    const char *head = e_n >= 2 * e_x && e_n > 2 * chance   ? "N_CONFIG decides, EXEC_TIME hardly matters"
                       : e_x >= 2 * e_n && e_x > 2 * chance ? "EXEC_TIME matters more than N_CONFIG"
                                                            : "Neither N_CONFIG nor EXEC_TIME clearly decides";
    rc = report_finding(c, "**%s** (%s, %d samples): N_CONFIG explains %.0f%% "
                        "of the variance of the tuned kernel's %s and %.0f%% of tuning time; EXEC_TIME explains "
                        "%.0f%% and %.0f%% (share of variance between 10 equal-width bins of each, eta squared; "
                        "by chance about %.0f%%; the headline needs one at least twice the other and twice chance).",
                        head, c->input_label, n, 100 * e_n, flops_known ? "TFLOP/s" : "speedup", 100 * t_n,
                        100 * e_x, 100 * t_x, 100 * chance);
out:
    free(x1);
    free(x2);
    free(y);
    return rc;
}

/* Along Table 6's frontier: does N_CONFIG (and EXEC_TIME) rise with tuning time? (Spearman rank correlation) */
static int finding_frontier(struct report_ctx *c)
{
    int m = c->t6 != NULL ? table_n_rows(c->t6) : 0, rc = -1;
    double *a, *work;
    if (m < 3)
        return 0;
    a = malloc(sizeof(double) * (size_t)m * 3);
    work = malloc(sizeof(double) * (size_t)m * 2);
    if (a == NULL || work == NULL) {
        tc_seterr("out of memory");
        goto out;
    }
    for (int i = 0; i < m; i++) {
        a[i] = table_num(c->t6, i, T6_TIME_S);
        a[m + i] = table_num(c->t6, i, T6_N_CONFIG);
        a[2 * m + i] = table_num(c->t6, i, T6_EXEC_MS);
    }
    double rn = gsl_stats_spearman(a, 1, a + m, 1, (size_t)m, work);
    double rx = gsl_stats_spearman(a, 1, a + 2 * m, 1, (size_t)m, work);
    rc = report_finding(c, "Along the frontier of %s (%d points, Table 6) N_CONFIG rises with tuning time "
                        "(Spearman rho %.2f) while EXEC_TIME %s (rho %.2f).", c->input_label, m, rn,
                        fabs(rx) < 0.3 ? "looks random" : (rx > 0 ? "rises too" : "falls"), rx);
out:
    free(a);
    free(work);
    return rc;
}

/* "after 1.23 s ..." or "never in these samples" for a time to target (NaN when no sample reaches it). */
static void after(char *buf, size_t len, double t_s, const char *suffix)
{
    if (isfinite(t_s))
        snprintf(buf, len, "after %.2f s%s", t_s, suffix);
    else
        snprintf(buf, len, "never in these samples");
}

/* The single input's best configuration and how long the paper's tuner takes to get near it. */
static int finding_best_speed(struct report_ctx *c)
{
    const struct sim_data *d = c->d[REPORT_SIM_INPUT];
    const struct sim_result *ri = c->r[REPORT_SIM_INPUT];
    double best_tf = sim_data_flops(d, 0) / sim_data_optimal_ms(d, 0, c->s[REPORT_SIM_INPUT].truth) / 1e9;
    char s90[64], s98[64];
    after(s90, sizeof s90, report_time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.90), " of tuning on average");
    after(s98, sizeof s98, report_time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.98), "");
    if (!isnan(sim_data_flops(d, 0)))
        return report_finding(c, "For %s the best configuration runs at %.1f TFLOP/s; the paper's tuner reaches 90%% "
                              "of it %s and 98%% %s.", c->input_label, best_tf, s90, s98);
    return report_finding(c, "For %s the best configuration takes %.4g ms (flops unknown); the paper's tuner reaches "
                          "90%% of its speed %s and 98%% %s.", c->input_label, sim_data_optimal_ms(d, 0, c->s[REPORT_SIM_INPUT].truth), s90, s98);
}

/* Median tuning time of the all-inputs baseline's samples. */
static double median_baseline_time(const struct sim_result *ra)
{
    int na = ra->n_points / N_SC_ALL;
    double *times = calloc((size_t)na + 1, sizeof *times), med;
    if (times == NULL)
        return NAN;
    for (int i = 0; i < na; i++)
        times[i] = ra->points[(size_t)i * N_SC_ALL + SC_BASELINE].time_s;
    qsort(times, (size_t)na, sizeof *times, tc_cmp_double);
    med = times[(na - 1) / 2];
    free(times);
    return med;
}

/* Parallel compilation at a fixed budget (all inputs): the budget is what the baseline needs for 0.90 of optimal,
 * else its median tuning time. */
static int finding_parallel(struct report_ctx *c)
{
    const struct sim_result *ra = c->r[REPORT_SIM_ALL];
    double b90 = report_time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.90);
    double med = isfinite(b90) ? b90 : median_baseline_time(ra);
    double sb = report_best_within(ra, N_SC_ALL, SC_BASELINE, med);
    double sp = report_best_within(ra, N_SC_ALL, SC_PARALLEL, med);
    double tb = report_time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.95);
    double tp = report_time_to_target(ra, N_SC_ALL, SC_PARALLEL, 0.95);
    return report_finding(c, "**Parallel compilation (%d workers, the paper's ideal) %s** (all %d "
                          "inputs): with the %.2f s the baseline needs for 0.90 of optimal, it reaches a mean speedup "
                          "vs optimal of %.3f instead of %.3f; reaching 0.95 takes %.2f s instead of %.2f s (%.1fx "
                          "less tuning time).",
                          c->o->compile_factor,
                          !isfinite(tb / tp) ? "cannot be compared at 0.95 of optimal (a frontier never reaches it)"
                          : tb / tp > 1.1    ? "moves the frontier left"
                          : tb / tp < 0.9    ? "moves the frontier right"
                                             : "does not move the frontier",
                          ra->n_inputs_used, med, sp, sb, tp, tb, tb / tp);
}

/* Early stopping (all inputs): time to 0.90 and 0.95 of optimal with and without; a change under 10% is none. */
static int finding_early_stop(struct report_ctx *c)
{
    const struct sim_result *ra = c->r[REPORT_SIM_ALL];
    const struct sim_settings *s = &c->s[REPORT_SIM_ALL];
    int na = ra->n_points / N_SC_ALL;
    double tb = report_time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.95);
    double te = report_time_to_target(ra, N_SC_ALL, SC_EARLY, 0.95);
    double tb9 = report_time_to_target(ra, N_SC_ALL, SC_BASELINE, 0.90);
    double te9 = report_time_to_target(ra, N_SC_ALL, SC_EARLY, 0.90);
    double stopped = 0, g95 = tb / te, g90 = tb9 / te9;
    int moves = (isfinite(g95) && fabs(g95 - 1) > 0.1) || (isfinite(g90) && fabs(g90 - 1) > 0.1);
    int comparable = isfinite(g95) || isfinite(g90);
    for (int i = 0; i < na; i++)
        stopped += ra->points[(size_t)i * N_SC_ALL + SC_EARLY].stopped / na;
    return report_finding(c, "**Early stopping %s** (EARLY_STOP_NUM %d:%d, threshold %.2f:%.2f): reaching 0.90 and "
                          "0.95 of optimal takes %.2f s and %.2f s with it vs %.2f s and %.2f s without "
                          "(ratios %.2f, %.2f; a change under 10%% counts as none); it stops %.2f configurations per "
                          "tuning run on average.",
                          !comparable ? "cannot be compared (no frontier reaches 0.90 of optimal)"
                          : moves     ? (g95 > 1 || g90 > 1 ? "moves the frontier left" : "moves the frontier right")
                                      : "does not move the frontier",
                          s->es_num_lo, s->es_num_hi, s->es_thr_lo, s->es_thr_hi, te9, te, tb9, tb, g90, g95,
                          stopped);
}

/* The single input under the other cost models: time to 0.95 of optimal. */
static int finding_models(struct report_ctx *c)
{
    const struct sim_result *ri = c->r[REPORT_SIM_INPUT];
    double tb = report_time_to_target(ri, N_SC_INPUT, SC_BASELINE, 0.95);
    double tx = report_time_to_target(ri, N_SC_INPUT, SC_PEREXEC, 0.95);
    double tq = report_time_to_target(ri, N_SC_INPUT, SC_PIPELINED, 0.95);
    double tp = report_time_to_target(ri, N_SC_INPUT, SC_PARALLEL, 0.95);
    return report_finding(c, "Beyond the paper (%s, 0.95 of optimal): the paper's model needs %.2f s; charging the "
                          "overhead per execution actually run (per-exec) %.2f s; pipelined compilation with %d "
                          "workers %.2f s; the paper's ideal parallel compilation %.2f s.", c->input_label, tb, tx,
                          c->o->compile_factor, tq, tp);
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
    int (*const steps[])(struct report_ctx *) = {finding_knobs,  finding_frontier, finding_best_speed,
                                                 finding_parallel, finding_early_stop, finding_models,
                                                 finding_split,  finding_cublas,   finding_failures,
                                                 finding_estimate};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i](c) != 0)
            return -1;
    return 0;
}
