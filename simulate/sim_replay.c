/* sim_replay.c — the Monte Carlo replay of `tunecost simulate` (sim_run in sim.h): S samples of the
 * hyperparameters, R runs each of N_CONFIG distinct valid configurations drawn uniformly, every scenario replayed
 * on the same draws. Each sample draws from its own gsl_rng stream seeded from (seed, sample index), so the
 * output does not depend on the number of threads. How compile time and overhead are charged is in
 * sim_cost.c; the tables read here are built by sim_data.c. */
#include "sim_cost.h"
#include "sim_internal.h"
#include "tc_err.h"
#include "tc_time.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>


/* Welford's running mean and sum of squared deviations, in a fixed order (so the same bits for any thread count). */
struct welford {
    double mean, m2;
    long n;
};
static void welford_add(struct welford *w, double x)
{
    double delta = x - w->mean;
    w->n++;
    w->mean += delta / (double)w->n;
    w->m2 += delta * (x - w->mean);
}

/* A point's accumulators. The mean is over every run of every input; its standard error is stratified by
 * input (inputs are fixed, not sampled, so only the spread within an input is noise): SE² = Σ_i s_i² / R / K²
 * over the K inputs, s_i² the variance of input i's R runs. */
struct acc {
    struct welford time_s, tflops, speedup;      /* all runs */
    struct welford in_time, in_tflops, in_speedup; /* the current input's runs */
    double se2_time, se2_tflops, se2_speedup;    /* Σ_i s_i² / R */
    int k_inputs;
    long n_short, n_stopped, n_explored;
};

/* Close the current input's stratum. */
static void acc_end_input(struct acc *a)
{
    struct welford *w[3] = {&a->in_time, &a->in_tflops, &a->in_speedup};
    double *se2[3] = {&a->se2_time, &a->se2_tflops, &a->se2_speedup};
    for (int k = 0; k < 3; k++) {
        if (w[k]->n >= 2)
            *se2[k] += w[k]->m2 / (double)(w[k]->n - 1) / (double)w[k]->n;
        else
            *se2[k] = NAN;
        memset(w[k], 0, sizeof *w[k]);
    }
    a->k_inputs++;
}

/* Scenarios that share the overhead model and the early-stop rule benchmark exactly the same executions and pick
 * the same winner; they differ only in how compile time is charged. One pass over the drawn configurations
 * serves such a group. */
struct group {
    enum sim_overhead overhead;
    int early_stop;
    int n;
    int sc[SIM_MAX_SCENARIOS]; /* indices into settings.scenarios */
};

struct job {
    const struct sim_data *d;
    const struct sim_settings *s;
    struct sim_point *points;
    double tq;                /* t quantile for the 95% CI */
    atomic_int next;          /* next sample to take */
    atomic_int done;          /* samples finished */
    int max_factor;           /* largest pipelined factor (worker clocks per scenario) */
    int n_groups;
    struct group groups[SIM_MAX_SCENARIOS];
    int max_valid;
};

struct worker {
    struct job *job;
    gsl_rng *rng;
    int *idx;                 /* [max_valid] the draw order */
    struct row *rows;         /* [max_valid] the current input's configurations as this sample sees them */
    double *wfree;            /* [n_scenarios][max_factor] when each compile worker is free, ms */
    struct acc acc[SIM_MAX_SCENARIOS];
    pthread_t tid;
    int started;
};

/* A 64-bit mix (splitmix64's finaliser): nearby (seed, sample) pairs get unrelated streams. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* One configuration as one sample sees it (its EXEC_TIME and EARLY_STOP_NUM), packed for the inner loop: the
 * tables of all configurations of an input are gathered into a contiguous array once per sample and input, and
 * the R runs then read only that. */
struct row {
    double rep_ms, est_ms, pmin_ms;   /* x1..xj: sum, the estimator's estimate, minimum */
    double ovh_ms, ovh_pe_ms;         /* overhead charged after j executions: paper, per-exec */
    double compile_ms, true_ms;
    double k_mean_ms;                 /* mean(x1..x_ESN), or -inf where an early stop is impossible (j <= ESN) */
    double k_sum_ms, k_pmin_ms, k_ovh_pe_ms; /* the same quantities for a stop after ESN executions */
    int is_short;
};

static void fill_rows(const struct sinput *in, int eidx, int es_num, enum sim_estimator estimator, struct row *rows)
{
    for (int q = 0; q < in->n; q++) {
        const struct sconf *c = &in->c[q];
        const struct e_entry *e = &c->e[eidx < c->n_e ? eidx : c->n_e - 1];
        struct row *r = &rows[q];
        r->rep_ms = e->rep_ms;
        r->pmin_ms = e->pmin_ms;
        r->est_ms = estimator == SIM_ESTIMATOR_MEAN  ? e->rep_ms / (double)e->j
                    : estimator == SIM_ESTIMATOR_MIN ? e->pmin_ms
                                                     : e->med_ms;
        r->ovh_ms = c->ovh_ms;
        r->ovh_pe_ms = sim_overhead_ms(SIM_OVERHEAD_PER_EXEC, c->ovh_ms, c->gap_ms, c->n_timed, e->j);
        r->compile_ms = c->compile_ms;
        r->true_ms = c->true_ms;
        r->is_short = e->is_short;
        if (e->j > es_num) { /* then es_num < j <= n, so the k table has it */
            const struct k_entry *k = &c->k[es_num - 1];
            r->k_mean_ms = k->sum_ms / (double)es_num;
            r->k_sum_ms = k->sum_ms;
            r->k_pmin_ms = k->pmin_ms;
            r->k_ovh_pe_ms = sim_overhead_ms(SIM_OVERHEAD_PER_EXEC, c->ovh_ms, c->gap_ms, c->n_timed, es_num);
        } else {
            r->k_mean_ms = -INFINITY;
            r->k_sum_ms = r->k_pmin_ms = r->k_ovh_pe_ms = NAN;
        }
    }
}

/* One tuning run of the scenarios of group g over the n drawn configurations idx[0..n) of an input (rows from
 * fill_rows): the random policy with the paper's early stopping; each scenario's compile model charged by
 * sim_cost.h (the pipelined ones keep their own GPU clock). wfree holds max_factor compile-worker clocks per
 * scenario. */
static void run_group(const struct row *rows, double flops, double opt_ms, const struct group *g,
                      const struct sim_scenario *scs, const int *idx, int n, double es_thr, double *wfree,
                      int max_factor, struct acc *acc)
{
    double sum_bench = 0, sum_compile = 0, best_known = INFINITY, best_est = INFINITY;
    double gpu_ms[SIM_MAX_SCENARIOS];
    long n_short = 0, n_stopped = 0;
    int n_pipe = 0, pipe[SIM_MAX_SCENARIOS], per_exec = g->overhead == SIM_OVERHEAD_PER_EXEC;
    const struct row *win = NULL;
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        gpu_ms[k] = 0;
        if (sc->compile == SIM_COMPILE_PIPELINED) {
            double *wf = wfree + (size_t)g->sc[k] * (size_t)max_factor;
            for (int w = 0; w < sc->compile_factor; w++)
                wf[w] = 0;
            pipe[n_pipe++] = k;
        }
    }
    for (int q = 0; q < n; q++) {
        const struct row *c = &rows[idx[q]];
        double bench, mn;
        if (g->early_stop && c->k_mean_ms > best_known * es_thr) {
            /* stopped after EARLY_STOP_NUM executions and dropped from the running */
            bench = c->k_sum_ms + (per_exec ? c->k_ovh_pe_ms : c->ovh_ms);
            mn = c->k_pmin_ms;
            n_stopped++;
        } else {
            bench = c->rep_ms + (per_exec ? c->ovh_pe_ms : c->ovh_ms);
            mn = c->pmin_ms;
            n_short += c->is_short;
            if (c->est_ms < best_est) {
                best_est = c->est_ms;
                win = c;
            }
        }
        sum_bench += bench;
        sum_compile += c->compile_ms;
        for (int p = 0; p < n_pipe; p++) {
            int k = pipe[p];
            gpu_ms[k] = sim_pipe_step(wfree + (size_t)g->sc[k] * (size_t)max_factor, scs[g->sc[k]].compile_factor,
                                      gpu_ms[k], c->compile_ms, bench);
        }
        if (mn < best_known)
            best_known = mn;
    }
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        struct acc *a = &acc[g->sc[k]];
        double t_ms = sim_compile_total_ms(sc->compile, sc->compile_factor, n, sum_compile, sum_bench, gpu_ms[k]);
        welford_add(&a->time_s, t_ms * 1e-3);
        welford_add(&a->tflops, flops / win->true_ms * 1e-9);
        welford_add(&a->speedup, opt_ms / win->true_ms);
        welford_add(&a->in_time, t_ms * 1e-3);
        welford_add(&a->in_tflops, flops / win->true_ms * 1e-9);
        welford_add(&a->in_speedup, opt_ms / win->true_ms);
        a->n_short += n_short;
        a->n_stopped += n_stopped;
        a->n_explored += n;
    }
}

/* Mean and 95% CI: mean ± t(0.975, K(R−1)) · sqrt(Σ_i s_i² / R) / K; NaN bounds when R < 2. */
static void point_ci(const struct welford *w, double se2_sum, int k_inputs, double tq, double *mean, double *lo,
                     double *hi)
{
    double half;
    *mean = w->mean;
    if (isnan(se2_sum) || isnan(tq) || k_inputs < 1) {
        *lo = *hi = NAN;
        return;
    }
    half = tq * sqrt(se2_sum) / (double)k_inputs;
    *lo = w->mean - half;
    *hi = w->mean + half;
}

void sim_sample_start(gsl_rng *r, const struct sim_settings *s, int sample, int *n_config, int *exec_ms,
                      int *es_num, double *es_thr)
{
    gsl_rng_set(r, (unsigned long)mix64(s->seed ^ mix64((uint64_t)sample)));
    /* Four draws per sample, always, in this order: the streams do not depend on the scenarios. */
    *n_config = s->n_config_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->n_config_hi - s->n_config_lo) + 1);
    *exec_ms = s->exec_ms_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->exec_ms_hi - s->exec_ms_lo) + 1);
    *es_num = s->es_num_lo + (int)gsl_rng_uniform_int(r, (unsigned long)(s->es_num_hi - s->es_num_lo) + 1);
    *es_thr = s->es_thr_lo + (s->es_thr_hi - s->es_thr_lo) * gsl_rng_uniform(r);
}

static void run_sample(struct worker *wk, int sample)
{
    const struct job *jb = wk->job;
    const struct sim_data *d = jb->d;
    const struct sim_settings *s = jb->s;
    gsl_rng *r = wk->rng;
    int n_config, exec_ms, es_num, i0, i1;
    double es_thr;

    sim_sample_start(r, s, sample, &n_config, &exec_ms, &es_num, &es_thr);

    memset(wk->acc, 0, sizeof wk->acc);
    i0 = s->input >= 0 ? s->input : 0;
    i1 = s->input >= 0 ? s->input + 1 : d->n_in;
    for (int i = i0; i < i1; i++) {
        const struct sinput *in = &d->in[i];
        int v = in->n, n = n_config < v ? n_config : v;
        if (v == 0)
            continue;
        for (int k = 0; k < v; k++)
            wk->idx[k] = k;
        fill_rows(in, exec_ms - d->exec_lo, es_num, s->estimator, wk->rows);
        for (int run = 0; run < s->runs; run++) {
            /* N distinct configurations, uniformly, in draw order: a partial Fisher-Yates shuffle. */
            for (int q = 0; q < n; q++) {
                int p = q + (int)gsl_rng_uniform_int(r, (unsigned long)(v - q));
                int t = wk->idx[q];
                wk->idx[q] = wk->idx[p];
                wk->idx[p] = t;
            }
            for (int g = 0; g < jb->n_groups; g++)
                run_group(wk->rows, in->flops, in->opt_ms, &jb->groups[g], s->scenarios, wk->idx, n, es_thr,
                          wk->wfree, jb->max_factor, wk->acc);
        }
        for (int sc = 0; sc < s->n_scenarios; sc++)
            acc_end_input(&wk->acc[sc]);
    }
    for (int sc = 0; sc < s->n_scenarios; sc++) {
        struct sim_point *p = &jb->points[(size_t)sample * (size_t)s->n_scenarios + (size_t)sc];
        const struct acc *a = &wk->acc[sc];
        p->sample = sample;
        p->scenario = sc;
        p->n_config = n_config;
        p->exec_ms = exec_ms;
        p->es_num = es_num;
        p->es_thr = es_thr;
        p->results = a->time_s.n;
        point_ci(&a->time_s, a->se2_time, a->k_inputs, jb->tq, &p->time_s, &p->time_s_lo, &p->time_s_hi);
        point_ci(&a->tflops, a->se2_tflops, a->k_inputs, jb->tq, &p->tflops, &p->tflops_lo, &p->tflops_hi);
        point_ci(&a->speedup, a->se2_speedup, a->k_inputs, jb->tq, &p->speedup, &p->speedup_lo, &p->speedup_hi);
        p->n_short = a->n_short;
        p->stopped = a->time_s.n ? (double)a->n_stopped / (double)a->time_s.n : 0;
        p->explored = a->time_s.n ? (double)a->n_explored / (double)a->time_s.n : 0;
    }
}

static void *replay_worker_main(void *arg)
{
    struct worker *wk = arg;
    struct job *jb = wk->job;
    for (;;) {
        int sample = atomic_fetch_add(&jb->next, 1);
        if (sample >= jb->s->samples)
            break;
        run_sample(wk, sample);
        atomic_fetch_add(&jb->done, 1);
    }
    return NULL;
}

/* 0 when the settings are valid and lie within what the data were built for, else -1 with the message. */
static int settings_fit_data(const struct sim_data *d, const struct sim_settings *s)
{
    if (sim_settings_check(s) != 0)
        return -1;
    if (s->exec_ms_lo < d->exec_lo || s->exec_ms_hi > d->exec_hi)
        return tc_seterr("--exec-ms: %d:%d lies outside the range the data were built for (%d:%d)", s->exec_ms_lo,
                         s->exec_ms_hi, d->exec_lo, d->exec_hi);
    if (s->es_num_hi > d->k_max)
        return tc_seterr("--early-stop-num: %d exceeds the largest the data were built for (%d)", s->es_num_hi,
                         d->k_max);
    if (s->estimator == SIM_ESTIMATOR_MEDIAN && !d->have_median)
        return tc_seterr("--estimator median: the data were built without median tables (build them with "
                         "estimator median)");
    if (s->input >= d->n_in)
        return tc_seterr("simulate: input index %d out of range [0, %d)", s->input, d->n_in);
    return 0;
}

/* The scenarios in groups of the same overhead model and early stopping (replayed together), in order of first
 * appearance, and the most compile workers a pipelined scenario asks for (jb->max_factor, at least 1). */
static void group_scenarios(struct job *jb, const struct sim_settings *s)
{
    jb->max_factor = 1;
    for (int i = 0; i < s->n_scenarios; i++) {
        const struct sim_scenario *sc = &s->scenarios[i];
        int g = 0;
        if (sc->compile == SIM_COMPILE_PIPELINED && sc->compile_factor > jb->max_factor)
            jb->max_factor = sc->compile_factor;
        while (g < jb->n_groups &&
               (jb->groups[g].overhead != sc->overhead || jb->groups[g].early_stop != sc->early_stop))
            g++;
        if (g == jb->n_groups) {
            jb->groups[g].overhead = sc->overhead;
            jb->groups[g].early_stop = sc->early_stop;
            jb->n_groups++;
        }
        jb->groups[g].sc[jb->groups[g].n++] = i;
    }
}

struct sim_result *sim_run(const struct sim_data *d, const struct sim_settings *s, sim_progress_fn progress,
                           void *arg)
{
    struct sim_result *res = NULL;
    struct worker *wk = NULL;
    struct job jb;
    int n_threads = s->threads, ok = 0;
    double t0 = tc_now_s(), last;

    if (settings_fit_data(d, s) != 0)
        return NULL;
    memset(&jb, 0, sizeof jb);
    jb.d = d;
    jb.s = s;
    group_scenarios(&jb, s);
    res = calloc(1, sizeof *res);
    if (res == NULL)
        goto oom;
    for (int i = (s->input >= 0 ? s->input : 0); i < (s->input >= 0 ? s->input + 1 : d->n_in); i++) {
        if (d->in[i].n > jb.max_valid)
            jb.max_valid = d->in[i].n;
        res->n_inputs_used += d->in[i].n > 0;
    }
    if (res->n_inputs_used == 0) {
        tc_seterr("simulate: no input with a valid configuration to replay");
        free(res);
        return NULL;
    }
    /* degrees of freedom of the stratified variance: K (R − 1) */
    jb.tq = s->runs >= 2 ? gsl_cdf_tdist_Pinv(0.975, (double)res->n_inputs_used * (double)(s->runs - 1)) : NAN;
    res->n_points = s->samples * s->n_scenarios;
    res->points = calloc((size_t)res->n_points, sizeof *res->points);
    if (res->points == NULL)
        goto oom;
    jb.points = res->points;
    atomic_init(&jb.next, 0);
    atomic_init(&jb.done, 0);

    n_threads = sim_threads(n_threads);
    if (n_threads > s->samples)
        n_threads = s->samples;
    wk = calloc((size_t)n_threads, sizeof *wk);
    if (wk == NULL)
        goto oom;
    for (int t = 0; t < n_threads; t++) {
        wk[t].job = &jb;
        wk[t].rng = gsl_rng_alloc(gsl_rng_mt19937);
        wk[t].idx = malloc((size_t)jb.max_valid * sizeof *wk[t].idx);
        wk[t].wfree = malloc((size_t)jb.max_factor * (size_t)s->n_scenarios * sizeof *wk[t].wfree);
        wk[t].rows = malloc((size_t)jb.max_valid * sizeof *wk[t].rows);
        if (wk[t].rng == NULL || wk[t].idx == NULL || wk[t].wfree == NULL || wk[t].rows == NULL)
            goto oom;
    }
    /* Thread 0 is this one; the others are started here (if one cannot be, the rest share its work). Not
     * tc_run_workers: the calling thread's worker also reports progress between its samples, so the callback
     * (which writes the terminal line) only ever runs on the caller's thread, while the others count. */
    for (int t = 1; t < n_threads; t++)
        wk[t].started = pthread_create(&wk[t].tid, NULL, replay_worker_main, &wk[t]) == 0;
    last = tc_now_s();
    for (;;) {
        int sample = atomic_fetch_add(&jb.next, 1);
        if (sample >= s->samples)
            break;
        run_sample(&wk[0], sample);
        atomic_fetch_add(&jb.done, 1);
        if (progress != NULL && tc_now_s() - last >= 0.2) {
            last = tc_now_s();
            progress(atomic_load(&jb.done), s->samples, arg);
        }
    }
    for (int t = 1; t < n_threads; t++)
        if (wk[t].started)
            pthread_join(wk[t].tid, NULL);
    ok = 1;
    res->elapsed_s = tc_now_s() - t0;
    goto out;
oom:
    tc_seterr("simulate: out of memory");
out:
    if (wk != NULL)
        for (int t = 0; t < n_threads; t++) {
            gsl_rng_free(wk[t].rng);
            free(wk[t].idx);
            free(wk[t].wfree);
            free(wk[t].rows);
        }
    free(wk);
    if (!ok) {
        sim_result_free(res);
        return NULL;
    }
    return res;
}

void sim_result_free(struct sim_result *r)
{
    if (r == NULL)
        return;
    free(r->points);
    free(r);
}
