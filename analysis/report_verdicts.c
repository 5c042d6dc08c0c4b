/* report_verdicts.c — the report's verdicts with their condition (issue 23): early stopping and parallel
 * compilation under each compile cost model (sequential, pipelined, the paper's ideal), EXEC_TIME against N_CONFIG
 * per model, and EXEC_TIME along the frontier, each recomputed on three seeds. Times to target are re-evaluated on
 * fresh runs (report_reeval.c). verdicts.tsv holds every re-evaluated time, stability.tsv every measure per seed with
 * its category; a finding states a verdict only where the three seeds agree (report_findings.c). */
#include "frontier.h"
#include "report_results.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N_SEEDS REPORT_N_SEEDS
#define N_MODELS REPORT_N_MODELS
/* The stability simulation's scenarios: model m without (2m) and with (2m + 1) early stopping. */
#define N_V_SC REPORT_N_VERDICT_SC
#define V_SEQ 0
static const double targets[2] = {0.90, 0.95};

/* The index of target t among report_ttt_targets (the caller's targets are among them). */
static int ttt_index(double t)
{
    int i = 0;
    while (i + 1 < REPORT_N_TTT && fabs(report_ttt_targets[i] - t) > 1e-9)
        i++;
    return i;
}

/* A ratio of times (without / with the feature) on three seeds: above 1.1 the feature saves time, below 0.9 it
 * costs, else none; the verdict by the CI over the seeds. */
static struct report_measure ratio_measure(const char *verdict, const char *model, const char *measure)
{
    return (struct report_measure){verdict,      model, measure, {0}, {0}, 1, 0.9, 1.1, "costs time", "none",
                                   "saves time", 0,     {0},     {0}};
}

/* ---- all inputs: early stopping and parallel compilation per model ---- */


/* Scenarios a and b of one simulation: every sample replays both on the same draws (the same configurations,
 * order and EXEC_TIME); samples with EXEC_TIME in [x_lo, x_hi] only. */
static struct report_paired paired_cmp(const struct sim_result *r, int n_sc, int a, int b, int speedup, double x_lo,
                                       double x_hi)
{
    return report_paired_points(r->points + a, r->points + b, r->n_points / n_sc, (size_t)n_sc, speedup, x_lo, x_hi);
}


static const char *paired_cat(struct report_paired p, int speedup)
{
    return speedup ? report_paired_cat(p, -0.01, 0.01, "loses speedup", "same speedup", "gains speedup")
                   : report_paired_cat(p, 0.9, 1.1, "costs time", "none", "saves time");
}


/* EXEC_TIME bins of early-stop-conditions.tsv (ms). */
#define N_XBINS 3
static const double xbin[N_XBINS + 1] = {0, 40, 70, 1e9};

/* Seed k's paired rows: early stopping (model m without / with) and parallel compilation (sequential / model m),
 * time ratio and speedup difference; seed 1's early-stopping ratio per EXEC_TIME bin into c->res.es_cond. */
static int paired_seed(struct report_ctx *c, const struct sim_result *r, int k, struct report_paired pr[][4])
{
    for (int m = 0; m < N_MODELS; m++) {
        pr[m][0] = paired_cmp(r, N_V_SC, 2 * m, 2 * m + 1, 0, -INFINITY, INFINITY);
        pr[m][1] = paired_cmp(r, N_V_SC, 2 * m + 1, 2 * m, 1, -INFINITY, INFINITY);
        pr[m][2] = paired_cmp(r, N_V_SC, V_SEQ, 2 * m, 0, -INFINITY, INFINITY);
        pr[m][3] = paired_cmp(r, N_V_SC, 2 * m, V_SEQ, 1, -INFINITY, INFINITY);
        for (int b = 0; k == 0 && c->res.es_cond != NULL && b < N_XBINS; b++) {
            struct report_paired q = paired_cmp(r, N_V_SC, 2 * m, 2 * m + 1, 0, xbin[b], xbin[b + 1]);
            int row = table_add_row(c->res.es_cond), col = 0;
            if (row < 0)
                return -1;
            table_set_str(c->res.es_cond, row, col++, report_model_names[m]);
            table_set_num(c->res.es_cond, row, col++, xbin[b], 0);
            table_set_num(c->res.es_cond, row, col++, b + 1 < N_XBINS ? xbin[b + 1] : INFINITY, 0);
            table_set_int(c->res.es_cond, row, col++, q.n);
            table_set_num(c->res.es_cond, row, col++, q.est, 4);
            table_set_num(c->res.es_cond, row, col++, q.lo, 4);
            table_set_num(c->res.es_cond, row, col++, q.hi, 4);
        }
    }
    return 0;
}

/* The paired rows of stability.tsv: per model, each seed's estimate and category by its own CI; the verdict only
 * when the three seeds' categories agree (measure by_ci 0). */
static int paired_rows(struct table *st, struct report_paired pr[N_SEEDS][N_MODELS][4])
{
    static const char *const meas[4] = {"paired_time_ratio", "paired_speedup_diff", "paired_time_ratio",
                                        "paired_speedup_diff"};
    for (int q = 0; q < 4; q++)
        for (int m = q < 2 ? 0 : 1; m < N_MODELS; m++) {
            struct report_measure e = {q < 2 ? "early-stop" : "parallel-compile", report_model_names[m], meas[q],
                                       {0}, {0}, 0, 0, 0, NULL, NULL, NULL, 0, {0}, {0}};
            e.paired = 1;
            for (int k = 0; k < N_SEEDS; k++) {
                e.v[k] = pr[k][m][q].est;
                e.lo[k] = pr[k][m][q].lo;
                e.hi[k] = pr[k][m][q].hi;
                e.cat[k] = paired_cat(pr[k][m][q], q % 2);
            }
            if (report_stability_row(st, &e) != 0)
                return -1;
        }
    return 0;
}

static int all_inputs_seed(struct report_ctx *c, int k, struct table *vt, double t[N_V_SC][2],
                           struct report_paired pr[N_MODELS][4], struct report_est at95[N_MODELS])
{
    struct sim_settings s;
    struct sim_result *r;
    report_verdict_settings(c, k, &s);
    s.n_scenarios = N_V_SC; /* r's: the scenarios after them go to cost_settings and the two-family study */
    s.input_weight = NULL;
    report_say(c, "  stability, seed %d of %d (%llu): all inputs, %d scenarios%s", k + 1, N_SEEDS,
               (unsigned long long)s.seed, N_V_SC,
               k == 0 && c->res.verdict1 != NULL ? " (replayed with the all-inputs simulation)" : "");
    if ((r = report_verdict_run(c, k)) == NULL)
        return -1;
    if (paired_seed(c, r, k, pr) != 0) {
        sim_result_free(r);
        return -1;
    }
    struct report_est set[REPORT_N_TTT * N_V_SC];
    if (report_ttt_set(c->res.d[REPORT_SIM_ALL], &s, r, REPORT_VERDICT_SEED, 5000 + (uint64_t)k * 64, -1, targets[0],
                       set) != 0) {
        sim_result_free(r);
        return -1;
    }
    for (int m = 0; m < N_MODELS; m++) /* each model's time to 0.95 without early stopping, for costs.tsv */
        at95[m] = set[ttt_index(0.95) * N_V_SC + 2 * m];
    for (int sc = 0; sc < N_V_SC; sc++)
        for (int ti = 0; ti < 2; ti++) {
            struct report_est e = set[ttt_index(targets[ti]) * N_V_SC + sc];
            int row;
            if ((row = table_add_row(vt)) < 0) {
                sim_result_free(r);
                return -1;
            }
            int col = 0;
            table_set_int(vt, row, col++, k + 1);
            char sd[32];
            snprintf(sd, sizeof sd, "%llu", (unsigned long long)s.seed);
            table_set_str(vt, row, col++, sd);
            table_set_str(vt, row, col++, report_model_names[sc / 2]);
            table_set_int(vt, row, col++, sc % 2);
            table_set_num(vt, row, col++, targets[ti], 2);
            table_set_num(vt, row, col++, e.time_s, 3);
            table_set_num(vt, row, col++, e.time_lo, 3);
            table_set_num(vt, row, col++, e.time_hi, 3);
            table_set_num(vt, row, col++, e.speedup, 4);
            table_set_num(vt, row, col++, e.speedup_lo, 4);
            table_set_num(vt, row, col++, e.speedup_hi, 4);
            table_set_int(vt, row, col++, e.sample);
            t[sc][ti] = e.time_s;
        }
    sim_result_free(r);
    return 0;
}

static int all_inputs_verdicts(struct report_ctx *c, struct table *vt, struct table *st,
                               struct report_est at95[N_SEEDS][N_MODELS])
{
    double t[N_SEEDS][N_V_SC][2];
    struct report_paired pr[N_SEEDS][N_MODELS][4];
    static const char *ccols[] = {"model", "exec_ms_lo", "exec_ms_hi", "samples", "time_ratio", "ratio_lo",
                                  "ratio_hi"};
    if ((c->res.es_cond = table_new("Early stopping: time without / with on the same draws, by EXEC_TIME and compile "
                                    "model (seed 1, all inputs)", 7, ccols)) == NULL)
        return tc_seterr_env("out of memory");
    for (int k = 0; k < N_SEEDS; k++)
        if (all_inputs_seed(c, k, vt, t[k], pr[k], at95[k]) != 0)
            return -1;
    if (paired_rows(st, pr) != 0)
        return -1;
    table_add_note(c->res.es_cond, "per sample of seed 1 (its N_CONFIG, EXEC_TIME, EARLY_STOP_NUM and threshold, the "
                   "same runs with and without early stopping): log(time without / time with), averaged over the "
                   "samples whose EXEC_TIME lies in [exec_ms_lo, exec_ms_hi); time_ratio = exp(mean), ratio_lo, "
                   "ratio_hi its 95%% t interval over those samples");
    if (report_keep_table(c, c->res.es_cond, "early-stop-conditions.tsv",
                          "Early stopping by EXEC_TIME and compile model", 20) != 0)
        return -1;
    for (int m = 0; m < N_MODELS; m++)
        for (int ti = 0; ti < 2; ti++) {
            struct report_measure e = ratio_measure("early-stop", report_model_names[m],
                                             ti ? "time_ratio_0.95" : "time_ratio_0.90");
            for (int k = 0; k < N_SEEDS; k++) {
                e.v[k] = t[k][2 * m][ti] / t[k][2 * m + 1][ti];
                e.cat[k] = report_measure_cat(&e, e.v[k]);
            }
            if (report_stability_row(st, &e) != 0)
                return -1;
        }
    for (int m = 1; m < N_MODELS; m++)
        for (int ti = 0; ti < 2; ti++) {
            struct report_measure p = ratio_measure("parallel-compile", report_model_names[m],
                                             ti ? "time_ratio_0.95" : "time_ratio_0.90");
            for (int k = 0; k < N_SEEDS; k++) {
                p.v[k] = t[k][V_SEQ][ti] / t[k][2 * m][ti];
                p.cat[k] = report_measure_cat(&p, p.v[k]);
            }
            if (report_stability_row(st, &p) != 0)
                return -1;
        }
    return 0;
}

/* ---- the single input: EXEC_TIME against N_CONFIG per model, EXEC_TIME along the frontier ---- */

static const char *knob_category(double e_n, double e_x, double chance)
{
    if (!isfinite(e_n) || !isfinite(e_x))
        return "n/a";
    return e_n >= 2 * e_x && e_n > 2 * chance ? "N_CONFIG decides" : e_x >= 2 * e_n && e_x > 2 * chance
                                                                      ? "EXEC_TIME decides" : "neither decides";
}

/* Spearman rho of EXEC_TIME with tuning time along the frontier of (time, performance) of scenario 0. */
static double frontier_rho(const struct sim_result *r, int n_sc, int perf_speedup)
{
    int n = r->n_points / n_sc, m = 0;
    double *tm = malloc(((size_t)n + 1) * sizeof *tm), *pf = malloc(((size_t)n + 1) * sizeof *pf);
    double *a = malloc(((size_t)n + 1) * 2 * sizeof *a), *w = malloc(((size_t)n + 1) * 2 * sizeof *w), rho = NAN;
    unsigned char *on = malloc((size_t)n + 1);
    if (tm != NULL && pf != NULL && a != NULL && w != NULL && on != NULL) {
        for (int i = 0; i < n; i++) {
            tm[i] = r->points[(size_t)i * n_sc].time_s;
            pf[i] = perf_speedup ? r->points[(size_t)i * n_sc].speedup : r->points[(size_t)i * n_sc].tflops;
        }
        if (frontier_mark((size_t)n, tm, pf, on) == 0)
            for (int i = 0; i < n; i++)
                if (on[i]) {
                    a[m] = tm[i];
                    a[n + 1 + m++] = r->points[(size_t)i * n_sc].exec_ms;
                }
        if (m >= 3)
            rho = gsl_stats_spearman(a, 1, a + n + 1, 1, (size_t)m, w);
    }
    free(tm);
    free(pf);
    free(a);
    free(w);
    free(on);
    return rho;
}

/* eta² of N_CONFIG and of EXEC_TIME for y over the points of scenario m, and their category. */
static void knob_pair(const struct sim_result *r, const struct sim_settings *s, int m, int what, int flops, int k,
                      double *x1, double *x2, double *y, struct report_measure *a, struct report_measure *b)
{
    int n = r->n_points / s->n_scenarios;
    double chance = 9.0 / (n > 1 ? n - 1 : 1);
    for (int i = 0; i < n; i++) {
        const struct sim_point *p = &r->points[(size_t)i * (size_t)s->n_scenarios + (size_t)m];
        x1[i] = p->n_config;
        x2[i] = p->exec_ms;
        y[i] = what == 1 ? p->time_s : flops ? p->tflops : p->speedup;
    }
    a->v[k] = report_eta_squared(x1, y, n, s->n_config_lo, s->n_config_hi);
    b->v[k] = report_eta_squared(x2, y, n, s->exec_ms_lo, s->exec_ms_hi);
    a->cat[k] = b->cat[k] = knob_category(a->v[k], b->v[k], chance);
}

/* Per seed and model: what explains the tuned kernel's performance (what = 0) and the tuning time (1). */
static int input_verdicts(struct report_ctx *c, struct table *st)
{
    static const char *const meas[2][2] = {{"eta2_n_config", "eta2_exec_time"},
                                           {"eta2_time_n_config", "eta2_time_exec_time"}};
    struct report_measure kn[N_MODELS][2][2], fr = {"exec-time-frontier", "sequential", "spearman_rho", {0}, {0}, 1,
                                                    -0.3, 0.3, "falls", "looks random", "rises", 0, {0}, {0}};
    /* the single input's time to 0.90 and 0.98 under sequential compilation (the paper's tuner), re-evaluated, on each
     * seed: seed 1 replays exactly time-to-target-input.tsv's baseline rows (same sample, same fresh-run seed) */
    static const double reach_target[2] = {0.90, 0.98};
    struct report_measure reach[2] = {
        {"time-to-target", "sequential", "time_s_0.90", {0}, {0}, 0, 0, 0, NULL, NULL, NULL, 0, {0}, {0}},
        {"time-to-target", "sequential", "time_s_0.98", {0}, {0}, 0, 0, 0, NULL, NULL, NULL, 0, {0}, {0}}};
    /* and to 0.95 under each model of "Beyond the paper" (report_findings.c): the simulation's scenarios
     * sequential, parallel, pipelined and, after the models, sequential with the per-execution overhead */
    static const int at95_sc[REPORT_N_AT95] = {V_SEQ, N_MODELS, 2, 1};
    struct report_measure at95[REPORT_N_AT95];
    for (int q = 0; q < REPORT_N_AT95; q++)
        at95[q] = (struct report_measure){"time-to-target", report_at95_names[q], "time_s_0.95", {0}, {0}, 0, 0, 0, NULL,
                                          NULL, NULL, 0, {0}, {0}};
    int flops = !isnan(sim_data_flops(c->res.d[REPORT_SIM_INPUT], 0));
    for (int m = 0; m < N_MODELS; m++)
        for (int w = 0; w < 2; w++)
            for (int j = 0; j < 2; j++)
                kn[m][w][j] = (struct report_measure){"exec-time", report_model_names[m], meas[w][j], {0}, {0}, 0, 0,
                                                      0, NULL, NULL, NULL, 0, {0}, {0}};
    for (int k = 0; k < N_SEEDS; k++) {
        struct sim_settings s = c->res.s[REPORT_SIM_INPUT];
        struct sim_result *r;
        s.seed = report_seed_k(c->o->seed, k);
        s.n_scenarios = N_MODELS + 1;
        for (int m = 0; m < N_MODELS; m++)
            report_model_scenario(&s.scenarios[m], m, 0, c->o->compile_factor);
        report_model_scenario(&s.scenarios[N_MODELS], 0, 0, c->o->compile_factor);
        s.scenarios[N_MODELS].overhead = SIM_OVERHEAD_PER_EXEC;
        snprintf(s.scenarios[N_MODELS].name, sizeof s.scenarios[N_MODELS].name, "%s", report_at95_names[1]);
        if ((r = sim_run(c->res.d[REPORT_SIM_INPUT], &s, NULL, NULL)) == NULL)
            return -1;
        int n = r->n_points / s.n_scenarios;
        double *x1 = malloc(((size_t)n + 1) * sizeof *x1), *x2 = malloc(((size_t)n + 1) * sizeof *x2);
        double *y = malloc(((size_t)n + 1) * sizeof *y);
        if (x1 == NULL || x2 == NULL || y == NULL) {
            free(x1), free(x2), free(y), sim_result_free(r);
            return tc_seterr_env("out of memory");
        }
        for (int m = 0; m < N_MODELS; m++)
            for (int w = 0; w < 2; w++)
                knob_pair(r, &s, m, w, flops, k, x1, x2, y, &kn[m][w][0], &kn[m][w][1]);
        fr.v[k] = frontier_rho(r, s.n_scenarios, !flops);
        fr.cat[k] = report_measure_cat(&fr, fr.v[k]);
        /* the report's one selection (report_ttt_set) of sequential compilation: seed 1 replays exactly
         * time-to-target-input.tsv's baseline rows (same sample, same fresh-run seeds) */
        struct report_est set[REPORT_N_TTT * (N_MODELS + 1)];
        if (report_ttt_set(c->res.d[REPORT_SIM_INPUT], &s, r, REPORT_VERDICT_SEED,
                           k == 0 ? 1000 : 6000 + (uint64_t)k * 64, -1, reach_target[0], set) != 0) {
            free(x1), free(x2), free(y), sim_result_free(r);
            return -1;
        }
        for (int ti = 0; ti < 2; ti++) {
            const struct report_est *e = &set[ttt_index(reach_target[ti]) * s.n_scenarios + V_SEQ];
            reach[ti].v[k] = e->time_s;
            reach[ti].cat[k] = isfinite(e->time_s) ? "reached" : "not reached";
        }
        for (int q = 0; q < REPORT_N_AT95; q++) {
            const struct report_est *e = &set[ttt_index(0.95) * s.n_scenarios + at95_sc[q]];
            at95[q].v[k] = e->time_s;
            at95[q].cat[k] = isfinite(e->time_s) ? "reached" : "not reached";
        }
        free(x1), free(x2), free(y);
        sim_result_free(r);
    }
    for (int m = 0; m < N_MODELS; m++)
        for (int w = 0; w < 2; w++)
            if (report_stability_row(st, &kn[m][w][0]) != 0 || report_stability_row(st, &kn[m][w][1]) != 0)
                return -1;
    if (report_stability_row(st, &reach[0]) != 0 || report_stability_row(st, &reach[1]) != 0)
        return -1;
    for (int q = 0; q < REPORT_N_AT95; q++)
        if (report_stability_row(st, &at95[q]) != 0)
            return -1;
    return report_stability_row(st, &fr);
}

/* ---- EXEC_TIME down to the noise floor (single input) ---- */

/* The single input with EXEC_TIME log-uniform over 0.05-100 ms (a grid of 100 points per decade), sequential
 * compilation, three seeds: eta squared of N_CONFIG and of log10 EXEC_TIME (10 equal-width bins of each) for the
 * tuned kernel's performance (seed 1's points in sim/input-exec-log.tsv); and what short repetitions cost, paired
 * on shared draws: the same samples (N_CONFIG and every run's configurations: one gsl_rng stream per sample, the
 * same for every arm) replayed with EXEC_TIME pinned at each of floor_arms_ms and at the longest, the mean
 * speedup difference short - long over the samples with its 95% t interval per seed (exec-floor-paired.tsv). A
 * short arm loses when its CI lies below -0.01 (1% of the optimum), gains above +0.01, changes nothing inside. */
#define FLOOR_LO_MS 0.05
#define FLOOR_HI_MS 100.0
#define N_FLOOR_ARMS 5
static const double floor_arms_ms[N_FLOOR_ARMS] = {0.05, 0.2, 1, 10, 100}; /* the last: the long reference */

/* The grid point of s nearest (in log) to want_ms, so that the pinned settings replay data the trace was built for. */
static double floor_grid_ms(const struct sim_settings *s, double want_ms)
{
    double best = sim_exec_grid_ms(s, 0);
    for (int j = 1; j < sim_exec_grid_n(s); j++) {
        double e = sim_exec_grid_ms(s, j);
        if (fabs(log(e / want_ms)) < fabs(log(best / want_ms)))
            best = e;
    }
    return best;
}

static int floor_paired(struct report_ctx *c, const struct sim_data *d, const struct sim_settings *s,
                        struct table *st, struct table *ft)
{
    struct report_paired pr[N_FLOOR_ARMS - 1][N_SEEDS];
    int rc = -1;
    for (int k = 0; k < N_SEEDS; k++) {
        struct sim_result *r[N_FLOOR_ARMS] = {NULL};
        for (int a = 0; a < N_FLOOR_ARMS; a++) {
            struct sim_settings e = *s;
            e.seed = report_seed_k(c->o->seed, k);
            e.exec_ms_lo = e.exec_ms_hi = floor_grid_ms(s, floor_arms_ms[a]);
            if ((r[a] = sim_run(d, &e, NULL, NULL)) == NULL)
                goto seed_out;
        }
        for (int a = 0; a + 1 < N_FLOOR_ARMS; a++) {
            int row = table_add_row(ft), col = 0;
            pr[a][k] = report_paired_points(r[a]->points, r[N_FLOOR_ARMS - 1]->points, r[a]->n_points, 1, 1,
                                            -INFINITY, INFINITY);
            double ms = 0, ml = 0;
            for (int i = 0; i < r[a]->n_points; i++) {
                ms += r[a]->points[i].speedup / r[a]->n_points;
                ml += r[N_FLOOR_ARMS - 1]->points[i].speedup / r[a]->n_points;
            }
            if (row < 0)
                goto seed_out;
            table_set_int(ft, row, col++, k + 1);
            table_set_num(ft, row, col++, r[a]->points[0].exec_ms, -1);
            table_set_num(ft, row, col++, r[N_FLOOR_ARMS - 1]->points[0].exec_ms, -1);
            table_set_int(ft, row, col++, pr[a][k].n);
            table_set_num(ft, row, col++, ms, 4);
            table_set_num(ft, row, col++, ml, 4);
            table_set_num(ft, row, col++, pr[a][k].est, 4);
            table_set_num(ft, row, col++, pr[a][k].lo, 4);
            table_set_num(ft, row, col++, pr[a][k].hi, 4);
            table_set_str(ft, row, col, report_paired_cat(pr[a][k], -0.01, 0.01, "loses", "none", "gains"));
        }
        rc = 0;
    seed_out:
        for (int a = 0; a < N_FLOOR_ARMS; a++)
            sim_result_free(r[a]);
        if (rc != 0)
            return -1;
        rc = -1;
    }
    for (int a = 0; a + 1 < N_FLOOR_ARMS; a++) {
        char meas[64];
        snprintf(meas, sizeof meas, "paired_speedup_diff_%gms", floor_arms_ms[a]);
        if (report_paired_row(st, "exec-time-floor", "sequential", meas, pr[a], -0.01, 0.01,
                              "short repetitions pick slower kernels", "no measurable loss",
                              "short repetitions pick faster kernels") != 0)
            return -1;
    }
    return 0;
}

static int exec_floor_verdicts(struct report_ctx *c, struct table *st)
{
    static const char *fcols[] = {"seed_index", "exec_ms", "long_exec_ms", "samples", "speedup_short",
                                  "speedup_long", "diff", "diff_lo", "diff_hi", "category"};
    struct report_measure en = {"exec-time-floor", "sequential", "eta2_n_config", {0}, {0}, 0, 0, 0, NULL, NULL, NULL,
                                0, {0}, {0}};
    struct report_measure ex = {"exec-time-floor", "sequential", "eta2_log_exec_time", {0}, {0}, 0, 0, 0, NULL, NULL,
                                NULL, 0, {0}, {0}};
    struct sim_settings s = c->res.s[REPORT_SIM_INPUT];
    struct sim_data *d = NULL;
    struct table *ft = NULL;
    double *x1 = NULL, *x2 = NULL, *y = NULL;
    int rc = -1, flops = !isnan(sim_data_flops(c->res.d[REPORT_SIM_INPUT], 0));
    s.exec_ms_lo = FLOOR_LO_MS;
    s.exec_ms_hi = FLOOR_HI_MS;
    s.exec_dist = SIM_EXEC_LOG;
    s.n_scenarios = 1;
    report_model_scenario(&s.scenarios[0], 0, 0, c->o->compile_factor);
    if ((d = sim_data_from_trace(c->t, &c->input, 1, &s)) == NULL)
        return -1;
    x1 = malloc(((size_t)s.samples + 1) * sizeof *x1);
    x2 = malloc(((size_t)s.samples + 1) * sizeof *x2);
    y = malloc(((size_t)s.samples + 1) * sizeof *y);
    ft = table_new("Short repetitions on shared draws: speedup at EXEC_TIME short - long, per seed (single input)",
                   10, fcols);
    if (x1 == NULL || x2 == NULL || y == NULL || ft == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < N_SEEDS; k++) {
        struct sim_result *r;
        double chance = 9.0 / (s.samples > 1 ? s.samples - 1 : 1);
        s.seed = report_seed_k(c->o->seed, k);
        if ((r = sim_run(d, &s, NULL, NULL)) == NULL)
            goto out;
        for (int i = 0; i < r->n_points; i++) {
            const struct sim_point *p = &r->points[i];
            x1[i] = p->n_config;
            /* log10 EXEC_TIME mapped onto [1, 10], so that report_eta_squared's 10 bins are equal in log */
            x2[i] = 1 + 9 * log10(p->exec_ms / FLOOR_LO_MS) / log10(FLOOR_HI_MS / FLOOR_LO_MS);
            y[i] = flops ? p->tflops : p->speedup;
        }
        en.v[k] = report_eta_squared(x1, y, r->n_points, s.n_config_lo, s.n_config_hi);
        ex.v[k] = report_eta_squared(x2, y, r->n_points, 1, 10);
        en.cat[k] = ex.cat[k] = knob_category(en.v[k], ex.v[k], chance);
        if (k == 0) {
            char path[PATH_MAX];
            FILE *fp = report_open(c, "sim/input-exec-log.tsv", path, sizeof path);
            if (fp == NULL || sim_write_scenario_points(fp, d, &s, r, 0, 0, !flops) != 0) {
                if (fp != NULL)
                    fclose(fp);
                sim_result_free(r);
                tc_seterr("%s: write failed", path);
                goto out;
            }
            if (report_close(fp, path) != 0) {
                sim_result_free(r);
                goto out;
            }
        }
        sim_result_free(r);
    }
    if (report_stability_row(st, &en) != 0 || report_stability_row(st, &ex) != 0 || floor_paired(c, d, &s, st, ft) != 0)
        goto out;
    table_add_note(ft, "per seed, the same %d samples (N_CONFIG and every run's configurations drawn from one "
                   "gsl_rng stream per sample, the same for both arms) replayed with EXEC_TIME pinned at exec_ms and "
                   "at long_exec_ms (the grid points of the 0.05-100 ms log grid nearest 0.05, 0.2, 1, 10, 100 ms), "
                   "sequential compilation, %d runs each: diff = mean over the samples of speedup(short) - "
                   "speedup(long), diff_lo, diff_hi its 95%% t interval; category: loses below -0.01, gains above "
                   "+0.01, none inside, n/a across a threshold", s.samples, s.runs);
    rc = report_keep_table(c, ft, "exec-floor-paired.tsv", "Short repetitions on shared draws", 20);
    ft = NULL;
out:
    table_free(ft);
    free(x1);
    free(x2);
    free(y);
    sim_data_free(d);
    return rc;
}

/* ---- what charging every cost changes: failed configurations, isolated vs contended compile times ---- */

/* costs.tsv: per seed, cost setting and model, the time to 0.95 of optimal over all inputs, chosen on the seed's
 * simulation and re-evaluated on fresh runs. Only for a trace with every compile cost: an isolated time for every
 * (input, configuration) pair and a compile time for every failed one; otherwise the finding says which costs are
 * estimated and nothing is replayed. */
static int cost_settings(struct report_ctx *c, struct report_est at95[N_SEEDS][N_MODELS])
{
    static const char *cols[] = {"seed_index", "seed", "failed_cost", "compile_model", "model", "target_speedup",
                                 "time_s", "time_s_lo", "time_s_hi", "speedup", "speedup_lo", "speedup_hi", "sample",
                                 "chosen_by"};
    sim_data_missing(c->res.d[REPORT_SIM_ALL], &c->res.no_isolated, &c->res.failed_no_compile);
    if (c->res.no_isolated > 0 || c->res.failed_no_compile > 0)
        return 0;
    int fold = report_cost_fold(c);
    report_say(c, "  every compile cost measured: %d cost settings on %d seeds%s", REPORT_N_COSTS, N_SEEDS,
               fold >= 0 ? " (the contended times' replayed with the verdicts)" : "");
    if ((c->res.costs = table_new("Time to 0.95 of optimal per cost setting, three seeds (all inputs)", 14, cols)) ==
        NULL)
        return tc_seterr_env("out of memory");
    for (int k = 0; k < N_SEEDS; k++)
        for (int q = 0; q < REPORT_N_COSTS; q++) {
            struct sim_settings s = c->res.s[REPORT_SIM_ALL];
            struct sim_result *r = NULL;
            struct report_est set[REPORT_N_TTT * 3];
            /* the report's own cost setting is the verdicts' simulation of this seed (the same settings, seed and
             * draws): its times to 0.95, the same selected samples as verdicts.tsv's, instead of a replay */
            int own = s.failed_cost == report_cost_failed[q] && s.compile_model == report_cost_model[q];
            s.seed = report_seed_k(c->o->seed, k);
            s.failed_cost = report_cost_failed[q];
            s.compile_model = report_cost_model[q];
            s.n_scenarios = REPORT_N_COST_MODELS;
            report_cost_scenarios(s.scenarios, c->o->compile_factor);
            if (own) {
                for (int m = 0; m < 3; m++)
                    set[ttt_index(0.95) * 3 + m] = at95[k][report_cost_models[m]];
            } else {
                if (q == fold && c->res.cost_fold[k] != NULL) { /* replayed with the verdict set, on its draws */
                    r = c->res.cost_fold[k];
                    c->res.cost_fold[k] = NULL;
                } else if ((r = sim_run(c->res.d[REPORT_SIM_ALL], &s, NULL, NULL)) == NULL) {
                    goto fail;
                }
                if (report_ttt_set(c->res.d[REPORT_SIM_ALL], &s, r, REPORT_VERDICT_SEED,
                                   9000 + (uint64_t)(k * REPORT_N_COSTS + q) * 64, -1, 0.95, set) != 0) {
                    sim_result_free(r);
                    goto fail;
                }
            }
            for (int m = 0; m < 3; m++) {
                struct report_est e = set[ttt_index(0.95) * 3 + m];
                int row, col = 0;
                char sd[32];
                if ((row = table_add_row(c->res.costs)) < 0) {
                    sim_result_free(r);
                    goto fail;
                }
                snprintf(sd, sizeof sd, "%llu", (unsigned long long)s.seed);
                table_set_int(c->res.costs, row, col++, k + 1);
                table_set_str(c->res.costs, row, col++, sd);
                table_set_str(c->res.costs, row, col++, sim_failed_cost_name(s.failed_cost));
                table_set_str(c->res.costs, row, col++, sim_compile_model_name(s.compile_model));
                table_set_str(c->res.costs, row, col++, report_model_names[report_cost_models[m]]);
                table_set_num(c->res.costs, row, col++, 0.95, 2);
                table_set_num(c->res.costs, row, col++, e.time_s, 3);
                table_set_num(c->res.costs, row, col++, e.time_lo, 3);
                table_set_num(c->res.costs, row, col++, e.time_hi, 3);
                table_set_num(c->res.costs, row, col++, e.speedup, 4);
                table_set_num(c->res.costs, row, col++, e.speedup_lo, 4);
                table_set_num(c->res.costs, row, col++, e.speedup_hi, 4);
                table_set_int(c->res.costs, row, col++, e.sample);
                table_set_str(c->res.costs, row, col, e.sample >= 0 ? e.chosen_by : "");
            }
            sim_result_free(r);
        }
    table_add_note(c->res.costs, "failed_cost triton: failed configurations drawn and charged their compile time and "
                   "failed launch; none: only valid ones drawn (the paper's); compile_model measured: sequential "
                   "charges isolated (1-worker) compile times, paper: the contended ones (the trace's compile_jobs "
                   "workers); under measured pipelined and ideal charge each compile at the min(F, N) compiles "
                   "running together and every model one compile-worker warm-up, under paper the contended ones "
                   "and none; factor %d; re-evaluated on %d fresh runs; chosen_by as in time-to-target-all.tsv "
                   "(sample for T: a higher target's sample, an upper bound, of which the finding takes no ratio); "
                   "the report's own setting's rows are verdicts.tsv's (the same simulation and samples)",
                   c->o->compile_factor, report_reeval_runs(c->res.s[REPORT_SIM_ALL].runs));
    return report_keep_table(c, c->res.costs, "costs.tsv", "Time to 0.95 of optimal per cost setting, three seeds", 40);
fail:
    table_free(c->res.costs);
    c->res.costs = NULL;
    return -1;
}

int report_verdicts(struct report_ctx *c)
{
    static const char *vcols[] = {"seed_index", "seed", "model", "early_stop", "target_speedup", "time_s",
                                  "time_s_lo", "time_s_hi", "speedup", "speedup_lo", "speedup_hi", "sample"};
    report_say(c, "verdicts per cost model on %d seeds", N_SEEDS);
    c->res.verdicts = table_new("Time to target per cost model, three seeds (all inputs)", 12, vcols);
    c->res.stability = report_stability_new("Verdicts on three seeds");
    if (c->res.verdicts == NULL || c->res.stability == NULL)
        return tc_seterr_env("out of memory");
    struct report_est at95[N_SEEDS][N_MODELS];
    if (all_inputs_verdicts(c, c->res.verdicts, c->res.stability, at95) != 0 ||
        input_verdicts(c, c->res.stability) != 0 || exec_floor_verdicts(c, c->res.stability) != 0)
        return -1;
    table_add_note(c->res.verdicts, "per seed (seed 1 is the report's), model and early stopping: the cheapest sample "
                   "whose 95%% CI lower bound of mean speedup vs optimal reaches the target, re-evaluated on %d fresh "
                   "runs; ideal = the paper's parallel model (an optimistic bound), factor %d",
                   report_reeval_runs(c->res.s[REPORT_SIM_ALL].runs), c->o->compile_factor);
    table_add_note(c->res.stability, "paired_*: on the same draws (common random numbers), per seed the geometric-mean "
                   "time ratio or the mean speedup difference over the samples with its 95%% t interval, its "
                   "category by that interval (1.1 / 0.9; +-0.01), the verdict only when seeds 1, 2, 3 agree; "
                   "time ratios: without / with early stopping, or sequential / the model; above 1.1 "
                   "saves time, below 0.9 costs time; exec-time-frontier: above 0.3 rises, below -0.3 falls; the "
                   "seeds are independent replicates, mean and ci_lo, ci_hi = mean +- t(0.975, 2) sd / sqrt(3); "
                   "category: the verdict when that CI lies clear of the thresholds (for exec-time, eta squared of "
                   "the tuned kernel's performance on the single input: when the three seeds' categories agree), "
                   "else no verdict; stable = 1 when there is a verdict");
    if (report_keep_table(c, c->res.verdicts, "verdicts.tsv", "Time to target per cost model, three seeds", 40) != 0 ||
        report_keep_table(c, c->res.stability, "stability.tsv", "Verdicts on three seeds", 40) != 0)
        return -1;
    return cost_settings(c, at95);
}
