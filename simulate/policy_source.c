/* policy_source.c — the source's own truth and costs on imported traces (Kernel Tuner caches, T4 files): the policy
 * engine ranks and scores a configuration by the objective the source recorded (the cache's `time`, or its declared
 * objective and direction), not by the median of its `times`, and can charge each visit what the source recorded
 * (compile + verification + benchmark time), as Kernel Tuner's simulation mode does (docs/simulation.md). */
#include "policy_internal.h"
#include "trace.h"

#include <math.h>
#include <string.h>

int pol_trace_imported(const struct trace *t)
{
    const char *p = trace_get_meta(t)->protocol;
    return strcmp(p, "kerneltuner") == 0 || strcmp(p, "t4") == 0;
}

/* A recorded time in ms, 0 where none (NaN, negative). */
static double rec_ms(double ms)
{
    return isfinite(ms) && ms > 0 ? ms : 0;
}

/* The source's objective of run r as a lower-is-better number: its recorded time (ms; the median of its timed
 * executions where it recorded none), the metric itself, or 1000 / metric when higher is better. +inf when a metric
 * objective has no value for the run (Kernel Tuner does not rank it). */
static double source_truth(const struct trace *t, size_t r)
{
    const struct trace_meta *m = trace_get_meta(t);
    if (!trace_objective_is_metric(t))
        return trace_run_true_ns(t, r) * 1e-6;
    double v = trace_run(t, r)->objective;
    if (!isfinite(v) || (m->objective_higher_is_better && v <= 0))
        return INFINITY;
    return m->objective_higher_is_better ? 1e3 / v : v;
}

int pol_source_input(struct pinput *in, const struct trace *t, int input, const int *sel, int nc)
{
    if (!pol_trace_imported(t))
        return 0;
    in->opt_ms = INFINITY;
    for (int k = 0; k < nc; k++) {
        struct pcfg *c = &in->c[k];
        int cfg = sel != NULL ? sel[k] : k;
        long r = trace_find_run(t, input, cfg);
        c->src_cost_ms = rec_ms(trace_config(t, cfg)->compile_ms); /* recorded per configuration by the importer */
        if (r < 0)
            continue;
        const struct trace_run *run = trace_run(t, (size_t)r);
        c->src_cost_ms += rec_ms(run->verify_ms) + rec_ms(run->wall_ms); /* wall_ms: the source's benchmark time */
        if (c->status != TRACE_OK)
            continue;
        c->true_ms = source_truth(t, (size_t)r);
        c->truth_ms[0] = c->truth_ms[1] = c->truth_ms[2] = c->true_ms; /* the source's objective is every truth */
        if (c->true_ms < in->opt_ms)
            in->opt_ms = c->true_ms;
    }
    in->opt_truth_ms[0] = in->opt_truth_ms[1] = in->opt_truth_ms[2] = in->opt_ms;
    return 1;
}
