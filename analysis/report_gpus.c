/* report_gpus.c — the report's cross-GPU study on the shipped traces of one kernel on two GPUs (pol_shipped_pair:
 * data/manifest.tsv's reference and another GPU's full space, its cross-gpu row; today the H200's 100-configuration
 * reference and the H100's full 576-point space), paired by parameter values and input dimensions (trace_match_configs,
 * trace_match_inputs): how much of one GPU's optimum the other GPU's best configuration keeps, on the
 * configurations both measured; every policy ranked per GPU, on that GPU's own space over the inputs both have, with
 * its CI and the ranking's stability over three seeds; and whether the warm start from the other GPU (`transfer`)
 * beats each policy from scratch. */
#include "policy.h"
#include "report_results.h"
#include "trace.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GPU_SEEDS 3
#define GPU_MAX_POL 16
#define GPU_MIN_RUNS 5

/* The study's blocks: each GPU on its own trace's space, and the H100 on the configurations the H200's trace holds
 * (the same space as the H200's: a difference between that block and the H200's is the GPU's alone). */
#define GPU_BLOCKS 3
static const char *const gpu_name[GPU_BLOCKS] = {"H200", "H100", "H100 on the H200's configurations"};
static const int gpu_other[GPU_BLOCKS] = {1, 0, 0}; /* the block's prior: the other GPU's trace */

/* A policy's score and its 95% CI, the report's ranking statistic: the methodology's (score_atm.h), the default
 * score of `policies`, with its bootstrap CI over runs and inputs. */
static void score_ci(const struct pol_curve *cv, double *m, double *lo, double *hi)
{
    *m = cv->atm_score;
    *lo = cv->atm_lo;
    *hi = cv->atm_hi;
}

/* Mean and 95% CI (Student t over the n values). */
static void mean_ci(const double *x, int n, double *m, double *lo, double *hi)
{
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *m = n > 0 ? s / n : NAN;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *m) * (x[i] - *m);
    double half = n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1) / n) : NAN;
    *lo = *m - half;
    *hi = *m + half;
}

/* The true time (ns) of configuration k for input i when its current run is valid, else NaN. */
static double true_ns(const struct trace *t, int i, int k)
{
    long r = trace_find_run(t, i, k);
    return r >= 0 && trace_run_valid(t, (size_t)r) ? trace_run_true_ns(t, (size_t)r) : NAN;
}

/* One row of cross-gpu.tsv: per input both traces have, `from`'s best among the configurations both measured, and
 * what it keeps there of `to`'s optimum over those same configurations (keep: `to`'s best true time over its true
 * time; 0 where it fails there), and of `to`'s optimum over all of `to`'s configurations (keep_all: less where `to`
 * has configurations `from` lacks). Returns 0, or -1 (message set). */
static int keep_row(struct table *tab, const struct trace *from, const struct trace *to, const char *dir,
                    double out[8])
{
    int nf = trace_n_inputs(from), nc = trace_n_configs(from), n = 0, same = 0, n_common, rc = -1;
    int *cmap = malloc(((size_t)nc + 1) * sizeof *cmap), *imap = malloc(((size_t)nf + 1) * sizeof *imap);
    double *keep = calloc(((size_t)nf + 1) * 2, sizeof *keep), *keep_all = keep + nf + 1, m, lo, hi, mn = INFINITY;
    double ma, la, ha;
    if (cmap == NULL || imap == NULL || keep == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    if ((n_common = trace_match_configs(from, to, cmap)) < 0 || trace_match_inputs(from, to, imap) < 0)
        goto out;
    for (int i = 0; i < nf; i++) {
        int j = imap[i], bf = -1, bt = -1;
        double f_best = INFINITY, t_best = INFINITY, t_all;
        if (j < 0 || trace_best_config(to, j, &t_all, NULL) < 0)
            continue;
        for (int k = 0; k < nc; k++) {
            if (cmap[k] < 0)
                continue;
            double f = true_ns(from, i, k), g = true_ns(to, j, cmap[k]);
            if (f < f_best) { /* NaN (no valid run) never is */
                f_best = f;
                bf = k;
            }
            if (g < t_best) {
                t_best = g;
                bt = cmap[k];
            }
        }
        if (bf < 0 || bt < 0)
            continue;
        double g = true_ns(to, j, cmap[bf]);
        keep[n] = isnan(g) ? 0 : t_best / g;
        keep_all[n] = isnan(g) ? 0 : t_all / g;
        same += cmap[bf] == bt;
        mn = keep[n] < mn ? keep[n] : mn;
        n++;
    }
    mean_ci(keep, n, &m, &lo, &hi);
    mean_ci(keep_all, n, &ma, &la, &ha);
    report_clip01(&lo, &hi); /* shares: at most 1 */
    report_clip01(&la, &ha);
    int row = table_add_row(tab);
    double v[8] = {n, n_common, m, lo, hi, n > 0 ? mn : NAN, same, ma};
    static const int digits[8] = {0, 0, 4, 4, 4, 4, 0, 4};
    table_set_str(tab, row, 0, dir);
    for (int q = 0; q < 8; q++)
        table_set_num(tab, row, q + 1, v[q], digits[q]);
    memcpy(out, v, sizeof v);
    rc = 0;
out:
    free(cmap);
    free(imap);
    free(keep);
    return rc;
}

/* Every policy on trace t (transfer with `other` as its prior) for each of GPU_SEEDS seeds: cv[seed][policy].
 * Returns the number of policies, or -1 (message set). */
static int gpu_evaluate(struct report_ctx *c, const struct trace *t, const struct trace *other, const int *sel,
                        int n_sel, struct pol_curve cv[GPU_SEEDS][GPU_MAX_POL], int *n_in)
{
    struct pol_settings s;
    struct pol_data *d = sel != NULL ? pol_data_from_trace_configs(t, sel, n_sel) : pol_data_from_trace(t);
    double grid[60];
    int n = 0;
    if (d == NULL || pol_data_set_prior(d, t, other) != 0) {
        pol_data_free(d);
        return -1;
    }
    *n_in = pol_data_restrict_to_prior(d); /* the inputs both GPUs have */
    pol_settings_default(&s);
    s.failed_cost = c->res.s[REPORT_SIM_INPUT].failed_cost; /* the report's cost model (report_cost_settings) */
    s.compile_model = c->res.s[REPORT_SIM_INPUT].compile_model;
    s.runs = c->o->runs;
    {
        long nc = c->o->threads > 0 ? c->o->threads : sysconf(_SC_NPROCESSORS_ONLN); /* 0: all cores */
        s.threads = nc < 1 ? 1 : nc > 64 ? 64 : (int)nc; /* never changes the output */
    }
    pol_grid(s.budget_s * 1e-4, s.budget_s, s.n_grid, grid);
    for (int seed = 0; seed < GPU_SEEDS; seed++) {
        s.seed = c->o->seed + (uint64_t)seed;
        s.atm_boot = seed == 0 ? s.atm_boot : 0; /* the other seeds give ranks: their scores, no CI */
        n = 0;
        for (int k = 0; policy_registry[k] != NULL && n < GPU_MAX_POL; k++, n++)
            if (pol_evaluate(d, policy_registry[k], &s, grid, &cv[seed][n]) != 0) {
                for (int q = 0; q < n; q++)
                    pol_curve_free(&cv[seed][q]);
                for (int e = 0; e < seed; e++)
                    for (int q = 0; q < n; q++)
                        pol_curve_free(&cv[e][q]);
                pol_data_free(d);
                return -1;
            }
    }
    pol_data_free(d);
    return n;
}

/* rank[p]: policy p's place (1 = highest score) among the n of one seed. */
static void ranks(const struct pol_curve *cv, int n, int *rank)
{
    for (int p = 0; p < n; p++) {
        double m, lo, hi, mq, lq, hq;
        score_ci(&cv[p], &m, &lo, &hi);
        rank[p] = 1;
        for (int q = 0; q < n; q++) {
            score_ci(&cv[q], &mq, &lq, &hq);
            rank[p] += q != p && (mq > m || (mq == m && q < p));
        }
    }
}

/* The per-GPU table (rows in seed 0's ranking order) and its findings: the headline only where a CI separates,
 * the stability over the seeds, the warm start against each policy from scratch. */
static int gpu_findings(struct report_ctx *c, int g, struct pol_curve cv[GPU_SEEDS][GPU_MAX_POL], int n, int n_in,
                        int n_cfg, struct table *tab)
{
    int rk[GPU_SEEDS][GPU_MAX_POL], order[GPU_MAX_POL] = {0}, max_change = 0, tr = -1, beats = 0, below = 0;
    char beaten[512] = "", not_beaten[512] = "";
    for (int e = 0; e < GPU_SEEDS; e++)
        ranks(cv[e], n, rk[e]);
    for (int p = 0; p < n; p++) {
        order[rk[0][p] - 1] = p;
        for (int e = 1; e < GPU_SEEDS; e++)
            max_change = abs(rk[e][p] - rk[0][p]) > max_change ? abs(rk[e][p] - rk[0][p]) : max_change;
        if (policy_registry[p]->needs_prior)
            tr = p;
    }
    for (int k = 0; k < n; k++) {
        int p = order[k], row = table_add_row(tab);
        double m, lo, hi;
        score_ci(&cv[0][p], &m, &lo, &hi);
        double v[10] = {n_cfg, n_in, rk[0][p], m, lo, hi, rk[1][p], rk[2][p], cv[0][p].t95_s,
                        cv[0][p].final_speedup};
        static const int digits[10] = {0, 0, 0, 3, 3, 3, 0, 0, 3, 4};
        table_set_str(tab, row, 0, gpu_name[g]);
        table_set_str(tab, row, 1, cv[0][p].policy);
        for (int q = 0; q < 10; q++)
            table_set_num(tab, row, q + 2, v[q], digits[q]);
    }
    double m0, lo0, hi0, m1, lo1, hi1;
    if (n < 2)
        return 0;
    score_ci(&cv[0][order[0]], &m0, &lo0, &hi0);
    score_ci(&cv[0][order[1]], &m1, &lo1, &hi1);
    int separated = 1;
    for (int k = 1; k < n; k++) {
        double m, lo, hi;
        score_ci(&cv[0][order[k]], &m, &lo, &hi);
        separated = separated && lo0 > hi;
    }
    if (separated)
        report_finding(c, "**Policies on the %s** (%d configurations, %d inputs x %d runs; transfer warm-started, "
                       "the others from scratch): %s ranks first, %.3f [%.3f, %.3f], its 95%% CI above every other's; "
                       "ranks move by at most %d over seeds %llu-%llu (policies-gpu.tsv).", gpu_name[g], n_cfg, n_in,
                       c->o->runs, cv[0][order[0]].policy, m0, lo0, hi0, max_change, (unsigned long long)c->o->seed,
                       (unsigned long long)c->o->seed + GPU_SEEDS - 1);
    else
        report_finding(c, "**Policies on the %s** (%d configurations, %d inputs x %d runs; transfer warm-started, "
                       "the others from scratch): no 95%% CI lies above all others'; highest %s %.3f [%.3f, %.3f], "
                       "then %s %.3f [%.3f, %.3f] (policies-gpu.tsv).", gpu_name[g], n_cfg, n_in, c->o->runs,
                       cv[0][order[0]].policy, m0, lo0, hi0, cv[0][order[1]].policy, m1, lo1, hi1);
    if (tr < 0)
        return 0;
    double mt, lt, ht;
    score_ci(&cv[0][tr], &mt, &lt, &ht);
    for (int p = 0; p < n; p++) {
        double m, lo, hi;
        if (p == tr)
            continue;
        score_ci(&cv[0][p], &m, &lo, &hi);
        char *dst = lt > hi ? beaten : not_beaten;
        beats += lt > hi;
        below += ht < lo;
        size_t len = strlen(dst);
        snprintf(dst + len, 512 - len, "%s%s", len > 0 ? ", " : "", cv[0][p].policy);
    }
    (void)not_beaten;
    return report_finding(c, "**Warm start on the %s** from the %s's measurements (transfer %.3f [%.3f, %.3f]): its "
                          "95%% CI lies above that of %d and below that of %d of the %d policies from scratch "
                          "(policies-gpu.tsv).", gpu_name[g], gpu_name[gpu_other[g]], mt, lt, ht, beats, below, n - 1);
}

/* sel (room for h100's configurations): the configurations of h100 that h200's trace holds, ascending. Returns how
 * many, 0 when h200's trace holds every one of them (no block of its own is needed), or -1 (message set). */
static int common_configs(const struct trace *h200, const struct trace *h100, int *sel)
{
    int n0 = trace_n_configs(h200), n1 = trace_n_configs(h100), n = 0;
    int *map = malloc(((size_t)n0 + 1) * sizeof *map), *mark = calloc((size_t)n1 + 1, sizeof *mark);
    if (map == NULL || mark == NULL || trace_match_configs(h200, h100, map) < 0) {
        if (map == NULL || mark == NULL)
            tc_seterr_env("out of memory");
        free(map);
        free(mark);
        return -1;
    }
    for (int k = 0; k < n0; k++)
        if (map[k] >= 0)
            mark[map[k]] = 1;
    for (int m = 0; m < n1; m++)
        if (mark[m])
            sel[n++] = m;
    free(map);
    free(mark);
    return n == n1 ? 0 : n;
}

/* The policies per GPU (policies-gpu.tsv and its findings): each GPU on its own trace's space, and, where the H100's
 * trace holds configurations the H200's lacks, the H100 on the H200's configurations. Returns 0, or -1. */
static int gpu_policies(struct report_ctx *c, struct trace *t[2])
{
    static const char *pcols[] = {"gpu", "policy", "configs", "inputs", "rank", "score", "score_lo", "score_hi",
                                  "rank_seed2", "rank_seed3", "t95_s", "final_speedup"};
    static struct pol_curve cv[GPU_BLOCKS][GPU_SEEDS][GPU_MAX_POL];
    int n[GPU_BLOCKS] = {0}, n_in[GPU_BLOCKS] = {0}, n_cfg[GPU_BLOCKS] = {0}, n_sel, n_blocks = 0, rc = -1;
    int *sel = malloc(((size_t)trace_n_configs(t[1]) + 1) * sizeof *sel);
    struct table *pol = NULL;
    if (sel == NULL || (n_sel = common_configs(t[0], t[1], sel)) < 0) {
        if (sel == NULL)
            tc_seterr_env("out of memory");
        goto out;
    }
    for (int g = 0; g < (n_sel > 0 ? 3 : 2); g++, n_blocks++) {
        const struct trace *tr = t[g == 0 ? 0 : 1];
        n_cfg[g] = g == 2 ? n_sel : trace_n_configs(tr);
        if ((n[g] = gpu_evaluate(c, tr, t[gpu_other[g]], g == 2 ? sel : NULL, n_sel, cv[g], &n_in[g])) < 0) {
            n[g] = 0;
            goto out;
        }
    }
    if ((pol = table_new("Policies per GPU, ranked by score (95% CI), with their ranks under two other seeds", 12,
                         pcols)) == NULL)
        goto out;
    for (int g = 0; g < n_blocks; g++)
        if (gpu_findings(c, g, cv[g], n[g], n_in[g], n_cfg[g], pol) != 0)
            goto out;
    table_add_note(pol, "score: the methodology's (Willemsen et al. 2024; policies --score atm), 95%% bootstrap CI "
                   "over runs and inputs; every policy, %d runs per input, seed %llu (rank), %llu and %llu "
                   "(rank_seed2, rank_seed3); each GPU's policies search its own trace's space (configs: its "
                   "configurations), so a difference between the H200's and the H100's rankings may come from the "
                   "space as well as the GPU; the block \"%s\" ranks the H100 on the H200's space, so a difference "
                   "between it and the H200's is the GPU's; transfer starts from the other GPU's ranking "
                   "(--transfer-from); docs/simulation.md",
                   c->o->runs, (unsigned long long)c->o->seed, (unsigned long long)c->o->seed + 1,
                   (unsigned long long)c->o->seed + 2, gpu_name[2]);
    rc = report_keep_table(c, pol, "policies-gpu.tsv", "Policies per GPU", 60);
    pol = NULL;
out:
    table_free(pol);
    for (int g = 0; g < n_blocks; g++)
        for (int e = 0; e < GPU_SEEDS; e++)
            for (int p = 0; p < n[g]; p++)
                pol_curve_free(&cv[g][e][p]);
    free(sel);
    return rc;
}

int report_cross_gpu(struct report_ctx *c)
{
    static const char *kcols[] = {"best_of", "inputs", "configs", "keep_mean", "keep_lo", "keep_hi", "keep_min",
                                  "same_best", "keep_all_mean"};
    char buf[2][4096];
    struct trace *t[2] = {NULL, NULL};
    struct table *keep = NULL;
    int rc = -1;
    double km[2][8]; /* per direction the row of cross-gpu.tsv: inputs, configs, mean, lo, hi, min, same, all */
    if (pol_shipped_pair(buf[0], buf[1], sizeof buf[0]) != 0)
        return report_finding(c, "The cross-GPU study needs the shipped reference trace and the full-space trace of "
                              "another GPU (data/manifest.tsv); they are not both there, so the study is not in "
                              "this report.");
    {
        char *a = realpath(trace_path(c->t), NULL), *b = realpath(buf[0], NULL);
        int same = a != NULL && b != NULL && strcmp(a, b) == 0;
        free(a);
        free(b);
        if (!same) /* the study is of the shipped pair: a report on another trace leaves it out */
            return report_finding(c, "The cross-GPU study runs on the shipped H200 trace (%s) with its H100 twin; this "
                                  "report is of another trace, so the study is not in it.", tables_base_name(buf[0]));
    }
    if (c->o->runs < GPU_MIN_RUNS) /* 3 seeds x every policy x 2 GPUs: worth its time only for a ranking */
        return report_finding(c, "The cross-GPU study ranks the policies with CIs over runs: it needs --runs %d or "
                              "more (this report has %d), so it is not in this report.", GPU_MIN_RUNS, c->o->runs);
    report_say(c, "cross-GPU study: %s and %s, every policy x %d seeds", buf[0], buf[1], GPU_SEEDS);
    t[0] = c->t; /* the report's own trace (the same file, checked above): not read a second time */
    if ((t[1] = trace_open(buf[1])) == NULL)
        goto out;
    if ((keep = table_new("What one GPU's best configuration keeps of the other's optimum", 9, kcols)) == NULL ||
        keep_row(keep, t[0], t[1], "H200 best on the H100", km[0]) != 0 ||
        keep_row(keep, t[1], t[0], "H100 best on the H200", km[1]) != 0)
        goto out;
    table_add_note(keep, "configurations matched by parameter values, inputs by dimensions (configs: those both "
                   "traces hold); per input: this GPU's best of those configurations, and the other GPU's best true "
                   "time among them over its true time there (0 where it fails there); mean, 95%% CI (Student t over "
                   "inputs), minimum; same_best: inputs where both GPUs have the same best of them; keep_all_mean: "
                   "the same against the other GPU's optimum over all its configurations (lower where its trace has "
                   "configurations this one lacks)");
    if (report_keep_table(c, keep, "cross-gpu.tsv", "Cross-GPU: one GPU's best configuration on the other", 4) != 0) {
        keep = NULL;
        goto out;
    }
    keep = NULL;
    report_finding(c, "**Cross-GPU** (%s and %s, %.0f inputs, %.0f shared configurations): the H200's best keeps "
                   "%.1f%% (95%% CI %.1f-%.1f%%) of the H100's optimum among them, the H100's best %.1f%% (95%% CI "
                   "%.1f-%.1f%%) of the H200's; same best on %.0f of %.0f inputs (cross-gpu.tsv).",
                   tables_base_name(buf[0]), tables_base_name(buf[1]), km[0][0], km[0][1], 100 * km[0][2],
                   100 * km[0][3], 100 * km[0][4], 100 * km[1][2], 100 * km[1][3], 100 * km[1][4], km[0][6],
                   km[0][0]);
    if (gpu_policies(c, t) != 0)
        goto out;
    rc = 0;
out:
    table_free(keep);
    trace_close(t[1]);
    return rc;
}
