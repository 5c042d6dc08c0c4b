/* sim_table.c — the per-(input, configuration) records both `simulate` and the policy engine replay from
 * (sim_table.h): status, compile time, true time (median of the timed executions) and the overhead split into a
 * fixed and a per-execution part, each computed once, in one way, for both. */
#include "sim_table.h"
#include "sim_cost.h"
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_stats.h"
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sim_scratch_free(struct sim_scratch *bs)
{
    free(bs->tmp);
    free(bs->lo_heap);
    free(bs->hi_heap);
    memset(bs, 0, sizeof *bs);
}

/* Median of x[0..n) in ms, n > 0: the middle values from the one exact median (util/tc_stats.h:
 * tc_middle_u64, its copy kept in the replay's scratch, so no allocation per run), converted as v * 1e-6 and
 * (lo + hi) * 0.5e-6, the arithmetic the recorded golden rows (tests/golden/) were made with;
 * tc_median_u64(...) / 1e6 may differ in the last bit. */
int sim_median_ms(struct sim_scratch *bs, const uint64_t *x, size_t n, double *out)
{
    uint64_t lo, hi;
    if (tc_middle_u64(x, n, &bs->tmp, &bs->tmp_cap, &lo, &hi) != 0)
        return tc_seterr_env("simulate: out of memory");
    *out = n % 2 ? (double)hi * 1e-6 : ((double)lo + (double)hi) * 0.5e-6;
    return 0;
}

double sim_base_truth_ms(const struct sim_base *b, enum sim_estimator e)
{
    return e == SIM_ESTIMATOR_MEAN ? b->mean_ms : e == SIM_ESTIMATOR_MIN ? b->min_ms : b->true_ms;
}

double sim_trace_isolated_ms(const struct trace *t, int c)
{
    return trace_compile_isolated_ms(t, c); /* NaN where not measured (and in traces before format_minor 1) */
}

double sim_median_finite(double *v, int n)
{
    int m = 0;
    for (int k = 0; k < n; k++)
        if (isfinite(v[k]))
            v[m++] = v[k];
    if (m == 0)
        return NAN;
    qsort(v, (size_t)m, sizeof *v, tc_cmp_double);
    return tc_median_sorted(v, (size_t)m);
}

void sim_compile_medians(enum sim_compile_model m, const double *compile_ms, const double *isolated_ms, int n,
                         double *scratch, double *med_ms, double *med_seq_ms)
{
    for (int k = 0; k < n; k++)
        scratch[k] = compile_ms[k];
    *med_ms = sim_median_finite(scratch, n);
    for (int k = 0; k < n; k++)
        scratch[k] = sim_compile_charge(m, compile_ms[k], isolated_ms[k], NAN, NAN).seq_ms;
    *med_seq_ms = sim_median_finite(scratch, n);
}

int sim_base_fill(struct sim_scratch *bs, const char *input, const struct sim_config_run *run, struct sim_base *b)
{
    const uint64_t *x = run->timed_ns;
    long double sum = 0; /* exact in integer ns up to 2^64, and no wrap-around beyond (each x < 2^63) */
    uint64_t mn = UINT64_MAX;
    if (run->n_timed <= 0 || x == NULL)
        return tc_seterr("input %s, configuration %d: no timed executions", input, run->config);
    if (!isfinite(run->compile_ms) || run->compile_ms < 0 || !isfinite(run->wall_ms) ||
        !(isnan(run->compile_isolated_ms) || (isfinite(run->compile_isolated_ms) && run->compile_isolated_ms >= 0)) ||
        !isfinite(run->untimed_ms) || run->untimed_ms < 0 || run->n_untimed < 0)
        return tc_seterr("input %s, configuration %d: compile_ms, wall_ms and the untimed executions must be "
                         "finite and >= 0, compile_isolated_ms NaN or >= 0 (got %g, %g, %g, %g)", input,
                         run->config, run->compile_ms, run->wall_ms, run->untimed_ms, run->compile_isolated_ms);
    for (int q = 0; q < run->n_timed; q++) {
        if (x[q] == 0)
            return tc_seterr("input %s, configuration %d: timed execution %d is 0 ns (expected > 0)", input,
                             run->config, q);
        sum += (long double)x[q];
        mn = x[q] < mn ? x[q] : mn;
    }
    memset(b, 0, sizeof *b);
    b->config = run->config;
    b->status = TRACE_OK;
    b->compile_ms = run->compile_ms;
    b->compile_isolated_ms = run->compile_isolated_ms;
    b->wall_ms = run->wall_ms;
    b->timed_ns = x;
    b->n_timed = run->n_timed;
    b->untimed_ms = run->untimed_ms;
    b->n_untimed = run->n_untimed;
    b->timed_ms = (double)sum * 1e-6;
    b->mean_ms = b->timed_ms / (double)run->n_timed;
    b->min_ms = (double)mn * 1e-6;
    /* Overhead: the paper's whole overhead, and its per-execution part. Every launched execution (estimate,
     * warm-up, timed) carries the same non-kernel time g; the rest (the untimed executions' own durations) is
     * fixed. overhead(m executions run) = ovh − g·(n − m), which is ovh at m = n. */
    {
        double ovh = run->wall_ms - b->timed_ms;
        double gaps = ovh - run->untimed_ms;
        b->ovh_ms = ovh > 0 ? ovh : 0;
        b->gap_ms = gaps > 0 ? gaps / (double)(run->n_timed + run->n_untimed) : 0;
    }
    return sim_median_ms(bs, x, (size_t)run->n_timed, &b->true_ms);
}

int sim_table_input(const struct trace *t, int input, struct sim_scratch *bs, struct sim_base *out)
{
    int n_cfg = trace_n_configs(t);
    char name[64];
    tc_format_shape(trace_dims(t, input), trace_n_dims(t), name, (int)sizeof name);
    for (int c = 0; c < n_cfg; c++) {
        const struct trace_config *tc = trace_config(t, c);
        long r = trace_find_run(t, input, c);
        struct sim_base *b = &out[c];
        if (r >= 0 && trace_run_valid(t, (size_t)r)) {
            const struct trace_run *tr = trace_run(t, (size_t)r);
            const uint64_t *all = trace_run_exec(t, (size_t)r);
            struct sim_config_run cr;
            uint64_t untimed = 0;
            int n_untimed = tr->n_estimate + tr->n_warmup;
            for (int k = 0; k < n_untimed; k++) /* saturating: the untimed part only shapes the overhead */
                untimed = all[k] > UINT64_MAX - untimed ? UINT64_MAX : untimed + all[k];
            cr.config = c;
            cr.compile_ms = tc->compile_ms;
            cr.compile_isolated_ms = sim_trace_isolated_ms(t, c);
            cr.wall_ms = tr->wall_ms;
            cr.timed_ns = trace_run_timed(t, (size_t)r);
            cr.n_timed = tr->n_timed;
            cr.untimed_ms = (double)untimed * 1e-6;
            cr.n_untimed = n_untimed;
            if (sim_base_fill(bs, name, &cr, b) != 0)
                return -1;
            continue;
        }
        memset(b, 0, sizeof *b);
        b->config = c;
        b->compile_ms = tc->compile_ms;
        b->compile_isolated_ms = sim_trace_isolated_ms(t, c);
        b->true_ms = b->mean_ms = b->min_ms = NAN;
        if (r >= 0) {
            const struct trace_run *tr = trace_run(t, (size_t)r);
            b->status = tr->status != TRACE_OK ? tr->status : TRACE_LAUNCH_ERROR; /* ok, nothing to replay */
            b->wall_ms = tr->wall_ms;
        } else {
            b->status = tc->status != 0 ? tc->status : TRACE_LAUNCH_ERROR;
        }
    }
    return 0;
}

void sim_trace_imputed(const struct trace *t, long *pairs, long *no_isolated, long *failed_pairs,
                       long *failed_no_compile)
{
    int n_cfg = trace_n_configs(t), n_in = trace_n_inputs(t);
    long *valid = calloc((size_t)(n_cfg > 0 ? n_cfg : 1), sizeof *valid);
    *pairs = *no_isolated = *failed_pairs = *failed_no_compile = 0;
    for (size_t r = 0; valid != NULL && r < trace_n_runs(t); r++)
        if (trace_run_valid(t, r) && trace_run(t, r)->config >= 0 && trace_run(t, r)->config < n_cfg)
            valid[trace_run(t, r)->config]++;
    for (int c = 0; c < n_cfg; c++) {
        double cm = trace_config(t, c)->compile_ms;
        long ok = valid == NULL ? 0 : valid[c] < n_in ? valid[c] : n_in, failed = n_in - ok;
        *pairs += n_in;
        *no_isolated += isnan(trace_compile_isolated_ms(t, c)) ? n_in : 0;
        *failed_pairs += failed;
        *failed_no_compile += isfinite(cm) && cm > 0 ? 0 : failed;
    }
    free(valid);
}

void sim_note_imputed(FILE *fp, const char *cmd, long no_isolated, long failed_no_compile, int measured,
                      int triton, int compile_jobs, int no_warmup)
{
    if (no_isolated > 0 && measured)
        fprintf(fp, "tunecost %s: note: %ld (input, configuration) pairs have no isolated (1-worker) compile time; "
                    "sequential charges their compile_ms, measured with %d workers, and the parallel models that "
                    "contended time whatever the number of compiles running together\n", cmd, no_isolated,
                compile_jobs);
    if (failed_no_compile > 0 && triton)
        fprintf(fp, "tunecost %s: note: %ld failed (input, configuration) pairs have no compile time (a trace "
                    "collected without --compile-invalid); each is charged the median compile time of its input's "
                    "valid configurations\n", cmd, failed_no_compile);
    if (no_warmup && measured)
        fprintf(fp, "tunecost %s: note: the trace records no compile-worker warm-up (/compile_warmup_ms); none is "
                    "charged (every worker starts warm)\n", cmd);
}
