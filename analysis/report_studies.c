/* report_studies.c — the report's sections beyond the one trace: the tuning policies (simulate/policy.h), the L2
 * flush study (the paper's Tables 3 and 5, a directory of traces collected with different flush_bytes), compile
 * scaling (Table 7, the TSV files of `collect --compile-only`) and two kernel families compared on the same
 * benchmark (best vs cuBLAS per input, each one's frontier, the compile share of tuning time). A study whose data
 * is absent is left out with a finding that says so. */
#include "policy.h"
#include "report_results.h"
#include "sim_budget.h"
#include "tc_stats.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The finding on the policies' ranking: a winner only where its CI lies above every other policy's. */
static void policies_finding(struct report_ctx *c, const struct pol_curve *cv, const int *order, int n, int n_in,
                             int runs)
{
    /* what the ranking is of, and how much it can say */
    const char *few = n_in < 8 || runs < 10 ? " (too few to rank on)" : "";
    int a = order[0], b = n > 1 ? order[1] : order[0], separated = n > 1;
    for (int k = 1; k < n; k++)
        separated = separated && cv[a].atm_lo > cv[order[k]].atm_hi;
    if (n == 0 || isnan(cv[a].atm_score))
        return;
    if (separated)
        report_finding(c, "**Tuning policies** (from scratch, %d inputs x %d runs%s, every cost charged): %s ranks "
                       "first, %.3f [%.3f, %.3f], its 95%% CI above every other's, reaching 95%% of optimal after "
                       "%.3g s; transfer not run (needs another GPU's trace).", n_in, runs, few, cv[a].policy,
                       cv[a].atm_score, cv[a].atm_lo, cv[a].atm_hi, cv[a].t95_s);
    else
        report_finding(c, "**Tuning policies** (from scratch, %d inputs x %d runs%s, every cost charged): no 95%% CI "
                       "separates one policy; highest %s %.3f [%.3f, %.3f], then %s %.3f [%.3f, %.3f] "
                       "(policies.tsv); transfer not run (needs another GPU's trace).", n_in, runs, few, cv[a].policy,
                       cv[a].atm_score, cv[a].atm_lo, cv[a].atm_hi, cv[b].policy, cv[b].atm_score, cv[b].atm_lo,
                       cv[b].atm_hi);
}

/* The ranking table: policies by the methodology's score, with its CI and the earlier area score. */
static struct table *policies_table(const struct pol_curve *cv, int *order, int n, const struct pol_settings *s)
{
    static const char *cols[] = {"policy", "score", "score_lo", "score_hi", "p_first", "score_area", "t90_s", "t95_s",
                                 "t99_s", "final_speedup", "budget_stops"};
    struct table *tab = table_new("Tuning policies ranked by the methodology's score (95% bootstrap CI over runs and "
                                  "inputs), time to 90/95/99% of optimal", 11, cols);
    const double *rep[16];
    double first[16];
    for (int i = 0; i < n; i++)
        rep[i] = cv[i].atm_boot;
    atm_first_share(rep, n, n > 0 ? cv[0].n_boot : 0, first);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort, highest score first (NaN last) */
        for (int k = i; k > 0 && (isnan(cv[order[k - 1]].atm_score) ||
                                  cv[order[k]].atm_score > cv[order[k - 1]].atm_score); k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    if (tab == NULL)
        return NULL;
    for (int k = 0; k < n; k++) {
        const struct pol_curve *p = &cv[order[k]];
        int row = table_add_row(tab);
        double v[10] = {p->atm_score, p->atm_lo, p->atm_hi, first[order[k]], p->score, p->t90_s, p->t95_s, p->t99_s,
                        p->final_speedup, (double)p->n_budget_stops};
        static const int digits[10] = {3, 3, 3, 3, 3, 3, 3, 3, 4, 0};
        table_set_str(tab, row, 0, p->policy);
        for (int j = 0; j < 10; j++)
            table_set_num(tab, row, j + 1, v[j], digits[j]);
    }
    table_add_note(tab, "score: the methodology of Willemsen et al. 2024 (autotuning_methodology): per input, the mean "
                   "over a linear time range (the first time a configuration can be done to where random search is "
                   "expected %g of the way from the median to the optimum) of (f_rand - f) / (f_rand - f_opt) in run "
                   "time, then the mean over inputs; 0 = random search, 1 = the optimum at once. p_first: the share "
                   "of the bootstrap replicates (the same draws for every policy) in which it scores highest. "
                   "score_area: the earlier area ratio. Budget %g s, %d runs per input, seed %llu (docs/simulation.md)",
                   s->atm_cutoff, s->budget_s, s->runs, (unsigned long long)s->seed);
    return tab;
}

/* Tuning policies (docs/simulation.md): every built-in policy on every input, the report's runs and seed, a 60 s
 * budget; policies-curves.tsv for the figure, policies.tsv (the ranking, with CIs) as a table, one finding. */
int report_policies(struct report_ctx *c)
{
    struct pol_settings s;
    struct pol_data *d = NULL;
    struct pol_curve curves[16];
    struct table *tab = NULL;
    double grid[60];
    char path[PATH_MAX];
    int n = 0, rc = -1, order[16];
    FILE *fp = NULL;
    report_say(c, "tuning policies: every built-in policy, %d runs per input", c->o->runs);
    pol_settings_default(&s);
    s.failed_cost = c->res.s[REPORT_SIM_INPUT].failed_cost; /* the report's cost model (report_cost_settings) */
    s.compile_model = c->res.s[REPORT_SIM_INPUT].compile_model;
    s.runs = c->o->runs;
    s.seed = c->o->seed;
    s.n_grid = 60;
    pol_grid(s.budget_s * 1e-4, s.budget_s, s.n_grid, grid);
    if ((d = pol_data_from_trace(c->t)) == NULL)
        goto out;
    for (int k = 0; policy_registry[k] != NULL && n < 16; k++) {
        if (policy_registry[k]->needs_prior)
            continue; /* transfer: the cross-GPU study, with the other GPU's trace */
        if (pol_evaluate(d, policy_registry[k], &s, grid, &curves[n]) != 0)
            goto out;
        n++;
    }
    if ((fp = report_open(c, "policies-curves.tsv", path, sizeof path)) == NULL)
        goto out;
    pol_write_curves(fp, curves, n);
    if (report_close(fp, path) != 0) {
        fp = NULL;
        goto out;
    }
    fp = NULL;
    if ((tab = policies_table(curves, order, n, &s)) == NULL)
        goto out;
    if (report_keep_table(c, tab, "policies.tsv", "Tuning policies (beyond the paper)", 20) != 0) {
        tab = NULL;
        goto out;
    }
    tab = NULL;
    policies_finding(c, curves, order, n, pol_data_n_inputs(d), s.runs);
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

/* ---- L2 flush study ------------------------------------------------------------------------------------------ */

/* The finding of the flush study: against the collection with the largest flush, how much faster the others
 * collect and whether their best configurations differ; what the flush costs in GPU time. */
static int flush_finding(struct report_ctx *c, int n_traces, int n_inputs)
{
    const struct table *f = c->res.flush;
    int cb = table_col_need(f, "flush_bytes"), ct = table_col_need(f, "total_s"), cs = table_col_need(f, "speedup");
    int cg = table_col_need(f, "gemm_gpu_s"), cf = table_col_need(f, "flush_gpu_s");
    int cc = table_col_need(f, "common_inputs"), cx = table_col_need(f, "best_changed");
    int ref = 0, off = 0, m = table_n_rows(f);
    if (cb < 0 || ct < 0 || cs < 0 || cg < 0 || cf < 0 || cc < 0 || cx < 0)
        return -1;
    for (int i = 1; i < m; i++) {
        if (table_num(f, i, cb) > table_num(f, ref, cb))
            ref = i;
        if (table_num(f, i, cb) < table_num(f, off, cb))
            off = i;
    }
    double gemm = table_num(f, ref, cg), flush = table_num(f, ref, cf);
    return report_finding(c, "**L2 flush study** (Tables 3 and 5, %d collections of %d inputs): with flush_bytes %.0f "
                          "collecting is %.2fx faster than with %.0f, whose flushes take %.0f%% of GPU time; the best "
                          "configuration changes on %.0f of %.0f inputs (flush-study.tsv).", n_traces, n_inputs,
                          table_num(f, off, cb), table_num(f, off, cs), table_num(f, ref, cb),
                          100 * flush / (flush + gemm), table_num(f, off, cx), table_num(f, off, cc));
}

int report_flush_study(struct report_ctx *c)
{
    const char *dir = c->o->flush_dir;
    char **paths = NULL;
    const char **names = NULL;
    struct trace **ts = NULL;
    int n = 0, rc = REPORT_EBADINPUT;
    if (dir == NULL)
        return report_finding(c, "No L2 flush study was given (--flush-study DIR: traces of the same inputs collected "
                              "with different --flush-bytes), so Tables 3 and 5 are not in this report.");
    report_say(c, "L2 flush study: %s", dir);
    if (tables_list_dir(dir, "", ".h5", &paths, &n) != 0) {
        tc_preferr("--flush-study");
        return REPORT_EBADINPUT;
    }
    if (n < 2) {
        tc_seterr("--flush-study %s: expected at least two .h5 traces of the same inputs with different flush_bytes, "
                  "found %d", dir, n);
        goto out;
    }
    ts = calloc((size_t)n, sizeof *ts);
    names = calloc((size_t)n, sizeof *names);
    if (ts == NULL || names == NULL) {
        rc = tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < n; k++) {
        names[k] = tables_base_name(paths[k]); /* the table names files, not where this checkout keeps them */
        if ((ts[k] = trace_open(paths[k])) == NULL) {
            tc_preferr("--flush-study");
            goto out;
        }
    }
    if ((c->res.flush = tables_flush((const struct trace *const *)ts, names, n)) == NULL) {
        tc_preferr("--flush-study %s", dir);
        goto out;
    }
    rc = -1;
    if (report_keep_table(c, c->res.flush, "flush-study.tsv", "L2 flush study: collection time, GEMM vs flush GPU time "
                          "(Tables 3 and 5)", 20) != 0 ||
        flush_finding(c, n, trace_n_inputs(ts[0])) != 0)
        goto out;
    rc = 0;
out:
    for (int k = 0; ts != NULL && k < n; k++)
        trace_close(ts[k]);
    free(ts);
    free(names);
    tables_paths_free(paths, n);
    return rc;
}

/* ---- compile scaling ----------------------------------------------------------------------------------------- */

/* Per file: its pass with the most workers that has a speedup. */
static int scaling_finding(struct report_ctx *c)
{
    const struct table *s = c->res.scaling;
    int cf = table_col_need(s, "file"), cn = table_col_need(s, "configs"), cj = table_col_need(s, "jobs");
    int cw = table_col_need(s, "wall_s"), cs = table_col_need(s, "speedup"), ce = table_col_need(s, "efficiency");
    int c1 = table_col_need(s, "one_worker_s"), cfrom = table_col_need(s, "one_worker_from"), m = table_n_rows(s);
    int best = -1;
    if (cf < 0 || cn < 0 || cj < 0 || cw < 0 || cs < 0 || ce < 0 || c1 < 0 || cfrom < 0)
        return -1;
    /* the pass with the most configurations and workers that has a 1-worker time to compare with */
    for (int i = 0; i < m; i++)
        if (table_num(s, i, cj) > 1 && isfinite(table_num(s, i, cs)) &&
            (best < 0 || table_num(s, i, cn) > table_num(s, best, cn) ||
             (table_num(s, i, cn) == table_num(s, best, cn) && table_num(s, i, cj) > table_num(s, best, cj))))
            best = i;
    if (best < 0)
        return report_finding(c, "**Compile scaling** (Table 7, %s): no pass with several workers has a 1-worker "
                              "pass to compare with, so no speedup can be given.", c->o->scaling_dir);
    return report_finding(c, "**Compile scaling** (Table 7, NVRTC in forked workers): %.0f workers compile %.0f "
                          "configurations %.2fx faster than one (%.1f s -> %.1f s, efficiency %.2f, %s); every pass in "
                          "compile-scaling.tsv.", table_num(s, best, cj), table_num(s, best, cn),
                          table_num(s, best, cs), table_num(s, best, c1), table_num(s, best, cw),
                          table_num(s, best, ce), table_cell(s, best, cf));
}

int report_scaling(struct report_ctx *c)
{
    const char *dir = c->o->scaling_dir;
    char **paths = NULL;
    int n = 0, rc = REPORT_EBADINPUT;
    if (dir == NULL)
        return report_finding(c, "No compile-scaling study was given (--scaling DIR: the scaling-*.tsv files of "
                              "`tunecost collect --compile-only --jobs 1,16`), so Table 7 is not in this report.");
    report_say(c, "compile scaling: %s", dir);
    if (tables_list_dir(dir, "scaling-", ".tsv", &paths, &n) != 0) {
        tc_preferr("--scaling");
        return REPORT_EBADINPUT;
    }
    if (n == 0) {
        tc_seterr("--scaling %s: no scaling-*.tsv files (compile-scaling tables of `tunecost collect "
                  "--compile-only`) in it", dir);
        goto out;
    }
    if ((c->res.scaling = tables_scaling((const char *const *)paths, n)) == NULL) {
        tc_preferr("--scaling");
        goto out;
    }
    rc = -1;
    if (report_keep_table(c, c->res.scaling, "compile-scaling.tsv", "Compile time with 1 to N workers (Table 7)", 40) !=
            0 ||
        scaling_finding(c) != 0)
        goto out;
    rc = 0;
out:
    tables_paths_free(paths, n);
    return rc;
}

/* ---- two kernel families --------------------------------------------------------------------------------------- */

/* One family's per-input numbers: best time, best vs cuBLAS, and what a typical valid configuration reaches (the
 * median over its valid configurations of best time / configuration time). */
struct family {
    const struct trace *t;
    double *best_ms, *vs_cublas, *typical;
};

static void family_free(struct family *f)
{
    free(f->best_ms);
    free(f->vs_cublas);
    free(f->typical);
}

static int family_compute(const struct trace *t, struct family *f)
{
    int ni = trace_n_inputs(t), nc = trace_n_configs(t);
    double *rel = malloc(((size_t)nc + 1) * sizeof *rel);
    memset(f, 0, sizeof *f);
    f->t = t;
    f->best_ms = malloc(((size_t)ni + 1) * sizeof *f->best_ms);
    f->vs_cublas = malloc(((size_t)ni + 1) * sizeof *f->vs_cublas);
    f->typical = malloc(((size_t)ni + 1) * sizeof *f->typical);
    if (rel == NULL || f->best_ms == NULL || f->vs_cublas == NULL || f->typical == NULL) {
        free(rel);
        family_free(f);
        return tc_seterr_env("out of memory");
    }
    for (int i = 0; i < ni; i++) {
        const struct trace_input *in = trace_input(t, i);
        double ns = NAN;
        int nv = 0, m = 0;
        trace_best_config(t, i, &ns, &nv);
        f->best_ms[i] = ns / 1e6;
        /* TFLOP/s ratio = cuBLAS time / best time (the same flops) */
        f->vs_cublas[i] = isfinite(in->ref_ms) && in->ref_ms > 0 ? in->ref_ms / f->best_ms[i] : NAN;
        for (int k = 0; k < nc && isfinite(ns); k++) {
            long r = trace_find_run(t, i, k);
            if (r >= 0 && trace_run_valid(t, (size_t)r))
                rel[m++] = f->best_ms[i] / (trace_run_true_ns(t, (size_t)r) / 1e6);
        }
        qsort(rel, (size_t)m, sizeof *rel, tc_cmp_double);
        f->typical[i] = m > 0 ? tc_median_sorted(rel, (size_t)m) : NAN;
    }
    free(rel);
    return 0;
}

/* Median (and lowest) of the finite values of v[0..n). */
static double median_of(const double *v, int n, double *lo)
{
    double *w = malloc(((size_t)n + 1) * sizeof *w), med = NAN;
    int m = 0;
    *lo = NAN;
    if (w == NULL)
        return NAN;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]))
            w[m++] = v[i];
    qsort(w, (size_t)m, sizeof *w, tc_cmp_double);
    if (m > 0) {
        med = tc_median_sorted(w, (size_t)m);
        *lo = w[0];
    }
    free(w);
    return med;
}

/* landscapes.tsv: per input of the reference trace, both families side by side (NaN where the second trace lacks
 * the input). */
static struct table *landscape_table(const struct family *a, const struct family *b, const int *match)
{
    static const char *before[] = {"input", "label"};
    static const char *after[] = {"cublas_ms",  "ref_best_ms", "ref_vs_cublas", "ref_typical_rel", "cmp_best_ms",
                                  "cmp_vs_cublas", "cmp_typical_rel", "ref_speed_over_cmp"};
    const struct trace *t = a->t;
    int nd = trace_n_dims(t), nb = 2, na = 8;
    const char *cols[2 + 8 + 8];
    struct table *tab;
    char label[64];
    if (nd > 8) {
        tc_seterr("%s: more than 8 input dimensions", trace_path(t));
        return NULL;
    }
    for (int k = 0; k < nb; k++)
        cols[k] = before[k];
    for (int k = 0; k < nd; k++)
        cols[nb + k] = trace_dim_name(t, k);
    for (int k = 0; k < na; k++)
        cols[nb + nd + k] = after[k];
    if ((tab = table_new("Two kernel families: best configuration per input", nb + nd + na, cols)) == NULL)
        return NULL;
    for (int i = 0; i < trace_n_inputs(t); i++) {
        int row = table_add_row(tab), col = 0, j = match[i];
        double nan = NAN;
        if (row < 0)
            goto fail;
        table_set_int(tab, row, col++, i);
        table_set_str(tab, row, col++, tables_input_label(t, i, label, sizeof label));
        for (int k = 0; k < nd; k++)
            table_set_int(tab, row, col++, (long long)trace_dims(t, i)[k]);
        table_set_num(tab, row, col++, trace_input(t, i)->ref_ms, 5);
        table_set_num(tab, row, col++, a->best_ms[i], 5);
        table_set_num(tab, row, col++, a->vs_cublas[i], 3);
        table_set_num(tab, row, col++, a->typical[i], 3);
        table_set_num(tab, row, col++, j >= 0 ? b->best_ms[j] : nan, 5);
        table_set_num(tab, row, col++, j >= 0 ? b->vs_cublas[j] : nan, 3);
        table_set_num(tab, row, col++, j >= 0 ? b->typical[j] : nan, 3);
        if (table_set_num(tab, row, col++, j >= 0 ? b->best_ms[j] / a->best_ms[i] : nan, 3) != 0)
            goto fail;
    }
    table_add_note(tab, "ref = %s; cmp = %s; *_vs_cublas = cuBLAS time / best time (TFLOP/s ratio); "
                   "*_typical_rel = median over the valid configurations of best time / configuration time (what a "
                   "configuration picked at random reaches); ref_speed_over_cmp = cmp best time / ref best time",
                   trace_path(a->t), trace_path(b->t));
    return tab;
fail:
    table_free(tab);
    return NULL;
}

/* One row of landscapes-summary.tsv and the numbers the finding quotes. */
struct family_summary {
    double med_vs, lo_vs, med_typical, lo_typical, t90, t95, compile_pct;
    double t95_lo, t95_hi; /* t95's 95% CI (fresh runs) */
};

static int summary_row(struct table *tab, const struct family *f, const int *sel, int n_sel,
                       const struct sim_result *r, int n_sc, const struct table *split, struct family_summary *out)
{
    struct report_split sp;
    double *vs = malloc(((size_t)n_sel + 1) * sizeof *vs), *ty = malloc(((size_t)n_sel + 1) * sizeof *ty);
    char name[256];
    int row, nw = 0;
    if (vs == NULL || ty == NULL || report_split_shares(split, &sp) != 0) {
        if (vs == NULL || ty == NULL)
            tc_seterr_env("out of memory");
        free(vs);
        free(ty);
        return -1;
    }
    for (int k = 0; k < n_sel; k++) {
        vs[k] = f->vs_cublas[sel[k]];
        ty[k] = f->typical[sel[k]];
    }
    out->med_vs = median_of(vs, n_sel, &out->lo_vs);
    out->med_typical = median_of(ty, n_sel, &out->lo_typical);
    free(vs);
    free(ty);
    (void)r;
    (void)n_sc; /* t90, t95: set by the caller from landscapes-common.tsv (common reference, re-evaluated) */
    out->compile_pct = 100 * sp.compile_ms / (sp.repetition_ms + sp.overhead_ms + sp.compile_ms);
    for (int k = 0; k < trace_n_configs(f->t); k++)
        nw += trace_config(f->t, k)->path == 1;
    report_family_name(f->t, name, sizeof name);
    if ((row = table_add_row(tab)) < 0)
        return -1;
    table_set_str(tab, row, 0, name);
    table_set_int(tab, row, 1, trace_n_configs(f->t));
    table_set_int(tab, row, 2, nw);
    table_set_int(tab, row, 3, n_sel);
    table_set_num(tab, row, 4, out->med_vs, 3);
    table_set_num(tab, row, 5, out->lo_vs, 3);
    table_set_num(tab, row, 6, out->med_typical, 3);
    table_set_num(tab, row, 7, out->t90, 3);
    table_set_num(tab, row, 8, out->t95, 3);
    return table_set_num(tab, row, 9, out->compile_pct, 1);
}

/* ---- two families against a common reference: the best of both per input --------------------------------- */

#define N_BUDGETS 6
/* One family's samples against the common reference (c->res.common) under every cost model on verdict seed k: one
 * simulation of all common inputs whose scenarios are the models (report_common_settings; each model's points are
 * those of a simulation of that model alone, one pass serving all), or, for the first family, the points the verdict
 * set replayed (the same settings and draws: the same bits). pts[m][sample], each allocated here. */
static int common_points(struct report_ctx *c, int f, int k, struct sim_point *pts[REPORT_N_MODELS])
{
    struct sim_settings s;
    struct sim_result *r = f == 0 ? c->res.common_fold[k] : NULL;
    int ok = 1;
    report_common_settings(c, f, k, &s);
    if (r != NULL)
        c->res.common_fold[k] = NULL;
    else if ((r = sim_run(c->res.d[f ? REPORT_SIM_CMP : REPORT_SIM_ALL], &s, NULL, NULL)) == NULL)
        return -1;
    for (int m = 0; m < REPORT_N_MODELS; m++)
        ok &= (pts[m] = calloc((size_t)s.samples, sizeof *pts[m])) != NULL;
    for (int m = 0; m < REPORT_N_MODELS && ok; m++)
        for (int j = 0; j < s.samples; j++) {
            pts[m][j] = r->points[(size_t)j * REPORT_N_MODELS + (size_t)m];
            pts[m][j].scenario = 0; /* a point of a one-scenario result (report_pick_*, report_reeval) */
        }
    sim_result_free(r);
    if (!ok) {
        for (int m = 0; m < REPORT_N_MODELS; m++)
            free(pts[m]), pts[m] = NULL;
        return tc_seterr_env("out of memory");
    }
    return 0;
}

/* Budgets for both families: log-spaced from the cheaper family's cheapest sample to the dearer median, 3 digits. */
static void common_budgets(struct sim_point *const pts[2], int n, double *budget)
{
    double lo = INFINITY, hi = 0;
    double *t = malloc(((size_t)n + 1) * sizeof *t);
    for (int f = 0; f < 2 && t != NULL; f++) {
        for (int j = 0; j < n; j++)
            t[j] = pts[f][j].time_s;
        qsort(t, (size_t)n, sizeof *t, tc_cmp_double);
        lo = fmin(lo, t[0]);
        hi = fmax(hi, t[(n - 1) / 2]);
    }
    free(t);
    for (int k = 0; k < N_BUDGETS; k++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%.3g", lo > 0 && hi > lo ? lo * pow(hi / lo, (k + 1) / (double)N_BUDGETS) : hi);
        budget[k] = strtod(buf, NULL);
    }
}

static int common_row(struct table *tab, int k, int m, const char *kind, double v, const char *fam,
                      const struct report_est *e, const char *lead)
{
    int row = table_add_row(tab), col = 0;
    if (row < 0)
        return -1;
    table_set_int(tab, row, col++, k + 1);
    table_set_str(tab, row, col++, report_model_names[m]);
    table_set_str(tab, row, col++, kind);
    table_set_num(tab, row, col++, v, -1);
    table_set_str(tab, row, col++, fam);
    table_set_num(tab, row, col++, e->time_s, 3);
    table_set_num(tab, row, col++, e->time_lo, 3);
    table_set_num(tab, row, col++, e->time_hi, 3);
    table_set_num(tab, row, col++, e->speedup, 4);
    table_set_num(tab, row, col++, e->speedup_lo, 4);
    table_set_num(tab, row, col++, e->speedup_hi, 4);
    table_set_int(tab, row, col++, e->sample);
    return table_set_str(tab, row, col, lead);
}

/* Who leads at the budgets of one seed and cost model: at how many budgets each family's re-evaluated speedup
 * lies above the other's 95% CI (its CI's lower bound above the other's upper bound), of the budgets where both have
 * a point; the rest are too close to call. */
struct lead {
    int first, second, both;
};

/* One seed and cost model: from both families' samples (pts[f], common_points of seed k, model m), the best within
 * each budget and the time to 0.90 / 0.95 of the common reference, each re-evaluated on fresh runs. Writes rows
 * into tab and returns who leads at the budgets. */
static int common_seed(struct report_ctx *c, int k, int m, const char *const names[2], struct sim_point *const pts[2],
                       struct table *tab, struct lead *lead)
{
    static const double targets[2] = {0.90, 0.95};
    struct sim_settings s[2];
    struct report_est e[2][N_BUDGETS + 2];
    double budget[N_BUDGETS];
    int rc = -1;
    char lead_txt[96];
    for (int f = 0; f < 2; f++) { /* model m alone: what the re-evaluations replay */
        report_common_settings(c, f, k, &s[f]);
        s[f].n_scenarios = 1;
        s[f].scenarios[0] = s[f].scenarios[m];
    }
    common_budgets(pts, s[0].samples, budget);
    for (int f = 0; f < 2; f++) {
        struct sim_result r = {s[f].samples, pts[f], c->res.common.n, 0.0};
        const struct sim_data *d = c->res.d[f ? REPORT_SIM_CMP : REPORT_SIM_ALL];
        for (int q = 0; q < N_BUDGETS + 2; q++) {
            const struct sim_point *p = q < N_BUDGETS ? sim_budget_pick(&r, 1, 0, budget[q])
                                                      : report_pick_ttt(&r, 1, 0, targets[q - N_BUDGETS]);
            uint64_t seed = report_derive_seed(REPORT_VERDICT_SEED, 7000 + (uint64_t)(m * 256 + k * 64 + f * 16 + q));
            if (report_reeval(d, &s[f], 0, p, seed, &e[f][q]) != 0)
                goto out;
            if (q >= N_BUDGETS) /* a time to target: only where the fresh runs' mean reaches it */
                report_held_out(&e[f][q], targets[q - N_BUDGETS]);
        }
    }
    *lead = (struct lead){0, 0, 0};
    for (int q = 0; q < N_BUDGETS; q++)
        if (isfinite(e[0][q].speedup) && isfinite(e[1][q].speedup)) {
            lead->both++;
            lead->first += e[0][q].speedup_lo > e[1][q].speedup_hi;
            lead->second += e[1][q].speedup_lo > e[0][q].speedup_hi;
        }
    snprintf(lead_txt, sizeof lead_txt, "first %d, second %d of %d budgets", lead->first, lead->second, lead->both);
    for (int f = 0; f < 2; f++)
        for (int q = 0; q < N_BUDGETS + 2; q++)
            if (common_row(tab, k, m, q < N_BUDGETS ? "budget_s" : "target_speedup",
                           q < N_BUDGETS ? budget[q] : targets[q - N_BUDGETS], names[f], &e[f][q], lead_txt) != 0)
                goto out;
    rc = 0;
out:
    return rc;
}

/* landscapes-common.tsv: both families against the common reference on three seeds. */
/* The two families on shared draws, per cost model (rows into pt, stability.tsv's columns): with the same seed and
 * settings, sample j of either family has the same N_CONFIG, EXEC_TIME and gsl_rng stream per run, so per sample
 * the speedup against the common reference (first - second) and the time (log first / second) are paired
 * differences; each seed's mean with its 95% t interval, the verdict only where seeds 1, 2, 3 agree. */
static int family_paired(struct sim_point *const pts[3][2][REPORT_N_MODELS], int n, struct table *pt)
{
    for (int m = 0; m < REPORT_N_MODELS; m++) {
        struct report_paired sp[3], tr[3];
        for (int k = 0; k < 3; k++) {
            sp[k] = report_paired_points(pts[k][0][m], pts[k][1][m], n, 1, 1, -INFINITY, INFINITY);
            tr[k] = report_paired_points(pts[k][0][m], pts[k][1][m], n, 1, 0, -INFINITY, INFINITY);
        }
        if (report_paired_row(pt, "kernel-family", report_model_names[m], "paired_speedup_diff", sp, -0.01, 0.01,
                              "the second family tunes to more", "same speedup",
                              "the first family tunes to more") != 0 ||
            report_paired_row(pt, "kernel-family", report_model_names[m], "paired_time_ratio", tr, 0.9, 1.1,
                              "the first family tunes faster", "same time", "the second family tunes faster") != 0)
            return -1;
    }
    return 0;
}

static struct table *common_table(struct report_ctx *c, struct lead lead[REPORT_N_MODELS][3], struct table *pt)
{
    static const char *cols[] = {"seed_index", "model", "kind", "value", "family", "time_s", "time_s_lo", "time_s_hi",
                                 "speedup", "speedup_lo", "speedup_hi", "sample", "lead"};
    const struct report_common *cr = &c->res.common;
    struct sim_point *pts[3][2][REPORT_N_MODELS]; /* [seed][family][model][sample] */
    char na[256], nb[256];
    const char *names[2] = {na, nb};
    struct table *tab = table_new("Two kernel families against a common reference (best of both per input)", 13,
                                  cols);
    int ok = 0;
    memset(pts, 0, sizeof pts);
    report_family_name(c->t, na, sizeof na);
    report_family_name(c->cmp, nb, sizeof nb);
    if (tab == NULL || report_common_ref(c) != 1)
        goto out;
    report_say(c, "  two families against a common reference: %d inputs, %d cost models x 3 seeds%s", cr->n,
               REPORT_N_MODELS, c->res.common_fold[0] != NULL ? " (the first family's replayed with the verdicts)" : "");
    for (int k = 0; k < 3 && cr->n > 0; k++)
        for (int f = 0; f < 2; f++)
            if (common_points(c, f, k, pts[k][f]) != 0)
                goto out;
    if (cr->n > 0 && family_paired(pts, c->res.s[REPORT_SIM_ALL].samples, pt) != 0)
        goto out;
    for (int m = 0; m < REPORT_N_MODELS && cr->n > 0; m++)
        for (int k = 0; k < 3; k++) {
            struct sim_point *const two[2] = {pts[k][0][m], pts[k][1][m]};
            if (common_seed(c, k, m, names, two, tab, &lead[m][k]) != 0)
                goto out;
        }
    table_add_note(tab, "speedup: the tuned configuration's true time against the best of both families' optimal "
                   "for the input, mean over the %d common inputs and the runs; per cost model (compile: sequential, "
                   "pipelined, ideal), seed and family the best sample "
                   "within each budget (kind budget_s) or the cheapest reaching the target (target_speedup), chosen "
                   "on the seed's simulation and re-evaluated on %d fresh runs per input; lead: at how many budgets "
                   "each family's re-evaluated speedup lies above the other's 95%% CI (first = %s)", cr->n,
                   report_reeval_runs(c->res.s[REPORT_SIM_ALL].runs), na);
    ok = 1;
out:
    for (int k = 0; k < 3; k++)
        for (int f = 0; f < 2; f++)
            for (int m = 0; m < REPORT_N_MODELS; m++)
                free(pts[k][f][m]);
    return table_finish(tab, ok);
}

/* What a family's trace lacks, as a clause: "every compile cost measured", or the pairs whose isolated and failing
 * compile times simulate imputes. */
static void family_costs(const struct trace *t, const char *name, char *buf, size_t len)
{
    long pairs, no_iso, failed, failed_nc;
    sim_trace_imputed(t, &pairs, &no_iso, &failed, &failed_nc);
    if (no_iso == 0 && failed_nc == 0)
        snprintf(buf, len, "%s has every compile cost measured", name);
    else
        snprintf(buf, len, "%s lacks the isolated compile time of %ld of %ld pairs and the compile time of %ld of %ld "
                 "failing ones (imputed: their contended compile_ms, the input's median valid one), so its compile "
                 "share and tuning times are understated", name, no_iso, pairs, failed_nc, failed);
}

static int landscape_finding(struct report_ctx *c, const struct family *a, const struct family *b,
                             const struct family_summary *sa, const struct family_summary *sb, const int *match)
{
    char na[256], nb[256];
    int n = 0;
    for (int i = 0; i < trace_n_inputs(a->t); i++)
        n += match[i] >= 0 && isfinite(a->best_ms[i]) && isfinite(b->best_ms[match[i]]);
    report_family_name(a->t, na, sizeof na);
    report_family_name(b->t, nb, sizeof nb);
    struct stab_pair {
        const char *measure;
        char text[160];
    } sp[2] = {{"paired_speedup_diff", ""}, {"paired_time_ratio", ""}};
    if (n == 0)
        return report_finding(c, "**Two kernel families**: %s and %s have no input in common with a valid run, so "
                              "they cannot be compared.", na, nb);
    for (int q = 0; q < 2; q++) {
        int cm = table_col_need(c->res.fam_paired, "model"), cme = table_col_need(c->res.fam_paired, "measure");
        int cst = table_col_need(c->res.fam_paired, "stable"), ccat = table_col_need(c->res.fam_paired, "category");
        int c1 = table_col_need(c->res.fam_paired, "seed_1"), clo = table_col_need(c->res.fam_paired, "seed_1_lo");
        int chi = table_col_need(c->res.fam_paired, "seed_1_hi"), row = -1;
        if (cm < 0 || cme < 0 || cst < 0 || ccat < 0 || c1 < 0 || clo < 0 || chi < 0)
            return -1;
        for (int i = 0; i < table_n_rows(c->res.fam_paired) && row < 0; i++)
            if (strcmp(table_cell(c->res.fam_paired, i, cm), "sequential") == 0 &&
                strcmp(table_cell(c->res.fam_paired, i, cme), sp[q].measure) == 0)
                row = i;
        if (row < 0)
            return tc_seterr("landscapes-paired.tsv: no sequential %s row", sp[q].measure);
        snprintf(sp[q].text, sizeof sp[q].text, q ? "%s: time ratio %.2f (95%% CI %.2f-%.2f)"
                 : "%s: speedup difference %+.3f (95%% CI %+.3f to %+.3f)",
                 table_num(c->res.fam_paired, row, cst) > 0 ? table_cell(c->res.fam_paired, row, ccat) : "no verdict",
                 table_num(c->res.fam_paired, row, c1), table_num(c->res.fam_paired, row, clo),
                 table_num(c->res.fam_paired, row, chi));
    }
    return report_finding(c, "**The kernel family changes what tuning buys** (%s vs %s, %d inputs, sequential "
                          "compilation, shared draws, seeds 1-3): median best %.2f vs %.2f of cuBLAS; %s on seed 1; "
                          "time in landscapes-paired.tsv.", tables_base_name(trace_path(a->t)),
                          tables_base_name(trace_path(b->t)), n, sa->med_vs, sb->med_vs, sp[0].text);
}

/* Seed 1's re-evaluated times to 0.90 and 0.95 of the common reference of family 1 or 2 under sequential
 * compilation (row order of common_seed: family by family, the budgets then the two targets). */
static int common_ttt(const struct table *t, int family, struct family_summary *fs)
{
    int cs = table_col_need(t, "seed_index"), ck = table_col_need(t, "kind"), cv = table_col_need(t, "value");
    int ct = table_col_need(t, "time_s"), cm = table_col_need(t, "model"), n = 0;
    int clo = table_col_need(t, "time_s_lo"), chi = table_col_need(t, "time_s_hi");
    fs->t90 = fs->t95 = fs->t95_lo = fs->t95_hi = NAN;
    if (cs < 0 || ck < 0 || cv < 0 || ct < 0 || cm < 0 || clo < 0 || chi < 0)
        return -1;
    for (int i = 0; i < table_n_rows(t); i++)
        if (table_num(t, i, cs) == 1 && strcmp(table_cell(t, i, cm), "sequential") == 0 &&
            strcmp(table_cell(t, i, ck), "target_speedup") == 0 && ++n > 2 * (family - 1) && n <= 2 * family) {
            if (fabs(table_num(t, i, cv) - 0.90) < 1e-9) {
                fs->t90 = table_num(t, i, ct);
            } else {
                fs->t95 = table_num(t, i, ct);
                fs->t95_lo = table_num(t, i, clo);
                fs->t95_hi = table_num(t, i, chi);
            }
        }
    return 0;
}

int report_landscapes(struct report_ctx *c)
{
    static const char *cols[] = {"family", "configs", "wgmma_configs", "inputs", "median_vs_cublas", "min_vs_cublas",
                                 "median_typical_rel", "t90_s", "t95_s", "compile_pct"};
    struct family a = {0}, b = {0};
    struct family_summary sa, sb;
    struct table *sum = NULL, *common = NULL, *paired = NULL;
    struct lead lead[REPORT_N_MODELS][3];
    int ni = trace_n_inputs(c->t), *match = NULL, *sel_a = NULL, *sel_b = NULL, n_sel = 0, rc = -1;
    if (c->cmp == NULL)
        return report_finding(c, "No trace of a second kernel family was given (--compare-trace; by default the "
                              "gemm-h200-mmasync.h5 shipped beside the trace), so the two-landscape comparison is not "
                              "in this report.");
    if (trace_n_dims(c->cmp) != trace_n_dims(c->t)) {
        tc_seterr("--compare-trace %s: inputs have %d dimensions, %s has %d: not the same benchmark", c->o->compare_path,
                  trace_n_dims(c->cmp), c->o->trace_path, trace_n_dims(c->t));
        return REPORT_EBADINPUT;
    }
    report_say(c, "two kernel families: %s vs %s", c->o->trace_path, c->o->compare_path);
    if ((rc = report_simulate(c, REPORT_SIM_CMP)) != 0)
        return rc;
    rc = -1;
    for (int m = 0; m < REPORT_N_MODELS; m++)
        lead[m][0] = lead[m][1] = lead[m][2] = (struct lead){0, 0, 0};
    match = malloc(((size_t)ni + 1) * sizeof *match);
    sel_a = malloc(((size_t)ni + 1) * sizeof *sel_a);
    sel_b = malloc(((size_t)ni + 1) * sizeof *sel_b);
    if (match == NULL || sel_a == NULL || sel_b == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int i = 0; i < ni; i++) {
        match[i] = trace_find_input(c->cmp, trace_dims(c->t, i));
        if (match[i] >= 0) {
            sel_a[n_sel] = i;
            sel_b[n_sel++] = match[i];
        }
    }
    if (report_write_sim_files(c, REPORT_SIM_CMP) != 0 || family_compute(c->t, &a) != 0 ||
        family_compute(c->cmp, &b) != 0 || (c->res.cmp_split = tables_split(c->cmp)) == NULL)
        goto out;
    if ((c->res.landscape = landscape_table(&a, &b, match)) == NULL ||
        (paired = report_stability_new("Two kernel families on shared draws, per cost model, three seeds")) == NULL ||
        (common = common_table(c, lead, paired)) == NULL || common_ttt(common, 1, &sa) != 0 ||
        common_ttt(common, 2, &sb) != 0 ||
        (sum = table_new("Two kernel families on the same benchmark", 10, cols)) == NULL ||
        summary_row(sum, &a, sel_a, n_sel, c->res.r[REPORT_SIM_ALL], N_SC_ALL, c->res.split, &sa) != 0 ||
        summary_row(sum, &b, sel_b, n_sel, c->res.r[REPORT_SIM_CMP], 1, c->res.cmp_split, &sb) != 0)
        goto out;
    if (report_keep_table(c, common, "landscapes-common.tsv", "Two kernel families against a common reference",
                          -1) != 0) {
        common = NULL;
        goto out;
    }
    common = NULL;
    table_add_note(paired, "per cost model and seed, both families' samples on the same draws (same seed and settings: "
                   "sample j has the same N_CONFIG, EXEC_TIME and random stream in either, its runs drawn from it "
                   "input by input), all common inputs: paired_speedup_diff = mean over the samples of speedup(first) - speedup(second) against "
                   "the common reference, verdict beyond +-0.01; paired_time_ratio = geometric mean of time(first) / "
                   "time(second), verdict outside [0.9, 1.1]; seed_k_lo, seed_k_hi: each seed's 95%% t interval, its "
                   "category by it; the verdict only when seeds 1, 2, 3 agree");
    if (report_keep_table(c, paired, "landscapes-paired.tsv", "Two kernel families on shared draws", 20) != 0) {
        paired = NULL;
        goto out;
    }
    c->res.fam_paired = paired;
    paired = NULL;
    char ca[512], cb[512];
    family_costs(a.t, tables_base_name(trace_path(a.t)), ca, sizeof ca);
    family_costs(b.t, tables_base_name(trace_path(b.t)), cb, sizeof cb);
    table_add_note(sum, "over the %d inputs both traces hold; *_vs_cublas: best configuration's TFLOP/s over "
                   "cuBLAS's; median_typical_rel: a configuration picked at random, as a share of its input's best; "
                   "t90_s, t95_s: mean tuning time the paper's tuner needs for 0.90 and 0.95 of the common "
                   "reference (the better family's best per input; re-evaluated, landscapes-common.tsv, seed %llu); "
                   "compile_pct: compilation's share of tuning time (Figure 1); %s; %s",
                   n_sel, (unsigned long long)c->o->seed, ca, cb);
    if (report_keep_table(c, sum, "landscapes-summary.tsv", "Two kernel families: what tuning buys (beyond the paper)",
                          10) != 0) {
        sum = NULL;
        goto out;
    }
    sum = NULL;
    if (report_keep_table(c, c->res.landscape, "landscapes.tsv", "Two kernel families: best configuration per input",
                          80) != 0 ||
        landscape_finding(c, &a, &b, &sa, &sb, match) != 0)
        goto out;
    rc = 0;
out:
    table_free(sum);
    table_free(common);
    table_free(paired);
    family_free(&a);
    family_free(&b);
    free(match);
    free(sel_a);
    free(sel_b);
    return rc;
}
