/* sim_replay.c — the Monte Carlo replay of `tunecost simulate` (sim_run in sim.h): S samples of the
 * hyperparameters, R runs each of N_CONFIG distinct configurations drawn uniformly (valid ones, or all under
 * --failed-cost triton), every scenario replayed on the same draws. Each sample draws from its own gsl_rng stream
 * seeded from (seed, sample index), so the output does not depend on the number of threads. How compile time and
 * overhead are charged is in cost_compile.c and cost_overhead.c; the tables read here are built by sim_data.c. */
#include "sim_cost.h"
#include "sim_internal.h"
#include "sim_table.h"
#include "tc_err.h"
#include "tc_mt.h"
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
    long n_short, n_stopped, n_explored, n_failed;
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

/* What every run of a replay charges beyond its rows: the trace's compile workers (the contended level) and the
 * compile-worker warm-up (sim_warmup_charge). */
struct cost_env {
    int jobs;
    double warmup_ms;
};

struct job {
    const struct sim_data *d;
    const struct sim_settings *s;
    struct sim_point *points;
    double *med_ms, *med_seq_ms; /* [n_in] medians of the valid configurations' compile times (compile_ms, and
                                    what sequential charges), charged to a failed one without any */
    int *drawable;            /* [n_in] inputs a one_input sample draws from (those with a valid configuration) */
    int n_drawable;
    double tq;                /* t quantile for the 95% CI */
    atomic_int next;          /* next sample to take */
    atomic_int done;          /* samples finished */
    int max_factor;           /* largest pipelined factor (worker clocks per scenario) */
    struct cost_env env;      /* the trace's compile workers and the warm-up charged */
    int n_groups;
    struct group groups[SIM_MAX_SCENARIOS];
    int sched_slot[SIM_MAX_SCENARIOS]; /* a clock scenario's schedule slot: the first clock scenario of any group
                                        * with its number of workers and compile charge (paper_compile): the
                                        * schedule does not depend on the group */
    int max_valid;
};

struct worker {
    struct job *job;
    struct tc_mt rng;         /* the sample's stream: gsl_rng_mt19937's draws, inline (tc_mt.h) */
    int *idx;                 /* [max_valid] the draw order */
    struct row *rows;         /* [max_valid] the current input's configurations as this sample sees them */
    double *wfree;            /* [n_scenarios][max_factor] when each compile worker is free, ms */
    double *sched;            /* [n_scenarios][max_valid] per schedule slot, the run's compile end times */
    int sched_ok[SIM_MAX_SCENARIOS]; /* slot claimed in this run (its owner fills it) */
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
 * the R runs then read only that. A failed configuration (failed-cost triton) costs its compile and its failed
 * launch (ovh_ms = ovh_pe_ms = fail_ms), is never stopped early (k_mean_ms −inf) and never wins (est_ms +inf). */
struct row {
    double rep_ms, est_ms, pmin_ms;   /* x1..xj: sum, the estimator's estimate, minimum */
    double ovh_ms, ovh_pe_ms;         /* overhead charged after j executions: paper, per-exec */
    struct sim_compile_ms compile;    /* what each compile model charges */
    double true_ms;                   /* the truth statistic of all its executions */
    double k_mean_ms;                 /* mean(x1..x_ESN), or -inf where an early stop is impossible (j <= ESN) */
    double k_sum_ms, k_pmin_ms, k_ovh_pe_ms; /* the same quantities for a stop after ESN executions */
    int is_short, failed;
};

/* Rows of the configurations a run draws from (valid ones, or all under failed-cost triton), in draw order;
 * returns their number. med_ms, med_seq_ms: the input's medians (struct job). */
static int fill_rows(const struct sinput *in, int eidx, int es_num, const struct sim_settings *s, double med_ms,
                     double med_seq_ms, struct row *rows)
{
    int n = 0;
    for (int q = 0; q < in->n; q++) {
        const struct sconf *c = &in->c[q];
        struct row *r = &rows[n];
        if (c->failed && s->failed_cost == SIM_FAILED_NONE)
            continue;
        n++;
        r->compile = sim_compile_charge(s->compile_model, c->compile_ms, c->compile_iso_ms, med_ms, med_seq_ms);
        r->failed = c->failed;
        if (c->failed) {
            r->rep_ms = 0;
            r->est_ms = r->pmin_ms = INFINITY;
            r->ovh_ms = r->ovh_pe_ms = c->fail_ms;
            r->true_ms = NAN;
            r->is_short = 0;
            r->k_mean_ms = -INFINITY;
            r->k_sum_ms = r->k_pmin_ms = r->k_ovh_pe_ms = NAN;
            continue;
        }
        const struct e_entry *e = &c->e[eidx < c->n_e ? eidx : c->n_e - 1];
        r->rep_ms = e->rep_ms;
        r->pmin_ms = e->pmin_ms;
        r->est_ms = s->estimator == SIM_ESTIMATOR_MEAN  ? e->rep_ms / (double)e->j
                    : s->estimator == SIM_ESTIMATOR_MIN ? e->pmin_ms
                                                        : e->med_ms;
        r->ovh_ms = c->ovh_ms;
        r->ovh_pe_ms = sim_overhead_ms(SIM_OVERHEAD_PER_EXEC, c->ovh_ms, c->gap_ms, c->n_timed, e->j);
        r->true_ms = s->truth == SIM_ESTIMATOR_MEAN ? c->mean_ms : s->truth == SIM_ESTIMATOR_MIN ? c->min_ms
                                                                                                 : c->true_ms;
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
    return n;
}

/* The accumulators of scenario group g after one tuning run: each scenario's time (its compile model, from the
 * sums and clocks), the winner's truth (none: nothing tuned, TFLOP/s and speedup 0; a weighted scenario's speedup x
 * weight) and the counts. */
static void run_record(const struct group *g, const struct sim_scenario *scs, int n,
                       const struct sim_compile_sums *sums, const struct cost_env *env, const double *clock_ms,
                       const struct row *win, double flops, double opt_ms, double weight, const long *counts,
                       struct acc *acc)
{
    double tflops = win != NULL ? flops / win->true_ms * 1e-9 : 0, speedup = win != NULL ? opt_ms / win->true_ms : 0;
    const struct acc *first = &acc[g->sc[0]];
    int first_w = scs[g->sc[0]].weighted;
    /* under the paper's model every level charges the contended compile_ms (par_ms), with no warm-up */
    const struct sim_compile_sums paper = {sums->par_ms, sums->par_ms, sums->par_ms, sums->bench_ms};
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        struct acc *a = &acc[g->sc[k]];
        double t_ms = sim_compile_total_ms(sc->compile, sc->compile_factor, env->jobs,
                                           sc->paper_compile ? 0 : env->warmup_ms, n,
                                           sc->paper_compile ? &paper : sums, clock_ms[k], clock_ms[k]);
        welford_add(&a->time_s, t_ms * 1e-3);
        welford_add(&a->in_time, t_ms * 1e-3);
        if (k == 0 || sc->weighted != first_w) {
            double v = sc->weighted ? speedup * weight : speedup;
            welford_add(&a->tflops, tflops);
            welford_add(&a->speedup, v);
            welford_add(&a->in_tflops, tflops);
            welford_add(&a->in_speedup, v);
        } else { /* the group's scenarios tune the same winner: the first one's sums, the same bits, copied */
            a->tflops = first->tflops;
            a->speedup = first->speedup;
            a->in_tflops = first->in_tflops;
            a->in_speedup = first->in_speedup;
        }
        a->n_short += counts[0];
        a->n_stopped += counts[1];
        a->n_failed += counts[2];
        a->n_explored += n;
    }
}

/* One tuning run of the scenarios of group g over the n drawn configurations idx[0..n) of an input (rows from
 * fill_rows; in_weight: its input_weight, the factor of a weighted scenario's speedup): the random policy with the
 * paper's early stopping; each scenario's compile model charged by sim_cost.h (parallel and pipelined ones keep
 * their own worker clocks, and pipelined its GPU clock). wfree holds max_factor compile-worker clocks per
 * scenario. */
static void run_group(const struct row *rows, double flops, double opt_ms, double in_weight, const struct group *g,
                      const struct sim_scenario *scs, const int *idx, int n, double es_thr, double *wfree,
                      int max_factor, const struct cost_env *env, struct acc *acc, const int *sched_slot,
                      double *sched, int max_valid, int *sched_ok)
{
    struct sim_compile_sums sums = {0, 0, 0, 0};
    double best_known = INFINITY, best_est = INFINITY;
    double clock_ms[SIM_MAX_SCENARIOS];
    long counts[3] = {0, 0, 0}; /* short, stopped, failed */
    /* clk: the group's scenarios that keep worker clocks. Parallel and pipelined compilation on the same workers
     * list-schedule the same compiles in the same order, whatever the group, so their compiles end at the same
     * times: one schedule per number of workers serves the run (same bits as several). Its slot (sched_slot) is
     * filled by its owner, the first clock of the run with those workers, and read by the others (a later clock
     * of the group reads entry q after the owner wrote it). */
    int n_clk = 0, clk[SIM_MAX_SCENARIOS], owner[SIM_MAX_SCENARIOS], per_exec = g->overhead == SIM_OVERHEAD_PER_EXEC;
    double weight[SIM_MAX_SCENARIOS]; /* clk[p]'s contention level min(F, n) as a weight (sim_contention_weight):
                                       * every compile of the run is charged at it; 1 (the contended compile_ms)
                                       * for a paper_compile scenario */
    double warm[SIM_MAX_SCENARIOS];   /* clk[p]'s warm-up (none for a paper_compile scenario) */
    const struct row *win = NULL;
    double *slot_ms[SIM_MAX_SCENARIOS]; /* clk[p]'s schedule: the run's compile end times */
    for (int k = 0; k < g->n; k++) {
        const struct sim_scenario *sc = &scs[g->sc[k]];
        clock_ms[k] = 0;
        if (sc->compile == SIM_COMPILE_PIPELINED || sc->compile == SIM_COMPILE_PARALLEL) {
            int slot = sched_slot[g->sc[k]];
            weight[n_clk] = sc->paper_compile ? 1 : sim_contention_weight(sim_compile_level(sc->compile_factor, n),
                                                                           env->jobs);
            warm[n_clk] = sc->paper_compile ? 0 : env->warmup_ms;
            slot_ms[n_clk] = sched + (size_t)slot * (size_t)max_valid;
            owner[n_clk] = !sched_ok[slot];
            sched_ok[slot] = 1;
            clk[n_clk++] = k;
        }
    }
    for (int q = 0; q < n; q++) {
        const struct row *c = &rows[idx[q]];
        double bench, mn;
        if (g->early_stop && c->k_mean_ms > best_known * es_thr) {
            /* stopped after EARLY_STOP_NUM executions and dropped from the running */
            bench = c->k_sum_ms + (per_exec ? c->k_ovh_pe_ms : c->ovh_ms);
            mn = c->k_pmin_ms;
            counts[1]++;
        } else {
            bench = c->rep_ms + (per_exec ? c->ovh_pe_ms : c->ovh_ms);
            mn = c->pmin_ms;
            counts[0] += c->is_short;
            counts[2] += c->failed;
            if (c->est_ms < best_est) {
                best_est = c->est_ms;
                win = c;
            }
        }
        sums.seq_ms += c->compile.seq_ms;
        sums.par_ms += c->compile.par_ms;
        sums.iso_ms += c->compile.iso_ms;
        sums.bench_ms += bench;
        for (int p = 0; p < n_clk; p++) {
            int k = clk[p];
            const struct sim_scenario *sc = &scs[g->sc[k]];
            double *wf = wfree + (size_t)g->sc[k] * (size_t)max_factor;
            double done = owner[p] ? (slot_ms[p][q] = sim_compile_assign(wf, sc->compile_factor, q,
                                                                           sim_compile_at_weight(c->compile, weight[p])))
                                   : slot_ms[p][q];
            if (sc->compile == SIM_COMPILE_PIPELINED)
                clock_ms[k] = sim_pipe_bench(done + warm[p], clock_ms[k], bench);
            else
                clock_ms[k] = done > clock_ms[k] ? done : clock_ms[k]; /* the makespan so far */
        }
        if (mn < best_known)
            best_known = mn;
    }
    run_record(g, scs, n, &sums, env, clock_ms, win, flops, opt_ms, in_weight, counts, acc);
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

/* The four draws that start a sample, from either form of the same stream (a gsl_rng or a tc_mt drawing the
 * same numbers): one body for sim_sample_start and the replay. */
struct draws {
    void *g;
    unsigned long (*uniform_int)(void *g, unsigned long n);
    double (*uniform)(void *g);
};

static void sample_draws(const struct draws *r, const struct sim_settings *s, int *n_config, double *exec_ms,
                         int *es_num, double *es_thr)
{
    /* Four draws per sample, always, in this order: the streams do not depend on the scenarios. */
    *n_config = s->n_config_lo + (int)r->uniform_int(r->g, (unsigned long)(s->n_config_hi - s->n_config_lo) + 1);
    *exec_ms = sim_exec_grid_ms(s, (int)r->uniform_int(r->g, (unsigned long)sim_exec_grid_n(s)));
    *es_num = s->es_num_lo + (int)r->uniform_int(r->g, (unsigned long)(s->es_num_hi - s->es_num_lo) + 1);
    *es_thr = s->es_thr_lo + (s->es_thr_hi - s->es_thr_lo) * r->uniform(r->g);
}

static unsigned long gsl_int(void *g, unsigned long n)
{
    return gsl_rng_uniform_int(g, n);
}
static double gsl_unif(void *g)
{
    return gsl_rng_uniform(g);
}
static unsigned long mt_int(void *g, unsigned long n)
{
    return tc_mt_uniform_int(g, n);
}
static double mt_unif(void *g)
{
    return tc_mt_uniform(g);
}

/* The seed of sample `sample`'s stream. */
static unsigned long sample_seed(const struct sim_settings *s, int sample)
{
    return (unsigned long)mix64(s->seed ^ mix64((uint64_t)sample));
}

void sim_sample_start(gsl_rng *r, const struct sim_settings *s, int sample, int *n_config, double *exec_ms,
                      int *es_num, double *es_thr)
{
    struct draws d = {r, gsl_int, gsl_unif};
    gsl_rng_set(r, sample_seed(s, sample));
    sample_draws(&d, s, n_config, exec_ms, es_num, es_thr);
}

/* The index of EXEC_TIME exec_ms in the data's grid (settings_fit_data checked that it is there). */
static int grid_index(const struct sim_data *d, double exec_ms)
{
    uint64_t thr = (uint64_t)llround(exec_ms * 1e6);
    int lo = 0, hi = d->n_e - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (d->thr_ns[mid] >= thr)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Write scenario sc's point of a sample from its accumulators. */
static void point_write(const struct job *jb, const struct acc *a, int sample, int sc, int n_config, double exec_ms,
                        int es_num, double es_thr, int input)
{
    struct sim_point *p = &jb->points[(size_t)sample * (size_t)jb->s->n_scenarios + (size_t)sc];
    p->sample = sample;
    p->scenario = sc;
    p->n_config = n_config;
    p->exec_ms = exec_ms;
    p->input = input;
    p->es_num = es_num;
    p->es_thr = es_thr;
    p->results = a->time_s.n;
    point_ci(&a->time_s, a->se2_time, a->k_inputs, jb->tq, &p->time_s, &p->time_s_lo, &p->time_s_hi);
    point_ci(&a->tflops, a->se2_tflops, a->k_inputs, jb->tq, &p->tflops, &p->tflops_lo, &p->tflops_hi);
    point_ci(&a->speedup, a->se2_speedup, a->k_inputs, jb->tq, &p->speedup, &p->speedup_lo, &p->speedup_hi);
    p->n_short = a->n_short;
    p->stopped = a->time_s.n ? (double)a->n_stopped / (double)a->time_s.n : 0;
    p->explored = a->time_s.n ? (double)a->n_explored / (double)a->time_s.n : 0;
    p->failed = a->time_s.n ? (double)a->n_failed / (double)a->time_s.n : 0;
}

static void run_sample(struct worker *wk, int sample)
{
    const struct job *jb = wk->job;
    const struct sim_data *d = jb->d;
    const struct sim_settings *s = jb->s;
    struct tc_mt *r = &wk->rng;
    struct draws dr = {r, mt_int, mt_unif};
    int n_config, es_num, i0, i1, eidx, drawn = -1;
    double es_thr, exec_ms;

    tc_mt_seed(r, sample_seed(s, sample));
    sample_draws(&dr, s, &n_config, &exec_ms, &es_num, &es_thr);
    eidx = grid_index(d, exec_ms);

    memset(wk->acc, 0, sizeof wk->acc);
    i0 = s->input >= 0 ? s->input : 0;
    i1 = s->input >= 0 ? s->input + 1 : d->n_in;
    if (s->input < 0 && s->one_input) { /* the paper's Figures 4-5: one input per sample */
        drawn = jb->drawable[tc_mt_uniform_int(r, (unsigned long)jb->n_drawable)];
        i0 = drawn;
        i1 = drawn + 1;
    }
    for (int i = i0; i < i1; i++) {
        const struct sinput *in = &d->in[i];
        double weight = s->input_weight != NULL ? s->input_weight[i] : 1;
        int v, n;
        if (in->n_valid == 0 || isnan(weight)) /* (a NaN weight: left out) */
            continue;
        v = fill_rows(in, eidx, es_num, s, jb->med_ms[i], jb->med_seq_ms[i], wk->rows);
        n = n_config < v ? n_config : v;
        for (int k = 0; k < v; k++)
            wk->idx[k] = k;
        for (int run = 0; run < s->runs; run++) {
            /* N distinct configurations, uniformly, in draw order: a partial Fisher-Yates shuffle. */
            for (int q = 0; q < n; q++) {
                int p = q + (int)tc_mt_uniform_int(r, (unsigned long)(v - q));
                int t = wk->idx[q];
                wk->idx[q] = wk->idx[p];
                wk->idx[p] = t;
            }
            memset(wk->sched_ok, 0, sizeof wk->sched_ok);
            for (int g = 0; g < jb->n_groups; g++)
                run_group(wk->rows, in->flops, in->opt_ms[s->truth], weight, &jb->groups[g], s->scenarios, wk->idx, n,
                          es_thr, wk->wfree, jb->max_factor, &jb->env, wk->acc, jb->sched_slot, wk->sched,
                          jb->max_valid, wk->sched_ok);
        }
        for (int sc = 0; sc < s->n_scenarios; sc++)
            acc_end_input(&wk->acc[sc]);
    }
    for (int sc = 0; sc < s->n_scenarios; sc++)
        point_write(jb, &wk->acc[sc], sample, sc, n_config, exec_ms, es_num, es_thr, drawn);
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
    for (int k = 0; k < sim_exec_grid_n(s); k++) {
        double e = sim_exec_grid_ms(s, k);
        if (d->thr_ns[grid_index(d, e)] != (uint64_t)llround(e * 1e6))
            return tc_seterr("--exec-ms: EXEC_TIME %.9g ms (%s %g:%g) is not on the grid the data were built for",
                             e, sim_exec_dist_name(s->exec_dist), s->exec_ms_lo, s->exec_ms_hi);
    }
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
 * appearance, and the most compile workers a parallel or pipelined scenario asks for (jb->max_factor, at least
 * 1). */
static void group_scenarios(struct job *jb, const struct sim_settings *s)
{
    jb->max_factor = 1;
    for (int i = 0; i < s->n_scenarios; i++) {
        const struct sim_scenario *sc = &s->scenarios[i];
        int g = 0;
        if ((sc->compile == SIM_COMPILE_PIPELINED || sc->compile == SIM_COMPILE_PARALLEL) &&
            sc->compile_factor > jb->max_factor)
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
        jb->sched_slot[i] = i;
        for (int j = 0; j < i; j++)
            if ((s->scenarios[j].compile == SIM_COMPILE_PIPELINED || s->scenarios[j].compile == SIM_COMPILE_PARALLEL) &&
                s->scenarios[j].compile_factor == sc->compile_factor &&
                s->scenarios[j].paper_compile == sc->paper_compile) {
                jb->sched_slot[i] = j;
                break;
            }
    }
}

/* Per input: the medians of its valid configurations' compile times (jb->med_ms, med_seq_ms), the inputs a
 * one_input sample draws from, the most configurations a run draws from (jb->max_valid) and res->n_inputs_used.
 * Returns 0, or -1 with the message. */
static int job_inputs(struct job *jb, struct sim_result *res)
{
    const struct sim_data *d = jb->d;
    const struct sim_settings *s = jb->s;
    size_t n = (size_t)(d->n_in > 0 ? d->n_in : 1);
    double *v = NULL, *iso = NULL, *scratch = NULL;
    jb->med_ms = calloc(n, sizeof *jb->med_ms);
    jb->med_seq_ms = calloc(n, sizeof *jb->med_seq_ms);
    jb->drawable = calloc(n, sizeof *jb->drawable);
    for (int i = 0; i < d->n_in; i++)
        n = (size_t)d->in[i].n > n ? (size_t)d->in[i].n : n;
    v = malloc(n * sizeof *v);
    iso = malloc(n * sizeof *iso);
    scratch = malloc(n * sizeof *scratch);
    if (jb->med_ms == NULL || jb->med_seq_ms == NULL || jb->drawable == NULL || v == NULL || iso == NULL ||
        scratch == NULL) {
        free(v);
        free(iso);
        free(scratch);
        return tc_seterr_env("simulate: out of memory");
    }
    for (int i = (s->input >= 0 ? s->input : 0); i < (s->input >= 0 ? s->input + 1 : d->n_in); i++) {
        const struct sinput *in = &d->in[i];
        int m = 0;
        if (in->n > jb->max_valid)
            jb->max_valid = in->n;
        if (in->n_valid == 0 || (s->input_weight != NULL && isnan(s->input_weight[i])))
            continue;
        res->n_inputs_used++;
        jb->drawable[jb->n_drawable++] = i;
        for (int q = 0; q < in->n; q++)
            if (!in->c[q].failed) {
                v[m] = in->c[q].compile_ms;
                iso[m++] = in->c[q].compile_iso_ms;
            }
        sim_compile_medians(s->compile_model, v, iso, m, scratch, &jb->med_ms[i], &jb->med_seq_ms[i]);
    }
    free(v);
    free(iso);
    free(scratch);
    if (res->n_inputs_used == 0)
        return tc_seterr("simulate: no input with a valid configuration to replay");
    return 0;
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
    jb.env.jobs = d->compile_jobs;
    jb.env.warmup_ms = sim_warmup_charge(s->compile_model, d->warmup_mean_ms);
    group_scenarios(&jb, s);
    res = calloc(1, sizeof *res);
    if (res == NULL)
        goto oom;
    if (job_inputs(&jb, res) != 0)
        goto out;
    /* degrees of freedom of the stratified variance: K (R − 1), K = 1 when a sample replays one input */
    jb.tq = s->runs >= 2 ? gsl_cdf_tdist_Pinv(0.975, (double)(s->input < 0 && s->one_input ? 1 : res->n_inputs_used) *
                                                         (double)(s->runs - 1))
                         : NAN;
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
        wk[t].idx = malloc((size_t)jb.max_valid * sizeof *wk[t].idx);
        wk[t].wfree = malloc((size_t)jb.max_factor * (size_t)s->n_scenarios * sizeof *wk[t].wfree);
        wk[t].sched = malloc(((size_t)jb.max_valid + 1) * (size_t)s->n_scenarios * sizeof *wk[t].sched);
        wk[t].rows = malloc((size_t)jb.max_valid * sizeof *wk[t].rows);
        if (wk[t].idx == NULL || wk[t].wfree == NULL || wk[t].sched == NULL || wk[t].rows == NULL)
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
    tc_seterr_env("simulate: out of memory");
out:
    free(jb.med_ms);
    free(jb.med_seq_ms);
    free(jb.drawable);
    if (wk != NULL)
        for (int t = 0; t < n_threads; t++) {
            free(wk[t].idx);
            free(wk[t].wfree);
            free(wk[t].sched);
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
