/* cost_compile.c — how compile time adds to tuning time (sim_cost.h): sequential, parallel compilation on a list
 * schedule before benchmarking, pipelined compilation while the GPU benchmarks, and the paper's ideal parallel
 * model (an optimistic bound); which recorded compile time each model charges, at the contention of the compiles
 * running together, and the compile workers' warm-up, once per run. */
#include "sim_cost.h"

#include <math.h>
#include <stddef.h>

struct sim_compile_ms sim_compile_charge(enum sim_compile_model m, double compile_ms, double isolated_ms,
                                         double median_ms, double median_seq_ms)
{
    struct sim_compile_ms c;
    int have = isfinite(compile_ms);
    c.par_ms = have ? compile_ms : median_ms;
    if (m == SIM_CM_PAPER)
        c.seq_ms = c.par_ms;
    else if (isfinite(isolated_ms))
        c.seq_ms = isolated_ms;
    else
        c.seq_ms = have ? compile_ms : median_seq_ms;
    /* the k = 1 level of the parallel models: a measured isolated time of a measured contended one; without any
     * compile time the input's two medians (what sequential charges at k = 1); else none (the contended time at
     * every level) */
    if (m != SIM_CM_MEASURED)
        c.iso_ms = c.par_ms;
    else if (!have)
        c.iso_ms = isfinite(median_seq_ms) ? median_seq_ms : c.par_ms;
    else
        c.iso_ms = isfinite(isolated_ms) ? isolated_ms : c.par_ms;
    return c;
}

double sim_contention_weight(int k, int jobs)
{
    if (jobs <= 1 || k >= jobs)
        return 1;
    return k <= 1 ? 0 : log2((double)k) / log2((double)jobs);
}

double sim_compile_at(struct sim_compile_ms c, int k, int jobs)
{
    return sim_compile_at_weight(c, sim_contention_weight(k, jobs));
}

int sim_compile_level(int factor, int n)
{
    return n < factor ? n : factor;
}

double sim_warmup_charge(enum sim_compile_model m, double warmup_mean_ms)
{
    return m == SIM_CM_MEASURED && isfinite(warmup_mean_ms) && warmup_mean_ms > 0 ? warmup_mean_ms : 0;
}

double sim_compile_total_ms(enum sim_compile model, int factor, int jobs, double warmup_ms, int n,
                            const struct sim_compile_sums *sum, double makespan_ms, double pipe_gpu_ms)
{
    double warm = n > 0 ? warmup_ms : 0;
    switch (model) {
    case SIM_COMPILE_SEQUENTIAL: return sum->bench_ms + sum->seq_ms + warm;
    case SIM_COMPILE_PARALLEL: return sum->bench_ms + makespan_ms + warm;
    case SIM_COMPILE_IDEAL: {
        if (n == 0)
            return sum->bench_ms;
        double c = sum->par_ms;
        if (sum->iso_ms != sum->par_ms) { /* (no isolated level: the contended sum, without the logarithms) */
            double w = sim_contention_weight(sim_compile_level(factor, n), jobs);
            c = w >= 1 ? sum->par_ms : sum->iso_ms + (sum->par_ms - sum->iso_ms) * w;
        }
        return sum->bench_ms + c / ((double)n / (double)((n + factor - 1) / factor)) + warm;
    }
    default: return pipe_gpu_ms;
    }
}

/* The first wave of a clock (n <= factor compiles, all started at 0) rescheduled at its level n. */
static void clock_rewave(struct sim_clock *k)
{
    int n = k->n;
    double g = k->pre_ms, w = sim_contention_weight(n, k->jobs);
    k->makespan_ms = 0;
    for (int q = 0; q < n; q++) {
        struct sim_compile_ms c = {0, k->wave_par_ms[q], k->wave_iso_ms[q]};
        double done = sim_compile_assign(k->wfree_ms, k->factor, q, sim_compile_at_weight(c, w));
        k->makespan_ms = done > k->makespan_ms ? done : k->makespan_ms;
        g = sim_pipe_bench(done + k->warmup_ms, g, k->wave_after_ms[q]);
    }
    k->gpu_ms = g;
}

void sim_clock_start(struct sim_clock *k, enum sim_compile model, int factor, int jobs, double warmup_ms,
                     double *mem)
{
    k->model = model;
    k->factor = factor;
    k->jobs = jobs;
    k->warmup_ms = warmup_ms;
    k->n = 0;
    k->sum.seq_ms = k->sum.par_ms = k->sum.iso_ms = k->sum.bench_ms = 0;
    k->makespan_ms = k->gpu_ms = k->pre_ms = 0;
    k->wfree_ms = mem;
    k->wave_iso_ms = mem != NULL ? mem + factor : NULL;
    k->wave_par_ms = mem != NULL ? mem + 2 * (size_t)factor : NULL;
    k->wave_after_ms = mem != NULL ? mem + 3 * (size_t)factor : NULL;
}

/* Benchmarking on a pipelined clock's GPU after the last compile (or before the first). */
static void clock_gpu(struct sim_clock *k, double bench_ms)
{
    k->gpu_ms += bench_ms;
    if (k->n == 0)
        k->pre_ms += bench_ms;
    else if (k->n <= k->factor)
        k->wave_after_ms[k->n - 1] += bench_ms;
}

void sim_clock_step(struct sim_clock *k, int compiled, struct sim_compile_ms c, double bench_ms)
{
    int sched = k->model == SIM_COMPILE_PIPELINED || k->model == SIM_COMPILE_PARALLEL;
    if (compiled) {
        k->n++;
        k->sum.seq_ms += c.seq_ms;
        k->sum.par_ms += c.par_ms;
        k->sum.iso_ms += c.iso_ms;
    }
    k->sum.bench_ms += bench_ms;
    if (!sched)
        return;
    if (!compiled) {
        if (k->model == SIM_COMPILE_PIPELINED)
            clock_gpu(k, bench_ms);
        return;
    }
    if (k->n <= k->factor) { /* the first wave grows: its level rises to n */
        k->wave_iso_ms[k->n - 1] = c.iso_ms;
        k->wave_par_ms[k->n - 1] = c.par_ms;
        k->wave_after_ms[k->n - 1] = bench_ms;
        clock_rewave(k);
        return;
    }
    double done = sim_compile_assign(k->wfree_ms, k->factor, k->n - 1, sim_compile_at(c, k->factor, k->jobs));
    k->makespan_ms = done > k->makespan_ms ? done : k->makespan_ms;
    if (k->model == SIM_COMPILE_PIPELINED)
        k->gpu_ms = sim_pipe_bench(done + k->warmup_ms, k->gpu_ms, bench_ms);
}

void sim_clock_bench(struct sim_clock *k, double bench_ms)
{
    k->sum.bench_ms += bench_ms;
    if (k->model == SIM_COMPILE_PIPELINED)
        clock_gpu(k, bench_ms);
}

double sim_clock_ms(const struct sim_clock *k)
{
    return sim_compile_total_ms(k->model, k->factor, k->jobs, k->warmup_ms, k->n, &k->sum, k->makespan_ms,
                                k->gpu_ms);
}
