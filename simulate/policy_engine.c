/* policy_engine.c — the replay engine for tuning policies (policy.h): the cost of every step a policy asks for,
 * the stopping rules, one tuning run, and the curves of an evaluation on a common time grid with their score. */
#include "policy_internal.h"
#include "sim_cost.h"
#include "tc_err.h"
#include "tc_threads.h"
#include "tc_tsv.h"
#include "trace.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- one tuning run ------------------------------------------------------------------------------------------ */

struct run_state {
    double *est_ms, *sum_ms, *sumsq_ms, *compile_ms;
    int *n_exec, *failed, *visited, *dropped;
    double best_single_ms;
    double step_comp_ms;         /* the compile the current step charged (the clock's advance over it), ms */
    int n_visited;               /* distinct configurations benchmarked (or failed) */
    /* sim_costs only: */
    double best_known_ms;        /* fastest execution of the configurations benchmarked before */
    struct sim_clock clock;      /* the compile model's clock */
    double *wfree_ms;            /* [SIM_CLOCK_WORDS(compile_factor)] the clock's workers and first wave */
};

/* A run's steps: the tuning time at the end of each, the incumbent's true speedup then, the configuration the step
 * benchmarked and the compile it charged (ms; -1 and 0 where the caller has none). */
struct step_log {
    double *t_s, *speedup, *comp_ms;
    int *cfg;
    int n, cap;
};

static int log_add(struct step_log *l, double t_s, double speedup, int cfg, double comp_ms)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        double *a = realloc(l->t_s, (size_t)cap * sizeof *a), *b, *c;
        int *k;
        if (a == NULL)
            return -1;
        l->t_s = a;
        if ((b = realloc(l->speedup, (size_t)cap * sizeof *b)) == NULL)
            return -1;
        l->speedup = b;
        if ((c = realloc(l->comp_ms, (size_t)cap * sizeof *c)) == NULL)
            return -1;
        l->comp_ms = c;
        if ((k = realloc(l->cfg, (size_t)cap * sizeof *k)) == NULL)
            return -1;
        l->cfg = k;
        l->cap = cap;
    }
    l->t_s[l->n] = t_s;
    l->speedup[l->n] = speedup;
    l->cfg[l->n] = cfg;
    l->comp_ms[l->n] = comp_ms;
    l->n++;
    return 0;
}

static void log_free(struct step_log *l)
{
    free(l->t_s);
    free(l->speedup);
    free(l->comp_ms);
    free(l->cfg);
}

static int incumbent(const struct pinput *in, const struct run_state *rs)
{
    int best = -1;
    for (int k = 0; k < in->n_cfg; k++)
        if (!rs->failed[k] && !rs->dropped[k] && rs->n_exec[k] > 0 &&
            (best < 0 || rs->est_ms[k] < rs->est_ms[best]))
            best = k;
    return best;
}

/* The incumbent after a step on k, from the one before (prev): only k changed, so a full scan is needed only when
 * k was the incumbent (its estimate may have risen, or it was dropped); else k replaces prev when it is usable and
 * lower, or equal with a lower index (incumbent's order). */
static int incumbent_after(const struct pinput *in, const struct run_state *rs, int prev, int k)
{
    if (prev < 0 || k == prev)
        return incumbent(in, rs);
    if (rs->failed[k] || rs->dropped[k] || rs->n_exec[k] == 0)
        return prev;
    if (rs->est_ms[k] < rs->est_ms[prev] || (rs->est_ms[k] == rs->est_ms[prev] && k < prev))
        return k;
    return prev;
}

static int bench_execs(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                       double rep, double budget_ms, double *now_ms);

/* The first visit of configuration k (bench_step): its compile through the run's clock, as simulate charges it
 * (sim_clock_step: sequential the isolated time, parallel and pipelined the list schedule of the contended times;
 * none for a configuration the failure-cost model does not compile), then a failed one's launch or a valid one's
 * warm-up as benchmarking. *now: the clock, ms. Returns 1 when the budget ended the run, else 0. */
static int visit_step(const struct pcfg *c, const struct pol_settings *s, struct run_state *rs, int k, double *now)
{
    double budget_ms = s->budget_s * 1e3;
    struct sim_clock saved = rs->clock;
    sim_clock_step(&rs->clock, sim_failed_compiles(s->failed_cost, c->status), c->charge[s->compile_model], 0);
    if (sim_clock_ms(&rs->clock) > budget_ms) {
        rs->clock = saved; /* the compile that would pass the budget is not charged */
        return 1;
    }
    rs->step_comp_ms = sim_clock_ms(&rs->clock) - *now > 0 ? sim_clock_ms(&rs->clock) - *now : 0;
    *now = sim_clock_ms(&rs->clock);
    rs->visited[k] = 1;
    rs->n_visited++;
    double more = c->status != TRACE_OK ? pol_visit_fail_ms(c, s) : c->warm_ms;
    if (c->status != TRACE_OK)
        rs->failed[k] = 1;
    if (more > 0 && *now + more > budget_ms)
        return 1;
    *now += more;
    sim_clock_bench(&rs->clock, more);
    return 0;
}

/* Benchmark configuration k for `rep` ms of timed executions (continuing after those already taken). Returns 1
 * when the budget ended the run (nothing of the step that would pass it is charged), else 0. The run's clock
 * (rs->clock) holds the tuning time: compiles by the compile model, everything else as benchmarking. */
static int bench_step(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                      double rep, double *time_s)
{
    const struct pcfg *c = &in->c[k];
    double budget_ms = s->budget_s * 1e3, now = sim_clock_ms(&rs->clock), start;
    if (!rs->visited[k]) {
        int end = visit_step(c, s, rs, k, &now);
        if (end || c->status != TRACE_OK) {
            *time_s = now * 1e-3 > *time_s ? now * 1e-3 : *time_s;
            return end;
        }
    }
    start = now;
    if (rs->failed[k] || rs->dropped[k] || (rep <= 0 && rs->n_exec[k] > 0)) {
        *time_s = now * 1e-3 > *time_s ? now * 1e-3 : *time_s;
        return 0;
    }
    int end = bench_execs(in, s, rs, k, rep, budget_ms, &now);
    sim_clock_bench(&rs->clock, now - start);
    *time_s = now * 1e-3 > *time_s ? now * 1e-3 : *time_s; /* the ideal model's clock may step back */
    return end;
}

/* The timed executions of bench_step from *now (ms): the paper's rule for `rep`, the stopping rule. Returns 1 when
 * the budget ended the run, else 0. */
static int bench_execs(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                       double rep, double budget_ms, double *now_ms)
{
    const struct pcfg *c = &in->c[k];
    double now = *now_ms;
    double used = 0;
    int j = rs->n_exec[k], other = -1;
    if (s->stop_rule == POL_STOP_STATISTICAL) { /* the best of the others is fixed while k is measured */
        for (int q = 0; q < in->n_cfg; q++)
            if (q != k && !rs->failed[q] && !rs->dropped[q] && rs->n_exec[q] > 0 &&
                (other < 0 || rs->est_ms[q] < rs->est_ms[other]))
                other = q;
    }
    while (j < c->n && used <= rep) { /* the paper's rule: the smallest count whose sum exceeds rep */
        const double *b = j % BLK == 0 && j + BLK <= c->n ? &c->blk[4 * (j / BLK)] : NULL;
        /* The statistical rule cannot fire inside a block when the mean so far and every execution of the block
         * are at most the best other estimate: each running mean then stays at most that, and the lower bound
         * is at most the mean. */
        int stat_quiet = s->stop_rule == POL_STOP_STATISTICAL &&
                         (other < 0 || (b != NULL && (j == 0 || rs->est_ms[k] <= rs->est_ms[other]) &&
                                        b[3] <= rs->est_ms[other]));
        if (b != NULL && (s->stop_rule == POL_STOP_NONE || stat_quiet ||
                          (s->stop_rule == POL_STOP_EARLY && j >= s->es_num))) {
            /* a whole block that ends at or below rep and within the budget: the same as taking its executions
             * one by one (every one is taken, no rule fires inside it) */
            if (used + b[0] <= rep && now + b[0] + BLK * c->gap_ms <= budget_ms) {
                now += b[0] + BLK * c->gap_ms;
                used += b[0];
                rs->sum_ms[k] += b[0];
                rs->sumsq_ms[k] += b[1];
                j += BLK;
                rs->n_exec[k] = j;
                rs->est_ms[k] = rs->sum_ms[k] / j;
                if (b[2] < rs->best_single_ms)
                    rs->best_single_ms = b[2];
                continue;
            }
        }
        double x = (double)c->x[j] * 1e-6;
        if (now + x + c->gap_ms > budget_ms) {
            *now_ms = now;
            return 1;
        }
        now += x + c->gap_ms;
        used += x;
        rs->sum_ms[k] += x;
        rs->sumsq_ms[k] += x * x;
        j++;
        rs->n_exec[k] = j;
        rs->est_ms[k] = rs->sum_ms[k] / j;
        if (x < rs->best_single_ms)
            rs->best_single_ms = x;
        if (s->stop_rule == POL_STOP_EARLY && j == s->es_num && j < c->n &&
            rs->est_ms[k] > rs->best_single_ms * s->es_threshold) {
            rs->dropped[k] = 1;
            break;
        }
        if (s->stop_rule == POL_STOP_STATISTICAL && j >= 3 && other >= 0) {
            double mean = rs->est_ms[k], var = (rs->sumsq_ms[k] - j * mean * mean) / (j - 1);
            double lo = mean - 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)j);
            if (lo > rs->est_ms[other]) { /* it cannot beat the best so far: stop measuring it */
                rs->dropped[k] = 1;
                break;
            }
        }
    }
    *now_ms = now;
    return 0;
}

/* The compile part of one sim_clock_step from `before` to `after` that also charged bench_ms of benchmarking: the
 * clock's advance less the benchmarking, within [0, the advance] (the parallel models overlap the two). */
static double step_compile_part(const struct sim_clock *before, const struct sim_clock *after, double bench_ms)
{
    double adv = sim_clock_ms(after) - sim_clock_ms(before), comp = adv - bench_ms;
    return comp < 0 ? 0 : comp > adv ? adv : comp;
}

/* bench_step with simulate's costs (pol_settings.sim_costs; the same arithmetic as sim_data.c and
 * sim_replay.c, in integer ns where they use it): configuration k is benchmarked once, for the executions the
 * paper's rule takes for `rep` ms; its compile and benchmark go through the run's clock. Returns 1 when the budget
 * ended the run (the step is not charged), else 0. */
static int bench_step_sim(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                          double rep, double *time_s)
{
    const struct pcfg *c = &in->c[k];
    struct sim_clock saved = rs->clock;
    uint64_t thr_ns = (uint64_t)(rep * 1e6 + 0.5), sum = 0, pmin = UINT64_MAX, ksum = 0, kmin = UINT64_MAX;
    int j = 0, stop = 0;
    double bench, mn;
    if (rs->visited[k])
        return 0; /* simulate benchmarks a configuration once */
    if (c->status != TRACE_OK) {
        /* as simulate charges it (compile + the failed launch, cost_overhead.c); under none simulate draws valid
         * configurations only, and the engine charges the same rule */
        sim_clock_step(&rs->clock, sim_failed_compiles(s->failed_cost, c->status), c->charge[s->compile_model],
                       pol_visit_fail_ms(c, s));
        if (sim_clock_ms(&rs->clock) > s->budget_s * 1e3) {
            rs->clock = saved;
            return 1;
        }
        rs->visited[k] = rs->failed[k] = 1;
        rs->n_visited++;
        rs->step_comp_ms = step_compile_part(&saved, &rs->clock, pol_visit_fail_ms(c, s));
        *time_s = sim_clock_ms(&rs->clock) * 1e-3;
        return 0;
    }
    while (j < c->n && sum <= thr_ns) { /* the smallest count whose sum exceeds rep, or all */
        uint64_t x = c->x[j++];
        sum += x;
        pmin = x < pmin ? x : pmin;
        if (j <= s->es_num) {
            ksum = sum;
            kmin = pmin;
        }
    }
    if (s->stop_rule == POL_STOP_EARLY && j > s->es_num &&
        (double)ksum * 1e-6 / (double)s->es_num > rs->best_known_ms * s->es_threshold) {
        stop = 1; /* stopped after es_num executions and dropped from the running */
        bench = (double)ksum * 1e-6 + sim_overhead_ms(s->overhead, c->ovh_ms, c->gap_ms, c->n, s->es_num);
        mn = (double)kmin * 1e-6;
    } else {
        bench = (double)sum * 1e-6 + sim_overhead_ms(s->overhead, c->ovh_ms, c->gap_ms, c->n, j);
        mn = (double)pmin * 1e-6;
    }
    sim_clock_step(&rs->clock, 1, c->charge[s->compile_model], bench);
    if (sim_clock_ms(&rs->clock) > s->budget_s * 1e3) {
        rs->clock = saved;
        return 1;
    }
    rs->visited[k] = 1;
    rs->n_visited++;
    rs->step_comp_ms = step_compile_part(&saved, &rs->clock, bench);
    if (stop) {
        rs->dropped[k] = 1;
        rs->n_exec[k] = s->es_num;
    } else {
        rs->n_exec[k] = j;
        rs->sum_ms[k] = (double)sum * 1e-6;
        rs->est_ms[k] = rs->sum_ms[k] / (double)j;
    }
    if (mn < rs->best_known_ms)
        rs->best_known_ms = mn;
    if (mn < rs->best_single_ms)
        rs->best_single_ms = mn;
    *time_s = sim_clock_ms(&rs->clock) * 1e-3;
    return 0;
}

/* The true speedup of incumbent k (-1: none yet, 0) under the one truth that also ranks (pol_settings.truth, the
 * statistic of all its timed executions; the engine's estimate is the mean of those taken, and truth defaults to
 * the mean: a run that measures every execution of every configuration ends at exactly 1, as in simulate). */
static double pol_incumbent_speedup(const struct pinput *in, const struct pol_settings *s, int k)
{
    return k < 0 ? 0 : pol_opt_ms(in, s) / pol_truth_ms(&in->c[k], s);
}

/* A step under pol_settings.source_costs (Kernel Tuner's simulation mode on an imported trace): the first visit of k
 * costs what the source recorded for it (compile + verification + benchmark, src_cost_ms) and measures the source's
 * objective (true_ms); a revisit is served from the cache and costs nothing. Returns 1 when the budget ended the run
 * (the visit that would pass it is not charged), else 0. */
static int bench_step_source(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                             double *time_s)
{
    const struct pcfg *c = &in->c[k];
    double now = *time_s * 1e3 + c->src_cost_ms;
    if (rs->visited[k])
        return 0;
    if (now > s->budget_s * 1e3)
        return 1;
    rs->visited[k] = 1;
    rs->n_visited++;
    rs->step_comp_ms = c->compile_ms < c->src_cost_ms ? c->compile_ms : c->src_cost_ms; /* part of what it recorded */
    if (c->status != TRACE_OK) {
        rs->failed[k] = 1;
    } else {
        rs->n_exec[k] = 1;
        rs->sum_ms[k] = rs->est_ms[k] = c->true_ms;
        rs->best_single_ms = c->true_ms < rs->best_single_ms ? c->true_ms : rs->best_single_ms;
    }
    *time_s = now * 1e-3;
    return 0;
}

/* One step of k under the settings' cost model: 1 when the budget ended the run, else 0. */
static int step_cost(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k, double rep,
                     double *time_s)
{
    if (s->source_costs)
        return bench_step_source(in, s, rs, k, time_s);
    return s->sim_costs ? bench_step_sim(in, s, rs, k, rep, time_s) : bench_step(in, s, rs, k, rep, time_s);
}

/* One run of policy ops on input in; the step log receives (time, true speedup of the incumbent). */
static int one_run(const struct pol_data *d, const struct pinput *in, const struct policy_ops *ops,
                   const struct pol_settings *s, gsl_rng *rng, struct step_log *log, long *n_steps,
                   int *budget_stop)
{
    int nc = in->n_cfg, rc = -1;
    struct run_state rs;
    struct pol_view v;
    void *st = NULL;
    memset(&rs, 0, sizeof rs);
    if (ops->needs_prior && in->prior_ms == NULL)
        return tc_seterr("policies: %s needs another GPU's trace as its prior (--transfer-from TRACE)", ops->name);
    rs.est_ms = malloc((size_t)nc * sizeof *rs.est_ms);
    rs.sum_ms = calloc((size_t)nc, sizeof *rs.sum_ms);
    rs.sumsq_ms = calloc((size_t)nc, sizeof *rs.sumsq_ms);
    rs.compile_ms = malloc((size_t)nc * sizeof *rs.compile_ms);
    rs.n_exec = calloc((size_t)nc, sizeof *rs.n_exec);
    rs.failed = calloc((size_t)nc, sizeof *rs.failed);
    rs.visited = calloc((size_t)nc, sizeof *rs.visited);
    rs.dropped = calloc((size_t)nc, sizeof *rs.dropped);
    rs.best_single_ms = rs.best_known_ms = INFINITY;
    { /* the compile model's clock (sim_cost.h), as simulate's: both cost modes charge compiles through it */
        int f = pol_compile_factor(s);
        rs.wfree_ms = malloc(SIM_CLOCK_WORDS(f) * sizeof *rs.wfree_ms);
        if (rs.wfree_ms != NULL)
            sim_clock_start(&rs.clock, s->compile, f, d->compile_jobs, pol_warmup_ms(d, s), rs.wfree_ms);
    }
    if (rs.est_ms == NULL || rs.sum_ms == NULL || rs.sumsq_ms == NULL || rs.compile_ms == NULL || rs.n_exec == NULL ||
        rs.failed == NULL ||
        rs.visited == NULL || rs.dropped == NULL || rs.wfree_ms == NULL) {
        tc_seterr_env("policies: out of memory");
        goto out;
    }
    for (int k = 0; k < nc; k++)
        rs.est_ms[k] = rs.compile_ms[k] = NAN;
    memset(&v, 0, sizeof v);
    v.n_configs = nc;
    v.n_params = d->n_params;
    v.cfg = s->failed_cost == SIM_FAILED_TRITON ? in->pc + nc : in->pc;
    v.n_values = d->n_values;
    v.values = (const int32_t *const *)d->values;
    v.grid_cfg = d->grid_cfg;
    v.vidx = d->vidx;
    v.param_kind = d->param_kind;
    v.prior_ms = in->prior_ms;
    v.compile_ms = rs.compile_ms;
    v.est_ms = rs.est_ms;
    v.n_exec = rs.n_exec;
    v.failed = rs.failed;
    v.best = -1;
    v.rep_ms = s->rep_ms;
    v.rng = rng;
    v.options = s->strategy_options;
    *budget_stop = 0;
    if ((st = ops->start(&v)) == NULL) {
        tc_seterr_env("policies: %s: out of memory", ops->name);
        goto out;
    }
    /* a generous cap on steps, so that a policy that never says -1 still ends (it is then ended by the budget) */
    for (long step = 0; step < 100L * nc + 1000; step++) {
        int k = ops->next(st, &v);
        if (k < 0)
            break;
        if (k >= nc) {
            tc_seterr("policies: %s asked for configuration %d of %d", ops->name, k, nc);
            goto out;
        }
        if (s->max_configs > 0 && !rs.visited[k] && rs.n_visited >= s->max_configs)
            break; /* the run's configurations are all benchmarked */
        double rep = ops->rep_ms(st, &v, k);
        int was_visited = rs.visited[k];
        rep = isfinite(rep) && rep > 0 ? rep : 0;
        rs.step_comp_ms = 0;
        if (step_cost(in, s, &rs, k, rep, &v.time_s)) {
            *budget_stop = 1;
            break;
        }
        if (!was_visited && rs.visited[k] &&
            (in->c[k].status != TRACE_OUT_OF_RESOURCES || s->failed_cost == SIM_FAILED_TRITON))
            rs.compile_ms[k] = in->c[k].compile_rec_ms; /* compiled now: its compile time is known */
        (*n_steps)++;
        v.best = incumbent_after(in, &rs, v.best, k);
        if (ops->observe != NULL)
            ops->observe(st, &v, k);
        if (log_add(log, v.time_s, pol_incumbent_speedup(in, s, v.best), k, rs.step_comp_ms) != 0) {
            tc_seterr_env("policies: out of memory");
            goto out;
        }
    }
    rc = 0;
out:
    if (st != NULL)
        ops->stop(st);
    free(rs.est_ms);
    free(rs.sum_ms);
    free(rs.sumsq_ms);
    free(rs.compile_ms);
    free(rs.n_exec);
    free(rs.failed);
    free(rs.visited);
    free(rs.dropped);
    free(rs.wfree_ms);
    return rc;
}

int pol_run(const struct pol_data *d, int input, const struct policy_ops *ops, const struct pol_settings *s,
            gsl_rng *rng, double *time_s, double *speedup)
{
    struct step_log log = {0};
    long n_steps = 0;
    int stopped = 0, rc;
    if (input < 0 || input >= d->n_in)
        return tc_seterr("policies: input index %d out of range [0, %d)", input, d->n_in);
    rc = one_run(d, &d->in[input], ops, s, rng, &log, &n_steps, &stopped);
    if (rc == 0) {
        *time_s = log.n > 0 ? log.t_s[log.n - 1] : 0;
        *speedup = log.n > 0 ? log.speedup[log.n - 1] : 0;
    }
    log_free(&log);
    return rc;
}

/* ---- evaluation --------------------------------------------------------------------------------------------- */

void pol_grid(double lo_s, double hi_s, int n, double *grid_s)
{
    for (int g = 0; g < n; g++)
        grid_s[g] = n == 1 ? hi_s : lo_s * pow(hi_s / lo_s, (double)g / (n - 1));
}

/* Per-input stream: the same (seed, policy, input, run) gives the same draws whatever else runs. */
static unsigned long stream_seed(uint64_t seed, const char *policy, int input, int run)
{
    uint64_t h = seed ^ 0x9E3779B97F4A7C15ULL;
    for (const char *p = policy; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h ^= (uint64_t)input * 0xBF58476D1CE4E5B9ULL + (uint64_t)run * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD39ULL;
    h ^= h >> 28;
    return (unsigned long)h;
}

/* One input's share of an evaluation: its runs' sums at each grid time. Inputs are spread over threads and the
 * shares added in input order afterwards, so the bytes do not depend on the thread count. */
struct pol_share {
    double *sum, *sumsq, final_sum;
    double area_sum, area_sumsq;  /* per run: the sum over the grid of its speedups (for the score's CI) */
    long count, n_steps, n_budget_stops;
};

struct pol_job {
    const struct pol_data *d;
    const struct policy_ops *ops;
    const struct pol_settings *s;
    const double *grid_s;
    struct pol_share *share; /* d->n_in */
    struct pol_curve *curve; /* the methodology's frames and per-run scores (written per input: no lock) */
    double *atm_rank;        /* d->n_in x s->runs x s->atm_points: each run's ranks over its input's range */
    int next_input, failed;
    pthread_mutex_t mu;
    struct tc_err_saved err;
};

/* The methodology's score of run r on input i (score_atm.h), from its step log: the incumbent's true time is
 * opt / speedup. The frame's random search is charged per visit (pol_visit_cost_ms) from 0; the run's clock also
 * holds the compile-worker warm-up it paid once (pol_warmup_ms), so the run is ranked on its clock less the
 * warm-up: both start warm, as the analytic baseline's clock starts one warm-up late. buf: the worker's scratch.
 * Returns 0, or -1 (out of memory). */
static int atm_score_run(struct pol_job *jb, int i, int r, const struct pinput *in, const struct step_log *log,
                         struct step_log *buf)
{
    if (jb->atm_rank == NULL || !jb->curve->atm[i].usable)
        return 0; /* the methodology's score is off (atm_points 0), or this input cannot be scored */
    const struct atm_frame *f = &jb->curve->atm[i];
    double warm_s = pol_warmup_ms(jb->d, jb->s) * 1e-3;
    buf->n = 0;
    for (int e = 0; e < log->n; e++)
        if (log_add(buf, log->t_s[e] - warm_s,
                    log->speedup[e] > 0 ? pol_opt_ms(in, jb->s) / log->speedup[e] : NAN, -1, 0) != 0)
            return tc_seterr_env("policies: out of memory");
    atm_run_ranks(f, buf->t_s, buf->speedup, buf->n,
                  jb->atm_rank + ((size_t)i * jb->s->runs + r) * (size_t)jb->s->atm_points);
    return 0;
}

/* Keep run r of input i's steps in the curve's runs log (pol_settings.runs_log), its times as the methodology's
 * score ranks them (less the warm-up). Returns 0, or -1 (out of memory). */
static int runlog_keep(struct pol_job *jb, int i, int r, const struct step_log *log)
{
    struct pol_runlog *rl = &jb->curve->runlog[(size_t)i * jb->s->runs + r];
    double warm_s = pol_warmup_ms(jb->d, jb->s) * 1e-3;
    size_t n = (size_t)log->n + 1;
    rl->t_s = malloc(n * sizeof *rl->t_s);
    rl->comp_s = malloc(n * sizeof *rl->comp_s);
    rl->cfg = malloc(n * sizeof *rl->cfg);
    if (rl->t_s == NULL || rl->comp_s == NULL || rl->cfg == NULL)
        return tc_seterr_env("policies: out of memory for the runs log");
    for (int e = 0; e < log->n; e++) {
        rl->t_s[e] = log->t_s[e] - warm_s;
        rl->comp_s[e] = log->comp_ms[e] * 1e-3;
        rl->cfg[e] = log->cfg[e];
    }
    rl->n = log->n;
    return 0;
}

static void *pol_worker(void *arg)
{
    struct pol_job *jb = arg;
    const struct pol_settings *s = jb->s;
    int n = s->n_grid;
    struct step_log log = {0}, fbuf = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rng == NULL)
        tc_seterr_env("policies: out of memory");
    for (;;) {
        int i;
        pthread_mutex_lock(&jb->mu);
        if (rng == NULL && !jb->failed) {
            jb->failed = 1;
            tc_err_save(&jb->err);
        }
        i = jb->failed ? jb->d->n_in : jb->next_input++;
        pthread_mutex_unlock(&jb->mu);
        if (i >= jb->d->n_in)
            break;
        const struct pinput *in = &jb->d->in[i];
        struct pol_share *sh = &jb->share[i];
        if (in->n_valid == 0)
            continue;
        for (int r = 0; r < s->runs; r++) {
            int stopped = 0;
            log.n = 0;
            gsl_rng_set(rng, stream_seed(s->seed, jb->ops->name, i, r));
            if (one_run(jb->d, in, jb->ops, s, rng, &log, &sh->n_steps, &stopped) != 0 ||
                atm_score_run(jb, i, r, in, &log, &fbuf) != 0 ||
                (jb->curve->runlog != NULL && runlog_keep(jb, i, r, &log) != 0)) {
                pthread_mutex_lock(&jb->mu);
                if (!jb->failed) {
                    jb->failed = 1;
                    tc_err_save(&jb->err);
                }
                pthread_mutex_unlock(&jb->mu);
                break;
            }
            sh->n_budget_stops += stopped;
            double area = 0;
            for (int g = 0, e = 0; g < n; g++) { /* the incumbent's speedup at each grid time (0 before any) */
                while (e < log.n && log.t_s[e] <= jb->grid_s[g])
                    e++;
                double y = e > 0 ? log.speedup[e - 1] : 0;
                sh->sum[g] += y;
                sh->sumsq[g] += y * y;
                area += y;
            }
            sh->area_sum += area;
            sh->area_sumsq += area * area;
            sh->final_sum += log.n > 0 ? log.speedup[log.n - 1] : 0;
            sh->count++;
        }
    }
    log_free(&log);
    log_free(&fbuf);
    if (rng != NULL)
        gsl_rng_free(rng);
    return NULL;
}

/* Each input's frame for the methodology's score (score_atm.h), from the costs the analytic baseline charges, and
 * room for the per-run scores and mean curves. Returns 0, or -1 (tc_errmsg). */
/* 1 when the cached frames are of these settings (the lock held). */
static int frames_match(const struct pol_bcache *bc, const struct pol_data *d, const struct pol_settings *s)
{
    return bc->frames != NULL && bc->n_frames == d->n_in && bc->f_rep_ms == s->rep_ms &&
           bc->f_jobs == pol_cost_key(s) && bc->f_failed == (int)s->failed_cost + 2 * s->source_costs &&
           bc->f_points == s->atm_points &&
           bc->f_cutoff == s->atm_cutoff && bc->f_budget_s == s->budget_s && bc->f_seed == s->seed;
}

/* The frames of d's inputs under s from d's cache into c->atm (deep copies): 1 when it had them, else 0 (also when
 * a copy ran out of memory: then they are computed). */
static int frames_from_cache(const struct pol_data *d, const struct pol_settings *s, struct pol_curve *c)
{
    struct pol_bcache *bc = d->bcache;
    int got = 0;
    if (bc == NULL)
        return 0;
    pthread_mutex_lock(&bc->mu);
    if (frames_match(bc, d, s)) {
        got = 1;
        for (int i = 0; i < d->n_in && got; i++)
            got = atm_frame_copy(&c->atm[i], &bc->frames[i]) == 0;
        for (int i = 0; !got && i < d->n_in; i++)
            atm_frame_free(&c->atm[i]);
    }
    pthread_mutex_unlock(&bc->mu);
    return got;
}

/* Keep copies of c->atm, the frames of d's inputs under s, in d's cache (nothing kept when memory is short). */
static void frames_to_cache(const struct pol_data *d, const struct pol_settings *s, const struct pol_curve *c)
{
    struct pol_bcache *bc = d->bcache;
    struct atm_frame *f;
    int ok = 1;
    if (bc == NULL || (f = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *f)) == NULL)
        return;
    for (int i = 0; i < d->n_in && ok; i++)
        ok = atm_frame_copy(&f[i], &c->atm[i]) == 0;
    pthread_mutex_lock(&bc->mu);
    pol_bcache_drop_frames(bc);
    if (ok) {
        bc->frames = f;
        bc->n_frames = d->n_in;
        bc->f_rep_ms = s->rep_ms;
        bc->f_jobs = pol_cost_key(s);
        bc->f_failed = (int)s->failed_cost + 2 * s->source_costs;
        bc->f_points = s->atm_points;
        bc->f_cutoff = s->atm_cutoff;
        bc->f_budget_s = s->budget_s;
        bc->f_seed = s->seed;
        f = NULL;
    }
    pthread_mutex_unlock(&bc->mu);
    for (int i = 0; f != NULL && i < d->n_in; i++)
        atm_frame_free(&f[i]);
    free(f);
}

static int atm_prepare(const struct pol_data *d, const struct pol_settings *s, struct pol_curve *c)
{
    int nin = d->n_in > 0 ? d->n_in : 1, rc = 0;
    c->n_inputs = d->n_in;
    c->runs = s->runs;
    c->atm = calloc((size_t)nin, sizeof *c->atm);
    c->atm_input_score = malloc((size_t)nin * sizeof *c->atm_input_score);
    c->atm_mean_ms = calloc((size_t)nin * (size_t)s->atm_points, sizeof *c->atm_mean_ms);
    if (c->atm == NULL || c->atm_input_score == NULL || c->atm_mean_ms == NULL)
        return tc_seterr_env("policies: out of memory");
    if (frames_from_cache(d, s, c))
        return 0; /* every policy of an evaluation has the same frames */
    for (int i = 0; i < d->n_in && rc == 0; i++) {
        const struct pinput *in = &d->in[i];
        int *valid = malloc(((size_t)in->n_cfg + 1) * sizeof *valid);
        double *tr = malloc(((size_t)in->n_cfg + 1) * sizeof *tr), *cost = malloc(((size_t)in->n_cfg + 1) * sizeof *cost);
        if (valid == NULL || tr == NULL || cost == NULL) {
            rc = tc_seterr_env("policies: out of memory");
        } else {
            for (int k = 0; k < in->n_cfg; k++) {
                valid[k] = in->c[k].status == TRACE_OK;
                tr[k] = pol_truth_ms(&in->c[k], s);
                cost[k] = pol_visit_cost_ms(d, &in->c[k], s);
            }
            rc = atm_frame_init(&c->atm[i], in->n_cfg, valid, tr, cost, s->atm_cutoff, s->atm_points, s->budget_s,
                                s->seed + (uint64_t)i);
        }
        free(valid);
        free(tr);
        free(cost);
    }
    if (rc == 0)
        frames_to_cache(d, s, c);
    return rc;
}

/* The methodology's score for an evaluation (off when s->atm_points is 0: jb->atm_rank stays NULL): room for
 * every run's ranks (the bootstrap needs each run's curve) and each input's frame. Returns 0, or -1 (tc_errmsg). */
static int atm_begin(const struct pol_data *d, const struct pol_settings *s, struct pol_curve *c, struct pol_job *jb)
{
    size_t n = (size_t)(d->n_in > 0 ? d->n_in : 1) * (size_t)s->runs * (size_t)(s->atm_points > 0 ? s->atm_points : 0);
    double **rank = &jb->atm_rank;
    c->atm_score = c->atm_lo = c->atm_hi = NAN;
    jb->curve = c;
    *rank = NULL;
    if (n == 0)
        return 0;
    if (n > ((size_t)1 << 28)) /* 2 GiB */
        return tc_seterr_env("policies: %d inputs x %d runs x %d times is too much for the methodology's score's "
                             "bootstrap (%.1f GiB); use fewer --runs, or --score area", d->n_in, s->runs, s->atm_points,
                             (double)n * sizeof **rank / (1 << 30));
    if ((*rank = calloc(n, sizeof **rank)) == NULL)
        return tc_seterr_env("policies: out of memory");
    return atm_prepare(d, s, c);
}

/* The aggregate score and its CI, the per-input scores and each input's mean curve (the run time at the mean rank
 * over runs). */
static int atm_finish(const struct pol_data *d, const struct pol_settings *s, const double *rank, struct pol_curve *c)
{
    int P = s->atm_points;
    double *mean = malloc(((size_t)P + 1) * sizeof *mean);
    if (mean == NULL)
        return tc_seterr_env("policies: out of memory");
    for (int i = 0; i < d->n_in; i++) {
        if (!c->atm[i].usable)
            continue;
        for (int g = 0; g < P; g++) {
            mean[g] = 0;
            for (int r = 0; r < s->runs; r++)
                mean[g] += rank[((size_t)i * s->runs + r) * P + g];
            mean[g] /= s->runs;
        }
        atm_input_score(&c->atm[i], mean, c->atm_mean_ms + (size_t)i * P);
    }
    free(mean);
    if ((c->atm_boot = calloc((size_t)s->atm_boot + 1, sizeof *c->atm_boot)) == NULL)
        return tc_seterr_env("policies: out of memory");
    c->n_boot = s->atm_boot;
    c->atm_n_inputs = atm_aggregate(c->atm, rank, d->n_in, s->runs, P, s->seed, s->atm_boot, c->atm_input_score,
                                    &c->atm_score, &c->atm_lo, &c->atm_hi, c->atm_boot);
    if (c->atm_n_inputs == 0) { /* no replicates to compare */
        free(c->atm_boot);
        c->atm_boot = NULL;
    }
    return c->atm_n_inputs < 0 ? -1 : 0;
}

/* The mean curve with its 95% CI at each grid time, the times to 0.90/0.95/0.99 and the area score with its CI,
 * from the per-grid-point sums over all runs (curve->baseline already filled). */
static void curve_summarise(struct pol_curve *curve, const double *grid_s, const double *sum, const double *sumsq,
                            long count, double area_sum, double area_sumsq)
{
    int n = curve->n_grid;
    curve->t90_s = curve->t95_s = curve->t99_s = NAN;
    double gain = 0, room = 0; /* sums over the grid of P - B and of 1 - B: score = gain / room */
    for (int g = 0; g < n; g++) {
        double m = sum[g] / count, var = count > 1 ? (sumsq[g] - count * m * m) / (count - 1) : 0;
        double half = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)count);
        curve->mean[g] = m;
        curve->lo[g] = m - half;
        curve->hi[g] = m + half;
        if (isnan(curve->t90_s) && m >= 0.90)
            curve->t90_s = grid_s[g];
        if (isnan(curve->t95_s) && m >= 0.95)
            curve->t95_s = grid_s[g];
        if (isnan(curve->t99_s) && m >= 0.99)
            curve->t99_s = grid_s[g];
        /* A ratio of sums, not a mean of ratios: where B(t) is within 1e-11 of 1, (P - B) / (1 - B) divides
         * run-to-run noise by nearly nothing (a policy at 0.99997 scored -131087 that way). */
        gain += curve->mean[g] - curve->baseline[g];
        room += 1 - curve->baseline[g];
    }
    curve->score = room > 0 ? gain / room : 0;
    { /* each run's score is (its area - the baseline's) / room: the CI of their mean, which is the score */
        double m = area_sum / count, var = count > 1 ? (area_sumsq - count * m * m) / (count - 1) : NAN;
        double half = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)count) / room;
        curve->score_lo = room > 0 && count > 1 ? curve->score - half : NAN;
        curve->score_hi = room > 0 && count > 1 ? curve->score + half : NAN;
    }
}

int pol_evaluate(const struct pol_data *d, const struct policy_ops *ops, const struct pol_settings *s,
                 const double *grid_s, struct pol_curve *curve)
{
    int n = s->n_grid, rc = -1, nt = s->threads < 1 ? 1 : s->threads > 64 ? 64 : s->threads, mu_ok = 0;
    double *sum = calloc((size_t)n, sizeof *sum), *sumsq = calloc((size_t)n, sizeof *sumsq);
    double *shbuf = calloc((size_t)2 * n * (d->n_in > 0 ? d->n_in : 1), sizeof *shbuf);
    struct pol_share *share = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *share);
    double final_sum = 0, area_sum = 0, area_sumsq = 0;
    long count = 0;
    struct pol_job jb;
    memset(curve, 0, sizeof *curve);
    memset(&jb, 0, sizeof jb);

    curve->policy = ops->name;
    curve->n_grid = n;
    curve->grid_s = malloc((size_t)n * sizeof *curve->grid_s);
    curve->mean = malloc((size_t)n * sizeof *curve->mean);
    curve->lo = malloc((size_t)n * sizeof *curve->lo);
    curve->hi = malloc((size_t)n * sizeof *curve->hi);
    curve->baseline = malloc((size_t)n * sizeof *curve->baseline);
    curve->n_inputs = d->n_in;
    curve->runs = s->runs;
    if (s->runs_log &&
        (curve->runlog = calloc((size_t)(d->n_in > 0 ? d->n_in : 1) * (size_t)s->runs, sizeof *curve->runlog)) == NULL) {
        tc_seterr_env("policies: out of memory");
        goto out;
    }
    if (atm_begin(d, s, curve, &jb) != 0)
        goto out;
    if (sum == NULL || sumsq == NULL || shbuf == NULL || share == NULL || curve->grid_s == NULL ||
        curve->mean == NULL || curve->lo == NULL || curve->hi == NULL || curve->baseline == NULL) {
        tc_seterr_env("policies: out of memory");
        goto out;
    }
    memcpy(curve->grid_s, grid_s, (size_t)n * sizeof *grid_s);
    for (int i = 0; i < d->n_in; i++) {
        share[i].sum = shbuf + (size_t)2 * n * i;
        share[i].sumsq = share[i].sum + n;
    }
    jb.d = d;
    jb.ops = ops;
    jb.s = s;
    jb.grid_s = grid_s;
    jb.share = share;
    if (pthread_mutex_init(&jb.mu, NULL) != 0) {
        tc_seterr_env("policies: cannot create a mutex");
        goto out;
    }
    mu_ok = 1;
    if (nt > d->n_in)
        nt = d->n_in > 0 ? d->n_in : 1;
    /* one shared job: the inputs are shared out dynamically, so fewer threads give the same result */
    tc_run_workers(nt, pol_worker, &jb, 0);
    if (jb.failed) {
        tc_err_restore(&jb.err);
        goto out;
    }
    for (int i = 0; i < d->n_in; i++) { /* in input order: the same sums whatever the thread count */
        for (int g = 0; g < n; g++) {
            sum[g] += share[i].sum[g];
            sumsq[g] += share[i].sumsq[g];
        }
        final_sum += share[i].final_sum;
        area_sum += share[i].area_sum;
        area_sumsq += share[i].area_sumsq;
        count += share[i].count;
        curve->n_steps += share[i].n_steps;
        curve->n_budget_stops += share[i].n_budget_stops;
    }
    if (count == 0) {
        tc_seterr("policies: no input has a valid run");
        goto out;
    }
    pol_baseline_cached(d, s, grid_s, n, curve->baseline);
    curve_summarise(curve, grid_s, sum, sumsq, count, area_sum, area_sumsq);
    curve->final_speedup = final_sum / count;
    if (jb.atm_rank != NULL && atm_finish(d, s, jb.atm_rank, curve) != 0)
        goto out;
    rc = 0;
out:
    if (rc != 0)
        pol_curve_free(curve);
    if (mu_ok)
        pthread_mutex_destroy(&jb.mu);
    free(shbuf);
    free(share);
    free(jb.atm_rank);
    free(sum);
    free(sumsq);
    return rc;
}

void pol_write_curves(FILE *fp, const struct pol_curve *c, int n)
{
    tc_tsv_write_header(fp, &tc_tsv_curves);
    for (int i = 0; i < n; i++)
        for (int g = 0; g < c[i].n_grid; g++)
            fprintf(fp, "%s\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", c[i].policy, c[i].grid_s[g], c[i].mean[g],
                    c[i].lo[g], c[i].hi[g], c[i].baseline[g]);
}

void pol_curve_free(struct pol_curve *c)
{
    free(c->grid_s);
    free(c->mean);
    free(c->lo);
    free(c->hi);
    free(c->baseline);
    c->grid_s = c->mean = c->lo = c->hi = c->baseline = NULL;
    for (int i = 0; c->atm != NULL && i < c->n_inputs; i++)
        atm_frame_free(&c->atm[i]);
    free(c->atm);
    free(c->atm_input_score);
    free(c->atm_mean_ms);
    free(c->atm_boot);
    for (size_t k = 0; c->runlog != NULL && k < (size_t)c->n_inputs * (size_t)c->runs; k++) {
        free(c->runlog[k].t_s);
        free(c->runlog[k].comp_s);
        free(c->runlog[k].cfg);
    }
    free(c->runlog);
    c->runlog = NULL;
    c->atm_boot = NULL;
    c->atm = NULL;
    c->atm_input_score = c->atm_mean_ms = NULL;
}

