/* cost.c — the cost of tuning one input end to end and what it buys (cost.h): the trace's measurements summed per
 * part over every configuration, bootstrap CIs over configurations, the compile models replayed by sim_run. */
#include "cost.h"

#include "sim.h"
#include "tc_err.h"
#include "tc_json.h"
#include "tc_opt.h"
#include "tc_stats.h"
#include "trace.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[COST_N_KINDS] = {"compile", "warmup", "repetition", "flush", "launch_overhead",
                                                     "failed", "compile_warmup"};
static const char *const model_names[COST_N_MODELS] = {"sequential", "parallel", "pipelined", "ideal"};

const char *cost_kind_name(enum cost_kind k)
{
    return k < COST_N_KINDS ? kind_names[k] : "?";
}

const char *cost_model_name(enum cost_model m)
{
    return m < COST_N_MODELS ? model_names[m] : "?";
}

void cost_settings_default(struct cost_settings *s)
{
    s->workers = 16;
    s->runs = 30;
    s->boot = 2000;
    s->seed = 1;
}

static int finite_nonneg(double v)
{
    return isfinite(v) && v >= 0;
}

/* The sequential compile charge of configuration c: its isolated time, else its compile_ms, else NaN (imputed by the
 * caller: the median of the valid configurations' charges, as simulate does). *isolated says which. */
static double seq_charge(const struct trace *t, int c, int *isolated)
{
    double iso = trace_compile_isolated_ms(t, c), cm = trace_config(t, c)->compile_ms;
    *isolated = finite_nonneg(iso);
    return *isolated ? iso : finite_nonneg(cm) ? cm : NAN;
}

/* Per configuration, each part's ms (v[kind * nc + c]); fail[c] the failed launch of a failed configuration (NaN
 * for a valid one); med (nc values) is scratch; counts into r. A failed configuration without a compile time is
 * charged the median of the valid configurations' charges, as simulate does. */
static void cost_parts_per_config(const struct trace *t, int input, double *v, double *fail, double *med,
                                  struct cost_result *r)
{
    int nc = trace_n_configs(t), n_med = 0;
    double m = NAN;
    for (int c = 0; c < nc; c++) {
        long run = trace_find_run(t, input, c);
        int iso;
        double charge = seq_charge(t, c, &iso);
        fail[c] = NAN;
        if (run >= 0 && trace_run_valid(t, (size_t)run)) {
            const struct trace_run *tr = trace_run(t, (size_t)run);
            const uint64_t *x = trace_run_exec(t, (size_t)run);
            double warm = 0, rep = 0, flush = finite_nonneg(tr->flush_ms) ? tr->flush_ms : 0, rest;
            int nu = tr->n_estimate + tr->n_warmup;
            for (int k = 0; k < nu; k++)
                warm += (double)x[k] * 1e-6;
            for (int k = 0; k < tr->n_timed; k++)
                rep += (double)x[nu + k] * 1e-6;
            rest = tr->wall_ms - rep - warm - flush;
            v[COST_COMPILE * nc + c] = isfinite(charge) ? charge : 0;
            v[COST_WARMUP * nc + c] = warm;
            v[COST_REPETITION * nc + c] = rep;
            v[COST_FLUSH * nc + c] = flush;
            v[COST_LAUNCH * nc + c] = rest > 0 ? rest : 0;
            r->n_valid++;
            r->n_isolated += iso;
            if (isfinite(charge))
                med[n_med++] = charge;
        } else {
            fail[c] = run >= 0 && finite_nonneg(trace_run(t, (size_t)run)->wall_ms) ? trace_run(t, (size_t)run)->wall_ms
                                                                                    : 0;
            v[COST_FAILED * nc + c] = charge; /* NaN: imputed below */
            r->n_failed++;
            r->n_failed_compiled += isfinite(charge);
            r->n_failed_launched += run >= 0;
        }
    }
    if (n_med > 0) {
        gsl_sort(med, 1, (size_t)n_med);
        m = gsl_stats_median_from_sorted_data(med, 1, (size_t)n_med);
    }
    for (int c = 0; c < nc; c++)
        if (!isnan(fail[c]))
            v[COST_FAILED * nc + c] = (isfinite(v[COST_FAILED * nc + c]) ? v[COST_FAILED * nc + c]
                                                                         : isfinite(m) ? m : 0) + fail[c];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 2.5% and 97.5% quantiles of x[0..n) (sorted in place). */
static void quantiles95(double *x, int n, double *lo, double *hi)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    *lo = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.025);
    *hi = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.975);
}

/* Bootstrap over configurations: each replicate draws nc configurations with replacement and sums each part. */
static int cost_bootstrap(const double *v, int nc, const struct cost_settings *s, struct cost_result *r)
{
    int B = s->boot, rc = -1;
    double *rep = malloc((size_t)B * (COST_N_KINDS + 3) * sizeof *rep);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (rep == NULL || g == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    gsl_rng_set(g, (unsigned long)(s->seed ^ 0x636f7374ull));
    for (int b = 0; b < B; b++) {
        double sum[COST_N_KINDS] = {0}, tot = 0;
        for (int k = 0; k < nc; k++) {
            int c = (int)gsl_rng_uniform_int(g, (unsigned long)nc);
            for (int p = 0; p < COST_N_KINDS; p++)
                sum[p] += v[p * nc + c];
        }
        sum[COST_WORKER] = r->part[COST_WORKER].ms; /* once per tuning session, whichever configurations it holds */
        for (int p = 0; p < COST_N_KINDS; p++) {
            rep[(size_t)p * B + b] = sum[p];
            tot += sum[p];
        }
        rep[(size_t)COST_N_KINDS * B + b] = tot;
        rep[(size_t)(COST_N_KINDS + 1) * B + b] =
            tot > 0 ? (sum[COST_COMPILE] + sum[COST_FAILED] + sum[COST_WORKER]) / tot : NAN;
        rep[(size_t)(COST_N_KINDS + 2) * B + b] = tot > 0 ? sum[COST_REPETITION] / tot : NAN;
    }
    for (int p = 0; p < COST_N_KINDS; p++)
        quantiles95(rep + (size_t)p * B, B, &r->part[p].lo_ms, &r->part[p].hi_ms);
    quantiles95(rep + (size_t)COST_N_KINDS * B, B, &r->total.lo_ms, &r->total.hi_ms);
    quantiles95(rep + (size_t)(COST_N_KINDS + 1) * B, B, &r->compile_share_lo, &r->compile_share_hi);
    quantiles95(rep + (size_t)(COST_N_KINDS + 2) * B, B, &r->rep_share_lo, &r->rep_share_hi);
    rc = 0;
out:
    free(rep);
    gsl_rng_free(g);
    return rc;
}

/* Every configuration replayed under each compile model (one sample of N_CONFIG = all, every execution run):
 * tuning time and its CI over the draw orders of `runs` runs. */
static int cost_models(const struct trace *t, int input, const struct cost_settings *cs, struct cost_result *r)
{
    struct sim_settings s;
    struct sim_data *d = NULL;
    struct sim_result *res = NULL;
    int rc = -1;
    sim_settings_default(&s);
    s.samples = 1;
    s.runs = cs->runs;
    s.seed = cs->seed;
    s.n_config_lo = s.n_config_hi = trace_n_configs(t);
    s.exec_ms_lo = s.exec_ms_hi = 100000; /* beyond any configuration's timed executions: all of them run */
    s.failed_cost = SIM_FAILED_TRITON;
    s.compile_model = SIM_CM_MEASURED;
    s.n_scenarios = COST_N_MODELS;
    for (int m = 0; m < COST_N_MODELS; m++)
        if (sim_scenario_parse(model_names[m], SIM_COMPILE_SEQUENTIAL, cs->workers, SIM_OVERHEAD_PAPER,
                               &s.scenarios[m]) != 0)
            return -1;
    if (sim_settings_check(&s) != 0 || (d = sim_data_from_trace(t, &input, 1, &s)) == NULL)
        goto out;
    s.input = 0;
    if ((res = sim_run(d, &s, NULL, NULL)) == NULL)
        goto out;
    for (int m = 0; m < COST_N_MODELS; m++) {
        const struct sim_point *p = &res->points[m];
        r->model_s[m] = p->time_s;
        r->model_lo_s[m] = p->time_s_lo;
        r->model_hi_s[m] = p->time_s_hi;
    }
    rc = 0;
out:
    sim_result_free(res);
    sim_data_free(d);
    return rc;
}

/* The best configuration's TFLOP/s with a bootstrap CI of its median, and the median configuration's. */
static int cost_buys(const struct trace *t, int input, const struct cost_settings *s, struct cost_result *r)
{
    double true_ns, *tf = NULL, *bm = NULL;
    int n_valid, nc = trace_n_configs(t), m = 0, rc = -1;
    uint64_t *x = NULL;
    gsl_rng *g = NULL;
    r->flops = trace_input(t, input)->flops;
    r->ref_tflops = r->flops / (trace_input(t, input)->ref_ms * 1e9);
    r->best_config = trace_best_config(t, input, &true_ns, &n_valid);
    r->best_tflops = r->best_tflops_lo = r->best_tflops_hi = r->median_tflops = NAN;
    if (r->best_config < 0)
        return 0;
    r->best_tflops = r->flops / (true_ns * 1e3);
    long run = trace_find_run(t, input, r->best_config);
    const struct trace_run *tr = trace_run(t, (size_t)run);
    const uint64_t *timed = trace_run_timed(t, (size_t)run);
    tf = malloc((size_t)nc * sizeof *tf);
    bm = malloc((size_t)s->boot * sizeof *bm);
    x = malloc((size_t)tr->n_timed * sizeof *x);
    g = gsl_rng_alloc(gsl_rng_mt19937);
    if (tf == NULL || bm == NULL || x == NULL || g == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    gsl_rng_set(g, (unsigned long)(s->seed ^ 0x62757973ull));
    for (int b = 0; b < s->boot; b++) {
        for (int k = 0; k < tr->n_timed; k++)
            x[k] = timed[gsl_rng_uniform_int(g, (unsigned long)tr->n_timed)];
        bm[b] = r->flops / (tc_median_u64(x, (size_t)tr->n_timed, NULL) * 1e3);
    }
    quantiles95(bm, s->boot, &r->best_tflops_lo, &r->best_tflops_hi);
    for (int c = 0; c < nc; c++) {
        long q = trace_find_run(t, input, c);
        if (q >= 0 && trace_run_valid(t, (size_t)q))
            tf[m++] = r->flops / (trace_run_true_ns(t, (size_t)q) * 1e3);
    }
    if (m > 0) {
        gsl_sort(tf, 1, (size_t)m);
        r->median_tflops = gsl_stats_median_from_sorted_data(tf, 1, (size_t)m);
    }
    rc = 0;
out:
    free(tf);
    free(bm);
    free(x);
    gsl_rng_free(g);
    return rc;
}

int cost_compute(const struct trace *t, int input, const struct cost_settings *s, struct cost_result *r)
{
    const struct trace_meta *meta = trace_get_meta(t);
    int nc = trace_n_configs(t);
    double *v;
    memset(r, 0, sizeof *r);
    if (input < 0 || input >= trace_n_inputs(t) || nc < 1)
        return tc_seterr("%s: no such input or no configurations", trace_path(t));
    if ((v = calloc((size_t)(COST_N_KINDS + 2) * nc, sizeof *v)) == NULL)
        return tc_seterr_env("out of memory");
    tc_format_shape(trace_dims(t, input), trace_n_dims(t), r->input, (int)sizeof r->input);
    snprintf(r->protocol, sizeof r->protocol, "%s", meta->protocol);
    snprintf(r->kernel, sizeof r->kernel, "%s", meta->kernel);
    snprintf(r->device, sizeof r->device, "%s", meta->device_name);
    r->n_configs = nc;
    r->compile_jobs = meta->compile_jobs;
    r->workers = s->workers;
    r->runs = s->runs;
    r->boot = s->boot;
    double *fail = v + (size_t)COST_N_KINDS * nc;
    cost_parts_per_config(t, input, v, fail, fail + nc, r);
    for (int p = 0; p < COST_N_KINDS; p++) {
        for (int c = 0; c < nc; c++)
            r->part[p].ms += v[p * nc + c];
        if (p == COST_WORKER) { /* not per configuration: one worker's warm-up, charged once like simulate does */
            double w = trace_compile_warmup_mean(t);
            r->worker_recorded = isfinite(w) && w > 0;
            r->part[p].ms = r->worker_recorded ? w : 0; /* sim_warmup_charge's sequential case */
        }
        r->total.ms += r->part[p].ms;
    }
    r->bench_ms = r->total.ms - r->part[COST_COMPILE].ms - r->part[COST_FAILED].ms - r->part[COST_WORKER].ms;
    for (int c = 0; c < nc; c++) /* a failed configuration's failed launch is benchmarking, its compilation not */
        if (!isnan(fail[c]))
            r->bench_ms += fail[c];
    r->compile_share = r->total.ms > 0 ? (r->part[COST_COMPILE].ms + r->part[COST_FAILED].ms +
                                          r->part[COST_WORKER].ms) / r->total.ms : NAN;
    r->rep_share = r->total.ms > 0 ? r->part[COST_REPETITION].ms / r->total.ms : NAN;
    int rc = r->n_valid == 0 ? tc_seterr("%s: input %s has no valid run; nothing was tuned", trace_path(t), r->input)
                             : 0;
    if (rc == 0)
        rc = cost_bootstrap(v, nc, s, r);
    free(v);
    if (rc == 0)
        rc = cost_models(t, input, s, r);
    if (rc == 0)
        rc = cost_buys(t, input, s, r);
    return rc;
}

/* What each part's number is made of: measured, or imputed where the trace lacks it. */
static void cost_how(const struct cost_result *r, enum cost_kind k, char *buf, size_t len)
{
    switch (k) {
    case COST_COMPILE:
        if (r->n_isolated == r->n_valid)
            snprintf(buf, len, "measured: isolated (1-worker) compile times");
        else
            snprintf(buf, len, "imputed: %d of %d isolated, the rest charged their time under %d workers", r->n_isolated,
                     r->n_valid, r->compile_jobs);
        break;
    case COST_WARMUP: snprintf(buf, len, "measured: estimate and warm-up executions"); break;
    case COST_REPETITION: snprintf(buf, len, "measured: timed executions"); break;
    case COST_FLUSH: snprintf(buf, len, "measured: flush kernels' GPU time"); break;
    case COST_LAUNCH: snprintf(buf, len, "measured: wall time minus the above"); break;
    case COST_WORKER:
        snprintf(buf, len, r->worker_recorded ? "measured: the mean first-compile warm-up of the trace's workers, once"
                                              : "not recorded in this trace: not charged");
        break;
    default:
        if (r->n_failed == 0)
            snprintf(buf, len, "none failed");
        else
            snprintf(buf, len, "compile measured for %d of %d (rest imputed: median of valid); %d launched", 
                     r->n_failed_compiled, r->n_failed, r->n_failed_launched);
    }
}

static const char *const kind_labels[COST_N_KINDS] = {"compilation (valid)", "warm-up", "repetition", "L2 flush",
                                                      "launch/overhead", "failed configurations",
                                                      "compile-worker warm-up"};

int cost_print(FILE *fp, const struct cost_result *r)
{
    char how[160];
    double tot_s = r->total.ms / 1e3;
    fprintf(fp, "Tuning %s on %s: %d configurations (%d valid, %d failed), %s protocol, kernel %s\n\n", r->input,
            r->device, r->n_configs, r->n_valid, r->n_failed, r->protocol, r->kernel);
    fprintf(fp, "What it costs, every configuration, compiled one after another (95%% CI: bootstrap over "
                "configurations, %d replicates)\n", r->boot);
    fprintf(fp, "%-22s %10s %21s %7s  %s\n", "part", "seconds", "95% CI", "share", "measured or imputed");
    for (int k = 0; k < COST_N_KINDS; k++) {
        const struct cost_part *p = &r->part[k];
        cost_how(r, (enum cost_kind)k, how, sizeof how);
        fprintf(fp, "%-22s %10.3f [%8.3f, %8.3f] %6.1f%%  %s\n", kind_labels[k], p->ms / 1e3, p->lo_ms / 1e3,
                p->hi_ms / 1e3, tot_s > 0 ? 100 * p->ms / r->total.ms : NAN, how);
    }
    fprintf(fp, "%-22s %10.3f [%8.3f, %8.3f] %6.1f%%\n\n", "total", tot_s, r->total.lo_ms / 1e3, r->total.hi_ms / 1e3,
            100.0);
    fprintf(fp, "Compilation (failed configurations' and the worker's warm-up included) is %.1f%% [%.1f%%, %.1f%%] of it, repetition %.1f%% "
                "[%.1f%%, %.1f%%]:\nearly stopping can save at most the repetition share; parallel compilation "
                "saves from the compile share.\n\n", 100 * r->compile_share, 100 * r->compile_share_lo,
            100 * r->compile_share_hi, 100 * r->rep_share, 100 * r->rep_share_lo, 100 * r->rep_share_hi);
    fprintf(fp, "With %d compile workers (every configuration replayed by the simulator, %d draw orders; 95%% CI "
                "over them)\n", r->workers, r->runs);
    fprintf(fp, "%-12s %10s %21s %10s %8s\n", "model", "tuning s", "95% CI", "compile s", "speed-up");
    for (int m = 0; m < COST_N_MODELS; m++)
        fprintf(fp, "%-12s %10.3f [%8.3f, %8.3f] %10.3f %7.2fx%s\n", model_names[m], r->model_s[m], r->model_lo_s[m],
                r->model_hi_s[m], r->model_s[m] - r->bench_ms / 1e3, r->model_s[0] / r->model_s[m],
                m == COST_IDEAL ? "  (the paper's; a bound on parallel, not on pipelined)" : "");
    fprintf(fp, "\nWhat it buys\n");
    if (isnan(r->best_tflops)) {
        fprintf(fp, "no configuration's performance is known (no FLOP count)\n");
    } else {
        fprintf(fp, "best configuration (%d): %.1f TFLOP/s [%.1f, %.1f] (bootstrap of its timed executions' median)\n",
                r->best_config, r->best_tflops, r->best_tflops_lo, r->best_tflops_hi);
        if (isfinite(r->ref_tflops))
            fprintf(fp, "vendor reference: %.1f TFLOP/s; the best reaches %.1f%% of it\n", r->ref_tflops,
                    100 * r->best_tflops / r->ref_tflops);
        else
            fprintf(fp, "vendor reference: not recorded in this trace\n");
        fprintf(fp, "a configuration picked at random (the median valid one): %.1f TFLOP/s; tuning buys %.2fx\n",
                r->median_tflops, r->best_tflops / r->median_tflops);
    }
    return ferror(fp) ? tc_seterr_env("write failed") : 0;
}

static void json_ci(FILE *fp, const char *name, double v, double lo, double hi, int last)
{
    fprintf(fp, "  ");
    tc_json_str(fp, name);
    fprintf(fp, ": {\"value\": ");
    tc_json_num(fp, v);
    fprintf(fp, ", \"lo\": ");
    tc_json_num(fp, lo);
    fprintf(fp, ", \"hi\": ");
    tc_json_num(fp, hi);
    fprintf(fp, "}%s\n", last ? "" : ",");
}

int cost_write_json(FILE *fp, const struct cost_result *r)
{
    char how[160], name[64];
    fprintf(fp, "{\n  \"input\": ");
    tc_json_str(fp, r->input);
    fprintf(fp, ",\n  \"device\": ");
    tc_json_str(fp, r->device);
    fprintf(fp, ",\n  \"protocol\": ");
    tc_json_str(fp, r->protocol);
    fprintf(fp, ",\n  \"kernel\": ");
    tc_json_str(fp, r->kernel);
    fprintf(fp, ",\n  \"configs\": %d, \"valid\": %d, \"failed\": %d, \"workers\": %d, \"runs\": %d, \"bootstrap\": "
                "%d,\n", r->n_configs, r->n_valid, r->n_failed, r->workers, r->runs, r->boot);
    for (int k = 0; k < COST_N_KINDS; k++) {
        snprintf(name, sizeof name, "%s_s", kind_names[k]);
        json_ci(fp, name, r->part[k].ms / 1e3, r->part[k].lo_ms / 1e3, r->part[k].hi_ms / 1e3, 0);
        cost_how(r, (enum cost_kind)k, how, sizeof how);
        snprintf(name, sizeof name, "%s_how", kind_names[k]);
        fprintf(fp, "  ");
        tc_json_str(fp, name);
        fprintf(fp, ": ");
        tc_json_str(fp, how);
        fprintf(fp, ",\n");
    }
    json_ci(fp, "total_s", r->total.ms / 1e3, r->total.lo_ms / 1e3, r->total.hi_ms / 1e3, 0);
    json_ci(fp, "compile_share", r->compile_share, r->compile_share_lo, r->compile_share_hi, 0);
    json_ci(fp, "repetition_share", r->rep_share, r->rep_share_lo, r->rep_share_hi, 0);
    for (int m = 0; m < COST_N_MODELS; m++) {
        snprintf(name, sizeof name, "%s_s", model_names[m]);
        json_ci(fp, name, r->model_s[m], r->model_lo_s[m], r->model_hi_s[m], 0);
    }
    fprintf(fp, "  \"benchmark_s\": ");
    tc_json_num(fp, r->bench_ms / 1e3);
    fprintf(fp, ",\n  \"best_config\": %d,\n", r->best_config);
    json_ci(fp, "best_tflops", r->best_tflops, r->best_tflops_lo, r->best_tflops_hi, 0);
    fprintf(fp, "  \"reference_tflops\": ");
    tc_json_num(fp, r->ref_tflops);
    fprintf(fp, ",\n  \"median_config_tflops\": ");
    tc_json_num(fp, r->median_tflops);
    fprintf(fp, "\n}\n");
    return ferror(fp) ? tc_seterr_env("write failed") : 0;
}
