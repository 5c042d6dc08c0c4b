/* sim_table.c — the per-(input, configuration) records both `simulate` and the policy engine replay from
 * (sim_table.h): status, compile time, true time (median of the timed executions) and the overhead split into a
 * fixed and a per-execution part, each computed once, in one way, for both. */
#include "sim_table.h"
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

/* Median of x[0..n) in ms (the mean of the two middle values when n is even); x is not changed. A histogram of
 * 4096 bins over [min, max] finds the bins of the middle ranks in one pass; only the values in those bins are
 * copied and selected exactly. Executions of one run cluster tightly, so that is usually a few hundred values,
 * and in the worst case (one far outlier) it is all n: never worse than a quickselect of a copy.
 * It finds the same middle values as tc_median_u64 (util/tc_stats.h, the median every other command uses) but is
 * not that function twice: it scans a histogram instead of selecting in a full copy, keeps its copy in the
 * replay's scratch (no allocation per run; the replay takes one median per input and configuration on every
 * load), and converts to ms as v * 1e-6 and (lo + hi) * 0.5e-6, the arithmetic the recorded golden rows
 * (tests/golden/) were made with; tc_median_u64(...) / 1e6 may differ in the last bit. */
#define MEDIAN_BINS 4096
int sim_median_ms(struct sim_scratch *bs, const uint64_t *x, size_t n, double *out)
{
    static _Thread_local uint32_t hist[MEDIAN_BINS];
    size_t r_lo = (n - 1) / 2, r_hi = n / 2, cum = 0, base = 0, m = 0, b_lo = 0, b_hi = 0, b;
    uint64_t mn = x[0], mx = x[0], range, v_lo, v_hi;
    int shift = 0, found_lo = 0;
    for (size_t i = 1; i < n; i++) {
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
    }
    if (mn == mx) {
        *out = (double)mn * 1e-6;
        return 0;
    }
    range = mx - mn;
    while ((range >> shift) >= MEDIAN_BINS)
        shift++;
    memset(hist, 0, sizeof hist);
    for (size_t i = 0; i < n; i++)
        hist[(x[i] - mn) >> shift]++;
    for (b = 0; b < MEDIAN_BINS; b++) {
        if (!found_lo && cum + hist[b] > r_lo) {
            b_lo = b;
            base = cum;
            found_lo = 1;
        }
        if (cum + hist[b] > r_hi) {
            b_hi = b;
            break;
        }
        cum += hist[b];
    }
    if (shift == 0) { /* one value per bin */
        v_lo = mn + b_lo;
        v_hi = mn + b_hi;
    } else {
        if (bs->tmp_cap < n) {
            uint64_t *p = realloc(bs->tmp, n * sizeof *p);
            if (p == NULL)
                return tc_seterr("simulate: out of memory");
            bs->tmp = p;
            bs->tmp_cap = n;
        }
        for (size_t i = 0; i < n; i++) {
            size_t bin = (size_t)((x[i] - mn) >> shift);
            if (bin >= b_lo && bin <= b_hi)
                bs->tmp[m++] = x[i];
        }
        /* ranks within the gathered values; after the select, [0, k) holds the k smallest of them */
        v_hi = tc_select_u64(bs->tmp, m, r_hi - base);
        v_lo = v_hi;
        if (r_lo != r_hi) {
            v_lo = bs->tmp[0];
            for (size_t i = 1; i < r_hi - base; i++)
                if (bs->tmp[i] > v_lo)
                    v_lo = bs->tmp[i];
        }
    }
    *out = r_lo == r_hi ? (double)v_hi * 1e-6 : ((double)v_lo + (double)v_hi) * 0.5e-6;
    return 0;
}


int sim_base_fill(struct sim_scratch *bs, const char *input, const struct sim_config_run *run, struct sim_base *b)
{
    const uint64_t *x = run->timed_ns;
    uint64_t sum = 0;
    if (run->n_timed <= 0 || x == NULL)
        return tc_seterr("input %s, configuration %d: no timed executions", input, run->config);
    if (!isfinite(run->compile_ms) || run->compile_ms < 0 || !isfinite(run->wall_ms) ||
        !isfinite(run->untimed_ms) || run->untimed_ms < 0 || run->n_untimed < 0)
        return tc_seterr("input %s, configuration %d: compile_ms, wall_ms and the untimed executions must be "
                         "finite and >= 0 (got %g, %g, %g)", input, run->config, run->compile_ms, run->wall_ms,
                         run->untimed_ms);
    for (int q = 0; q < run->n_timed; q++) {
        if (x[q] == 0)
            return tc_seterr("input %s, configuration %d: timed execution %d is 0 ns (expected > 0)", input,
                             run->config, q);
        if (x[q] > UINT64_MAX - sum) /* the tables sum executions in integer ns: refuse rather than wrap */
            return tc_seterr("input %s, configuration %d: its timed executions add up to more than 2^64 ns (584 "
                             "years), which the simulation cannot sum", input, run->config);
        sum += x[q];
    }
    memset(b, 0, sizeof *b);
    b->config = run->config;
    b->status = TRACE_OK;
    b->compile_ms = run->compile_ms;
    b->wall_ms = run->wall_ms;
    b->timed_ns = x;
    b->n_timed = run->n_timed;
    b->untimed_ms = run->untimed_ms;
    b->n_untimed = run->n_untimed;
    b->timed_ms = (double)sum * 1e-6;
    /* Overhead: the paper's whole overhead, and its per-execution part. Every launched execution (estimate,
     * warm-up, timed) carries the same non-kernel time g; the rest (the untimed executions' own durations) is
     * fixed. overhead(m executions run) = ovh − g·(n − m), which is ovh at m = n. */
    {
        double ovh = run->wall_ms - b->timed_ms;
        double gaps = ovh - run->untimed_ms;
        b->ovh_ms = ovh > 0 ? ovh : 0;
        b->gap_ms = gaps > 0 ? gaps / (double)(run->n_timed + run->n_untimed) : 0;
    }
    if (isfinite(run->true_ms) && run->true_ms > 0) { /* the source's own true time (trace_run_true_ns) */
        b->true_ms = run->true_ms;
        return 0;
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
            cr.wall_ms = tr->wall_ms;
            cr.timed_ns = trace_run_timed(t, (size_t)r);
            cr.n_timed = tr->n_timed;
            cr.untimed_ms = (double)untimed * 1e-6;
            cr.n_untimed = n_untimed;
            cr.true_ms = tr->true_ms;
            if (sim_base_fill(bs, name, &cr, b) != 0)
                return -1;
            continue;
        }
        memset(b, 0, sizeof *b);
        b->config = c;
        b->compile_ms = tc->compile_ms;
        b->true_ms = NAN;
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
