/* policy.c — the replay engine for tuning policies (policy.h): tables from a trace, the cost of every step, the
 * stopping rules, curves on a common time grid, the analytic random-search baseline and the score. */
#include "policy.h"
#include "tc_err.h"
#include "tc_stats.h"
#include "trace.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern const struct policy_ops policy_random, policy_exhaustive, policy_halving, policy_anneal, policy_costaware;
extern const struct policy_ops policy_hyperband, policy_genetic, policy_bo;
const struct policy_ops *const policy_registry[] = {&policy_random,  &policy_exhaustive, &policy_halving,
                                                    &policy_anneal,  &policy_costaware,  &policy_hyperband,
                                                    &policy_genetic, &policy_bo,         NULL};

const struct policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_registry[i] != NULL; i++)
        if (strcmp(policy_registry[i]->name, name) == 0)
            return policy_registry[i];
    return NULL;
}

int pol_pick_unmarked(const struct pol_view *v, const int *marked, int n_unmarked)
{
    if (n_unmarked <= 0)
        return -1;
    long pick = (long)gsl_rng_uniform_int(v->rng, (unsigned long)n_unmarked);
    for (int k = 0; k < v->n_configs; k++)
        if (!marked[k] && pick-- == 0)
            return k;
    return -1;
}

int pol_value_index(const struct pol_view *v, int p, int32_t x)
{
    for (int i = 0; i < v->n_values[p]; i++)
        if (v->values[p][i] == x)
            return i;
    return -1;
}

void pol_settings_default(struct pol_settings *s)
{
    memset(s, 0, sizeof *s);
    s->budget_s = 60;
    s->rep_ms = 100;
    s->compile_jobs = 1;
    s->stop_rule = POL_STOP_NONE;
    s->es_num = 5;
    s->es_threshold = 1.5;
    s->runs = 30;
    s->seed = 0;
    s->n_grid = 60;
    s->threads = 1;
}

/* ---- tables ------------------------------------------------------------------------------------------------ */

struct pcfg {
    int status;          /* the current run's status for this input (compile/config status without a run) */
    double compile_ms;   /* 0 when not recorded */
    double warm_ms;      /* estimate + warm-up executions, with their overhead share */
    double gap_ms;       /* per-execution overhead: (wall_ms - all executions) / executions, >= 0 */
    double fail_ms;      /* what a failed launch or a wrong result costs beyond compiling: its wall_ms */
    const uint64_t *x;   /* timed executions (ns), in the trace's memory */
    int n;
    double true_ms;      /* median of the timed executions */
    double *blk;         /* per block of BLK executions: sum (ms), sum of squares, min (3 values each), so that a
                          * step takes whole blocks at once; the last, partial block is walked one by one */
};
#define BLK 64

struct pinput {
    int n_cfg, n_valid;
    struct pcfg *c;
    struct pol_config *pc;
    double opt_ms;
};

struct pol_data {
    int n_in, n_params;
    struct pinput *in;
    int *n_values;
    int32_t **values;
};

int pol_data_n_inputs(const struct pol_data *d)
{
    return d->n_in;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void pol_data_free(struct pol_data *d)
{
    if (d == NULL)
        return;
    for (int i = 0; i < d->n_in; i++) {
        for (int k = 0; d->in[i].c != NULL && k < d->in[i].n_cfg; k++)
            free(d->in[i].c[k].blk);
        free(d->in[i].c);
        free(d->in[i].pc);
    }
    free(d->in);
    for (int p = 0; p < d->n_params; p++)
        free(d->values[p]);
    free(d->values);
    free(d->n_values);
    free(d);
}

struct pol_data *pol_data_from_trace(const struct trace *t)
{
    int nc = trace_n_configs(t), np = trace_n_params(t);
    struct pol_data *d = calloc(1, sizeof *d);
    if (d == NULL)
        goto oom;
    d->n_params = np;
    d->n_in = trace_n_inputs(t);
    d->in = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *d->in);
    d->n_values = calloc((size_t)np + 1, sizeof *d->n_values);
    d->values = calloc((size_t)np + 1, sizeof *d->values);
    if (d->in == NULL || d->n_values == NULL || d->values == NULL)
        goto oom;
    for (int p = 0; p < np; p++) { /* each parameter's distinct values, ascending: the grid of the space */
        int32_t *v = malloc(((size_t)nc + 1) * sizeof *v);
        int n = 0;
        if (v == NULL)
            goto oom;
        for (int c = 0; c < nc; c++)
            v[c] = trace_params(t, c)[p];
        qsort(v, (size_t)nc, sizeof *v, cmp_i32);
        for (int c = 0; c < nc; c++)
            if (n == 0 || v[n - 1] != v[c])
                v[n++] = v[c];
        d->values[p] = v;
        d->n_values[p] = n;
    }
    for (int i = 0; i < d->n_in; i++) {
        struct pinput *in = &d->in[i];
        in->n_cfg = nc;
        in->c = calloc((size_t)nc + 1, sizeof *in->c);
        in->pc = calloc((size_t)nc + 1, sizeof *in->pc);
        if (in->c == NULL || in->pc == NULL)
            goto oom;
        in->opt_ms = INFINITY;
        for (int k = 0; k < nc; k++) {
            const struct trace_config *tc = trace_config(t, k);
            struct pcfg *c = &in->c[k];
            long r = trace_find_run(t, i, k);
            c->compile_ms = isfinite(tc->compile_ms) && tc->compile_ms > 0 ? tc->compile_ms : 0;
            c->status = r >= 0 ? trace_run(t, (size_t)r)->status : (tc->status != 0 ? tc->status : TRACE_LAUNCH_ERROR);
            if (r >= 0 && !trace_run_valid(t, (size_t)r) && c->status == TRACE_OK)
                c->status = TRACE_LAUNCH_ERROR; /* ok without timed executions: nothing to replay */
            in->pc[k].params = trace_params(t, k);
            in->pc[k].compile_ms = tc->compile_ms;
            in->pc[k].known_invalid = c->status == TRACE_OUT_OF_RESOURCES;
            if (r >= 0) {
                const struct trace_run *run = trace_run(t, (size_t)r);
                c->fail_ms = isfinite(run->wall_ms) && run->wall_ms > 0 ? run->wall_ms : 0;
            }
            if (c->status != TRACE_OK)
                continue;
            const struct trace_run *run = trace_run(t, (size_t)r);
            const uint64_t *all = trace_run_exec(t, (size_t)r);
            int n_untimed = run->n_estimate + run->n_warmup, n_all = n_untimed + run->n_timed;
            double sum_all = 0, sum_untimed = 0;
            for (int e = 0; e < n_all; e++) {
                sum_all += (double)all[e] * 1e-6;
                if (e < n_untimed)
                    sum_untimed += (double)all[e] * 1e-6;
            }
            c->gap_ms = run->wall_ms > sum_all ? (run->wall_ms - sum_all) / n_all : 0;
            c->warm_ms = sum_untimed + c->gap_ms * n_untimed;
            c->x = trace_run_timed(t, (size_t)r);
            c->n = run->n_timed;
            c->true_ms = trace_run_median_ns(t, (size_t)r) * 1e-6;
            if (c->n / BLK > 0) {
                if ((c->blk = malloc((size_t)(c->n / BLK) * 3 * sizeof *c->blk)) == NULL)
                    goto oom;
                for (int b = 0; b < c->n / BLK; b++) {
                    double su = 0, sq = 0, mn = INFINITY;
                    for (int e = b * BLK; e < (b + 1) * BLK; e++) {
                        double x = (double)c->x[e] * 1e-6;
                        su += x;
                        sq += x * x;
                        mn = x < mn ? x : mn;
                    }
                    c->blk[3 * b] = su;
                    c->blk[3 * b + 1] = sq;
                    c->blk[3 * b + 2] = mn;
                }
            }
            in->n_valid++;
            if (c->true_ms < in->opt_ms)
                in->opt_ms = c->true_ms;
        }
    }
    return d;
oom:
    tc_seterr("policies: out of memory");
    pol_data_free(d);
    return NULL;
}

/* ---- one tuning run ------------------------------------------------------------------------------------------ */

struct run_state {
    double *est_ms, *sum_ms, *sumsq_ms;
    int *n_exec, *failed, *visited, *dropped;
    double best_single_ms;
};

struct step_log {
    double *t_s, *speedup;
    int n, cap;
};

static int log_add(struct step_log *l, double t_s, double speedup)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        double *a = realloc(l->t_s, (size_t)cap * sizeof *a), *b;
        if (a == NULL)
            return -1;
        l->t_s = a;
        if ((b = realloc(l->speedup, (size_t)cap * sizeof *b)) == NULL)
            return -1;
        l->speedup = b;
        l->cap = cap;
    }
    l->t_s[l->n] = t_s;
    l->speedup[l->n] = speedup;
    l->n++;
    return 0;
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

/* Benchmark configuration k for `rep` ms of timed executions (continuing after those already taken). Returns 1
 * when the budget ended the run (nothing of the step that would pass it is charged), else 0. */
static int bench_step(const struct pinput *in, const struct pol_settings *s, struct run_state *rs, int k,
                      double rep, double *time_s)
{
    const struct pcfg *c = &in->c[k];
    double budget_ms = s->budget_s * 1e3, now = *time_s * 1e3;
    if (!rs->visited[k]) { /* compile (and, for a known-invalid configuration, nothing else) */
        double comp = c->status == TRACE_OUT_OF_RESOURCES ? 0 : c->compile_ms / s->compile_jobs;
        if (now + comp > budget_ms)
            return 1;
        now += comp;
        rs->visited[k] = 1;
        if (c->status != TRACE_OK) {
            if (c->status == TRACE_LAUNCH_ERROR || c->status == TRACE_WRONG_RESULT) {
                if (now + c->fail_ms > budget_ms) {
                    *time_s = now * 1e-3;
                    return 1;
                }
                now += c->fail_ms;
            }
            rs->failed[k] = 1;
            *time_s = now * 1e-3;
            return 0;
        }
        if (now + c->warm_ms > budget_ms) {
            *time_s = now * 1e-3;
            return 1;
        }
        now += c->warm_ms;
    }
    if (rs->failed[k] || rs->dropped[k] || (rep <= 0 && rs->n_exec[k] > 0)) {
        *time_s = now * 1e-3;
        return 0;
    }
    double used = 0;
    int j = rs->n_exec[k], other = -1;
    if (s->stop_rule == POL_STOP_STATISTICAL) { /* the best of the others is fixed while k is measured */
        for (int q = 0; q < in->n_cfg; q++)
            if (q != k && !rs->failed[q] && !rs->dropped[q] && rs->n_exec[q] > 0 &&
                (other < 0 || rs->est_ms[q] < rs->est_ms[other]))
                other = q;
    }
    while (j < c->n && used <= rep) { /* the paper's rule: the smallest count whose sum exceeds rep */
        if (j % BLK == 0 && j + BLK <= c->n && s->stop_rule != POL_STOP_STATISTICAL &&
            (s->stop_rule != POL_STOP_EARLY || j >= s->es_num)) {
            /* a whole block that ends at or below rep and within the budget: the same as taking its executions
             * one by one (every one is taken, no rule fires inside it) */
            const double *b = &c->blk[3 * (j / BLK)];
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
            *time_s = now * 1e-3;
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
    *time_s = now * 1e-3;
    return 0;
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
    rs.est_ms = malloc((size_t)nc * sizeof *rs.est_ms);
    rs.sum_ms = calloc((size_t)nc, sizeof *rs.sum_ms);
    rs.sumsq_ms = calloc((size_t)nc, sizeof *rs.sumsq_ms);
    rs.n_exec = calloc((size_t)nc, sizeof *rs.n_exec);
    rs.failed = calloc((size_t)nc, sizeof *rs.failed);
    rs.visited = calloc((size_t)nc, sizeof *rs.visited);
    rs.dropped = calloc((size_t)nc, sizeof *rs.dropped);
    rs.best_single_ms = INFINITY;
    if (rs.est_ms == NULL || rs.sum_ms == NULL || rs.sumsq_ms == NULL || rs.n_exec == NULL || rs.failed == NULL ||
        rs.visited == NULL || rs.dropped == NULL) {
        tc_seterr("policies: out of memory");
        goto out;
    }
    for (int k = 0; k < nc; k++)
        rs.est_ms[k] = NAN;
    memset(&v, 0, sizeof v);
    v.n_configs = nc;
    v.n_params = d->n_params;
    v.cfg = in->pc;
    v.n_values = d->n_values;
    v.values = (const int32_t *const *)d->values;
    v.est_ms = rs.est_ms;
    v.n_exec = rs.n_exec;
    v.failed = rs.failed;
    v.best = -1;
    v.rep_ms = s->rep_ms;
    v.rng = rng;
    *budget_stop = 0;
    if ((st = ops->start(&v)) == NULL) {
        tc_seterr("policies: %s: out of memory", ops->name);
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
        double rep = ops->rep_ms(st, &v, k);
        if (bench_step(in, s, &rs, k, isfinite(rep) && rep > 0 ? rep : 0, &v.time_s)) {
            *budget_stop = 1;
            break;
        }
        (*n_steps)++;
        v.best = incumbent(in, &rs);
        if (ops->observe != NULL)
            ops->observe(st, &v, k);
        if (log_add(log, v.time_s, v.best >= 0 ? in->opt_ms / in->c[v.best].true_ms : 0) != 0) {
            tc_seterr("policies: out of memory");
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
    free(rs.n_exec);
    free(rs.failed);
    free(rs.visited);
    free(rs.dropped);
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
    long count, n_steps, n_budget_stops;
};

struct pol_job {
    const struct pol_data *d;
    const struct policy_ops *ops;
    const struct pol_settings *s;
    const double *grid_s;
    struct pol_share *share; /* d->n_in */
    int next_input, failed;
    pthread_mutex_t mu;
    char err[256];
};

static void *pol_worker(void *arg)
{
    struct pol_job *jb = arg;
    const struct pol_settings *s = jb->s;
    int n = s->n_grid;
    struct step_log log = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (rng == NULL)
        tc_seterr("policies: out of memory");
    for (;;) {
        int i;
        pthread_mutex_lock(&jb->mu);
        if (rng == NULL && !jb->failed) {
            jb->failed = 1;
            snprintf(jb->err, sizeof jb->err, "%s", tc_errmsg());
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
            if (one_run(jb->d, in, jb->ops, s, rng, &log, &sh->n_steps, &stopped) != 0) {
                pthread_mutex_lock(&jb->mu);
                if (!jb->failed) {
                    jb->failed = 1;
                    snprintf(jb->err, sizeof jb->err, "%s", tc_errmsg());
                }
                pthread_mutex_unlock(&jb->mu);
                break;
            }
            sh->n_budget_stops += stopped;
            for (int g = 0, e = 0; g < n; g++) { /* the incumbent's speedup at each grid time (0 before any) */
                while (e < log.n && log.t_s[e] <= jb->grid_s[g])
                    e++;
                double y = e > 0 ? log.speedup[e - 1] : 0;
                sh->sum[g] += y;
                sh->sumsq[g] += y * y;
            }
            sh->final_sum += log.n > 0 ? log.speedup[log.n - 1] : 0;
            sh->count++;
        }
    }
    free(log.t_s);
    free(log.speedup);
    if (rng != NULL)
        gsl_rng_free(rng);
    return NULL;
}

int pol_evaluate(const struct pol_data *d, const struct policy_ops *ops, const struct pol_settings *s,
                 const double *grid_s, struct pol_curve *curve)
{
    int n = s->n_grid, rc = -1, nt = s->threads < 1 ? 1 : s->threads > 64 ? 64 : s->threads, mu_ok = 0;
    double *sum = calloc((size_t)n, sizeof *sum), *sumsq = calloc((size_t)n, sizeof *sumsq);
    double *shbuf = calloc((size_t)2 * n * (d->n_in > 0 ? d->n_in : 1), sizeof *shbuf);
    struct pol_share *share = calloc((size_t)(d->n_in > 0 ? d->n_in : 1), sizeof *share);
    double final_sum = 0;
    long count = 0;
    struct pol_job jb;
    pthread_t tids[64];
    memset(curve, 0, sizeof *curve);
    memset(&jb, 0, sizeof jb);
    curve->policy = ops->name;
    curve->n_grid = n;
    curve->grid_s = malloc((size_t)n * sizeof *curve->grid_s);
    curve->mean = malloc((size_t)n * sizeof *curve->mean);
    curve->lo = malloc((size_t)n * sizeof *curve->lo);
    curve->hi = malloc((size_t)n * sizeof *curve->hi);
    curve->baseline = malloc((size_t)n * sizeof *curve->baseline);
    if (sum == NULL || sumsq == NULL || shbuf == NULL || share == NULL || curve->grid_s == NULL ||
        curve->mean == NULL || curve->lo == NULL || curve->hi == NULL || curve->baseline == NULL) {
        tc_seterr("policies: out of memory");
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
        tc_seterr("policies: cannot create a mutex");
        goto out;
    }
    mu_ok = 1;
    if (nt > d->n_in)
        nt = d->n_in > 0 ? d->n_in : 1;
    int started = 0;
    for (int k = 1; k < nt; k++) {
        if (pthread_create(&tids[k], NULL, pol_worker, &jb) != 0)
            break; /* fewer threads: the same result, the inputs are shared out dynamically */
        started = k;
    }
    pol_worker(&jb);
    for (int k = 1; k <= started; k++)
        pthread_join(tids[k], NULL);
    if (jb.failed) {
        tc_seterr("%s", jb.err);
        goto out;
    }
    for (int i = 0; i < d->n_in; i++) { /* in input order: the same sums whatever the thread count */
        for (int g = 0; g < n; g++) {
            sum[g] += share[i].sum[g];
            sumsq[g] += share[i].sumsq[g];
        }
        final_sum += share[i].final_sum;
        count += share[i].count;
        curve->n_steps += share[i].n_steps;
        curve->n_budget_stops += share[i].n_budget_stops;
    }
    if (count == 0) {
        tc_seterr("policies: no input has a valid run");
        goto out;
    }
    pol_baseline(d, s, grid_s, n, curve->baseline);
    curve->t90_s = curve->t95_s = curve->t99_s = NAN;
    double score = 0;
    int n_score = 0;
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
        if (curve->baseline[g] < 1 - 1e-12) {
            score += (m - curve->baseline[g]) / (1 - curve->baseline[g]);
            n_score++;
        }
    }
    curve->score = n_score > 0 ? score / n_score : 0;
    curve->final_speedup = final_sum / count;
    rc = 0;
out:
    if (rc != 0)
        pol_curve_free(curve);
    if (mu_ok)
        pthread_mutex_destroy(&jb.mu);
    free(shbuf);
    free(share);
    free(sum);
    free(sumsq);
    return rc;
}

void pol_curve_free(struct pol_curve *c)
{
    free(c->grid_s);
    free(c->mean);
    free(c->lo);
    free(c->hi);
    free(c->baseline);
    c->grid_s = c->mean = c->lo = c->hi = c->baseline = NULL;
}

/* ---- the analytic baseline -------------------------------------------------------------------------------------
 * Random search without replacement over all n configurations of an input, each benchmarked for rep_ms, with
 * perfect measurements. Of the n, v are valid (true speedups sorted s_1 >= ... >= s_v) and f = n - v fail.
 * After j valid configurations the tuned one is the best of j drawn uniformly from the v:
 *     E_j = sum_i s_i C(v - i, j - 1) / C(v, j)      (the i-th best is the best with that probability).
 * The j-th valid configuration is done at T_j = (the j valid costs) + (the costs of the m failures drawn before
 * it), where m is negative-hypergeometric: E[m] = j f / (v + 1), Var[m] = j f (v + 1 - j)(v + f + 1) /
 * ((v + 1)^2 (v + 2)). With the valid costs' mean and variance a, A and the failures' b, B (per-configuration
 * cost: compile / jobs, warm-up, the executions up to rep_ms and their overhead, or a failure's costs):
 *     E[T_j] = j a + E[m] b,  Var[T_j] = j A (v - j) / (v - 1) + E[m] B + Var[m] b^2,
 * and P(T_j <= t) from a gamma law with that mean and variance (T_j is a positive, skewed sum). Then
 *     E(t) = sum_{j >= 1} P(T_j <= t) (E_j - E_{j-1}).
 * No sampling: closed forms and a distribution function. Tests compare it with the random policy's replay. */
static double visit_cost_ms(const struct pcfg *c, const struct pol_settings *s)
{
    if (c->status == TRACE_OUT_OF_RESOURCES)
        return 0;
    double cost = c->compile_ms / s->compile_jobs;
    if (c->status != TRACE_OK)
        return cost + (c->status == TRACE_LAUNCH_ERROR || c->status == TRACE_WRONG_RESULT ? c->fail_ms : 0);
    cost += c->warm_ms;
    double used = 0;
    for (int j = 0; j < c->n && used <= s->rep_ms; j++) {
        double x = (double)c->x[j] * 1e-6;
        used += x;
        cost += x + c->gap_ms;
    }
    return cost;
}

/* E[best speedup of k configurations drawn without replacement from nc], sp[0..nv) sorted descending. */
static double best_of(const double *sp, int nv, int nc, long k)
{
    double e = 0;
    if (k < 1)
        return 0;
    if (k > nc)
        k = nc;
    double lnck = gsl_sf_lnchoose((unsigned)nc, (unsigned)k);
    for (int r = 1; r <= nv && nc - r >= k - 1; r++)
        e += sp[r - 1] * exp(gsl_sf_lnchoose((unsigned)(nc - r), (unsigned)(k - 1)) - lnck);
    return e;
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

void pol_baseline(const struct pol_data *d, const struct pol_settings *s, const double *grid_s, int n, double *out)
{
    int used = 0;
    for (int g = 0; g < n; g++)
        out[g] = 0;
    for (int i = 0; i < d->n_in; i++) {
        const struct pinput *in = &d->in[i];
        int nc = in->n_cfg, nv = 0, nf = 0;
        double a = 0, A = 0, b = 0, B = 0, *sp = NULL, *ek = NULL, *cost = NULL;
        if (in->n_valid == 0)
            continue;
        sp = malloc((size_t)in->n_valid * sizeof *sp);
        ek = malloc(((size_t)in->n_valid + 1) * sizeof *ek);
        cost = malloc((size_t)nc * sizeof *cost);
        if (sp == NULL || ek == NULL || cost == NULL) {
            free(sp);
            free(ek);
            free(cost);
            continue;
        }
        for (int k = 0; k < nc; k++) {
            cost[k] = visit_cost_ms(&in->c[k], s);
            if (in->c[k].status == TRACE_OK) {
                sp[nv++] = in->opt_ms / in->c[k].true_ms;
                a += cost[k];
            } else {
                nf++;
                b += cost[k];
            }
        }
        a /= nv;
        b = nf > 0 ? b / nf : 0;
        for (int k = 0; k < nc; k++) {
            if (in->c[k].status == TRACE_OK)
                A += (cost[k] - a) * (cost[k] - a) / nv;
            else
                B += (cost[k] - b) * (cost[k] - b) / nf;
        }
        qsort(sp, (size_t)nv, sizeof *sp, cmp_desc);
        for (int j = 0; j <= nv; j++)
            ek[j] = best_of(sp, nv, nv, j);
        for (int g = 0; g < n; g++) {
            double t_ms = grid_s[g] * 1e3, e = 0;
            for (int j = 1; j <= nv; j++) {
                double em = (double)j * nf / (nv + 1.0);
                double vm = (double)j * nf * (nv + 1.0 - j) * (nv + nf + 1.0) / ((nv + 1.0) * (nv + 1.0) * (nv + 2.0));
                double m = j * a + em * b;
                double v = (nv > 1 ? j * A * (nv - j) / (nv - 1.0) : 0) + em * B + vm * b * b;
                double p = v > 0 && m > 0 ? gsl_cdf_gamma_P(t_ms, m * m / v, v / m) : (t_ms >= m ? 1 : 0);
                e += p * (ek[j] - ek[j - 1]);
            }
            out[g] += e;
        }
        free(sp);
        free(ek);
        free(cost);
        used++;
    }
    for (int g = 0; g < n && used > 0; g++)
        out[g] /= used;
}
